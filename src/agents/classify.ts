/**
 * User-Agent header -> is this an automated agent, and which robots.txt product tokens does
 * it answer to, best first (RFC 9309 §2.2.1: a crawler obeys the group naming its product
 * token, else `*`; the matcher tries our tokens in order, then `*`).
 *
 * Evidence, strongest first:
 * 1. A known crawler's name (operators/tables.ts KNOWN_CRAWLERS): its documented token, then its documented
 *    fallbacks (Googlebot-Image -> Googlebot). An undocumented hyphenated variant of a known
 *    name (SemrushBot-SA, msnbot-UDiscovery, Baiduspider-render) answers to its own name,
 *    then to the known one and its fallbacks: a site that writes `User-agent: SemrushBot`
 *    means the whole family, and substring-matching robots.txt libraries (Python's
 *    urllib.robotparser) make such crawlers obey it that way.
 * 2. isbot's verdict, with tokens read from the string (`tokensOf`), possibly none.
 * 3. Otherwise a browser: not a crawler, robots.txt does not apply.
 *
 * Empty or missing User-Agent: a crawler with no tokens, so only `User-agent: *` applies.
 * Browsers always send one (the Fetch standard appends it by default; privacy tools replace
 * it, they do not drop it), so a request without one is a script, a scanner or a tool told
 * to hide. isbot answers false for "" (it reports strings that identify as bots; see its
 * issue tracker, number 66), as does CrawlerDetect: they answer "does it say it is a bot?". We answer "should
 * robots.txt apply?", as WAF rule sets do when they flag a missing or empty User-Agent
 * (OWASP CRS 920320/920330). isbot itself already calls a whitespace-only value a bot. A
 * wrong guess costs little: a person who strips the header sees what `*` allows.
 *
 * Cost: one precompiled regex over the header for known names, isbot's one regex, and a
 * bounded memo, since crawlers repeat their User-Agent strings. No table scans per call, and
 * only the first CLASSIFIED_LENGTH characters are read, so a client cannot make the work grow
 * by sending a longer header.
 */

import { isbot } from "isbot";
import { productToken } from "../core/product-token.ts";
import { KNOWN_CRAWLERS, type KnownCrawler } from "./operators/tables.ts";

/** What the edge needs to know about who is asking. */
export interface AgentInfo {
  /** True for automated agents: robots.txt applies to them. */
  readonly crawler: boolean;
  /** Product tokens to look for in robots.txt, best first; `*` is implied after them. */
  readonly tokens: readonly string[];
  /** The table entry, when the header names a known crawler exactly. */
  readonly known: KnownCrawler | undefined;
  /** False for crawlers documented to ignore `User-agent: *` (AdsBot-Google, user-triggered fetchers). */
  readonly obeysGlobalGroup: boolean;
  /**
   * True only for known crawlers whose operator documents Crawl-delay support (its operator's file, src/agents/operators/);
   * false for unknown crawlers and people. Rate and visit-time lines bind the rest only when
   * a group names them or the operator opts in (ENFORCE_RATES=all).
   */
  readonly honoursRateLimits: boolean;
}

/**
 * How much of a User-Agent header is read: its first 512 characters. Real strings are far
 * shorter (the longest of the 3,101 in test/fixtures/corpus/agents is 328), and products are
 * listed most significant first (RFC 9110 §10.1.5), so the name a crawler goes by is at the
 * start. Reading more would let any client make classification cost grow with what it sends
 * (Cloudflare passes headers up to 32 KB). A crawler that pads its name past this prefix
 * chose to hide it; it could as well have sent a browser's string.
 */
export const CLASSIFIED_LENGTH = 512;

/**
 * At most this many product tokens are given, best first. Real strings give at most 4 (the
 * corpus's most), and each token costs a group lookup and a place in the activity record;
 * a header of 80 made-up `…bot` words still gets its first eight.
 */
export const MAX_TOKENS = 8;

// Crawlers repeat their strings; a small memo skips the regexes for them. Cleared when
// full rather than LRU-evicted: cheaper, and a busy isolate refills it within seconds. Its
// keys are the classified prefixes, so it holds at most 512 x 512 characters per isolate.
const MEMO_SIZE = 512;

