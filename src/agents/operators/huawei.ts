/**
 * Huawei: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const huawei = defineOperator({
  name: "Huawei",
  crawlers: [
    {
      token: "PetalBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "search-engine",
      docs: "https://webmaster.petalsearch.com/site/petalbot",
      asOf: "2026-11-23",
    },
  ],
  // No address list: PetalBot, reported to send a browser's User-Agent on most of its
  // requests, is documented by reverse DNS only (aspiegel.com/petalbot), so there is nothing
  // to find it by in disguise; it is judged by its User-Agent.
  addressLists: [],
  reverseDns: [],
  referrers: [
    {
      product: "Petal Search",
      hosts: ["petalsearch.com"],
      utmSources: [],
      source: "https://petalsearch.com (PetalBot crawls for it: https://aspiegel.com/petalbot)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
