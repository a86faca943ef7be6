/**
 * Google: its crawlers, the address lists and host names that prove them, the products that
 * send people, and the switch it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources: Google" says where each was read, and when).
 *
 * Three classes, each with its own list and host names: common crawlers fall back to
 * Googlebot's group (Storebot-Google does not: it follows `*`); special-case crawlers (AdsBot
 * ignores `*` and obeys only groups naming it); user-triggered fetchers, which "generally
 * ignore robots.txt rules", so they skip `*` once their claim is proven.
 */

import { defineOperator } from "./operator.ts";

const GOOGLE_NO_CRAWL_DELAY =
  "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt: Google ignores crawl-delay; it reads 429/503 as overload";
const GOOGLE_COMMON = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers";
const GOOGLE_FALLBACK = "; a Googlebot-* crawler with no group of its own follows the Googlebot group";
const GOOGLE_SPECIAL = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers";
const GOOGLE_USER = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers";
const GOOGLE_USER_NOT_BOUND =
  '; user-triggered: "Because the fetch was requested by a user, these fetchers generally ignore robots.txt rules"';
/** The common crawlers: one address list and one host name class. */
const COMMON_CRAWLERS = [
  "Googlebot",
  "Googlebot-Image",
  "Googlebot-News",
  "Googlebot-Video",
  "Storebot-Google",
  "Google-InspectionTool",
  "GoogleOther",
  "GoogleOther-Image",
  "GoogleOther-Video",
] as const;
const SPECIAL_CRAWLERS = ["AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google"] as const;
const USER_TRIGGERED_FETCHERS = [
  "FeedFetcher-Google",
  "Google-Read-Aloud",
  "Google-Site-Verification",
  "Google-CWS",
  "GoogleProducer",
  "Google-Pinpoint",
  "Google-GeminiNotebook",
] as const;
const GOOGLE_VERIFY = "https://developers.google.com/crawling/docs/crawlers-fetchers/verifying-googlebot";

/**
 * Google's search domains, from https://www.google.com/supported_domains (the list Google
 * publishes of every domain its search serves from), without their leading dot.
 */
const GOOGLE_SEARCH_DOMAINS = (
  "google.com google.ad google.ae google.com.af google.com.ag google.al google.am google.co.ao google.com.ar " +
  "google.as google.at google.com.au google.az google.ba google.com.bd google.be google.bf google.bg " +
  "google.com.bh google.bi google.bj google.com.bn google.com.bo google.com.br google.bs google.bt google.co.bw " +
  "google.by google.com.bz google.ca google.cd google.cf google.cg google.ch google.ci google.co.ck google.cl " +
  "google.cm google.cn google.com.co google.co.cr google.com.cu google.cv google.com.cy google.cz google.de " +
  "google.dj google.dk google.dm google.com.do google.dz google.com.ec google.ee google.com.eg google.es " +
  "google.com.et google.fi google.com.fj google.fm google.fr google.ga google.ge google.gg google.com.gh " +
  "google.com.gi google.gl google.gm google.gr google.com.gt google.gy google.com.hk google.hn google.hr " +
  "google.ht google.hu google.co.id google.ie google.co.il google.im google.co.in google.iq google.is google.it " +
  "google.je google.com.jm google.jo google.co.jp google.co.ke google.com.kh google.ki google.kg google.co.kr " +
  "google.com.kw google.kz google.la google.com.lb google.li google.lk google.co.ls google.lt google.lu google.lv " +
  "google.com.ly google.co.ma google.md google.me google.mg google.mk google.ml google.com.mm google.mn " +
  "google.com.mt google.mu google.mv google.mw google.com.mx google.com.my google.co.mz google.com.na " +
  "google.com.ng google.com.ni google.ne google.nl google.no google.com.np google.nr google.nu google.co.nz " +
  "google.com.om google.com.pa google.com.pe google.com.pg google.com.ph google.com.pk google.pl google.pn " +
  "google.com.pr google.ps google.pt google.com.py google.com.qa google.ro google.ru google.rw google.com.sa " +
  "google.com.sb google.sc google.se google.com.sg google.sh google.si google.sk google.com.sl google.sn " +
  "google.so google.sm google.sr google.st google.com.sv google.td google.tg google.co.th google.com.tj " +
  "google.tl google.tm google.tn google.to google.com.tr google.tt google.com.tw google.co.tz google.com.ua " +
  "google.co.ug google.co.uk google.com.uy google.co.uz google.com.vc google.co.ve google.co.vi google.com.vn " +
  "google.vu google.ws google.rs google.co.za google.co.zm google.co.zw google.cat"
).split(" ");

