// The user-triggered fetchers (paced per client network, issue 30) are crawlers our table knows,
// and a crawler on its own schedule is not one of them.
import { describe, expect, it } from "vitest";
import { isUserTriggered, USER_TRIGGERED_FETCHERS } from "../../src/agents/user-triggered.ts";

describe("isUserTriggered", () => {
  it("the fetchers that act for a person, as the table's rule picks them (written down)", () => {
    expect(USER_TRIGGERED_FETCHERS.toSorted()).toEqual(
      [
        "Amzn-User",
        "ChatGPT-User",
        "Claude-User",
        "Claude-Web",
        "cohere-ai",
        "DuckAssistBot",
        "FeedFetcher-Google",
        "Google-Agent",
        "Google-CWS",
        "Google-GeminiNotebook",
        "Google-Pinpoint",
        "Google-Read-Aloud",
        "Google-Site-Verification",
        "GoogleProducer",
        "meta-externalfetcher",
        "MistralAI-User",
        "Perplexity-User",
      ].toSorted(),
    );
  });

  it.each([
    { token: "ChatGPT-User", expected: true },
    { token: "chatgpt-user", expected: true },
    { token: "Perplexity-User", expected: true },
    { token: "FeedFetcher-Google", expected: true },
    { token: "Google-Agent", expected: true },
    { token: "DuckAssistBot", expected: true },
    { token: "GPTBot", expected: false },
    { token: "OAI-SearchBot", expected: false },
    { token: "Googlebot", expected: false },
    { token: "PerplexityBot", expected: false },
    { token: undefined, expected: false },
  ])("$token -> $expected", ({ token, expected }) => {
    expect(isUserTriggered(token)).toBe(expected);
  });
});
