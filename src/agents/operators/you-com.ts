/**
 * You.com: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const youCom = defineOperator({
  name: "You.com",
  crawlers: [
    {
      token: "YouBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-search",
      docs: "https://about.you.com/youbot/",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [
    {
      product: "You.com",
      hosts: ["you.com"],
      utmSources: [],
      source: "https://you.com",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
