/**
 * Known crawlers: the robots.txt product tokens their operators document, as data.
 *
 * Each entry names the token a site writes in `User-agent:` to address the crawler, in the
 * operator's casing, and the fallbacks the operator documents: tokens the crawler obeys, in
 * order, when the file has no group for its own token (Google: Googlebot-Image obeys the
 * Googlebot group when the file names no Googlebot-Image). With no fallback, `*` is next.
 * `obeysGlobalGroup: false` marks crawlers documented to ignore `User-agent: *` altogether
 * (AdsBot), and fetchers that act for a person and whose operator documents them as not
 * bound by robots.txt (Google's user-triggered fetchers): "do
 * no harm" — a site's `*` group is not held against a person's own fetch, while a group
 * naming the fetcher still applies and an operator policy can change it. Only fetchers
 * whose operator publishes addresses are exempted, so a claim is verified (verification.ts)
 * and naming one is no way around `*`. The same holds for assistants whose operator says so
 * and publishes their addresses (ChatGPT-User, Perplexity-User, Google-Agent); assistants whose
 * operator says they obey robots.txt (Claude-User, MistralAI-User, Amzn-User) stay held to `*`.
 * Either way, what they fetch feeds AI answers, which a site still addresses in its `*` group
 * with usage preferences (Content-Signal ai-input=no, Content-Usage ai-use=n).
 *
 * Tokens with no User-Agent of their own (Google-Extended, Applebot-Extended) are policy
 * switches, not clients, so they are not in this table (no request ever carries them); PURPOSE_SWITCHES,
 * at the end, lists them for the purposes setting.
 * Only tokens we can cite are listed; anything else is classified generically (classify.ts).
 * Keep `docs` pointing at the operator's own page, or say why there is none.
 */

import type { CrawlerCategory } from "../vocabulary.ts";

/** One crawler whose robots.txt product token its operator documents. */
export interface KnownCrawler {
  /** The documented product token, in the documented casing. */
  readonly token: string;
  /** The name(s) it carries in User-Agent strings, when not `token` itself (matched case-insensitively). */
  readonly pattern?: string | readonly string[];
  /** Tokens obeyed, in order, when the file has no group for `token`; then `*`. */
  readonly fallbacks: readonly string[];
  /** False when the operator documents that it ignores `User-agent: *`, or acts for a person unbound by robots.txt. */
  readonly obeysGlobalGroup: boolean;
  /**
   * True when the operator documents that the crawler honours Crawl-delay (and so rate and
   * visit-time lines are meant for it); false when it documents the opposite (Google,
   * Yandex since 2018, Amazon) or says nothing. The shell binds rate lines by default only
   * to crawlers for which this is true, or that a group names (a crawler held to lines it
   * ignores reads the 429s as overload).
   */
  readonly honoursRateLimits: boolean;
  /** Where the operator says so, or why we say false. */
  readonly rateLimitsSource: string;
  readonly operator: string;
  readonly category: CrawlerCategory;
  /** Where the operator documents the token (URL, with a note when it says more). */
  readonly docs: string;
}

const GOOGLE_COMMON = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers";
const GOOGLE_SPECIAL = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers";
const GOOGLE_USER = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers";
const GOOGLE_USER_NOT_BOUND =
  '; user-triggered: "Because the fetch was requested by a user, these fetchers generally ignore robots.txt rules"';
const GOOGLE_FALLBACK = "; a Googlebot-* crawler with no group of its own follows the Googlebot group";
const GOOGLE_NO_CRAWL_DELAY =
  "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt: Google ignores crawl-delay; it reads 429/503 as overload";
const YANDEX_NO_CRAWL_DELAY =
  "https://yandex.com/support/webmaster/en/robot-workings/crawl-delay.md: since 2018-02-22 Yandex ignores Crawl-delay (crawl rate is set in Yandex Webmaster)";
const BING_CRAWL_DELAY =
  "https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question: bingbot honours Crawl-delay (msnbot groups included)";
const ANTHROPIC_CRAWL_DELAY = "https://support.claude.com/en/articles/8896518: Anthropic's bots support Crawl-delay";
const RATE_LIMITS_UNDOCUMENTED = "the operator does not document Crawl-delay support";
const BING = "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0";
const OPENAI = "https://developers.openai.com/docs/bots";
const ANTHROPIC =
  "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler";
