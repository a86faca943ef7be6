/**
 * Anthropic: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const ANTHROPIC_CRAWL_DELAY = "https://support.claude.com/en/articles/8896518: Anthropic's bots support Crawl-delay";
const ANTHROPIC =
  "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler";

export const anthropic = defineOperator({
  name: "Anthropic",
  crawlers: [
    {
      token: "ClaudeBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: ANTHROPIC_CRAWL_DELAY,
      category: "ai-training",
      docs: ANTHROPIC,
      asOf: "2026-11-23",
    },
    {
      token: "Claude-User",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: ANTHROPIC_CRAWL_DELAY,
      category: "ai-assistant",
      docs: ANTHROPIC,
      asOf: "2026-11-23",
    },
    {
      token: "Claude-SearchBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: ANTHROPIC_CRAWL_DELAY,
      category: "ai-search",
      docs: ANTHROPIC,
      asOf: "2026-11-23",
    },
    {
      token: "Claude-Web",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-assistant",
      docs: "historic: earlier Anthropic agent, no longer on " + ANTHROPIC + "; listed by ai-robots-txt/ai.robots.txt",
      asOf: "2026-11-23",
    },
    {
      token: "anthropic-ai",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: "historic: earlier Anthropic token, no longer on " + ANTHROPIC + "; listed by ai-robots-txt/ai.robots.txt",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      // Named by Anthropic's crawler help page (privacy.claude.com, article 8896518).
      name: "anthropic",
      url: "https://claude.com/crawling/bots.json",
      crawlers: ["ClaudeBot", "Claude-User", "Claude-SearchBot"],
      use: "mixed",
      statement: ANTHROPIC,
      why: "one list for ClaudeBot, Claude-SearchBot AND Claude-User (fetches for a user's question)",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [],
  referrers: [
    {
      product: "Claude",
      hosts: ["claude.ai"],
      utmSources: [],
      source: "https://claude.ai (Claude's web search cites pages; Anthropic documents no utm_source)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
