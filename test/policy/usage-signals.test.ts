// The usage-signal layer (src/policy/usage-signals.ts): which crawlers a usage preference
// refuses, under each USAGE_SIGNALS mode, and the Content-Usage header for passed responses.
// Each row runs the whole pure path: User-Agent -> category, robots.txt -> group -> preferences.
import { describe, expect, it } from "vitest";
import { defaultSettings } from "../../src/config/edge-settings.ts";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import type { CrawlerCategory } from "../../src/vocabulary.ts";
import { compileRobots, parseRobotsTxt, resolveUsage } from "../../src/core/index.ts";
import { explainRequest } from "../../src/policy/explain.ts";
import { usageGroup, usageVerdict, type UsageSignalsMode } from "../../src/policy/usage-signals.ts";
import {
  DOCUMENTED_CONTENT_USES,
  refusedCategories,
  USAGE_REFUSALS,
  type DocumentedContentUse,
} from "../../src/policy/usage-vocabulary.ts";

const UA = {
  GPTBot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
  Googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  OAISearchBot:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
  ChatGPTUser:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  CCBot: "CCBot/2.0 (https://commoncrawl.org/faq/)",
  ClaudeBot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  Bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  PerplexityBot:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  Unknown: "SomeNewCrawler/0.1 (+https://example.org/bot)",
  Human: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36",
} as const;

function verdict(robots: string, ua: keyof typeof UA, url: string, mode: UsageSignalsMode = "enforce") {
  const agent = classifyUserAgent(UA[ua]);
  const matcher = compileRobots(parseRobotsTxt(robots));
  const decision = matcher.decide(agent.tokens, url, { obeysGlobalGroup: agent.obeysGlobalGroup });
  const resolution = resolveUsage(usageGroup(matcher, decision, agent.obeysGlobalGroup), url, decision);
  const result = usageVerdict(resolution, { category: agent.known?.category, mode });
  return { action: result.action, line: result.refusal?.line ?? null, header: result.header ?? null };
}

// draft-ietf-aipref-attach-05 §3.4 (Figure 2): "/ai-ok/" has train-ai=y, everything else train-ai=n.
const ATTACH_EXAMPLE =
  "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n" +
  "User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n";
// contentsignals.org (quoted in google/robotstxt#80) with ai-train=no; Cloudflare managed default.
const SIGNALS_ORG = "User-Agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\nAllow: /\n";
const SIGNALS_NO_INPUT = "User-Agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no\nAllow: /\n";
const SEARCH_NO = "User-Agent: *\nContent-Usage: /drafts/ search=n\n";