const PERPLEXITY = "https://docs.perplexity.ai/guides/bots";
const META = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers";
const MISTRAL = "https://docs.mistral.ai/robots";
const KIMI_NOT_DOCUMENTED =
  "not documented where we could read it: third-party crawler directories cite Moonshot AI's https://www.kimi.com/policies/kimi-crawlers, which was not available to us; so the category is unknown (other) and no usage preference refuses it by category";
const YANDEX = "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html";
const YANDEX_FALLBACK = "; `User-agent: Yandex` addresses every Yandex robot, and then `*` is not used";
const BAIDU = "https://www.baidu.com/search/spider.html";
const AHREFS = "https://ahrefs.com/robot";
const MOZ = "https://moz.com/help/moz-procedures/crawlers";

/** The table. Order does not matter: matching prefers the longest name (classify.ts). */
export const KNOWN_CRAWLERS: readonly KnownCrawler[] = [
  // Google. Its common crawlers fall back to Googlebot; Storebot-Google does not (it follows
  // `*`); AdsBot ignores `*` and obeys only groups naming it.
  {
    token: "Googlebot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "search-engine",
    docs: GOOGLE_COMMON,
  },
  {
    token: "Googlebot-Image",
    fallbacks: ["Googlebot"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "search-engine",
    docs: GOOGLE_COMMON + GOOGLE_FALLBACK,
  },
  {
    token: "Googlebot-News",
    fallbacks: ["Googlebot"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "search-engine",
    docs: GOOGLE_COMMON + GOOGLE_FALLBACK + " (it crawls with Googlebot's User-Agent strings)",
  },
  {
    token: "Googlebot-Video",
    fallbacks: ["Googlebot"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "search-engine",
    docs: GOOGLE_COMMON + GOOGLE_FALLBACK,
  },
  {
    token: "Googlebot-Mobile",
    fallbacks: ["Googlebot"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "search-engine",
    docs: "historic: Google's feature-phone crawler, retired and gone from " + GOOGLE_COMMON + GOOGLE_FALLBACK,
  },
  {
    token: "Storebot-Google",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "search-engine",
    docs: GOOGLE_COMMON + "; with no Storebot-Google group it follows `*`, not Googlebot",
  },
  {
    token: "Google-InspectionTool",
    fallbacks: ["Googlebot"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "seo-tool",
    docs: GOOGLE_COMMON + "; Search Console testing tools, obeying Googlebot's group when it has none",
  },
  {
    token: "GoogleOther",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_COMMON + "; one-off crawls by Google teams, e.g. research",
  },
  {
    token: "GoogleOther-Image",
    fallbacks: ["GoogleOther"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_COMMON + "; follows GoogleOther when it has no group",
  },
  {
    token: "GoogleOther-Video",
    fallbacks: ["GoogleOther"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_COMMON + "; follows GoogleOther when it has no group",
  },
  {
    token: "Google-CloudVertexBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "ai-search",
    docs: GOOGLE_COMMON + "; crawls at site owners' request for Vertex AI Agents",
  },
  {
    token: "AdsBot-Google",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_SPECIAL + "; ignores `User-agent: *`, obeys only groups naming it",
  },
  {
    token: "AdsBot-Google-Mobile",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_SPECIAL + "; ignores `User-agent: *`, obeys only groups naming it",
  },
  {
    token: "AdsBot-Google-Mobile-Apps",
    fallbacks: ["AdsBot-Google"],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: "historic: Google's Android app ad checker, documented as obeying AdsBot-Google's rules and ignoring `*`; since retired",
  },
  {
    token: "Mediapartners-Google",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_SPECIAL + "; AdSense",
  },
  {
    token: "APIs-Google",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_SPECIAL + "; push-notification delivery",
  },
  {
    token: "Google-Safety",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_SPECIAL + "; abuse and malware discovery (Google says it ignores robots.txt)",
  },
  {
    token: "FeedFetcher-Google",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs:
      GOOGLE_USER +
      GOOGLE_USER_NOT_BOUND +
      '; https://developers.google.com/crawling/docs/crawlers-fetchers/feedfetcher: "Feedfetcher ignores robots.txt rules"',
  },
  {
    token: "Google-Read-Aloud",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; text-to-speech",
  },

  {
    token: "Google-Site-Verification",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Search Console site verification",
  },
  {
    token: "Google-CWS",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Chrome Web Store metadata URLs",
  },
  {
    token: "GoogleProducer",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Google Publisher Center feeds",
  },
  {
    token: "Google-Pinpoint",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Pinpoint document collections",
  },
  {
    token: "Google-GeminiNotebook",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "other",
    docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Gemini Notebook sources (formerly Google-NotebookLM)",
  },
  {
    // Listed among the user-triggered fetchers (so, like them, "generally ignore robots.txt
    // rules") with its own address list, user-triggered-agents.json (verification.ts), and a Web
    // Bot Auth identity, https://agent.bot.goog (signature-agents.ts): a claim is checked before
    // it skips `*`, and a group naming Google-Agent still applies.
    token: "Google-Agent",
    fallbacks: [],
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
    operator: "Google",
    category: "ai-assistant",
    docs:
      "https://developers.google.com/crawling/docs/crawlers-fetchers/allow-google-agent: agents hosted on Google infrastructure that navigate the web and perform actions upon user request; listed on " +
      GOOGLE_USER +
      GOOGLE_USER_NOT_BOUND,
  },

  // Microsoft Bing. Bing announced in 2010 that bingbot honours msnbot groups when the file
  // has none for bingbot ("bingbot on the horizon", Bing webmaster blog).
  {
    token: "bingbot",
    fallbacks: ["msnbot"],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: BING_CRAWL_DELAY,
    operator: "Microsoft",
    category: "search-engine",
    docs: BING + "; msnbot groups apply when there is no bingbot group (Bing webmaster blog, 2010)",
  },
  {
    token: "adidxbot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Microsoft",
    category: "other",
    docs: BING + "; Bing Ads quality checks",
  },
  {
    token: "BingPreview",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Microsoft",
    category: "social-preview",
    docs: BING + "; page snapshots for result previews",
  },
  {
    token: "MicrosoftPreview",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Microsoft",
    category: "social-preview",
    docs: BING + "; page previews, successor of BingPreview",
  },
  {
    token: "msnbot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: BING_CRAWL_DELAY,
    operator: "Microsoft",
    category: "search-engine",
    docs: "historic: Bing's crawler before bingbot (2010); still named by many robots.txt files",
  },
  {
    token: "msnbot-media",
    fallbacks: ["msnbot"],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: BING_CRAWL_DELAY,
    operator: "Microsoft",
    category: "search-engine",
    docs: "historic: Bing's image and media crawler; follows msnbot when it has no group",
  },

  // OpenAI
  {
    token: "GPTBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "OpenAI",
    category: "ai-training",
    docs: OPENAI,
  },
  {
    token: "ChatGPT-User",
    fallbacks: [],
    // Not held to `*`: OpenAI documents it as acting for a user, not bound by robots.txt. Verifiable
    // (OpenAI publishes chatgpt-user.json): a claim that fails or cannot be checked gets `*` (edge-decision.ts).
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "OpenAI",
    category: "ai-assistant",
    docs:
      OPENAI +
      ': "ChatGPT-User is for user actions in ChatGPT … Because these actions are initiated by a user, robots.txt rules may not apply"; a group naming ChatGPT-User still applies',
  },
  {
    token: "OAI-SearchBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "OpenAI",
    category: "ai-search",
    docs: OPENAI,
  },
  {
    token: "OAI-AdsBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "OpenAI",
    category: "other",
    docs:
      OPENAI +
      "; visits only landing pages submitted as ChatGPT ads (safety, policy, relevance), not used for training; https://help.openai.com/en/articles/20001243: OpenAI crawlers respect robots.txt. No address list yet",
  },

  // Anthropic
  {
    token: "ClaudeBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: ANTHROPIC_CRAWL_DELAY,
    operator: "Anthropic",
    category: "ai-training",
    docs: ANTHROPIC,
  },
  {
    token: "Claude-User",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: ANTHROPIC_CRAWL_DELAY,
    operator: "Anthropic",
    category: "ai-assistant",
    docs: ANTHROPIC,
  },
  {
    token: "Claude-SearchBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: ANTHROPIC_CRAWL_DELAY,
    operator: "Anthropic",
    category: "ai-search",
    docs: ANTHROPIC,
  },
  {
    token: "Claude-Web",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Anthropic",
    category: "ai-assistant",
    docs: "historic: earlier Anthropic agent, no longer on " + ANTHROPIC + "; listed by ai-robots-txt/ai.robots.txt",
  },
  {
    token: "anthropic-ai",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Anthropic",
    category: "ai-training",
    docs: "historic: earlier Anthropic token, no longer on " + ANTHROPIC + "; listed by ai-robots-txt/ai.robots.txt",
  },

  // Perplexity
  {
    token: "PerplexityBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Perplexity",
    category: "ai-search",
    docs: PERPLEXITY,
  },
  {
    token: "Perplexity-User",
    fallbacks: [],
    // Not held to `*` (as ChatGPT-User): verifiable through perplexity-user.json.
    obeysGlobalGroup: false,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Perplexity",
    category: "ai-assistant",
    docs:
      PERPLEXITY +
      ': "Since a user requested the fetch, this fetcher generally ignores robots.txt rules"; a group naming Perplexity-User still applies',
  },

  // Mistral
  {
    token: "MistralAI-User",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Mistral",
    category: "ai-assistant",
    docs: MISTRAL + ': user actions in Le Chat/Vibe; it "governs which sites these user requests can be made to"',
  },
  {
    token: "MistralAI-Index",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Mistral",
    category: "ai-search",
    docs: MISTRAL + ": indexing for Mistral search, not for training",
  },
  {
    token: "MistralAI-Training",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Mistral",
    category: "ai-training",
    docs: MISTRAL + ": datasets for training Mistral models",
  },

  // Moonshot AI (Kimi): tokens as written in the 2026 AI-crawler lists; the operator's page
  // could not be read, so they are known tokens with no category of ours.
  {
    token: "KimiBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Moonshot AI",
    category: "other",
    docs: KIMI_NOT_DOCUMENTED,
  },
  {
    token: "Kimi-SearchBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Moonshot AI",
    category: "other",
    docs: KIMI_NOT_DOCUMENTED,
  },
  {
    token: "Kimi-User",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Moonshot AI",
    category: "other",
    docs: KIMI_NOT_DOCUMENTED,
  },

  // Other search engines
  {
    token: "Applebot",
    fallbacks: ["Googlebot"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Apple",
    category: "search-engine",
    docs: "https://support.apple.com/en-us/119829; with no Applebot group it follows the Googlebot group",
  },
  {
    token: "YandexBot",
    fallbacks: ["Yandex"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
    operator: "Yandex",
    category: "search-engine",
    docs: YANDEX + YANDEX_FALLBACK,
  },
  {
    token: "YandexImages",
    fallbacks: ["Yandex"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
    operator: "Yandex",
    category: "search-engine",
    docs: YANDEX + YANDEX_FALLBACK,
  },
  {
    token: "YandexMobileBot",
    fallbacks: ["Yandex"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
    operator: "Yandex",
    category: "search-engine",
    docs: YANDEX + YANDEX_FALLBACK,
  },
  {
    token: "YandexNews",
    fallbacks: ["Yandex"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
    operator: "Yandex",
    category: "search-engine",
    docs: YANDEX + YANDEX_FALLBACK,
  },
  {
    token: "YandexVideo",
    fallbacks: ["Yandex"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
    operator: "Yandex",
    category: "search-engine",
    docs: YANDEX + YANDEX_FALLBACK,
  },
  {
    token: "Baiduspider",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Baidu",
    category: "search-engine",
    docs: BAIDU,
  },
  {
    token: "Baiduspider-image",
    fallbacks: ["Baiduspider"],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Baidu",
    category: "search-engine",
    docs: BAIDU + "; follows Baiduspider when it has no group",
  },
  {
    token: "DuckDuckBot",
    pattern: ["DuckDuckBot", "DuckDuckBot-Https"],
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "DuckDuckGo",
    category: "search-engine",
    docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot; its current UA says DuckDuckBot-Https",
  },
  {
    token: "DuckAssistBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "DuckDuckGo",
    category: "ai-assistant",
    docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
  },
  {
    token: "Slurp",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: "https://help.yahoo.com/kb/SLN22600.html: Slurp supports Crawl-delay",
    operator: "Yahoo",
    category: "search-engine",
    docs: "https://help.yahoo.com/kb/SLN22600.html; UA says `Yahoo! Slurp`",
  },
  {
    token: "PetalBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Huawei",
    category: "search-engine",
    docs: "https://webmaster.petalsearch.com/site/petalbot",
  },
  {
    token: "SeznamBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource:
      "https://o-seznam.cz/napoveda/vyhledavani/en/crawling-control: Crawl-delay and Request-rate among the extensions SeznamBot recognises",
    operator: "Seznam.cz",
    category: "search-engine",
    docs: "https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/",
  },
  {
    token: "MojeekBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: "https://www.mojeek.com/bot.html: MojeekBot honours Crawl-delay",
    operator: "Mojeek",
    category: "search-engine",
    docs: "https://www.mojeek.com/bot.html",
  },
  {
    token: "Yeti",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Naver",
    category: "search-engine",
    docs: "http://naver.me/spd",
  },

  // AI data and answer engines
  {
    token: "CCBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: "https://commoncrawl.org/ccbot: CCBot honours Crawl-delay",
    operator: "Common Crawl",
    category: "ai-training",
    docs: "https://commoncrawl.org/ccbot; an open corpus, widely used to train models",
  },
  {
    token: "Bytespider",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "ByteDance",
    category: "ai-training",
    docs: "no operator page; UA names http://www.bytedance.com/spider; listed by ai-robots-txt/ai.robots.txt",
  },
  {
    token: "TikTokSpider",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "ByteDance",
    category: "social-preview",
    docs: "no operator page (ByteDance documents none); the UA names ttspider-feedback@tiktok.com; fetches link previews for TikTok",
  },
  {
    token: "Amazonbot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource:
      'https://developer.amazon.com/support/amazonbot: "AmazonBot does not support the crawl-delay directive"',
    operator: "Amazon",
    category: "ai-training",
    docs: "https://developer.amazon.com/amazonbot; may be used to train Amazon AI models",
  },
  {
    token: "Amzn-SearchBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource:
      'https://developer.amazon.com/amazonbot: Amazon\'s crawlers do "not support the crawl-delay directive"',
    operator: "Amazon",
    category: "ai-search",
    docs: "https://developer.amazon.com/amazonbot: search experiences in Alexa and Rufus, not used for generative AI training; Amazon respects robots.txt",
  },
  {
    token: "Amzn-User",
    pattern: "AMZN-User",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource:
      'https://developer.amazon.com/amazonbot: Amazon\'s crawlers do "not support the crawl-delay directive"',
    operator: "Amazon",
    category: "ai-assistant",
    docs: "https://developer.amazon.com/amazonbot: fetches live information for Alexa users; Amazon documents that it respects robots.txt (user-agent, allow, disallow), so it stays held to `*`",
  },
  {
    token: "amazon-QBusiness",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Amazon (AWS)",
    category: "ai-search",
    docs: "https://docs.aws.amazon.com/amazonq/latest/business-use-dg/stop-web-crawler.html: Amazon Q Business Web Crawler obeys Allow and Disallow for `User-agent: amazon-QBusiness`; it indexes the sites an AWS customer chooses for that customer's generative AI assistant (an index behind AI answers, as ai-search)",
  },
  {
    token: "meta-externalagent",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Meta",
    category: "ai-training",
    docs: META,
  },
  {
    token: "meta-externalfetcher",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Meta",
    category: "ai-assistant",
    docs:
      META +
      ': user-initiated and "may bypass robots.txt rules"; still held to `*` here, since Meta publishes no address list to verify a claim against (without one, naming it would let any client skip `*`)',
  },
  {
    token: "FacebookBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Meta",
    category: "ai-training",
    docs: "https://developers.facebook.com/docs/sharing/bot/; speech-recognition language-model training",
  },
  {
    token: "Diffbot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Diffbot",
    category: "ai-training",
    docs: "no crawler page; UA names https://www.diffbot.com; listed by ai-robots-txt/ai.robots.txt",
  },
  {
    token: "cohere-ai",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Cohere",
    category: "ai-assistant",
    docs: "no operator page; listed by ai-robots-txt/ai.robots.txt as fetching for user prompts",
  },
  {
    token: "YouBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "You.com",
    category: "ai-search",
    docs: "https://about.you.com/youbot/",
  },
  {
    token: "Timpibot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Timpi",
    category: "ai-training",
    docs: "https://timpi.io (no crawler page); listed by ai-robots-txt/ai.robots.txt as collecting LLM training data",
  },
  {
    token: "ImagesiftBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "ImageSift",
    category: "search-engine",
    docs: "https://imagesift.com/about; reverse image search",
  },
  {
    token: "Omgilibot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Webz.io",
    category: "ai-training",
    docs: "historic: Omgili's original crawler, http://omgili.com/Crawler.html (archived); Webz.io now uses `omgili`",
  },
  {
    token: "omgili",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Webz.io",
    category: "ai-training",
    docs: "https://webz.io/blog/web-data/what-is-the-omgili-bot-and-why-is-it-crawling-your-website/; data sold, incl. for LLM training",
  },

  // Link previews
  {
    token: "facebookexternalhit",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Meta",
    category: "social-preview",
    docs:
      META +
      ": may bypass robots.txt for security and integrity checks; still held to `*` here, as meta-externalfetcher: Meta publishes no address list to verify a claim (scrapers borrow this name for that reason)",
  },
  {
    token: "Twitterbot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "X",
    category: "social-preview",
    docs: "https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started",
  },
  {
    token: "LinkedInBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "LinkedIn",
    category: "social-preview",
    docs: "no crawler page; UA names http://www.linkedin.com; fetches link previews",
  },

  // SEO tools
  {
    token: "AhrefsBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: AHREFS + ": AhrefsBot honours Crawl-Delay",
    operator: "Ahrefs",
    category: "seo-tool",
    docs: AHREFS,
  },
  {
    token: "AhrefsSiteAudit",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Ahrefs",
    category: "seo-tool",
    docs: AHREFS,
  },
  {
    token: "SemrushBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: "https://www.semrush.com/bot/: SemrushBot honours Crawl-delay (values up to 10 s)",
    operator: "Semrush",
    category: "seo-tool",
    docs: "https://www.semrush.com/bot/",
  },
  {
    token: "MJ12bot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: "https://mj12bot.com/: MJ12bot honours Crawl-Delay",
    operator: "Majestic",
    category: "seo-tool",
    docs: "https://mj12bot.com/",
  },
  {
    token: "DotBot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: MOZ + "/dotbot: DotBot honours Crawl-delay",
    operator: "Moz",
    category: "seo-tool",
    docs: MOZ + "/dotbot",
  },
  {
    token: "rogerbot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: true,
    rateLimitsSource: MOZ + "/rogerbot: rogerbot honours Crawl-delay",
    operator: "Moz",
    category: "seo-tool",
    docs: MOZ + "/rogerbot",
  },

  // Archives
  {
    token: "ia_archiver",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Alexa (Amazon)",
    category: "archiver",
    docs: "historic: Alexa's crawler, which fed the Wayback Machine; Alexa closed in 2022",
  },
  {
    token: "archive.org_bot",
    fallbacks: [],
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
    operator: "Internet Archive",
    category: "archiver",
    docs: "https://archive.org/details/archive.org_bot",
  },
];

/**
 * A product token that no crawler sends: a switch an operator reads from robots.txt to decide
 * what a crawler listed above may do with what it fetched (Google-Extended: whether Googlebot's
 * fetches may train Gemini and ground its answers). Writing a group for it changes no crawl,
 * so the edge never enforces it; it only says the site's wish in the operator's own words.
 */
export interface PurposeSwitch {
  readonly token: string;
  /** The use it switches off when a group disallows it. */
  readonly category: CrawlerCategory;
  /** The crawler whose fetches it governs (a token of KNOWN_CRAWLERS). */
  readonly governs: string;
  readonly operator: string;
  readonly docs: string;
}

export const PURPOSE_SWITCHES: readonly PurposeSwitch[] = [
  {
    token: "Google-Extended",
    category: "ai-training",
    governs: "Googlebot",
    operator: "Google",
    docs: GOOGLE_COMMON + ": Google-Extended has no User-Agent; it controls use for Gemini training and grounding",
  },
  {
    token: "Applebot-Extended",
    category: "ai-training",
    governs: "Applebot",
    operator: "Apple",
    docs: "https://support.apple.com/en-us/119829: Applebot-Extended does not crawl; it controls use for Apple's generative models",
  },
];

/**
 * Whether a crawler of the table fetches because a person asked, not on its operator's own
 * schedule: an assistant's user fetcher (category `ai-assistant`: ChatGPT-User, Claude-User,
 * Perplexity-User, Google-Agent, …) or one of Google's user-triggered fetchers (FeedFetcher,
 * Read-Aloud, …: its operator lists it on that page, which `docs` cites). Any user of the
 * product causes such a fetch, so it is never counted as the operator's crawl (the referral
 * ledger, policy/referral-ledger.ts). Derived from the table, so a new entry needs no second list.
 */
export function isUserTriggered(crawler: Pick<KnownCrawler, "category" | "docs">): boolean {
  return crawler.category === "ai-assistant" || crawler.docs.includes(GOOGLE_USER);
}
