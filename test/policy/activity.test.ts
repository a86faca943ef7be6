// What the activity view records of one decision (src/policy/activity.ts), how its hourly rows
// fold into the view (activity-summary.ts), and replay's comparison (replay.ts), as tables.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { agentOfSigner } from "../../src/agents/web-bot-auth/signed-agent.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { activityOf, recordedPath, type VerifiedState } from "../../src/policy/activity.ts";
import { summarizeActivity, type CountRow, type SeriesRow } from "../../src/policy/activity-summary.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import type { EdgeFacts } from "../../src/policy/edge-facts.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { replay, type ReplaySettings } from "../../src/policy/replay.ts";
import { gatheredFacts, REFUTED, UNVERIFIABLE, VERIFIED } from "./gathered-facts.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const ROBOTS = "User-agent: *\nDisallow: /private/\n\nUser-agent: FooBot\nContent-Usage: train-ai=n\n";
const matcher = compileRobots(parseRobotsTxt(ROBOTS));
// Googlebot's own group opens /private/; `*` keeps it closed.
const GOOGLEBOT_OPEN = {
  state: "ok" as const,
  matcher: compileRobots(parseRobotsTxt(`${ROBOTS}\nUser-agent: Googlebot\nAllow: /\n`)),
  retryAfter: 0,
};
const NOON = Date.UTC(2026, 10, 23, 12, 34, 56);

function facts(overrides: Partial<EdgeFacts> = {}): EdgeFacts {
  return gatheredFacts({
    pathAndQuery: "/private/x?token=abc",
    agent: classifyUserAgent(GOOGLEBOT),
    robots: { state: "ok", matcher, retryAfter: 300 },
    now: NOON,
    ...overrides,
  });
}

const recorded = (overrides: Partial<EdgeFacts>, method = "GET") => {
  const input = facts(overrides);
  const record = decideEdge(input);
  if ("gather" in record) throw new TypeError(`the test's facts lack ${record.gather}`);
  return activityOf(record, method, input.now);
};

