/**
 * Microsoft: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const BING_CRAWL_DELAY =
  "https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question: bingbot honours Crawl-delay (msnbot groups included)";
const BING = "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0";

export const microsoft = defineOperator({
  name: "Microsoft",
  crawlers: [
    {
      // Bing announced in 2010 that bingbot honours msnbot groups when the file has none for
      // bingbot ("bingbot on the horizon", Bing webmaster blog).
      token: "bingbot",
      fallbacks: ["msnbot"],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: BING_CRAWL_DELAY,
      category: "search-engine",
      docs: BING + "; msnbot groups apply when there is no bingbot group (Bing webmaster blog, 2010)",
      asOf: "2026-11-23",
    },
    {
      token: "adidxbot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "other",
      docs: BING + "; Bing Ads quality checks",
      asOf: "2026-11-23",
    },
    {
      token: "BingPreview",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "social-preview",
      docs: BING + "; page snapshots for result previews",
      asOf: "2026-11-23",
    },
    {
      token: "MicrosoftPreview",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "social-preview",
      docs: BING + "; page previews, successor of BingPreview",
      asOf: "2026-11-23",
    },
    {
      token: "msnbot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: BING_CRAWL_DELAY,
      category: "search-engine",
      docs: "historic: Bing's crawler before bingbot (2010); still named by many robots.txt files",
      asOf: "2026-11-23",
    },
    {
      token: "msnbot-media",
      fallbacks: ["msnbot"],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: BING_CRAWL_DELAY,
      category: "search-engine",
      docs: "historic: Bing's image and media crawler; follows msnbot when it has no group",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      name: "bingbot",
      url: "https://www.bing.com/toolbox/bingbot.json",
      crawlers: ["bingbot", "BingPreview", "adidxbot", "msnbot"],
      use: "crawler-only",
      judgedAs: "bingbot",
      statement: "https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26",
      why: "the addresses of Bingbot, Bing's search crawler",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [
    {
      name: "bing",
      documentation: "https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26",
      domains: ["search.msn.com"],
      crawlers: ["bingbot", "BingPreview", "adidxbot", "msnbot"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [
    {
      product: "Bing (search and Copilot in Bing)",
      hosts: ["bing.com"],
      utmSources: [],
      source: "https://www.bing.com (Copilot answers link out from bing.com and its hosts)",
      asOf: "2026-11-24",
    },
    {
      product: "Copilot",
      hosts: ["copilot.microsoft.com"],
      utmSources: ["copilot.com"],
      source:
        "https://copilot.microsoft.com; utm_source=copilot.com as Copilot adds it to cited links (observed, not documented)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
