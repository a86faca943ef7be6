/**
 * Majestic: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const majestic = defineOperator({
  name: "Majestic",
  crawlers: [
    {
      token: "MJ12bot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: "https://mj12bot.com/: MJ12bot honours Crawl-Delay",
      category: "seo-tool",
      docs: "https://mj12bot.com/",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
