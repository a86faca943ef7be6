/**
 * Amazon: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

export const amazon = defineOperator({
  name: "Amazon",
  crawlers: [
    {
      token: "Amazonbot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource:
        'https://developer.amazon.com/support/amazonbot: "AmazonBot does not support the crawl-delay directive"',
      category: "ai-training",
      docs: "https://developer.amazon.com/amazonbot; may be used to train Amazon AI models",
      asOf: "2026-11-23",
    },
    {
      token: "Amzn-SearchBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource:
        'https://developer.amazon.com/amazonbot: Amazon\'s crawlers do "not support the crawl-delay directive"',
      category: "ai-search",
      docs: "https://developer.amazon.com/amazonbot: search experiences in Alexa and Rufus, not used for generative AI training; Amazon respects robots.txt",
      asOf: "2026-11-23",
    },
    {
      token: "Amzn-User",
      pattern: "AMZN-User",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource:
        'https://developer.amazon.com/amazonbot: Amazon\'s crawlers do "not support the crawl-delay directive"',
      category: "ai-assistant",
      docs: "https://developer.amazon.com/amazonbot: fetches live information for Alexa users; Amazon documents that it respects robots.txt (user-agent, allow, disallow), so it stays held to `*`",
      asOf: "2026-11-23",
    },
    {
      token: "amazon-QBusiness",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-search",
      docs: "https://docs.aws.amazon.com/amazonq/latest/business-use-dg/stop-web-crawler.html: Amazon Q Business Web Crawler obeys Allow and Disallow for `User-agent: amazon-QBusiness`; it indexes the sites an AWS customer chooses for that customer's generative AI assistant (an index behind AI answers, as ai-search)",
      shownOperator: "Amazon (AWS)",
      asOf: "2026-11-24",
    },
    {
      token: "ia_archiver",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "archiver",
      docs: "historic: Alexa's crawler, which fed the Wayback Machine; Alexa closed in 2022",
      shownOperator: "Alexa (Amazon)",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [],
  reverseDns: [
    {
      name: "amazonbot",
      documentation: "https://developer.amazon.com/support/amazonbot",
      domains: ["crawl.amazonbot.amazon"],
      crawlers: ["Amazonbot"],
      asOf: "2026-11-23",
    },
  ],
  referrers: [],
  purposeSwitches: [],
});
