/**
 * User-Agent header -> is this an automated agent, and which robots.txt product tokens does
 * it answer to, best first (RFC 9309 §2.2.1: a crawler obeys the group naming its product
 * token, else `*`; the matcher tries our tokens in order, then `*`).
 *
 * Evidence, strongest first:
 * 1. A known crawler's name (crawlers.ts): its documented token, then its documented
 *    fallbacks (Googlebot-Image -> Googlebot). An undocumented hyphenated variant of a known
 *    name (SemrushBot-SA, msnbot-UDiscovery, Baiduspider-render) answers to its own name,
 *    then to the known one and its fallbacks: a site that writes `User-agent: SemrushBot`
 *    means the whole family, and substring-matching robots.txt libraries (Python's
 *    urllib.robotparser) make such crawlers obey it that way.
 * 2. isbot's verdict, with tokens read from the string (`genericTokens`), possibly none.
 * 3. Otherwise a browser: not a crawler, robots.txt does not apply.
 *
 * Empty or missing User-Agent: a crawler with no tokens, so only `User-agent: *` applies.
 * Browsers always send one (the Fetch standard appends it by default; privacy tools replace
 * it, they do not drop it), so a request without one is a script, a scanner or a tool told
 * to hide. isbot answers false for "" (it reports strings that identify as bots; see its
 * issue #66), as does CrawlerDetect: they answer "does it say it is a bot?". We answer "should
 * robots.txt apply?", as WAF rule sets do when they flag a missing or empty User-Agent
 * (OWASP CRS 920320/920330). isbot itself already calls a whitespace-only value a bot. A
 * wrong guess costs little: a person who strips the header sees what `*` allows.
 *
 * Cost: one precompiled regex over the header for known names, isbot's one regex, and a
 * bounded memo, since crawlers repeat their User-Agent strings. No table scans per call.
 */

import { isbot } from "isbot";
import { productToken } from "../core/agent-token.ts";
import { KNOWN_CRAWLERS, type KnownCrawler } from "./crawlers.ts";

/** What the edge needs to know about who is asking. */
export interface AgentInfo {
  /** True for automated agents: robots.txt applies to them. */
  readonly crawler: boolean;
  /** Product tokens to look for in robots.txt, best first; `*` is implied after them. */
  readonly tokens: readonly string[];
  /** The table entry, when the header names a known crawler exactly. */
  readonly known: KnownCrawler | undefined;
  /** False only for crawlers documented to ignore `User-agent: *` (AdsBot-Google). */
  readonly obeysGlobalGroup: boolean;
  /** The crawler's operator documents that it honours Crawl-delay (the crawler table says). */
  readonly honoursRateLimits?: boolean;
}

// Crawlers repeat their strings; a small memo skips the regexes for them. Cleared when
// full rather than LRU-evicted: cheaper, and a busy isolate refills it within seconds.
const MEMO_SIZE = 512;
// Longer headers are classified but not kept, so the memo stays under ~0.5 MB per isolate
// whatever clients send (real User-Agent strings are a few hundred characters).
const MEMO_MAX_HEADER_LENGTH = 1024;

const BROWSER: AgentInfo = Object.freeze({
  crawler: false,
  tokens: Object.freeze([]),
  known: undefined,
  obeysGlobalGroup: true,
});
const ANONYMOUS = crawlerInfo([]);
const memo = new Map<string, AgentInfo>();

/** Classify a User-Agent header value (null or undefined when the header is absent). */
export function classifyUserAgent(header: string | null | undefined): AgentInfo {
  if (header === null || header === undefined) return ANONYMOUS;
  const cached = memo.get(header);
  if (cached !== undefined) return cached;
  const info = classifyUncached(header);
  if (header.length <= MEMO_MAX_HEADER_LENGTH) {
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(header, info);
  }
  return info;
}

function classifyUncached(header: string): AgentInfo {
  if (header.trim() === "") return ANONYMOUS;
  const match = KNOWN_NAME.exec(header);
  if (match !== null) return knownAgent(match[1] ?? "", match[2] ?? "");
  if (!isbot(header)) return BROWSER;
  const tokens = genericTokens(header);
  return tokens.length === 0 ? ANONYMOUS : crawlerInfo(tokens);
}

/** A crawler's answer, frozen: memoised answers are shared by every caller. */
function crawlerInfo(tokens: readonly string[], known?: KnownCrawler): AgentInfo {
  return Object.freeze({
    crawler: true,
    tokens: Object.freeze([...tokens]),
    known,
    obeysGlobalGroup: known?.obeysGlobalGroup ?? true,
  });
}

// --- Known crawlers -------------------------------------------------------------------

/** The names a table entry carries in User-Agent strings. */
function namesOf(crawler: KnownCrawler): readonly string[] {
  if (crawler.pattern === undefined) return [crawler.token];
  return typeof crawler.pattern === "string" ? [crawler.pattern] : crawler.pattern;
}

/** Lower-cased UA name -> the answer for it, built once per isolate. */
function buildKnownAgents(crawlers: readonly KnownCrawler[]): ReadonlyMap<string, AgentInfo> {
  const byName = new Map<string, AgentInfo>();
  for (const crawler of crawlers) {
    const info = crawlerInfo([crawler.token, ...crawler.fallbacks], crawler);
    for (const name of namesOf(crawler)) {
      const key = name.toLowerCase();
      const claimed = byName.get(key)?.known;
      if (claimed !== undefined && claimed !== crawler) {
        throw new TypeError(`Crawler name "${name}" is claimed by both ${claimed.token} and ${crawler.token}`);
      }
      byName.set(key, info);
    }
  }
  return byName;
}

