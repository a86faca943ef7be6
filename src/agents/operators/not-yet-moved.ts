/**
 * Transitional: the operators not yet in files of their own, as the old tables held them.
 * Each move takes one out; test/agents/operators-move.test.ts holds the derived tables equal to
 * the old ones meanwhile.
 */

import type { Operator } from "./operator.ts";

export const NOT_YET_MOVED: readonly Operator[] = [
  {
    name: "Qwant",
    crawlers: [],
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
        name: "qwant",
        documentation: "https://help.qwant.com/bot",
        domains: ["qwant.com"],
        crawlers: ["Qwantbot", "Qwantbot-news"],
        asOf: "2026-11-23",
      },
    ],
    referrers: [],
    purposeSwitches: [],
  },
];
