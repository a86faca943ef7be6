/**
 * Mistral: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const MISTRAL = "https://docs.mistral.ai/robots";

export const mistral = defineOperator({
  name: "Mistral",
  crawlers: [
    {
      token: "MistralAI-User",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-assistant",
      docs: MISTRAL + ': user actions in Le Chat/Vibe; it "governs which sites these user requests can be made to"',
      asOf: "2026-11-23",
    },
    {
      token: "MistralAI-Index",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-search",
      docs: MISTRAL + ": indexing for Mistral search, not for training",
      asOf: "2026-11-23",
    },
    {
      token: "MistralAI-Training",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: MISTRAL + ": datasets for training Mistral models",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      // Mistral's crawler page (docs.mistral.ai/robots) links one list per crawler under "All
      // published IP addresses"; MistralAI-Training has none.
      name: "mistralai-user",
      url: "https://mistral.ai/mistralai-user-ips.json",
      crawlers: ["MistralAI-User"],
      use: "mixed",
      statement: MISTRAL,
      why: "MistralAI-User fetches for a user's request in Le Chat",
      asOf: "2026-11-24",
    },
    {
      name: "mistralai-index",
      url: "https://mistral.ai/mistralai-index-ips.json",
      crawlers: ["MistralAI-Index"],
      use: "crawler-only",
      judgedAs: "MistralAI-Index",
      statement: MISTRAL,
      why: "MistralAI-Index crawls to build Mistral's search index",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [],
  referrers: [
    {
      product: "Le Chat",
      hosts: ["chat.mistral.ai"],
      utmSources: [],
      source: "https://chat.mistral.ai (MistralAI-User fetches for it: " + MISTRAL + ")",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
