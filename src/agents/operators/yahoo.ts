/**
 * Yahoo: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const yahoo = defineOperator({
  name: "Yahoo",
  crawlers: [
    {
      token: "Slurp",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: "https://help.yahoo.com/kb/SLN22600.html: Slurp supports Crawl-delay",
      category: "search-engine",
      docs: "https://help.yahoo.com/kb/SLN22600.html; UA says `Yahoo! Slurp`",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [
    {
      product: "Yahoo Search",
      hosts: ["search.yahoo.com", "search.yahoo.co.jp"],
      utmSources: [],
      source: "https://search.yahoo.com (country searches are hosts under it: de.search.yahoo.com)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
