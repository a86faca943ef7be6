/**
 * Ahrefs: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const AHREFS = "https://ahrefs.com/robot";

export const ahrefs = defineOperator({
  name: "Ahrefs",
  crawlers: [
    {
      token: "AhrefsBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: AHREFS + ": AhrefsBot honours Crawl-Delay",
      category: "seo-tool",
      docs: AHREFS,
      asOf: "2026-11-23",
    },
    {
      token: "AhrefsSiteAudit",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "seo-tool",
      docs: AHREFS,
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
