/**
 * Moonshot AI: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const KIMI_NOT_DOCUMENTED =
  "not documented where we could read it: third-party crawler directories cite Moonshot AI's https://www.kimi.com/policies/kimi-crawlers, which was not available to us; so the category is unknown (other) and no usage preference refuses it by category";

export const moonshotAi = defineOperator({
  name: "Moonshot AI",
  // Tokens as written in the 2026 AI-crawler lists; the operator's page could not be read, so
  // they are known tokens with no category of ours.
  crawlers: [
    {
      token: "KimiBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "other",
      docs: KIMI_NOT_DOCUMENTED,
      asOf: "2026-11-23",
    },
    {
      token: "Kimi-SearchBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "other",
      docs: KIMI_NOT_DOCUMENTED,
      asOf: "2026-11-23",
    },
    {
      token: "Kimi-User",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "other",
      docs: KIMI_NOT_DOCUMENTED,
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