const BROWSER: AgentInfo = Object.freeze({
  crawler: false,
  tokens: Object.freeze([]),
  known: undefined,
  obeysGlobalGroup: true,
  honoursRateLimits: false,
});
const ANONYMOUS = crawlerInfo([]);
const memo = new Map<string, AgentInfo>();

/** Classify a User-Agent header value (null or undefined when the header is absent). */
export function classifyUserAgent(header: string | null | undefined): AgentInfo {
  if (header === null || header === undefined) return ANONYMOUS;
  const read = header.length > CLASSIFIED_LENGTH ? header.slice(0, CLASSIFIED_LENGTH) : header;
  const cached = memo.get(read);
  if (cached !== undefined) return cached;
  const info = classifyUncached(read);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(read, info);
  return info;
}

function classifyUncached(header: string): AgentInfo {
  if (header.trim() === "") return ANONYMOUS;
  // Names are read outside URLs and e-mail addresses only: `+http://example.org/googlebot.html`
  // says where to read about a crawler, not which crawler is asking.
  const named = withoutUrlsAndEmails(header);
  const match = KNOWN_NAME.exec(named);
  if (match !== null) return knownAgent(match[1] ?? "", match[2] ?? "");
  if (!isbot(botEvidence(header))) return BROWSER;
  // Nor does a device or platform name give a product token (withoutPlatformNames).
  const tokens = tokensOf(header, BROWSER_SHAPED.test(named) ? withoutPlatformNames(named) : named);
  return tokens.length === 0 ? ANONYMOUS : crawlerInfo(tokens);
}

// --- Evidence isbot weighs ------------------------------------------------------------

// A browser's own shape: Mozilla/5.0, a platform comment, and a rendering engine's token,
// wherever it sits (IE's Trident/ is inside the comment, Presto/ and Gecko/ after it). Any
// platform the comment opens with: listing platforms left IE's and Windows Phone's
// "compatible" strings, KaiOS's "(Mobile; …)" and smart TVs' "(SMART-TV; …)" out, and their
// model names (a phone or TV named "Robot 55") read as a bot's (attack session 7). The comment
// holds no "(" or ")" and the engine is looked for with one linear scan, so the cost stays
// linear in the classified prefix.
const BROWSER_SHAPED = /^(?=.*?\b(?:AppleWebKit|Gecko|Trident|Presto|Chrome)\/)Mozilla\/5\.0 \([^()]*\)/;
// An Android device and build in the platform comment, "; Pixel 8 Build/ROBOT.240105.001".
// Starts only at ";" and stops at ";", "(" or ")", so the scan is linear.
const ANDROID_DEVICE = /;[^;()]*Build\/[^;()]*/g;
// Internet Explorer's own piece after "compatible": "MSIE 10.0".
const IE_VERSION = /^\s*MSIE \d+(?:\.\d+)?[a-z]?\s*$/i;
// The platform comment: the first "(…)" after Mozilla/5.0, in a browser-shaped string.
const PLATFORM_COMMENT = /^(Mozilla\/5\.0 \()([^()]*)\)/;

/**
 * What isbot is asked about. In a browser-shaped string, two kinds of text say nothing about
 * who is asking, yet trip isbot's word patterns: the names of the platform and device (a
 * model "ROBOT 1" or "Robot X", a build "ROBOT.240105.001"; isbot reads "bot"), and a URL or
 * e-mail address naming a known crawler (a person's browser with
 * `(+https://example.com/Googlebot)`). Both are dropped there. Elsewhere the header is asked
 * about whole: a bare contact URL is how crawlers sign their strings, and isbot rightly
 * counts it.
 */
function botEvidence(header: string): string {
  if (!BROWSER_SHAPED.test(header)) return header;
  const withoutDevice = withoutPlatformNames(header.replace(ANDROID_DEVICE, ";"));
  return withoutUrlsAndEmails(withoutDevice, namesKnownCrawler);
}

/**
 * The rule, not the example: a person is never taken for a crawler for a word in a device or
 * platform name. Every piece of the platform comment is such a name (the OS, a model wherever
 * it sits, a WebView's "wv", "rv:125.0"), and is dropped from the evidence, unless it says it
 * is a product: it has a "/" ("FooBot/1.0", "Storebot-Google/1.0", a URL), or it follows a
 * "compatible" piece (a bot declaring itself). A crawler that puts a bare name where a phone
 * puts its model chose to look like that phone: it could as well send a browser's string.
 * Internet Explorer is the exception to "compatible": its "compatible; MSIE 10.0;" is how the
 * browser itself opens the comment, and the pieces after "MSIE n" are its platform and device
 * ("Windows Phone 8.0; …; NOKIA; Lumia 920"), dropped as any platform's are.
 */
