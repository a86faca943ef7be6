/**
 * What each published address list (verification.ts RANGE_SOURCES) is FOR, as its operator
 * states it: only its crawlers, or also fetches made for a person. Data, with the operator's
 * statement, because it decides who is a "crawler in disguise": a request with a
 * browser's User-Agent from a crawler-only list is that operator's crawler; from a mixed list
 * it stays a person.
 *
 * Do no harm comes first: a list counts as crawler-only only when its operator says it holds
 * the addresses of crawlers that fetch on their own schedule, for the operator's index or
 * models. A list whose addresses also fetch because a person asked (assistants' user
 * fetchers, Google's user-triggered fetchers and agents), or whose operator describes it with
 * a purpose a person's fetch may pass through (Google's special-case "rate-limited proxy"
 * crawlers, also "for abuse-specific crawling or fetching"), is mixed. When a statement is
 * unclear, the list is mixed.
 *
 * Not here, with the reason: PetalBot (Huawei), reported to send a browser's User-Agent on most
 * of its requests, publishes no address list (aspiegel.com/petalbot documents reverse DNS
 * only), so there is nothing to find it by; it is judged by its User-Agent as before.
 */

/** crawler-only: only the operator's crawlers fetch from it; mixed: a person's fetch may too. */
export type RangeUse = "crawler-only" | "mixed";

export interface RangeUseEntry {
  /** The range source's name (verification.ts RANGE_SOURCES; the CRAWLER_RANGES keys). */
  readonly source: string;
  readonly use: RangeUse;
  /** For a crawler-only list: the product token a disguised request is judged as (crawlers.ts). */
  readonly crawler?: string;
  /** Where the operator states what the list is for. */
  readonly statement: string;
  /** The statement, in short. */
  readonly why: string;
}

const GOOGLE_VERIFY = "https://developers.google.com/crawling/docs/crawlers-fetchers/verifying-googlebot";
const OPENAI = "https://developers.openai.com/docs/bots";
const PERPLEXITY = "https://docs.perplexity.ai/guides/bots";
const ANTHROPIC =
  "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler";
const MISTRAL = "https://docs.mistral.ai/robots";

/** The table: one entry per range source (test/agents/range-uses.test.ts holds it complete). */
export const RANGE_USES: readonly RangeUseEntry[] = [
  {
    source: "googlebot",
    use: "crawler-only",
    crawler: "Googlebot",
    statement: GOOGLE_VERIFY,
    why: 'Google\'s "common crawlers" list: crawlers that "always respect robots.txt rules for automatic crawls"',
  },
  {
    source: "google-special",
    use: "mixed",
    statement: GOOGLE_VERIFY,
    why: 'special-case crawlers and fetchers ("rate-limited-proxy" hosts) for products with an agreement with the site, or "abuse-specific crawling or fetching": not described as crawlers only',
  },
  {
    source: "google-user-triggered",
    use: "mixed",
    statement: GOOGLE_VERIFY,
    why: 'user-triggered fetchers: "the end user triggers a fetch"',
  },
  {
    source: "google-agent",
    use: "mixed",
    statement: GOOGLE_VERIFY,
    why: "user-triggered agents acting for a user (user-triggered-agents.json)",
  },
  {
    source: "bingbot",
    use: "crawler-only",
    crawler: "bingbot",
    statement: "https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26",
    why: "the addresses of Bingbot, Bing's search crawler",
  },
  {
    source: "gptbot",
    use: "crawler-only",
    crawler: "GPTBot",
    statement: OPENAI,
    why: "GPTBot crawls content that may be used to train OpenAI's models; its own list",
  },
  {
    source: "oai-searchbot",
    use: "crawler-only",
    crawler: "OAI-SearchBot",
    statement: OPENAI,
    why: "OAI-SearchBot crawls for ChatGPT's search results; its own list",
  },
  {
    source: "chatgpt-user",
    use: "mixed",
    statement: OPENAI,
    why: "ChatGPT-User visits pages for user actions in ChatGPT and Custom GPTs: a person's fetch",
  },
  {
    source: "perplexitybot",
    use: "crawler-only",
    crawler: "PerplexityBot",
    statement: PERPLEXITY,
    why: "PerplexityBot indexes sites for Perplexity's search results; its own list",
  },
  {
    source: "perplexity-user",
    use: "mixed",
    statement: PERPLEXITY,
    why: "Perplexity-User fetches a page when a user asks: a person's fetch",
  },
  {
    source: "applebot",
    use: "crawler-only",
    crawler: "Applebot",
    statement: "https://support.apple.com/en-us/119829",
    why: "Applebot, Apple's web crawler for Siri, Spotlight and Safari suggestions",
  },
  {
    source: "anthropic",
    use: "mixed",
    statement: ANTHROPIC,
    why: "one list for ClaudeBot, Claude-SearchBot AND Claude-User (fetches for a user's question)",
  },
  {
    source: "ccbot",
    use: "crawler-only",
    crawler: "CCBot",
    statement: "https://commoncrawl.org/ccbot",
    why: "CCBot, Common Crawl's crawler for its open archive",
  },
  {
    source: "duckduckbot",
    use: "crawler-only",
    crawler: "DuckDuckBot",
    statement: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot",
    why: "DuckDuckBot, DuckDuckGo's search crawler",
  },
  {
    source: "duckassistbot",
    use: "mixed",
    statement: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
    why: "DuckAssistBot fetches pages in real time for the answer to a person's search",
  },
  {
    source: "mistralai-user",
    use: "mixed",
    statement: MISTRAL,
    why: "MistralAI-User fetches for a user's request in Le Chat",
  },
  {
    source: "mistralai-index",
    use: "crawler-only",
    crawler: "MistralAI-Index",
    statement: MISTRAL,
    why: "MistralAI-Index crawls to build Mistral's search index",
  },
  {
    source: "qwantbot",
    use: "crawler-only",
    crawler: "Qwantbot",
    statement: "https://help.qwant.com/bot",
    why: "Qwantbot, Qwant's search crawler",
  },
];

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
