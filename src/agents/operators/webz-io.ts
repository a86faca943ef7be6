/**
 * Webz.io: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const webzIo = defineOperator({
  name: "Webz.io",
  crawlers: [
    {
      token: "Omgilibot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: "historic: Omgili's original crawler, http://omgili.com/Crawler.html (archived); Webz.io now uses `omgili`",
      asOf: "2026-11-23",
    },
    {
      token: "omgili",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: "https://webz.io/blog/web-data/what-is-the-omgili-bot-and-why-is-it-crawling-your-website/; data sold, incl. for LLM training",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
