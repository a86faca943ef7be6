/**
 * Meta: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const META = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers";

export const meta = defineOperator({
  name: "Meta",
  crawlers: [
    {
      token: "meta-externalagent",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: META,
      asOf: "2026-11-23",
    },
    {
      token: "meta-externalfetcher",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-assistant",
      docs:
        META +
        ': user-initiated and "may bypass robots.txt rules"; still held to `*` here, since Meta publishes no address list to verify a claim against (without one, naming it would let any client skip `*`)',
      asOf: "2026-11-23",
    },
    {
      token: "FacebookBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: "https://developers.facebook.com/docs/sharing/bot/; speech-recognition language-model training",
      asOf: "2026-11-23",
    },
    {
      token: "facebookexternalhit",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "social-preview",
      docs:
        META +
        ": may bypass robots.txt for security and integrity checks; still held to `*` here, as meta-externalfetcher: Meta publishes no address list to verify a claim (scrapers borrow this name for that reason)",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