describe("usageVerdict: who is refused where (enforce)", () => {
  it.each([
    {
      robots: ATTACH_EXAMPLE,
      ua: "GPTBot",
      url: "/test",
      action: "refuse",
      line: 4,
      header: "train-ai=n",
      why: "ai-training under train-ai=n",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "GPTBot",
      url: "/ai-ok/test",
      action: "pass",
      line: null,
      header: "train-ai=y",
      why: "train-ai=y path",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "GPTBot",
      url: "/never/test",
      action: "pass",
      line: null,
      header: null,
      why: "disallowed: robots.txt decides, no preferences",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "ClaudeBot",
      url: "/test",
      action: "refuse",
      line: 4,
      header: "train-ai=n",
      why: "ai-training",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "CCBot",
      url: "/x",
      action: "refuse",
      line: 4,
      header: "train-ai=n",
      why: "ai-training",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "Googlebot",
      url: "/test",
      action: "pass",
      line: null,
      header: "train-ai=n",
      why: "search engine not refused by train-ai",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "OAISearchBot",
      url: "/test",
      action: "pass",
      line: null,
      header: "train-ai=n",
      why: "ai-search not refused by train-ai",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "ChatGPTUser",
      url: "/test",
      action: "pass",
      line: null,
      header: "train-ai=n",
      why: "assistant not refused by train-ai",
    },
    {
      robots: ATTACH_EXAMPLE,
      ua: "Unknown",
      url: "/test",
      action: "pass",
      line: null,
      header: "train-ai=n",
      why: "unknown category never refused",
    },
    {
      robots: SIGNALS_ORG,
      ua: "CCBot",
      url: "/",
      action: "refuse",
      line: 2,
      header: null,
      why: "ai-train=no; no AIPREF header from Content-Signal",
    },
    { robots: SIGNALS_ORG, ua: "GPTBot", url: "/a", action: "refuse", line: 2, header: null, why: "ai-train=no" },
    {
      robots: SIGNALS_ORG,
      ua: "OAISearchBot",
      url: "/a",
      action: "pass",
      line: null,
      header: null,
      why: "ai-input=yes",
    },
    { robots: SIGNALS_ORG, ua: "Googlebot", url: "/a", action: "pass", line: null, header: null, why: "search=yes" },
    {
      robots: SIGNALS_NO_INPUT,
      ua: "OAISearchBot",
      url: "/a",
      action: "refuse",
      line: 2,
      header: null,
      why: "ai-input=no refuses ai-search",
    },
    {
      robots: SIGNALS_NO_INPUT,
      ua: "PerplexityBot",
      url: "/a",
      action: "refuse",
      line: 2,
      header: null,
      why: "ai-input=no refuses ai-search",
    },
    {
      robots: SIGNALS_NO_INPUT,
      ua: "ChatGPTUser",
      url: "/a",
      action: "refuse",
      line: 2,
      header: null,
      why: "ai-input=no refuses assistants",
    },
    {
      robots: SIGNALS_NO_INPUT,
      ua: "Googlebot",
      url: "/a",
      action: "pass",
      line: null,
      header: null,
      why: "search engine untouched by ai-input",
    },
    {
      robots: SEARCH_NO,
      ua: "Bingbot",
      url: "/drafts/1",
      action: "refuse",
      line: 2,
      header: "search=n",
      why: "search=n refuses search engines",
    },
    {
      robots: SEARCH_NO,
      ua: "Googlebot",
      url: "/published/1",
      action: "pass",
      line: null,
      header: null,
      why: "outside the path",
    },
    {
      robots: SEARCH_NO,
      ua: "GPTBot",
      url: "/drafts/1",
      action: "pass",
      line: null,
      header: "search=n",
      why: "search=n does not refuse ai-training",
    },
    {
      robots: "User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\n",
      ua: "GPTBot",
      url: "/",
      action: "refuse",
      line: 2,
      header: "train-ai=n",
      why: "both formats refuse: the first line is named",
    },
    {
      robots: "User-agent: GPTBot\nAllow: /\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=n\n",
      ua: "GPTBot",
      url: "/",
      action: "pass",
      line: null,
      header: "train-ai=y",
      why: "the crawler's own group decides (RFC 9309 §2.2.1)",
    },
    {
      robots: "User-agent: GPTBot\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=n\n",
      ua: "GPTBot",
      url: "/",
      action: "refuse",
      line: 5,
      header: "train-ai=n",
      why: "no rule before the next user-agent: one group (Google's grouping kept), lines combine, n wins; lint warns",
    },
    {
      robots: "User-agent: *\nContent-Usage: Train-AI=n\n",
      ua: "GPTBot",
      url: "/",
      action: "pass",
      line: null,
      header: null,
      why: "unparsable: unknown",
    },
  ] as const)("$ua $url: $why", ({ robots, ua, url, action, line, header }) => {
    expect(verdict(robots, ua, url)).toEqual({ action, line, header });
  });
});

describe("usageVerdict: USAGE_SIGNALS modes", () => {
  it.each([
    { mode: "enforce", ua: "GPTBot", action: "refuse", line: 4 },
    { mode: "report", ua: "GPTBot", action: "report", line: 4 },
    { mode: "off", ua: "GPTBot", action: "pass", line: 4 },
    { mode: "report", ua: "Googlebot", action: "pass", line: null },
    { mode: "off", ua: "Googlebot", action: "pass", line: null },
  ] as const)("$mode, $ua", ({ mode, ua, action, line }) => {
    expect(verdict(ATTACH_EXAMPLE, ua, "/test", mode)).toEqual({ action, line, header: "train-ai=n" });
  });

  it("names the line in its message and its layer", () => {
    const agent = classifyUserAgent(UA.CCBot);
    const decision = compileRobots(parseRobotsTxt(SIGNALS_ORG)).decide(agent.tokens, "/");
    const result = usageVerdict(resolveUsage(decision.group, "/", decision), {
      category: agent.known?.category,
      mode: "enforce",
    });
    expect(result.layer).toBe("usage-signal");
    expect(result.refusal).toEqual({
      format: "content-signal",
      key: "ai-train",
      line: 2,
      category: "ai-training",
      message: "robots.txt line 2, Content-Signal ai-train=no, refuses ai-training crawlers on this path",
    });
  });

  it("a human is not a crawler: nothing to judge (the shell never calls the layer)", () => {
    expect(classifyUserAgent(UA.Human).crawler).toBe(false);
  });
});

