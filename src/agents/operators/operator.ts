/**
 * What we know about one crawler operator, as one plain value: its crawlers, the address
 * lists it publishes and what each is for, the host names its crawlers resolve to, the
 * products that send people to a site, and the robots.txt switches it reads. Each fact
 * carries its source (a URL, with the operator's words where they decide) and the date it
 * was last checked (`asOf`).
 *
 * Plain data, so it reads as JSON: strings, numbers, booleans, arrays and objects, no
 * functions, no RegExp (host patterns are strings, compiled once at module load by the
 * readers). A catalogue in this shape (issue 34, "our operator file's shape as JSON") is
 * the same value read from a URL.
 *
 * References inside one operator are by product token, and the type holds them to the
 * operator's own crawlers: an address list, a host name class or a purpose switch names a
 * token of `crawlers`, checked by the compiler through `defineOperator` (a typo is a type
 * error, not a crawler silently left unverified). A JSON reader checks the same when it
 * parses. `fallbacks` are not references: they are the robots.txt groups a crawler obeys
 * when the file names none for it (Applebot follows Googlebot's group; `Yandex` is a group
 * name, no crawler), so any product token may stand there.
 */

import type { CrawlerCategory } from "../../vocabulary.ts";

/**
 * A day, `YYYY-MM-DD`: when the fact was last written down from its source. For the facts
 * moved here from the old tables, the day their entry last changed there (git history);
 * docs/decisions.md "Sources" says which pages were read offline on which day.
 */
export type IsoDate = string;

/** What `rateLimitsSource` says when the operator documents nothing about Crawl-delay. */
export const RATE_LIMITS_UNDOCUMENTED = "the operator does not document Crawl-delay support";

/** One operator: one file under src/agents/operators/, listed in the registry (index.ts). */
export interface Operator<Token extends string = string> {
  /** The operator's name as shown (status, explain, activity, the referral ledger). */
  readonly name: string;
  readonly crawlers: readonly OperatorCrawler<Token>[];
  /**
   * Crawlers its address lists or host names prove, but whose robots.txt behaviour is not
   * documented here (category, fallbacks, `*`): not in the crawler table, so classified as
   * generic bots (classify.ts) while a claim to be one is still verified. Named so that the
   * lists can reference them. Absent when there are none.
   */
  readonly unlistedCrawlers?: readonly UnlistedCrawler<Token>[];
  /** The machine-readable address lists it publishes, `{"prefixes": [{"ipv4Prefix"|"ipv6Prefix"}]}`. */
  readonly addressLists: readonly AddressList<Token>[];
  /** The host names it documents for forward-confirmed reverse DNS, one class of crawlers each. */
  readonly reverseDns: readonly ReverseDnsClass<Token>[];
  /** Its products a person arrives from (search pages, assistants). */
  readonly referrers: readonly ReferringProduct[];
  /** Product tokens no client sends, read from robots.txt to decide what a crawler's fetches may be used for. */
  readonly purposeSwitches: readonly PurposeSwitchOf<Token>[];
}

/** One crawler whose robots.txt product token its operator documents. */
export interface OperatorCrawler<Token extends string = string> {
  /** The documented product token, in the documented casing. */
  readonly token: Token;
  /** The name(s) it carries in User-Agent strings, when not `token` itself (matched case-insensitively). */
  readonly pattern?: string | readonly string[];
  /** Tokens obeyed, in order, when the file has no group for `token`; then `*` (robots.txt group names, not references). */
  readonly fallbacks: readonly string[];
  /** False when the operator documents that it ignores `User-agent: *`, or acts for a person unbound by robots.txt. */
  readonly obeysGlobalGroup: boolean;
  /**
   * True when the operator documents that the crawler honours Crawl-delay (and so rate and
   * visit-time lines are meant for it); false when it documents the opposite or says nothing.
   */
  readonly honoursRateLimits: boolean;
  /** Where the operator says so, or why we say false. */
  readonly rateLimitsSource: string;
  readonly category: CrawlerCategory;
  /** Where the operator documents the token (URL, with a note when it says more). */
  readonly docs: string;
  /**
   * The operator name shown for this crawler when it is not `Operator.name`: a business of
   * the operator that runs it under its own name ("Amazon (AWS)", "Alexa (Amazon)").
   */
  readonly shownOperator?: string;
  /**
   * Its operator lists it among the fetchers a person sets off (Google's user-triggered
   * fetchers page): paced and counted as a person's fetch, never as the operator's crawl
   * (tables.ts isUserTriggered). Assistants (category `ai-assistant`) are so without it.
   */
  readonly userTriggered?: boolean;
  readonly asOf: IsoDate;
}

