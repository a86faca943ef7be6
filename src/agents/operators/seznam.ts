/**
 * Seznam.cz: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const seznam = defineOperator({
  name: "Seznam.cz",
  crawlers: [
    {
      token: "SeznamBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource:
        "https://o-seznam.cz/napoveda/vyhledavani/en/crawling-control: Crawl-delay and Request-rate among the extensions SeznamBot recognises",
      category: "search-engine",
      docs: "https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [],
  referrers: [
    {
      product: "Seznam search",
      hosts: ["seznam.cz"],
      utmSources: [],
      source: "https://search.seznam.cz",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
