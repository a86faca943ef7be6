// The user-triggered fetchers (paced per client network, issue 30) are crawlers our table knows,
// and a crawler on its own schedule is not one of them.
import { describe, expect, it } from "vitest";
import { KNOWN_CRAWLERS } from "../../src/agents/crawlers.ts";
import { isUserTriggered, USER_TRIGGERED_FETCHERS } from "../../src/agents/user-triggered.ts";

describe("isUserTriggered", () => {
  it("every listed fetcher is a crawler the table knows, in its documented casing", () => {
    const known = new Set(KNOWN_CRAWLERS.map((crawler) => crawler.token));
    expect(USER_TRIGGERED_FETCHERS.filter((token) => !known.has(token))).toEqual([]);
  });

  it.each([
    { token: "ChatGPT-User", expected: true },
    { token: "chatgpt-user", expected: true },
    { token: "Perplexity-User", expected: true },
    { token: "FeedFetcher-Google", expected: true },
    { token: "Google-Agent", expected: true },
    { token: "GPTBot", expected: false },
    { token: "OAI-SearchBot", expected: false },
    { token: "Googlebot", expected: false },
    { token: "PerplexityBot", expected: false },
    { token: undefined, expected: false },
  ])("$token -> $expected", ({ token, expected }) => {
    expect(isUserTriggered(token)).toBe(expected);
  });
});
