/**
 * Moz: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

const MOZ = "https://moz.com/help/moz-procedures/crawlers";

export const moz = defineOperator({
  name: "Moz",
  crawlers: [
    {
      token: "DotBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: MOZ + "/dotbot: DotBot honours Crawl-delay",
      category: "seo-tool",
      docs: MOZ + "/dotbot",
      asOf: "2026-11-23",
    },
    {
      token: "rogerbot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: MOZ + "/rogerbot: rogerbot honours Crawl-delay",
      category: "seo-tool",
      docs: MOZ + "/rogerbot",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
