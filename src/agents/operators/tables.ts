/**
 * The flat tables every reader uses, derived once at module load from the operators of the
 * registry (index.ts), never written by hand: a fact is changed in its operator's file.
 *
 * The crawler table names the token a site writes in `User-agent:` to address a crawler, in
 * the operator's casing, and the fallbacks the operator documents: tokens the crawler obeys,
 * in order, when the file has no group for its own token (Google: Googlebot-Image obeys the
 * Googlebot group when the file names no Googlebot-Image). With no fallback, `*` is next.
 * `obeysGlobalGroup: false` marks crawlers documented to ignore `User-agent: *` altogether
 * (AdsBot), and fetchers that act for a person and whose operator documents them as not bound
 * by robots.txt (Google's user-triggered fetchers): "do no harm" — a site's `*` group is not
 * held against a person's own fetch, while a group naming the fetcher still applies and an
 * operator policy can change it. Only fetchers whose operator publishes addresses are
 * exempted, so a claim is verified (verification.ts) and naming one is no way around `*`. The
 * same holds for assistants whose operator says so and publishes their addresses
 * (ChatGPT-User, Perplexity-User, Google-Agent); assistants whose operator says they obey
 * robots.txt (Claude-User, MistralAI-User, Amzn-User) stay held to `*`. Either way, what they
 * fetch feeds AI answers, which a site still addresses in its `*` group with usage
 * preferences (Content-Signal ai-input=no, Content-Usage ai-use=n).
 *
 * Tokens with no User-Agent of their own (Google-Extended, Applebot-Extended) are policy
 * switches, not clients, so they are not in the crawler table (no request ever carries them);
 * PURPOSE_SWITCHES lists them for the purposes setting. Only tokens we can cite are listed;
 * anything else is classified generically (classify.ts).
 */

import type { CrawlerCategory } from "../../vocabulary.ts";
import { OPERATORS } from "./index.ts";
import type { AddressListUse, Operator } from "./operator.ts";

/** One crawler whose robots.txt product token its operator documents (operator.ts OperatorCrawler). */
export interface KnownCrawler {
  readonly token: string;
  readonly pattern?: string | readonly string[];
  readonly fallbacks: readonly string[];
  readonly obeysGlobalGroup: boolean;
  readonly honoursRateLimits: boolean;
  readonly rateLimitsSource: string;
  /** The operator's name as shown (its `shownOperator` when it has one). */
  readonly operator: string;
  readonly category: CrawlerCategory;
  readonly docs: string;
  readonly userTriggered?: boolean;
}

/** A product token no crawler sends (operator.ts PurposeSwitchOf), with its operator's name. */
export interface PurposeSwitch {
  readonly token: string;
  readonly category: CrawlerCategory;
  /** The crawler whose fetches it governs (a token of KNOWN_CRAWLERS, of the same operator). */
  readonly governs: string;
  readonly operator: string;
  readonly docs: string;
}

/** Where an operator publishes its crawlers' IP ranges, and which tokens they cover. */
export interface RangeSource {
  readonly name: string;
  readonly url: string;
  readonly tokens: readonly string[];
}

/**
 * Host names an operator documents for forward-confirmed reverse DNS (operator.ts
 * ReverseDnsClass): the address's PTR name must match one of `domains`, and that name must
 * resolve back to the address. A rule covers one class of an operator's crawlers, so a name
 * proves the identity it names and no other. Where the operator also publishes a list, the
 * list decides once loaded (verification.ts verifyCrawlerDetailed).
 */
export interface ReverseDnsRule {
  readonly name: string;
  readonly documentation: string;
  /**
   * Host patterns (verification.ts hostInDomains): `example.com` is that name or any name
   * under it; `prefix-*.example.com` is one label starting with `prefix-`, directly under example.com.
   */
  readonly domains: readonly string[];
  readonly tokens: readonly string[];
}

/** crawler-only: only the operator's crawlers fetch from it; mixed: a person's fetch may too. */
export type RangeUse = AddressListUse;

/**
 * What a published address list is FOR, as its operator states it. It decides who is a
 * "crawler in disguise": a request with a browser's User-Agent from a crawler-only list is
 * that operator's crawler; from a mixed list it stays a person (operator.ts AddressList.use).
 */
export interface RangeUseEntry {
  /** The range source's name (RANGE_SOURCES; the CRAWLER_RANGES keys). */
  readonly source: string;
  readonly use: RangeUse;
  /** For a crawler-only list: the product token a disguised request is judged as. */
  readonly crawler?: string;
  readonly statement: string;
  readonly why: string;
}