function withoutPlatformNames(header: string): string {
  const comment = PLATFORM_COMMENT.exec(header);
  if (comment === null) return header;
  const pieces = (comment[2] ?? "").split(";");
  const declaredAt = pieces.findIndex((piece) => piece.trim().toLowerCase() === "compatible");
  const declaredUntil =
    declaredAt >= 0 && IE_VERSION.test(pieces[declaredAt + 1] ?? "") ? declaredAt + 2 : pieces.length;
  const declared = (i: number) => declaredAt >= 0 && i >= declaredAt && i < declaredUntil;
  const kept = pieces.map((piece, i) => (declared(i) || piece.includes("/") ? piece : " "));
  return `${comment[1] ?? ""}${kept.join(";")})${header.slice(comment[0].length)}`;
}

function namesKnownCrawler(text: string): boolean {
  return KNOWN_NAME.test(text);
}

// Pieces of a User-Agent between separators (kept); URLs and e-mail addresses are whole pieces.
const PIECE_SEPARATOR_KEPT = /([\s;(),]+)/;
// What every URL or e-mail piece holds (isUrlOrEmail): a header without it is returned as is,
// without splitting it into pieces.
const URL_OR_EMAIL_MARK = /:\/\/|@|www\./i;

/**
 * The header with its URL and e-mail pieces (those `alsoRequired` also picks) replaced by a
 * space; separators are kept.
 */
function withoutUrlsAndEmails(header: string, alsoRequired: (piece: string) => boolean = () => true): string {
  if (!URL_OR_EMAIL_MARK.test(header)) return header;
  const parts = header.split(PIECE_SEPARATOR_KEPT);
  let changed = false;
  for (let i = 0; i < parts.length; i += 2) {
    const piece = parts[i] ?? "";
    if (piece !== "" && isUrlOrEmail(piece) && alsoRequired(piece)) {
      parts[i] = " ";
      changed = true;
    }
  }
  return changed ? parts.join("") : header;
}

