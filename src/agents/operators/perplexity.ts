/**
 * Perplexity: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const PERPLEXITY = "https://docs.perplexity.ai/guides/bots";

export const perplexity = defineOperator({
  name: "Perplexity",
  crawlers: [
    {
      token: "PerplexityBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-search",
      docs: PERPLEXITY,
      asOf: "2026-11-23",
    },
    {
      // Not held to `*` (as ChatGPT-User): verifiable through perplexity-user.json (below).
      token: "Perplexity-User",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-assistant",
      docs:
        PERPLEXITY +
        ': "Since a user requested the fetch, this fetcher generally ignores robots.txt rules"; a group naming Perplexity-User still applies',
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      name: "perplexitybot",
      url: "https://www.perplexity.ai/perplexitybot.json",
      crawlers: ["PerplexityBot"],
      use: "crawler-only",
      judgedAs: "PerplexityBot",
      statement: PERPLEXITY,
      why: "PerplexityBot indexes sites for Perplexity's search results; its own list",
      asOf: "2026-11-24",
    },
    {
      name: "perplexity-user",
      url: "https://www.perplexity.ai/perplexity-user.json",
      crawlers: ["Perplexity-User"],
      use: "mixed",
      statement: PERPLEXITY,
      why: "Perplexity-User fetches a page when a user asks: a person's fetch",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [],
  referrers: [
    {
      product: "Perplexity",
      hosts: ["perplexity.ai"],
      utmSources: ["perplexity", "perplexity.ai"],
      source: "https://www.perplexity.ai; utm_source=perplexity as its cited links carry it (observed, not documented)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
