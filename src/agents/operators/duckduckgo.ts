/**
 * DuckDuckGo: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const duckduckgo = defineOperator({
  name: "DuckDuckGo",
  crawlers: [
    {
      token: "DuckDuckBot",
      pattern: ["DuckDuckBot", "DuckDuckBot-Https"],
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "search-engine",
      docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot; its current UA says DuckDuckBot-Https",
      asOf: "2026-11-23",
    },
    {
      token: "DuckAssistBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-assistant",
      docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      // DuckDuckGo's help pages (duckduckgo.com/duckduckgo-help-pages/results/duckduckbot and
      // .../duckassistbot) list each crawler's addresses; these JSON copies sit beside them on
      // duckduckgo.com (docs/decisions.md, "Verified crawlers": the archived help page source names no JSON).
      name: "duckduckbot",
      url: "https://duckduckgo.com/duckduckbot.json",
      crawlers: ["DuckDuckBot"],
      use: "crawler-only",
      judgedAs: "DuckDuckBot",
      statement: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot",
      why: "DuckDuckBot, DuckDuckGo's search crawler",
      asOf: "2026-11-24",
    },
    {
      name: "duckassistbot",
      url: "https://duckduckgo.com/duckassistbot.json",
      crawlers: ["DuckAssistBot"],
      use: "mixed",
      statement: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
      why: "DuckAssistBot fetches pages in real time for the answer to a person's search",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [],
  referrers: [
    {
      product: "DuckDuckGo search and Duck.ai",
      hosts: ["duckduckgo.com", "duck.ai"],
      utmSources: [],
      source: "https://duckduckgo.com; https://duck.ai (DuckDuckGo's AI chat)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
