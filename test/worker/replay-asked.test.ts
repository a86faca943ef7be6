// `POST replay` with `"requests"`: what a plan asks about besides the recorded traffic (a URL
// list per crawler), judged under live and draft as verified GETs. Expectations are literal.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { admin, fakeOrigin, freshState } from "./helpers.ts";

const ROBOTS = ["User-agent: *", "Disallow: /private/", "", "User-agent: GPTBot", "Disallow: /"].join("\n");

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
  await admin("refresh", { method: "POST" });
});
afterEach(freshState);

const BLOCK_GOOGLEBOT_BLOG = {
  routes: [{ pattern: "/blog/", rules: [{ crawlers: ["Googlebot"], action: "block" }] }],
};

interface AskedAnswer {
  asked?: {
    requests: number;
    recorded: number;
    partial: boolean;
    changedCount: number;
    changed: { token: string; method: string; path: string; live: { action: string }; draft: { action: string } }[];
  };
}

async function replayAsked(body: unknown): Promise<{ status: number; answer: AskedAnswer & { error?: string } }> {
  const response = await admin("replay", { method: "POST", body });
  return { status: response.status, answer: (await response.json()) as AskedAnswer & { error?: string } };
}

describe("POST replay with asked requests", () => {
  it("judges each asked (token, path) under live and draft, and lists each that changes", async () => {
    const { status, answer } = await replayAsked({
      policy: BLOCK_GOOGLEBOT_BLOG,
      requests: [
        { token: "Googlebot", path: "/blog/a" },
        { token: "bingbot", path: "/blog/a" },
        { token: "Googlebot", path: "/private/x" },
        { token: "GPTBot", path: "/blog/a" },
        { token: "Googlebot", path: "/shop/?q=1" },
      ],
    });
    expect(status).toBe(200);
    expect(answer.asked).toMatchObject({ requests: 5, recorded: 5, partial: false, changedCount: 1 });
    expect(answer.asked?.changed).toEqual([
      {
        token: "Googlebot",
        method: "GET",
        path: "/blog/a",
        live: { action: "pass", layer: "robots.txt", line: null, rule: null },
        draft: { action: "block", layer: "policy", line: null, rule: "policy /blog/: block" },
      },
    ]);
  });

  it("answers no `asked` when none are asked (the recorded replay as before)", async () => {
    const { status, answer } = await replayAsked({ policy: BLOCK_GOOGLEBOT_BLOG });
    expect(status).toBe(200);
    expect(answer).not.toHaveProperty("asked");
  });

  it.each([
    { requests: "Googlebot /x", problem: '"requests" must be a list of at most 2000' },
    { requests: Array.from({ length: 2001 }, () => ({ token: "a", path: "/" })), problem: "at most 2000" },
    { requests: [{ token: "/", path: "/x" }], problem: "requests[0].token must be a crawler's product token" },
    { requests: [{ token: "Googlebot", path: "x" }], problem: 'requests[0].path must be a path starting with "/"' },
    { requests: [{ token: "Googlebot", path: `/${"a".repeat(2048)}` }], problem: "at most 2048 characters" },
  ])("refuses $problem with 400", async ({ requests, problem }) => {
    const { status, answer } = await replayAsked({ policy: BLOCK_GOOGLEBOT_BLOG, requests });
    expect(status).toBe(400);
    expect(answer.error).toContain(problem);
  });
});
