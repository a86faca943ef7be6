/**
 * OpenAI: its crawlers, the address lists and host names that prove them, the products
 * that send people, and the switches it reads (operator.ts says what each field is;
 * docs/decisions.md "Sources" says where each was read).
 */

import { defineOperator, RATE_LIMITS_UNDOCUMENTED } from "./operator.ts";

const OPENAI = "https://developers.openai.com/docs/bots";

export const openai = defineOperator({
  name: "OpenAI",
  crawlers: [
    {
      token: "GPTBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-training",
      docs: OPENAI,
      asOf: "2026-11-23",
    },
    {
      // Not held to `*`: OpenAI documents it as acting for a user, not bound by robots.txt.
      // Verifiable (OpenAI publishes chatgpt-user.json, below): a claim that fails or cannot be
      // checked gets `*` (policy/claim.ts).
      token: "ChatGPT-User",
      fallbacks: [],
      obeysGlobalGroup: false,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-assistant",
      docs:
        OPENAI +
        ': "ChatGPT-User is for user actions in ChatGPT … Because these actions are initiated by a user, robots.txt rules may not apply"; a group naming ChatGPT-User still applies',
      asOf: "2026-11-23",
    },
    {
      token: "OAI-SearchBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "ai-search",
      docs: OPENAI,
      asOf: "2026-11-23",
    },
    {
      token: "OAI-AdsBot",
      fallbacks: [],
      obeysGlobalGroup: true,
      honoursRateLimits: false,
      rateLimitsSource: RATE_LIMITS_UNDOCUMENTED,
      category: "other",
      docs:
        OPENAI +
        "; visits only landing pages submitted as ChatGPT ads (safety, policy, relevance), not used for training; https://help.openai.com/en/articles/20001243: OpenAI crawlers respect robots.txt. No address list yet",
      asOf: "2026-11-23",
    },
  ],
  addressLists: [
    {
      name: "gptbot",
      url: "https://openai.com/gptbot.json",
      crawlers: ["GPTBot"],
      use: "crawler-only",
      judgedAs: "GPTBot",
      statement: OPENAI,
      why: "GPTBot crawls content that may be used to train OpenAI's models; its own list",
      asOf: "2026-11-24",
    },
    {
      name: "oai-searchbot",
      url: "https://openai.com/searchbot.json",
      crawlers: ["OAI-SearchBot"],
      use: "crawler-only",
      judgedAs: "OAI-SearchBot",
      statement: OPENAI,
      why: "OAI-SearchBot crawls for ChatGPT's search results; its own list",
      asOf: "2026-11-24",
    },
    {
      name: "chatgpt-user",
      url: "https://openai.com/chatgpt-user.json",
      crawlers: ["ChatGPT-User"],
      use: "mixed",
      statement: OPENAI,
      why: "ChatGPT-User visits pages for user actions in ChatGPT and Custom GPTs: a person's fetch",
      asOf: "2026-11-24",
    },
  ],
  reverseDns: [],
  referrers: [
    {
      product: "ChatGPT (and ChatGPT search)",
      hosts: ["chatgpt.com", "chat.openai.com"],
      utmSources: ["chatgpt.com"],
      source:
        "https://help.openai.com/en/articles/9237897-chatgpt-search: links from ChatGPT search carry utm_source=chatgpt.com; chat.openai.com is ChatGPT's former host",
      asOf: "2026-11-24",
    },
  ],
  purposeSwitches: [],
});