export const google = defineOperator({
  name: "Google",
  crawlers: [
    {
      token: "Googlebot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: GOOGLE_COMMON,
      asOf: "2026-11-23",
    },
    {
      token: "Googlebot-Image",
      fallbacks: ["Googlebot"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: GOOGLE_COMMON + GOOGLE_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "Googlebot-News",
      fallbacks: ["Googlebot"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: GOOGLE_COMMON + GOOGLE_FALLBACK + " (it crawls with Googlebot's User-Agent strings)",
      asOf: "2026-11-23",
    },
    {
      token: "Googlebot-Video",
      fallbacks: ["Googlebot"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: GOOGLE_COMMON + GOOGLE_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "Googlebot-Mobile",
      fallbacks: ["Googlebot"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: "historic: Google's feature-phone crawler, retired and gone from " + GOOGLE_COMMON + GOOGLE_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "Storebot-Google",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: GOOGLE_COMMON + "; with no Storebot-Google group it follows `*`, not Googlebot",
      asOf: "2026-11-23",
    },
    {
      token: "Google-InspectionTool",
      fallbacks: ["Googlebot"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "seo-tool",
      docs: GOOGLE_COMMON + "; Search Console testing tools, obeying Googlebot's group when it has none",
      asOf: "2026-11-23",
    },
    {
      token: "GoogleOther",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_COMMON + "; one-off crawls by Google teams, e.g. research",
      asOf: "2026-11-23",
    },
    {
      token: "GoogleOther-Image",
      fallbacks: ["GoogleOther"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_COMMON + "; follows GoogleOther when it has no group",
      asOf: "2026-11-23",
    },
    {
      token: "GoogleOther-Video",
      fallbacks: ["GoogleOther"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_COMMON + "; follows GoogleOther when it has no group",
      asOf: "2026-11-23",
    },
    {
      token: "Google-CloudVertexBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "ai-search",
      docs: GOOGLE_COMMON + "; crawls at site owners' request for Vertex AI Agents",
      asOf: "2026-11-23",
    },
    {
      token: "AdsBot-Google",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_SPECIAL + "; ignores `User-agent: *`, obeys only groups naming it",
      asOf: "2026-11-23",
    },
    {
      token: "AdsBot-Google-Mobile",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_SPECIAL + "; ignores `User-agent: *`, obeys only groups naming it",
      asOf: "2026-11-23",
    },
    {
      token: "AdsBot-Google-Mobile-Apps",
      fallbacks: ["AdsBot-Google"],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: "historic: Google's Android app ad checker, documented as obeying AdsBot-Google's rules and ignoring `*`; since retired",
      asOf: "2026-11-23",
    },
    {
      token: "Mediapartners-Google",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_SPECIAL + "; AdSense",
      asOf: "2026-11-23",
    },
    {
      token: "APIs-Google",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_SPECIAL + "; push-notification delivery",
      asOf: "2026-11-23",
    },
    {
      token: "Google-Safety",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_SPECIAL + "; abuse and malware discovery (Google says it ignores robots.txt)",
      asOf: "2026-11-23",
    },
    {
      token: "FeedFetcher-Google",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs:
        GOOGLE_USER +
        GOOGLE_USER_NOT_BOUND +
        '; https://developers.google.com/crawling/docs/crawlers-fetchers/feedfetcher: "Feedfetcher ignores robots.txt rules"',
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      token: "Google-Read-Aloud",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; text-to-speech",
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      token: "Google-Site-Verification",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Search Console site verification",
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      token: "Google-CWS",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Chrome Web Store metadata URLs",
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      token: "GoogleProducer",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Google Publisher Center feeds",
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      token: "Google-Pinpoint",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Pinpoint document collections",
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      token: "Google-GeminiNotebook",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "other",
      docs: GOOGLE_USER + GOOGLE_USER_NOT_BOUND + "; Gemini Notebook sources (formerly Google-NotebookLM)",
      userTriggered: true,
      asOf: "2026-11-23",
    },
    {
      // Listed among the user-triggered fetchers (so, like them, "generally ignore robots.txt
      // rules") with its own address list, user-triggered-agents.json (below), and a Web Bot
      // Auth identity, https://agent.bot.goog (web-bot-auth/signature-agents.ts): a claim is
      // checked before it skips `*`, and a group naming Google-Agent still applies.
      token: "Google-Agent",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: GOOGLE_NO_CRAWL_DELAY,
      category: "ai-assistant",
      docs:
        "https://developers.google.com/crawling/docs/crawlers-fetchers/allow-google-agent: agents hosted on Google infrastructure that navigate the web and perform actions upon user request; listed on " +
        GOOGLE_USER +
        GOOGLE_USER_NOT_BOUND,
      userTriggered: true,
      asOf: "2026-11-24",
    },
  ],
  addressLists: [
    {
      // Google moved its lists from /static/search/apis/ipranges/ to /static/crawling/ipranges/
      // (Search Central blog, 2026-03-31), redirecting the old paths; the common crawlers' new
      // file name could not be read on Google's own page offline, so this one is fetched at the
      // old address and followed (docs/decisions.md, "Sources: Google").
      name: "googlebot",
      url: "https://developers.google.com/static/search/apis/ipranges/googlebot.json",
      crawlers: COMMON_CRAWLERS,
      use: "crawler-only",
      judgedAs: "Googlebot",
      statement: GOOGLE_VERIFY,
      why: 'Google\'s "common crawlers" list: crawlers that "always respect robots.txt rules for automatic crawls"',
      asOf: "2026-11-24",
    },
    {
      // The address Google's special-case crawlers page gives since the move.
      name: "google-special",
      url: "https://developers.google.com/static/crawling/ipranges/special-crawlers.json",
      crawlers: SPECIAL_CRAWLERS,
      use: "mixed",
      statement: GOOGLE_VERIFY,
      why: 'special-case crawlers and fetchers ("rate-limited-proxy" hosts) for products with an agreement with the site, or "abuse-specific crawling or fetching": not described as crawlers only',
      asOf: "2026-11-24",
    },
    {
      // Google-owned user-triggered fetchers; they skip `User-agent: *`, so a claim must hold.
      name: "google-user-triggered",
      url: "https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json",
      crawlers: USER_TRIGGERED_FETCHERS,
      use: "mixed",
      statement: GOOGLE_VERIFY,
      why: 'user-triggered fetchers: "the end user triggers a fetch"',
      asOf: "2026-11-24",
    },
    {
      // Google-Agent (agents acting for a user); listed beside the fetchers' lists in Google's
      // "List of Google user-triggered fetchers" page (developers.google.com/crawling/docs/crawlers-fetchers).
      name: "google-agent",
      url: "https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json",
      crawlers: ["Google-Agent"],
      use: "mixed",
      statement: GOOGLE_VERIFY,
      why: "user-triggered agents acting for a user (user-triggered-agents.json)",
      asOf: "2026-11-24",
    },
  ],
  // One host name mask per class of its crawlers; each proves only its class. Not
  // `*.gae.googleusercontent.com`, though Google lists it for user-triggered fetchers: those
  // names are Google Cloud customers' App Engine hosts (their code, their User-Agent), so such
  // a name proves no Google identity at all.
  reverseDns: [
    {
      name: "google-common",
      documentation: GOOGLE_COMMON,
      domains: ["crawl-*.googlebot.com", "geo-crawl-*.geo.googlebot.com"],
      crawlers: COMMON_CRAWLERS,
      asOf: "2026-11-23",
    },
    {
      name: "google-special",
      documentation: GOOGLE_SPECIAL,
      domains: ["rate-limited-proxy-*.google.com"],
      crawlers: SPECIAL_CRAWLERS,
      asOf: "2026-11-24",
    },
    {
      name: "google-user-triggered",
      documentation: GOOGLE_USER,
      domains: ["google-proxy-*.google.com"],
      crawlers: [...USER_TRIGGERED_FETCHERS, "Google-Agent"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [
    {
      product: "Google Search (every country domain; News, Discover and Gemini under google.com)",
      hosts: GOOGLE_SEARCH_DOMAINS,
      utmSources: [],
      source: "https://www.google.com/supported_domains; news.google.com and gemini.google.com are hosts of google.com",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [
    {
      token: "Google-Extended",
      category: "ai-training",
      governs: "Googlebot",
      docs: GOOGLE_COMMON + ": Google-Extended has no User-Agent; it controls use for Gemini training and grounding",
      asOf: "2026-11-23",
    },
  ],
});