describe("activityOf: one decision, one event", () => {
  it.each([
    {
      why: "a disallowed path: block by robots.txt, a violation, the query dropped",
      overrides: {},
      expected: {
        token: "Googlebot",
        action: "block",
        layer: "robots.txt",
        line: 2,
        rule: "disallow: /private/",
        path: "/private/x",
        verified: "unchecked",
        violation: true,
        category: "search-engine",
      },
    },
    {
      why: "an allowed path: pass, no deciding line",
      overrides: { pathAndQuery: "/public" },
      expected: { action: "pass", layer: "robots.txt", line: null, violation: false },
    },
    {
      why: "MODE=report: report, still a violation",
      overrides: { mode: "report" as const },
      expected: { action: "report", layer: "robots.txt", violation: true },
    },
    {
      why: "a crawl pause: unavailable",
      overrides: { pause: { retryAfter: 60 } },
      expected: { action: "unavailable", layer: "pause", violation: false },
    },
    {
      why: "the rate limiter refuses: rate-limited",
      overrides: {
        pathAndQuery: "/public",
        enforceRates: "all" as const,
        robots: {
          state: "ok" as const,
          matcher: compileRobots(parseRobotsTxt("User-agent: *\nCrawl-delay: 5\n")),
          retryAfter: 0,
        },
        rate: { allowed: false as const, retryAfter: 5 },
      },
      expected: { action: "rate-limited", layer: "rate" },
    },
    {
      why: "a verified claim",
      overrides: { needsVerification: true, verification: VERIFIED },
      expected: { verified: "verified" },
    },
    {
      why: "an impostor under VERIFY_CRAWLERS=block: block by verification, the claimed name kept",
      overrides: { needsVerification: true, verification: REFUTED, verifyCrawlers: "block" as const },
      expected: { token: "Googlebot", verified: "refuted", action: "block", layer: "verification", line: null },
    },
    {
      why: "an impostor under unknown: judged under * as an anonymous bot, recorded under its claim",
      overrides: { needsVerification: true, verification: REFUTED },
      expected: { token: "Googlebot", verified: "refuted", action: "block", layer: "robots.txt", violation: true },
    },
    // What the decision used: a claim that could not be checked is never recorded as verified.
    {
      why: "an unverifiable claim only `*` refuses: unavailable, layer unproven-claim",
      overrides: { needsVerification: true, verification: UNVERIFIABLE, robots: GOOGLEBOT_OPEN },
      expected: {
        token: "Googlebot",
        verified: "unverifiable",
        action: "unavailable",
        layer: "unproven-claim",
        line: 2,
      },
    },
    {
      why: "an unverifiable claim on an allowed path: a pass, still unverifiable",
      overrides: { needsVerification: true, verification: UNVERIFIABLE, pathAndQuery: "/public" },
      expected: { verified: "unverifiable", action: "pass" },
    },
    {
      why: "VERIFY_CRAWLERS=off: the claim was taken as made, unverifiable",
      overrides: { verifyCrawlers: "off" as const, pathAndQuery: "/public" },
      expected: { verified: "unverifiable", action: "pass" },
    },
    {
      why: "MODE=report: an unverifiable claim only `*` refuses is a report, layer unproven-claim",
      overrides: {
        needsVerification: true,
        verification: UNVERIFIABLE,
        robots: GOOGLEBOT_OPEN,
        mode: "report" as const,
      },
      expected: { verified: "unverifiable", action: "report", layer: "unproven-claim" },
    },
    {
      why: "a signed request: the signer's crawler, verified, whatever the User-Agent",
      overrides: {
        agent: classifyUserAgent(CHROME),
        signed: true,
        signature: {
          status: "verified" as const,
          signer: "https://chatgpt.com",
          agent: agentOfSigner({ token: "ChatGPT-User", category: "ai-assistant" }, "https://chatgpt.com"),
        },
        pathAndQuery: "/public",
      },
      expected: { token: "ChatGPT-User", category: "ai-assistant", verified: "verified", action: "pass" },
    },
    {
      why: "FooBot's own group has a usage preference, but FooBot is unknown: no category, a pass",
      overrides: { agent: classifyUserAgent("FooBot/1.0"), pathAndQuery: "/public" },
      expected: { token: "FooBot", category: null, action: "pass", violation: false },
    },
    {
      why: "an unknown bot on a disallowed path: blocked, but it claims nothing: no violation",
      overrides: { agent: classifyUserAgent("BarBot/1.0") },
      expected: { token: "BarBot", action: "block", layer: "robots.txt", violation: false },
    },
    {
      why: "robots.txt fetched by a crawler: the edge serves the file",
      overrides: { isRobotsTxt: true, pathAndQuery: "/robots.txt" },
      expected: { action: "serve-robots-txt", layer: "robots.txt-file", path: "/robots.txt" },
    },
  ])("$why", ({ overrides, expected }) => {
    const activity = recorded(overrides);
    expect(activity?.kind).toBe("crawler");
    expect(activity?.kind === "crawler" ? activity.event : undefined).toMatchObject({
      time: NOON,
      method: "GET",
      ...expected,
    });
  });

  it.each([
    { why: "a person", overrides: { agent: classifyUserAgent(CHROME) }, expected: { kind: "human", time: NOON } },
    {
      why: "a person fetching robots.txt",
      overrides: { agent: classifyUserAgent(CHROME), isRobotsTxt: true },
      expected: { kind: "human", time: NOON },
    },
    { why: "MODE=off", overrides: { mode: "off" as const }, expected: undefined },
    { why: "a host the edge does not protect", overrides: { served: false }, expected: undefined },
    { why: "no origin", overrides: { originUnusable: true }, expected: undefined },
  ])("$why -> $expected", ({ overrides, expected }) => {
    expect(recorded(overrides)).toEqual(expected);
  });

  it.each([
    { pathAndQuery: "/a?b=c", path: "/a" },
    { pathAndQuery: "/a", path: "/a" },
    { pathAndQuery: "/?", path: "/" },
    { pathAndQuery: `/${"x".repeat(600)}?q`, path: `/${"x".repeat(511)}…` },
  ])("recordedPath($pathAndQuery)", ({ pathAndQuery, path }) => {
    expect(recordedPath(pathAndQuery)).toBe(path);
  });

  it("a long method and many long tokens are cut", () => {
    const agent = classifyUserAgent(`${"A".repeat(100)}Bot/1.0`);
    const activity = recorded({ agent }, "X".repeat(40));
    const event = activity?.kind === "crawler" ? activity.event : undefined;
    expect(event?.method).toBe("X".repeat(16));
    expect(event?.token).toHaveLength(64);
  });
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const H0 = Date.UTC(2026, 10, 23, 10);
const count = (token: string, action: CountRow["action"], n: number, extra: Partial<CountRow> = {}): CountRow => ({
  token,
  category: null,
  verified: "unchecked",
  action,
  layer: "robots.txt",
  count: n,
  violations: 0,
  ...extra,
});
const series = (token: string | null, bucket: number, action: SeriesRow["action"], n: number): SeriesRow => ({
  token,
  bucket,
  action,
  count: n,
});

describe("summarizeActivity", () => {
  it("folds counts per crawler, per hour (zeros included), claimed vs verified", () => {
    const summary = summarizeActivity(
      {
        bucketMs: HOUR,
        counts: [
          count("GPTBot", "block", 3, { verified: "refuted", violations: 3, category: "ai-training" }),
          count("GPTBot", "block", 1, { verified: "verified", violations: 1, category: "ai-training" }),
          count("Googlebot", "pass", 5, { verified: "verified" }),
        ],
        otherNames: 0,
        series: [
          series(null, H0, "block", 3),
          series(null, H0 + HOUR, "pass", 5),
          series(null, H0 + 2 * HOUR, "block", 1),
          series("GPTBot", H0, "block", 3),
          series("GPTBot", H0 + 2 * HOUR, "block", 1),
          series(null, H0 - HOUR, "pass", 99), // before the window
        ],
        humans: [{ bucket: H0 + HOUR, count: 7 }],
      },
      { fromHour: H0, toHour: H0 + 2 * HOUR },
      "(other)",
    );
    expect(summary.bucket).toBe("hour");
    expect(summary.buckets).toEqual([
      "2026-11-23T10:00:00.000Z",
      "2026-11-23T11:00:00.000Z",
      "2026-11-23T12:00:00.000Z",
    ]);
    expect(summary.totals).toEqual({
      crawlerRequests: 9,
      humanRequests: 7,
      pass: 5,
      block: 4,
      report: 0,
      unavailable: 0,
      "rate-limited": 0,
      "serve-robots-txt": 0,
    });
    expect(summary.crawlers.map((crawler) => crawler.token)).toEqual(["Googlebot", "GPTBot"]);
    const gptbot = summary.crawlers[1];
    expect(gptbot).toMatchObject({
      category: "ai-training",
      requests: 4,
      verified: { verified: 1, refuted: 3, unverifiable: 0, unchecked: 0, disguised: 0 },
      violations: 4,
      layers: { "robots.txt": 4 },
    });
    expect(gptbot?.series.map((bucket) => bucket.block)).toEqual([3, 0, 1]);
    // Googlebot's series was not asked for: none, rather than zeros that would lie.
    expect(summary.crawlers[0]?.series).toEqual([]);
    // All crawlers together, hour by hour (the chart's "all crawlers").
    expect(summary.series.map((bucket) => [bucket.start.slice(11, 13), bucket.pass, bucket.block])).toEqual([
      ["10", 0, 3],
      ["11", 5, 0],
      ["12", 0, 1],
    ]);
    expect(summary.humans).toEqual({
      total: 7,
      series: [
        { start: "2026-11-23T10:00:00.000Z", count: 0 },
        { start: "2026-11-23T11:00:00.000Z", count: 7 },
        { start: "2026-11-23T12:00:00.000Z", count: 0 },
      ],
    });
  });

  it("a 30-day window comes in days (the first one partial), and all other names come last, counted", () => {
    const from = H0 - 29 * DAY;
    const day = (time: number) => time - (time % DAY);
    const summary = summarizeActivity(
      {
        bucketMs: DAY,
        counts: [count("(other)", "pass", 500), count("GPTBot", "block", 2, { category: "ai-training" })],
        otherNames: 480,
        series: [series(null, day(H0), "pass", 500), series(null, day(from), "block", 2)],
        humans: [],
      },
      { fromHour: from, toHour: H0 },
      "(other)",
    );
    expect(summary.bucket).toBe("day");
    expect(summary.buckets).toHaveLength(30);
    expect(summary.buckets[0]).toBe("2026-10-25T00:00:00.000Z");
    expect(summary.buckets.at(-1)).toBe("2026-11-23T00:00:00.000Z");
    expect(summary.series.at(-1)?.pass).toBe(500);
    expect(summary.series[0]?.block).toBe(2);
    expect(summary.crawlers.map((crawler) => [crawler.token, crawler.requests, crawler.names])).toEqual([
      ["GPTBot", 2, undefined],
      ["(other)", 500, 480],
    ]);
  });
});

const SETTINGS: ReplaySettings = {
  mode: "enforce",
  failOpen: false,
  blockStatus: 403,
  verifyCrawlers: "unknown",
  enforceRates: "honoured",
  usageSignals: "enforce",
};
const side = (text: string) => ({
  state: "ok" as const,
  matcher: compileRobots(parseRobotsTxt(text)),
  policy: undefined,
});
const request = (token: string, path: string, verified: VerifiedState = "unchecked") => ({
  time: NOON,
  token,
  tokens: [token],
  verified,
  method: "GET",
  path,
});

// Changes are listed newest first (replay judges the newest requests first, within its budget).
describe("replay", () => {
  it.each([
    {
      why: "a group for Googlebot opens /private/ to it, not to the impostor (judged under *)",
      live: "User-agent: *\nDisallow: /private/\n",
      draft: "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n",
      requests: [
        request("Googlebot", "/private/a", "verified"),
        request("Googlebot", "/private/a", "refuted"),
        request("Googlebot", "/private/a", "unverifiable"),
      ],
      // An unverifiable claim is still refused by `*`, now only because it is unproven (503).
      changed: [
        ["Googlebot", "/private/a", "block", "unavailable"],
        ["Googlebot", "/private/a", "block", "pass"],
      ],
    },
    {
      why: "a comment line added on top moves every line: no change",
      live: "User-agent: *\nDisallow: /private/\n",
      draft: "# new\nUser-agent: *\nDisallow: /private/\n",
      requests: [request("Googlebot", "/private/a"), request("bingbot", "/x")],
      changed: [],
    },
    {
      why: "Content-Usage train-ai=n refuses an ai-training crawler's allowed path",
      live: "User-agent: *\nAllow: /\n",
      draft: "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n",
      requests: [request("GPTBot", "/a"), request("Googlebot", "/a")],
      changed: [["GPTBot", "/a", "pass", "block"]],
    },
    {
      why: "AdsBot-Google ignores *: a * rule changes nothing for it",
      live: "User-agent: *\nAllow: /\n",
      draft: "User-agent: *\nDisallow: /\n",
      requests: [
        request("AdsBot-Google", "/a", "verified"),
        request("AdsBot-Google", "/b", "unverifiable"),
        request("FooBot", "/a"),
      ],
      // Only a verified AdsBot-Google is exempt from `*`.
      changed: [
        ["FooBot", "/a", "pass", "block"],
        ["AdsBot-Google", "/b", "pass", "unavailable"],
      ],
    },
  ])("$why", ({ live, draft, requests, changed }) => {
    const result = replay(requests, { live: side(live), draft: side(draft) }, SETTINGS);
    expect(result.requests).toBe(requests.length);
    expect(result.changedCount).toBe(changed.length);
    expect(
      result.changed.map((change) => [change.token, change.path, change.live.action, change.draft.action]),
    ).toEqual(changed);
  });

  it("a recorded /robots.txt fetch is served under any draft, never blocked (a policy route / included)", () => {
    const requests = [request("FooBot", "/robots.txt"), request("FooBot", "/%72obots.txt"), request("FooBot", "/x")];
    const blockAll = parsePolicy('{"routes":[{"pattern":"/","rules":[{"crawlers":["FooBot"],"action":"block"}]}]}');
    if (!blockAll.ok) throw new Error(blockAll.problems.join("; "));
    const open = side("User-agent: *\nAllow: /\n");
    const result = replay(requests, { live: open, draft: { ...open, policy: blockAll.value } }, SETTINGS);
    expect(result.changed.map((change) => change.path)).toEqual(["/x"]);
  });

  it("lists at most `limit` changes but counts them all", () => {
    const requests = Array.from({ length: 50 }, (_, i) => request("FooBot", `/p${i}`));
    const result = replay(
      requests,
      { live: side("User-agent: *\nAllow: /\n"), draft: side("User-agent: *\nDisallow: /\n") },
      SETTINGS,
      10,
    );
    expect(result.changedCount).toBe(50);
    expect(result.changed).toHaveLength(10);
    expect(result.crawlers).toEqual([{ token: "FooBot", requests: 50, changed: 50 }]);
  });
});