describe("the vocabulary table", () => {
  it.each([
    { format: "content-usage", key: "train-ai", refuses: ["ai-training"] },
    { format: "content-usage", key: "ai-use", refuses: ["ai-assistant", "ai-search"] },
    { format: "content-usage", key: "search", refuses: ["search-engine"] },
    { format: "content-signal", key: "ai-train", refuses: ["ai-training"] },
    { format: "content-signal", key: "search", refuses: ["search-engine"] },
    { format: "content-signal", key: "ai-input", refuses: ["ai-search", "ai-assistant"] },
    { format: "content-signal", key: "use", refuses: [] },
    { format: "content-usage", key: "train-genai", refuses: [] },
  ] as const)("$format $key", ({ format, key, refuses }) => {
    expect(refusedCategories(format, key)).toEqual(refuses);
  });

  it("never refuses categories a usage preference does not speak for", () => {
    const refused = new Set<CrawlerCategory>(USAGE_REFUSALS.flatMap((row) => row.refuses));
    const spared: CrawlerCategory[] = ["seo-tool", "social-preview", "monitoring", "archiver", "other"];
    expect(spared.filter((category) => refused.has(category))).toEqual([]);
  });
});

// draft-ietf-aipref-vocab-08: `ai-use` (assistants and agents acting on content at request
// time, and AI search feeding answers), and `search=y` overriding train-ai and ai-use for
// crawlers whose use is a search use. vocab-07 files (no ai-use) decide as before.
const VOCAB_08 = "User-Agent: *\nAllow: /\nContent-Usage: ai-use=n\nContent-Usage: /both/ ai-use=n, search=y\n";
const VOCAB_07 = "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\n";

describe("vocab-08: ai-use and the search override", () => {
  it.each([
    { robots: VOCAB_08, ua: "ChatGPTUser", url: "/x", action: "refuse", line: 3, why: "ai-use=n refuses an assistant" },
    { robots: VOCAB_08, ua: "OAISearchBot", url: "/x", action: "refuse", line: 3, why: "ai-use=n refuses AI search" },
    { robots: VOCAB_08, ua: "Googlebot", url: "/x", action: "pass", line: null, why: "ai-use=n is not about search" },
    { robots: VOCAB_08, ua: "GPTBot", url: "/x", action: "pass", line: null, why: "ai-use=n is not about training" },
    {
      robots: VOCAB_08,
      ua: "OAISearchBot",
      url: "/both/x",
      action: "pass",
      line: null,
      why: "search=y overrides ai-use=n for a search use",
    },
    {
      robots: VOCAB_08,
      ua: "ChatGPTUser",
      url: "/both/x",
      action: "refuse",
      line: 4,
      why: "search=y does not lift ai-use=n for an assistant acting for a user",
    },
    { robots: VOCAB_07, ua: "GPTBot", url: "/x", action: "refuse", line: 3, why: "vocab-07 as written: train-ai=n" },
    { robots: VOCAB_07, ua: "Googlebot", url: "/x", action: "pass", line: null, why: "vocab-07 as written: search=y" },
    {
      robots: VOCAB_07,
      ua: "OAISearchBot",
      url: "/x",
      action: "pass",
      line: null,
      why: "vocab-07: nothing refuses it",
    },
  ] as const)("$ua $url: $why", ({ robots, ua, url, action, line }) => {
    expect(verdict(robots, ua, url)).toMatchObject({ action, line });
  });

  it("the table names each key's draft version", () => {
    expect(USAGE_REFUSALS.filter((row) => row.format === "content-usage").map((row) => [row.key, row.since])).toEqual([
      ["train-ai", "draft-ietf-aipref-vocab-07"],
      ["ai-use", "draft-ietf-aipref-vocab-08"],
      ["search", "draft-ietf-aipref-vocab-07"],
    ]);
  });
});

// vocab-08 §4.3: Search "overrides any usage that falls into other categories, including AI
// Training and AI Use" — for the uses that meet its conditions (a direct reference back, excerpts
// only to judge relevance, no summaries). Ours: search engines and AI search indexes; an
// assistant answering a person (ai-use) is no search use, and training is lifted only for them.
const SEARCH_OVERRIDES_ALL = "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n, ai-use=n, search=y\n";

describe("vocab-08 §4.3: search=y overrides train-ai=n and ai-use=n for search uses only", () => {
  it.each([
    { ua: "Googlebot", action: "pass", line: null, why: "a search engine: search=y" },
    { ua: "Bingbot", action: "pass", line: null, why: "a search engine: search=y" },
    { ua: "OAISearchBot", action: "pass", line: null, why: "AI search: ai-use=n lifted by search=y" },
    { ua: "PerplexityBot", action: "pass", line: null, why: "AI search: ai-use=n lifted by search=y" },
    { ua: "ChatGPTUser", action: "refuse", line: 3, why: "an assistant: no search use, ai-use=n stands" },
    { ua: "GPTBot", action: "refuse", line: 3, why: "training for a model: train-ai=n stands" },
    { ua: "CCBot", action: "refuse", line: 3, why: "training corpus: train-ai=n stands" },
    { ua: "Unknown", action: "pass", line: null, why: "unknown category: never refused" },
  ] as const)("$ua: $why", ({ ua, action, line }) => {
    expect(verdict(SEARCH_OVERRIDES_ALL, ua, "/x")).toMatchObject({ action, line });
  });
});

