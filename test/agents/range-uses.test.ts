// Which published list is which (issue 24): crawler-only lists make a browser User-Agent a
// crawler in disguise, mixed lists never do. The expectations are written down here, from the
// operators' statements, not read back from the table.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { KNOWN_CRAWLERS } from "../../src/agents/operators/tables.ts";
import { crawlerOnlySources, RANGE_USES, rangeUseOf } from "../../src/agents/operators/tables.ts";
import { RANGE_SOURCES } from "../../src/agents/operators/tables.ts";

const EXPECTED: readonly { source: string; use: "crawler-only" | "mixed"; crawler?: string; why: string }[] = [
  { source: "googlebot", use: "crawler-only", crawler: "Googlebot", why: "Google: common crawlers" },
  { source: "google-special", use: "mixed", why: "Google: special-case, rate-limited proxies, abuse fetching" },
  { source: "google-user-triggered", use: "mixed", why: "Google: the end user triggers the fetch" },
  { source: "google-agent", use: "mixed", why: "Google: agents acting for a user" },
  { source: "bingbot", use: "crawler-only", crawler: "bingbot", why: "Bing: Bingbot's addresses" },
  { source: "gptbot", use: "crawler-only", crawler: "GPTBot", why: "OpenAI: the training crawler's own list" },
  { source: "oai-searchbot", use: "crawler-only", crawler: "OAI-SearchBot", why: "OpenAI: search crawler" },
  { source: "chatgpt-user", use: "mixed", why: "OpenAI: user actions in ChatGPT" },
  { source: "perplexitybot", use: "crawler-only", crawler: "PerplexityBot", why: "Perplexity: index crawler" },
  { source: "perplexity-user", use: "mixed", why: "Perplexity: fetches when a user asks" },
  { source: "applebot", use: "crawler-only", crawler: "Applebot", why: "Apple: Applebot" },
  { source: "anthropic", use: "mixed", why: "Anthropic: one list, Claude-User included" },
  { source: "ccbot", use: "crawler-only", crawler: "CCBot", why: "Common Crawl" },
  { source: "duckduckbot", use: "crawler-only", crawler: "DuckDuckBot", why: "DuckDuckGo: search crawler" },
  { source: "duckassistbot", use: "mixed", why: "DuckDuckGo: real-time fetch for a person's answer" },
  { source: "mistralai-user", use: "mixed", why: "Mistral: user requests in Le Chat" },
  { source: "mistralai-index", use: "crawler-only", crawler: "MistralAI-Index", why: "Mistral: search index" },
  { source: "qwantbot", use: "crawler-only", crawler: "Qwantbot", why: "Qwant: search crawler" },
];

describe("every published list is classified, with the operator's statement", () => {
  it.each(RANGE_SOURCES.map((source) => source.name))("%s has exactly one entry", (name) => {
    expect(RANGE_USES.filter((entry) => entry.source === name)).toHaveLength(1);
  });

  it("the table names no list the edge does not load", () => {
    const loaded = new Set(RANGE_SOURCES.map((source) => source.name));
    expect(RANGE_USES.filter((entry) => !loaded.has(entry.source))).toEqual([]);
  });

  it.each(EXPECTED)("$source is $use ($why)", ({ source, use, crawler }) => {
    const entry = rangeUseOf(source);
    expect(entry?.use).toBe(use);
    expect(entry?.crawler).toBe(crawler);
    expect(entry?.statement).toMatch(/^https:\/\/[a-z0-9.-]+\//);
    expect(entry?.why.length).toBeGreaterThan(10);
  });

  it("the expectations cover the whole table", () => {
    expect(EXPECTED.map((row) => row.source).toSorted()).toEqual(RANGE_SOURCES.map((s) => s.name).toSorted());
  });
});

describe("a crawler-only list names a crawler it covers, one that a disguise cannot exempt from *", () => {
  it.each(crawlerOnlySources())("$source -> $crawler", ({ source, crawler }) => {
    const covered = RANGE_SOURCES.find((range) => range.name === source)?.tokens ?? [];
    expect(covered).toContain(crawler);
    // What a disguised request is judged as: the crawler its own User-Agent would name.
    const agent = classifyUserAgent(crawler);
    expect({ crawler: agent.crawler, token: agent.tokens[0], obeysGlobalGroup: agent.obeysGlobalGroup }).toEqual({
      crawler: true,
      token: crawler,
      obeysGlobalGroup: true,
    });
  });

  it("no list of a fetcher that skips * (acts for a person) is crawler-only", () => {
    const exempt = new Set(KNOWN_CRAWLERS.filter((crawler) => !crawler.obeysGlobalGroup).map((c) => c.token));
    const crawlerOnly = new Set(crawlerOnlySources().map((entry) => entry.source));
    const offending = RANGE_SOURCES.filter(
      (source) => crawlerOnly.has(source.name) && source.tokens.some((token) => exempt.has(token)),
    );
    expect(offending.map((source) => source.name)).toEqual([]);
  });
});
