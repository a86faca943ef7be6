/**
 * Naver: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const naver = defineOperator({
  name: "Naver",
  crawlers: [
    {
      token: "Yeti",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "search-engine",
      docs: "http://naver.me/spd",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [
    {
      product: "Naver search",
      hosts: ["search.naver.com"],
      utmSources: [],
      source: "https://search.naver.com",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