/** One product a person may arrive from, and the crawler operator it belongs to (referrers.ts). */
export interface ReferrerProduct {
  /** The operator's name (KNOWN_CRAWLERS[].operator of its crawlers). */
  readonly operator: string;
  readonly product: string;
  readonly hosts: readonly string[];
  readonly utmSources: readonly string[];
  readonly source: string;
}

/** The tables of a list of operators (the registry's, or a test's own). */
export function tablesOf(operators: readonly Operator[]) {
  return {
    crawlers: operators.flatMap((operator) =>
      operator.crawlers.map((crawler): KnownCrawler => {
        const { shownOperator, asOf: _asOf, ...fields } = crawler;
        return { ...fields, operator: shownOperator ?? operator.name };
      }),
    ),
    switches: operators.flatMap((operator) =>
      operator.purposeSwitches.map(({ token, category, governs, docs }): PurposeSwitch => {
        return { token, category, governs, operator: operator.name, docs };
      }),
    ),
    rangeSources: operators.flatMap((operator) =>
      operator.addressLists.map(({ name, url, crawlers }): RangeSource => ({ name, url, tokens: crawlers })),
    ),
    reverseDns: operators.flatMap((operator) =>
      operator.reverseDns.map(({ name, documentation, domains, crawlers }): ReverseDnsRule => {
        return { name, documentation, domains, tokens: crawlers };
      }),
    ),
    rangeUses: operators.flatMap((operator) =>
      operator.addressLists.map(({ name, use, judgedAs, statement, why }): RangeUseEntry => {
        return { source: name, use, ...(judgedAs !== undefined && { crawler: judgedAs }), statement, why };
      }),
    ),
    referrers: operators.flatMap((operator) =>
      operator.referrers.map(({ product, hosts, utmSources, source }): ReferrerProduct => {
        return { operator: operator.name, product, hosts, utmSources, source };
      }),
    ),
  };
}

const TABLES = tablesOf(OPERATORS);

/** The crawler table. Order does not matter to matching (classify.ts prefers the longest name); the purposes setting writes its groups in it. */
export const KNOWN_CRAWLERS: readonly KnownCrawler[] = TABLES.crawlers;
export const PURPOSE_SWITCHES: readonly PurposeSwitch[] = TABLES.switches;
/** Lists in the `{"prefixes": [{"ipv4Prefix"|"ipv6Prefix"}]}` shape, one per address list of an operator. */
export const RANGE_SOURCES: readonly RangeSource[] = TABLES.rangeSources;
export const REVERSE_DNS_RULES: readonly ReverseDnsRule[] = TABLES.reverseDns;
/** One entry per range source. */
export const RANGE_USES: readonly RangeUseEntry[] = TABLES.rangeUses;
/** A host may appear in one row only (test/agents/referrers.test.ts holds it so). */
export const REFERRER_PRODUCTS: readonly ReferrerProduct[] = TABLES.referrers;

const USE_OF_SOURCE = new Map(RANGE_USES.map((entry) => [entry.source, entry] as const));

/** How a range source is used; undefined for a source the table does not classify (then: mixed). */
export function rangeUseOf(source: string): RangeUseEntry | undefined {
  return USE_OF_SOURCE.get(source);
}

/** The crawler-only sources, each with the token a disguised request from it is judged as. */
export function crawlerOnlySources(): readonly { readonly source: string; readonly crawler: string }[] {
  return RANGE_USES.flatMap((entry) =>
    entry.use === "crawler-only" && entry.crawler ? [{ source: entry.source, crawler: entry.crawler }] : [],
  );
}

/**
 * Whether a crawler of the table fetches because a person asked, not on its operator's own
 * schedule: an assistant's user fetcher (category `ai-assistant`: ChatGPT-User, Claude-User,
 * Perplexity-User, Google-Agent, …) or one its operator lists among the fetchers a person
 * sets off (`userTriggered`: Google's FeedFetcher, Read-Aloud, …). Any user of the product
 * causes such a fetch, so it is never counted as the operator's crawl (the referral ledger,
 * policy/referral-ledger.ts).
 */
export function isUserTriggered(crawler: Pick<KnownCrawler, "category" | "userTriggered">): boolean {
  return crawler.category === "ai-assistant" || crawler.userTriggered === true;
}
