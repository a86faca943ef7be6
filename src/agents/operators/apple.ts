/**
 * Apple: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const apple = defineOperator({
  name: "Apple",
  crawlers: [
    {
      token: "Applebot",
      fallbacks: ["Googlebot"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "search-engine",
      docs: "https://support.apple.com/en-us/119829; with no Applebot group it follows the Googlebot group",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      name: "applebot",
      url: "https://search.developer.apple.com/applebot.json",
      crawlers: ["Applebot"],
      use: "crawler-only",
      judgedAs: "Applebot",
      statement: "https://support.apple.com/en-us/119829",
      why: "Applebot, Apple's web crawler for Siri, Spotlight and Safari suggestions",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [
    {
      name: "applebot",
      documentation: "https://support.apple.com/en-us/119829",
      domains: ["applebot.apple.com"],
      crawlers: ["Applebot"],
      asOf: "2026-11-22",
    },
  ],
  // No referrers: Siri and Spotlight suggestions open pages without a Referer and Apple
  // documents no `utm_source`.
  referrers: [],
  purposeSwitches: [
    {
      token: "Applebot-Extended",
      category: "ai-training",
      governs: "Applebot",
      docs: "https://support.apple.com/en-us/119829: Applebot-Extended does not crawl; it controls use for Apple's generative models",
      asOf: "2026-11-23",
    },
  ],
});
