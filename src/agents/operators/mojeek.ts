/**
 * Mojeek: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const mojeek = defineOperator({
  name: "Mojeek",
  crawlers: [
    {
      token: "MojeekBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: "https://www.mojeek.com/bot.html: MojeekBot honours Crawl-delay",
      category: "search-engine",
      docs: "https://www.mojeek.com/bot.html",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [
    {
      // "crawl-5-102-173-71.mojeek.com", forward-confirmed: the operator's only documented method.
      name: "mojeek",
      documentation: "https://www.mojeek.com/bot.html",
      domains: ["mojeek.com"],
      crawlers: ["MojeekBot"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [
    {
      product: "Mojeek search",
      hosts: ["mojeek.com"],
      utmSources: [],
      source: "https://www.mojeek.com",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
