/**
 * Yandex: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator } from "./operator.ts";

const YANDEX_NO_CRAWL_DELAY =
  "https://yandex.com/support/webmaster/en/robot-workings/crawl-delay.md: since 2018-02-22 Yandex ignores Crawl-delay (crawl rate is set in Yandex Webmaster)";
const YANDEX = "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html";
const YANDEX_FALLBACK = "; `User-agent: Yandex` addresses every Yandex robot, and then `*` is not used";

export const yandex = defineOperator({
  name: "Yandex",
  crawlers: [
    {
      token: "YandexBot",
      fallbacks: ["Yandex"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: YANDEX + YANDEX_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "YandexImages",
      fallbacks: ["Yandex"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: YANDEX + YANDEX_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "YandexMobileBot",
      fallbacks: ["Yandex"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: YANDEX + YANDEX_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "YandexNews",
      fallbacks: ["Yandex"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: YANDEX + YANDEX_FALLBACK,
      asOf: "2026-11-23",
    },
    {
      token: "YandexVideo",
      fallbacks: ["Yandex"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: YANDEX_NO_CRAWL_DELAY,
      category: "search-engine",
      docs: YANDEX + YANDEX_FALLBACK,
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [
    {
      name: "yandex",
      documentation: YANDEX,
      domains: ["yandex.ru", "yandex.net", "yandex.com"],
      crawlers: ["YandexBot", "YandexImages", "YandexMobileBot", "YandexNews", "YandexVideo"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [
    {
      product: "Yandex Search",
      hosts: ["yandex.ru", "yandex.com", "yandex.com.tr", "yandex.by", "yandex.kz", "yandex.uz", "ya.ru"],
      utmSources: [],
      source: "https://yandex.com/support/webmaster/: Yandex search serves from its country domains and ya.ru",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