/** A crawler's answer, frozen: memoised answers are shared by every caller. */
function crawlerInfo(tokens: readonly string[], known?: KnownCrawler): AgentInfo {
  return Object.freeze({
    crawler: true,
    tokens: Object.freeze([...tokens]),
    known,
    obeysGlobalGroup: known?.obeysGlobalGroup ?? true,
    honoursRateLimits: known?.honoursRateLimits ?? false,
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
    // Longest first, so a name wins over its prefix; ties in code-unit order. Not localeCompare:
    // its first call loads ICU's collator, ~10 ms of every cold start, for an order that only
    // has to be the same each time.
    .toSorted((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
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
/**
 * The agent a recorded request was judged as, from its product tokens alone (activity replay,
 * policy/replay.ts): the table's entry when the first token is a known crawler's name, else
 * a crawler with exactly these tokens; no tokens is an anonymous bot.
 */
export function agentForTokens(tokens: readonly string[]): AgentInfo {
  const first = tokens[0];
  if (first === undefined) return ANONYMOUS;
  return KNOWN_AGENTS.get(first.toLowerCase()) ?? crawlerInfo(tokens);
}

function knownAgent(name: string, variantSuffix: string): AgentInfo {
  const info = KNOWN_AGENTS.get(name.toLowerCase());
  if (info === undefined) return ANONYMOUS; // unreachable: the regex only matches table names
  if (variantSuffix === "") return info;
  return crawlerInfo([name + variantSuffix, ...info.tokens]);
}

// --- Generic crawlers -----------------------------------------------------------------

// A product name: words joined by single spaces ("Screaming Frog SEO Spider").
// Every extra word starts with a space, and what may follow a name never starts with a
// word character, so a failed match backtracks at most once over each character.
const NAME = String.raw`[A-Za-z0-9][\w.!-]*(?: [A-Za-z][\w.!-]*)*`;
// "Mozilla/5.0 (compatible; Name/1.0; …)", "(compatible; Name; …)", "(compatible; Name 2.0)".
const COMPATIBLE_NAME = new RegExp(String.raw`compatible;\s*(${NAME})(?=\s*[/;)]|\s+v?\d)`, "gi");
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
// Words that say "a crawler" without saying which: never a token by themselves, since
// `User-agent: Spider` would then bind every spider.
const GENERIC_TAIL = new Set(["bot", "robot", "crawler", "spider", "crawl"]);
const WORD = /[A-Za-z0-9](?:[\w.-]*\w)?/g;

interface Candidate {
  readonly name: string;
  readonly at: number;
}

/**
 * The product names a self-declared bot gives, best first, possibly none. Candidates:
 * every `compatible; Name` comment, a leading `Name/version` (or a leading name followed by
 * a comment, URL or nothing) other than Mozilla/Opera, and every word ending in bot, spider
 * or crawler outside URLs and e-mail addresses ("…; 360Spider(compatible; HaosouSpider; …)"
 * gives both). They come in the order the header lists them, as RFC 9110 §10.1.5 lists
 * products by decreasing significance. A multi-word name gives its first word, the token a
 * site writes and the one matching compares (`SISTRIX Crawler` -> `SISTRIX`); a variant
 * such as "Slackbot-LinkExpanding" is followed by its base, "Slackbot", as for known
 * crawlers; generic words (`Bot`, `Crawler`, `Spider`) are never tokens alone. `named` is
 * the header without its URLs and e-mail addresses.
 */
function tokensOf(header: string, named: string): string[] {
  // The two name patterns cannot match inside a URL (a name there is neither after
  // "compatible;" nor at the start); they see the whole header, whose URLs may end a name.
  const words = crawlerWords(named);
  const candidates = [...compatibleNames(header), ...leadingName(header), ...words].toSorted((a, b) => a.at - b.at);
  const tokens: string[] = [];
  // Product tokens already given, so each candidate is checked once, not against every
  // earlier token (that comparison was quadratic in the number of words).
  const given = new Set<string>();
  for (const { name } of candidates) {
    const word = firstWord(name);
    for (const token of [word, crawlerBase(word)]) {
      if (token === undefined) continue;
      const key = productToken(token);
      if (key === "" || GENERIC_TAIL.has(key) || given.has(key)) continue;
      given.add(key);
      tokens.push(token);
      if (tokens.length === MAX_TOKENS) return tokens;
    }
  }
  return tokens;
}

function compatibleNames(header: string): Candidate[] {
  return [...header.matchAll(COMPATIBLE_NAME)].flatMap((match) => productName(match[1], match.index));
}

function leadingName(header: string): Candidate[] {
  const match = LEADING_NAME.exec(header);
  return match === null ? [] : productName(match[1], 0);
}

function productName(name: string | undefined, matchedAt: number): Candidate[] {
  if (name === undefined) return [];
  const token = productToken(name);
  if (token === "" || NOT_A_PRODUCT.has(token)) return [];
  return [{ name, at: matchedAt }];
}

/** "SISTRIX Crawler" -> "SISTRIX"; a one-word name is itself. */
function firstWord(name: string): string {
  const space = name.indexOf(" ");
  return space < 0 ? name : name.slice(0, space);
}

/** "psbot-image" -> "psbot": the crawler name before a variant suffix, if there is one. */
function crawlerBase(name: string): string | undefined {
  const dash = name.indexOf("-");
  if (dash <= 0) return undefined;
  const base = name.slice(0, dash);
  return endsWithCrawlerWord(base) ? base : undefined;
}

/** Whether a word ends in bot, spider or crawler, any case (a string test: cheaper than a regex anchored at the end). */
function endsWithCrawlerWord(word: string): boolean {
  const tail = word.slice(-"crawler".length).toLowerCase();
  return tail.endsWith("bot") || tail.endsWith("spider") || tail.endsWith("crawler");
}

function crawlerWords(header: string): Candidate[] {
  const words: Candidate[] = [];
  for (const match of header.matchAll(WORD)) {
    const word = match[0];
    if (endsWithCrawlerWord(word) || crawlerBase(word) !== undefined) words.push({ name: word, at: match.index });
  }
  return words;
}

function isUrlOrEmail(piece: string): boolean {
  return piece.includes("://") || piece.includes("@") || /^\+?www\./i.test(piece);
}
