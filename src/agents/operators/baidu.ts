/**
 * Baidu: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const BAIDU = "https://www.baidu.com/search/spider.html";

export const baidu = defineOperator({
  name: "Baidu",
  crawlers: [
    {
      token: "Baiduspider",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "search-engine",
      docs: BAIDU,
      asOf: "2026-11-23",
    },
    {
      token: "Baiduspider-image",
      fallbacks: ["Baiduspider"],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "search-engine",
      docs: BAIDU + "; follows Baiduspider when it has no group",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [
    {
      name: "baidu",
      documentation: BAIDU,
      domains: ["baidu.com", "baidu.jp"],
      crawlers: ["Baiduspider", "Baiduspider-image"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [
    {
      product: "Baidu Search",
      hosts: ["baidu.com"],
      utmSources: [],
      source: "https://www.baidu.com (www. and m. hosts)",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
