/**
 * LinkedIn: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const linkedin = defineOperator({
  name: "LinkedIn",
  crawlers: [
    {
      token: "LinkedInBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "social-preview",
      docs: "no crawler page; UA names http://www.linkedin.com; fetches link previews",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
