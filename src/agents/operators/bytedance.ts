/**
 * ByteDance: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const bytedance = defineOperator({
  name: "ByteDance",
  crawlers: [
    {
      token: "Bytespider",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: "no operator page; UA names http://www.bytedance.com/spider; listed by ai-robots-txt/ai.robots.txt",
      asOf: "2026-11-23",
    },
    {
      token: "TikTokSpider",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "social-preview",
      docs: "no operator page (ByteDance documents none); the UA names ttspider-feedback@tiktok.com; fetches link previews for TikTok",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
