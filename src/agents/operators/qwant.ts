/**
 * Qwant: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

export const qwant = defineOperator({
  name: "Qwant",
  crawlers: [],
  // Verified by list and host name since before the move, but never in the crawler table:
  // their category and robots.txt behaviour wait for a change that cites Qwant's page for them.
  unlistedCrawlers: [
    {
      token: "Qwantbot",
      docs: "https://help.qwant.com/bot",
      asOf: "2026-11-24",
    },
    {
      token: "Qwantbot-news",
      docs: "https://help.qwant.com/bot",
      asOf: "2026-11-24",
    },
  ],
  addressLists: [
    {
      // Qwant's bot page (help.qwant.com/bot) prefers reverse DNS and offers this list "alternatively".
      name: "qwantbot",
      url: "https://help.qwant.com/wp-content/uploads/sites/2/2025/01/qwantbot.json",
      crawlers: ["Qwantbot", "Qwantbot-news"],
      use: "crawler-only",
      judgedAs: "Qwantbot",
      statement: "https://help.qwant.com/bot",
      why: "Qwantbot, Qwant's search crawler",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [
    {
      // "qwantbot-1-162-242-91.qwant.com"; Qwant calls this the preferred method.
      name: "qwant",
      documentation: "https://help.qwant.com/bot",
      domains: ["qwant.com"],
      crawlers: ["Qwantbot", "Qwantbot-news"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [],
  purposeSwitches: [],
});