// attach-05 §1.2 "Examples": a server sends `Content-Usage: train-ai=n` on its response and,
// "alternatively, or additionally", the same directive in robots.txt. The edge, given the
// robots.txt form, attaches exactly that header to the responses it passes (USAGE_HEADER).
describe("attach-05 §1.2: the robots.txt form and the header form say the same", () => {
  const ATTACH_INTRO = "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n";
  it.each([
    { ua: "Googlebot", action: "pass", header: "train-ai=n" },
    { ua: "ChatGPTUser", action: "pass", header: "train-ai=n" },
    { ua: "GPTBot", action: "refuse", header: "train-ai=n" },
  ] as const)("$ua: $action with Content-Usage: $header", ({ ua, action, header }) => {
    expect(verdict(ATTACH_INTRO, ua, "/any")).toMatchObject({ action, header });
  });
});

// Content-Signal use=immediate|reference|full (Cloudflare's managed robots.txt writes use=reference).
const USE_REFERENCE = "User-Agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n";
function useVerdict(robots: string, ua: keyof typeof UA, documentedUses: readonly DocumentedContentUse[]) {
  const agent = classifyUserAgent(UA[ua]);
  const decision = compileRobots(parseRobotsTxt(robots)).decide(agent.tokens, "/a");
  const result = usageVerdict(resolveUsage(decision.group, "/a", decision), {
    category: agent.known?.category,
    mode: "enforce",
    tokens: agent.tokens,
    documentedUses,
  });
  return { action: result.action, key: result.refusal?.key ?? null };
}
const documented = (token: string, use: "immediate" | "reference" | "full") => [
  { token, use, source: "a test row: no operator documents one" },
];

describe("Content-Signal use=", () => {
  it("no operator documents its use: the built-in table is empty, so use= refuses nobody", () => {
    expect(DOCUMENTED_CONTENT_USES).toEqual([]);
    expect(useVerdict(USE_REFERENCE, "ChatGPTUser", DOCUMENTED_CONTENT_USES)).toEqual({ action: "pass", key: null });
  });

  it.each([
    { use: "full", action: "refuse", key: "use", why: "a documented use broader than use=reference" },
    { use: "reference", action: "pass", key: null, why: "the same use" },
    { use: "immediate", action: "pass", key: null, why: "a narrower use" },
  ] as const)("ChatGPT-User documented as use=$use: $why", ({ use, action, key }) => {
    expect(useVerdict(USE_REFERENCE, "ChatGPTUser", documented("ChatGPT-User", use))).toEqual({ action, key });
  });

  it("a crawler the table does not list is not bound by use=", () => {
    expect(useVerdict(USE_REFERENCE, "ChatGPTUser", documented("PerplexityBot", "full"))).toEqual({
      action: "pass",
      key: null,
    });
  });
});

const explainAt = (robots: string, ua: keyof typeof UA, url: string) =>
  explainRequest({
    userAgent: UA[ua],
    url,
    settings: { ...defaultSettings(), verifyCrawlers: "off" },
    state: "ok",
    matcher: compileRobots(parseRobotsTxt(robots)),
    paused: false,
    facts: { now: 0 },
  }).contentSignalUse;

describe("explain shows the Content-Signal use= in force and whom it binds", () => {
  it.each([
    {
      robots: "User-Agent: *\nContent-Signal: search=yes, use=reference\nAllow: /\n",
      url: "/a",
      expected: {
        use: "reference",
        line: 2,
        binds: "binds nobody here: this crawler's operator documents no use (usage-vocabulary.ts)",
      },
      why: "use=reference on every path",
    },
    {
      robots: "User-Agent: *\nContent-Signal: /docs/ use=immediate\nAllow: /\n",
      url: "/a",
      expected: null,
      why: "a use= for another path",
    },
    { robots: "User-Agent: *\nContent-Signal: search=yes\nAllow: /\n", url: "/a", expected: null, why: "no use=" },
  ])("$why", ({ robots, url, expected }) => {
    expect(explainAt(robots, "ChatGPTUser", url)).toEqual(expected);
  });
});