/** A token an operator's lists or host names cover, without an entry in the crawler table. */
export interface UnlistedCrawler<Token extends string = string> {
  readonly token: Token;
  /** Where the operator names it. */
  readonly docs: string;
  readonly asOf: IsoDate;
}

/** crawler-only: only the operator's crawlers fetch from it; mixed: a person's fetch may too. */
export type AddressListUse = "crawler-only" | "mixed";

/** One published address list and what its operator says it is for. */
export interface AddressList<Token extends string = string> {
  /** Its name: the CRAWLER_RANGES key, the status row, the evidence shown ("address in the gptbot list"). */
  readonly name: string;
  readonly url: string;
  /** The crawlers whose claims it proves or refutes (tokens of this operator's `crawlers`). */
  readonly crawlers: readonly Token[];
  /**
   * What it is for. Do no harm: crawler-only only where the operator says it holds the
   * addresses of crawlers fetching on their own schedule; unclear is mixed.
   */
  readonly use: AddressListUse;
  /** For a crawler-only list: the crawler a request from it with a browser's User-Agent is judged as. */
  readonly judgedAs?: Token;
  /** Where the operator states what the list is for. */
  readonly statement: string;
  /** The statement, in short. */
  readonly why: string;
  readonly asOf: IsoDate;
}

/** Host names an operator documents for one class of its crawlers: a name proves that class and no other. */
export interface ReverseDnsClass<Token extends string = string> {
  readonly name: string;
  /** Where the operator documents its host names. */
  readonly documentation: string;
  /**
   * Host patterns: `example.com` is that name or any name under it; `prefix-*.example.com`
   * is one label starting with `prefix-`, directly under example.com.
   */
  readonly domains: readonly string[];
  /** The crawlers of the class (tokens of this operator's `crawlers`). */
  readonly crawlers: readonly Token[];
  readonly asOf: IsoDate;
}

/** One product a person may arrive from. */
export interface ReferringProduct {
  readonly product: string;
  /** Registrable domains or hosts: a referrer host matches when it equals one or ends with "." + one. */
  readonly hosts: readonly string[];
  /** `utm_source` values the product adds to its links (lower case). */
  readonly utmSources: readonly string[];
  /** Where the operator says so (or why we list it without). */
  readonly source: string;
  readonly asOf: IsoDate;
}

/**
 * A product token that no crawler sends (Google-Extended): a switch the operator reads from
 * robots.txt to decide what one of its crawlers may do with what it fetched.
 */
export interface PurposeSwitchOf<Token extends string = string> {
  readonly token: string;
  /** The use it switches off when a group disallows it. */
  readonly category: CrawlerCategory;
  /** The crawler whose fetches it governs (a token of this operator's `crawlers`). */
  readonly governs: Token;
  readonly docs: string;
  readonly asOf: IsoDate;
}

/**
 * An operator value with its references checked by the compiler: the tokens of `crawlers`
 * are the only ones its lists, host classes and switches may name. Returns its argument.
 */
export function defineOperator<const Token extends string>(operator: {
  readonly name: string;
  readonly crawlers: readonly OperatorCrawler<Token>[];
  readonly unlistedCrawlers?: readonly UnlistedCrawler<Token>[];
  readonly addressLists: readonly AddressList<NoInfer<Token>>[];
  readonly reverseDns: readonly ReverseDnsClass<NoInfer<Token>>[];
  readonly referrers: readonly ReferringProduct[];
  readonly purposeSwitches: readonly PurposeSwitchOf<NoInfer<Token>>[];
}): Operator<Token> {
  return operator;
}