/**
 * One case-insensitive alternation of every name, longest first so that a name wins over
 * its own prefix ("Googlebot-Image" over "Googlebot"). Group 1 is the name, group 2 any
 * `-Suffix` run (a variant). The boundaries keep names whole: no letter, digit, `_` or `-`
 * on either side, so "CUBOT" or "XGooglebot" match nothing. Each suffix starts with `-`,
 * so the suffix run cannot backtrack more than linearly.
 */
function buildKnownNamePattern(names: Iterable<string>): RegExp {
  const alternation = Array.from(names)
    .toSorted((a, b) => b.length - a.length || a.localeCompare(b))
    .map(escapeRegExp)
    .join("|");
  return new RegExp(`(?<![A-Za-z0-9_-])(${alternation})((?:-[A-Za-z][A-Za-z0-9_]*)*)(?![A-Za-z0-9_-])`, "i");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const KNOWN_AGENTS = buildKnownAgents(KNOWN_CRAWLERS);
const KNOWN_NAME = buildKnownNamePattern(KNOWN_AGENTS.keys());

/** The answer for a matched name, or for an unlisted variant of it. */
function knownAgent(name: string, variantSuffix: string): AgentInfo {
  const info = KNOWN_AGENTS.get(name.toLowerCase());
  if (info === undefined) return ANONYMOUS; // unreachable: the regex only matches table names
  if (variantSuffix === "") return info;
  return crawlerInfo([name + variantSuffix, ...info.tokens]);
}

// --- Generic crawlers -----------------------------------------------------------------

// A product name: words joined by single spaces ("Screaming Frog SEO Spider"); site owners
// copy such names whole, and matching compares only their leading letters anyway.
// Every extra word starts with a space, and what may follow a name never starts with a
// word character, so a failed match backtracks at most once over each character.
const NAME = String.raw`[A-Za-z][\w.!-]*(?: [A-Za-z][\w.!-]*)*`;
// "Mozilla/5.0 (compatible; Name/1.0; …)", "(compatible; Name; …)", "(compatible; Name 2.0)".
const COMPATIBLE_NAME = new RegExp(String.raw`compatible;\s*(${NAME})(?=\s*[/;)]|\s+v?\d)`, "i");
// A leading "Name/1.0", "Name 1.0", "Name (+http…)", "Name - company", "Name e@mail", or a bare "Name".
const LEADING_NAME = new RegExp(String.raw`^(${NAME})(?=\s*[/;(]|\s+(?:v?\d|\+|https?:|-\s|[^\s@]+@)|$)`);
// Browser-compatibility prefixes and platform words ("compatible; Linux x86_64; Mail.RU_Bot"),
// never the agent's own name; compared as product tokens.
const NOT_A_PRODUCT = new Set([
  "mozilla",
  "opera",
  "msie",
  "windows",
  "linux",
  "macintosh",
  "x",
  "u",
  "iphone",
  "ipad",
  "android",
]);
// Pieces of a User-Agent between separators; URLs and e-mail addresses are whole pieces.
const PIECE_SEPARATOR = /[\s;(),]+/;
const WORD = /[A-Za-z](?:[\w.-]*\w)?/g;
const CRAWLER_WORD = /(?:bot|spider|crawler)$/i;

/**
 * The product names a self-declared bot gives, best first, possibly none:
 * (1) `compatible; Name/…` or `compatible; Name;`, else (2) a leading `Name/version` (or a
 * leading name followed by a comment, URL or nothing) other than Mozilla/Opera; then
 * (3) the first word ending in bot, spider or crawler outside URLs and e-mail addresses,
 * when it names something else ("AllAfrica NewsBot" -> also "NewsBot"). A variant name
 * such as "Slackbot-LinkExpanding" is followed by its base, "Slackbot", as for known
 * crawlers. These are the forms site owners copy into `User-agent:` lines; which one a
 * given site chose cannot be known, so each is offered in turn.
 */
export function genericTokens(header: string): string[] {
  const name = productName(COMPATIBLE_NAME.exec(header)) ?? productName(LEADING_NAME.exec(header));
  const candidates = [name, crawlerWord(header)].flatMap((candidate) =>
    candidate === undefined ? [] : [candidate, crawlerBase(candidate)],
  );
  const tokens: string[] = [];
  for (const candidate of candidates) {
    if (candidate !== undefined && !tokens.some((token) => sameProductToken(token, candidate))) tokens.push(candidate);
  }
  return tokens;
}

function productName(match: RegExpExecArray | null): string | undefined {
  const name = match?.[1];
  return name === undefined || NOT_A_PRODUCT.has(productToken(name)) ? undefined : name;
}

/** RFC 9309 §2.2.1 compares the leading letters, `-` and `_`, case-insensitively. */
function sameProductToken(a: string, b: string): boolean {
  return productToken(a) === productToken(b);
}

/** "psbot-image" -> "psbot": the crawler name before a variant suffix, if there is one. */
function crawlerBase(name: string): string | undefined {
  const base = name.split("-", 1)[0];
  return base !== undefined && base !== name && CRAWLER_WORD.test(base) ? base : undefined;
}

function crawlerWord(header: string): string | undefined {
  for (const piece of header.split(PIECE_SEPARATOR)) {
    if (isUrlOrEmail(piece)) continue;
    for (const word of piece.match(WORD) ?? []) {
      if (CRAWLER_WORD.test(word) || crawlerBase(word) !== undefined) return word;
    }
  }
  return undefined;
}

function isUrlOrEmail(piece: string): boolean {
  return piece.includes("://") || piece.includes("@") || /^\+?www\./i.test(piece);
}
