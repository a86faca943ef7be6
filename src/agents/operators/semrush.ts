/**
 * Semrush: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const semrush = defineOperator({
  name: "Semrush",
  crawlers: [
    {
      token: "SemrushBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: "https://www.semrush.com/bot/: SemrushBot honours Crawl-delay (values up to 10 s)",
      category: "seo-tool",
      docs: "https://www.semrush.com/bot/",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
