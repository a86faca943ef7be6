/**
 * Common Crawl: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const commonCrawl = defineOperator({
  name: "Common Crawl",
  crawlers: [
    {
      token: "CCBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: true,
      rateLimitsSource: "https://commoncrawl.org/ccbot: CCBot honours Crawl-delay",
      category: "ai-training",
      docs: "https://commoncrawl.org/ccbot; an open corpus, widely used to train models",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      // Common Crawl's CCBot page (commoncrawl.org/ccbot) links this list.
      name: "ccbot",
      url: "https://index.commoncrawl.org/ccbot.json",
      crawlers: ["CCBot"],
      use: "crawler-only",
      judgedAs: "CCBot",
      statement: "https://commoncrawl.org/ccbot",
      why: "CCBot, Common Crawl's crawler for its open archive",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [],
  referrers: [],
  purposeSwitches: [],
});
