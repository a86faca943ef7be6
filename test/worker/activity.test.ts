// Activity (issue #13) in the real runtime: what the edge records of each decision, what
// `GET activity` answers, the bounds of the ActivityLog object, and `POST replay` of drafts
// over the recorded requests. Expectations are literal: the requests below and what they
// must have produced.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityLog } from "../../src/worker/activity/object.ts";
import {
  admin,
  BINGBOT,
  call,
  CHROME,
  fakeOrigin,
  freshState,
  fromCrawler,
  GOOGLEBOT,
  GPTBOT,
  ORIGIN,
  storeCrawlerLists,
} from "./helpers.ts";

const ROBOTS = [
  "User-agent: *", //            1
  "Disallow: /private/", //      2
  "", //                         3
  "User-agent: GPTBot", //       4
  "Disallow: /", //              5
  "", //                         6
  "User-agent: bingbot", //      7
  "Disallow: /private/", //      8
  "Crawl-delay: 60", //          9
].join("\n");
const OFF = { VERIFY_CRAWLERS: "off" } as const;

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
  await admin("refresh", { method: "POST" });
});
afterEach(freshState);

interface ActivityAnswer {
  origin: string;
  recording: boolean;
  warning?: string;
  bucket: string;
  buckets: string[];
  problems: string[];
  totals: Record<string, number>;
  crawlers: {
    token: string;
    category: string | null;
    requests: number;
    total: Record<string, number>;
    verified: Record<string, number>;
    layers: Record<string, number>;
    violations: number;
    names?: number;
    series: ({ start: string } & Record<string, number>)[];
  }[];
  humans: { total: number };
  topBlockedPaths: { token: string; path: string; count: number }[];
  violations: { token: string; verified: string; path: string; count: number }[];
  recent: {
    token: string;
    verified: string;
    method: string;
    path: string;
    action: string;
    layer: string;
    line: number | null;
    rule: string | null;
    violation: boolean;
  }[];
}

async function activity(query = ""): Promise<ActivityAnswer> {
  const response = await admin(`activity${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

const crawler = (answer: ActivityAnswer, token: string) => answer.crawlers.find((entry) => entry.token === token);

describe("recording crawler decisions", () => {
  it("counts each crawler's decisions by action, layer and verified state; people only as a number", async () => {
    await call("/", { ua: GOOGLEBOT, env: OFF });
    await call("/private/report?session=s3cr3t&email=a@b.example", { ua: GOOGLEBOT, env: OFF });
    await call("/", { ua: GPTBOT, env: OFF });
    await call("/articles/1", { ua: GPTBOT, env: OFF });
    await call("/private/x", { ua: CHROME, env: OFF });
    await call("/", { ua: CHROME, env: OFF });
    await call("/", { ua: CHROME, env: OFF });

    const answer = await activity();
    expect(answer.origin).toBe(ORIGIN);
    expect(answer.recording).toBe(true);
    expect(answer.bucket).toBe("hour");
    expect(answer.buckets).toHaveLength(24);
    expect(answer.problems).toEqual([]);
    expect(answer.totals).toEqual({
      crawlerRequests: 4,
      humanRequests: 3,
      pass: 1,
      block: 3,
      report: 0,
      unavailable: 0,
      "rate-limited": 0,
      "serve-robots-txt": 0,
    });
    expect(answer.humans.total).toBe(3);
    expect(answer.crawlers.map((entry) => [entry.token, entry.requests])).toEqual([
      ["Googlebot", 2],
      ["GPTBot", 2],
    ]);
    expect(crawler(answer, "GPTBot")).toMatchObject({
      category: "ai-training",
      total: { pass: 0, block: 2, report: 0, unavailable: 0, "rate-limited": 0 },
      // VERIFY_CRAWLERS=off: the claims were taken as made, never recorded as verified.
      verified: { verified: 0, refuted: 0, unverifiable: 2, unchecked: 0, disguised: 0 },
      layers: { "robots.txt": 2 },
      violations: 2,
    });
    expect(crawler(answer, "Googlebot")).toMatchObject({
      category: "search-engine",
      total: { pass: 1, block: 1, report: 0, unavailable: 0, "rate-limited": 0 },
      violations: 1,
    });
    // The current hour holds everything, the hours before it nothing.
    expect(crawler(answer, "Googlebot")?.series.at(-1)).toMatchObject({ pass: 1, block: 1 });
    expect(crawler(answer, "Googlebot")?.series.at(0)).toMatchObject({ pass: 0, block: 0 });
    expect(answer.topBlockedPaths).toEqual([
      { token: "GPTBot", path: "/", count: 1 },
      { token: "GPTBot", path: "/articles/1", count: 1 },
      { token: "Googlebot", path: "/private/report", count: 1 },
    ]);
    expect(answer.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ token: "Googlebot", verified: "unverifiable", path: "/private/report", count: 1 }),
        expect.objectContaining({ token: "GPTBot", verified: "unverifiable", path: "/articles/1", count: 1 }),
      ]),
    );
    // The recent list: newest first, path without its query, the deciding line.
    expect(answer.recent.map((entry) => [entry.token, entry.method, entry.path, entry.action, entry.line])).toEqual([
      ["GPTBot", "GET", "/articles/1", "block", 5],
      ["GPTBot", "GET", "/", "block", 5],
      ["Googlebot", "GET", "/private/report", "block", 2],
      ["Googlebot", "GET", "/", "pass", null],
    ]);
    expect(answer.recent[2]).toMatchObject({ layer: "robots.txt", rule: "disallow: /private/", violation: true });
    // Nothing of the query, the people, or an address.
    const text = JSON.stringify(answer);
    for (const secret of ["s3cr3t", "email", "a@b.example", "Chrome", "cf-connecting-ip"])
      expect(text).not.toContain(secret);
  });

  it.each([
    {
      why: "a crawl pause answers 503: unavailable, layer pause",
      setUp: () => admin("pause", { method: "POST", body: { minutes: 10 } }),
      ua: GOOGLEBOT,
      path: "/",
      env: OFF,
      expected: { action: "unavailable", layer: "pause" },
    },
    {
      why: "MODE=report marks a disallowed path: report",
      setUp: async () => undefined,
      ua: GOOGLEBOT,
      path: "/private/a",
      env: { ...OFF, MODE: "report" },
      expected: { action: "report", layer: "robots.txt", line: 2, violation: true },
    },
    {
      why: "a policy rule decides: layer policy",
      setUp: async () => undefined,
      ua: GOOGLEBOT,
      path: "/shop/1",
      env: {
        ...OFF,
        POLICY: '{"routes":[{"pattern":"/shop/","rules":[{"crawlers":["Googlebot"],"action":"block"}]}]}',
      },
      expected: { action: "block", layer: "policy", rule: "policy /shop/: block", violation: false },
    },
    {
      why: "an impostor (GPTBot from an address not OpenAI's) with VERIFY_CRAWLERS=block",
      setUp: () =>
        env.ROBOTS.put(
          "crawler-ranges",
          JSON.stringify({ sources: { gptbot: { fetchedAt: Date.now(), cidrs: ["20.171.206.0/24"] } } }),
        ),
      ua: GPTBOT,
      path: "/",
      env: { VERIFY_CRAWLERS: "block" },
      headers: { "cf-connecting-ip": "203.0.113.9" },
      expected: { action: "block", layer: "verification", verified: "refuted", token: "GPTBot" },
    },
    {
      why: "an unverifiable claim (no list loaded yet) is recorded as what the decision used",
      setUp: async () => undefined,
      ua: GPTBOT,
      path: "/",
      env: { VERIFY_CRAWLERS: "block" },
      headers: { "cf-connecting-ip": "20.171.206.7" },
      expected: { action: "block", layer: "robots.txt", verified: "unverifiable", line: 5 },
    },
    {
      why: "GPTBot from OpenAI's published range is verified",
      setUp: () =>
        env.ROBOTS.put(
          "crawler-ranges",
          JSON.stringify({ sources: { gptbot: { fetchedAt: Date.now(), cidrs: ["20.171.206.0/24"] } } }),
        ),
      ua: GPTBOT,
      path: "/",
      env: { VERIFY_CRAWLERS: "block" },
      headers: { "cf-connecting-ip": "20.171.206.7" },
      expected: { action: "block", layer: "robots.txt", verified: "verified", line: 5, violation: true },
    },
  ])("$why", async ({ setUp, ua, path, env: vars, headers, expected }) => {
    await setUp();
    await call(path, { ua, env: vars, ...(headers && { headers }) });
    const [recent] = (await activity()).recent;
    expect(recent).toMatchObject(expected);
  });

  it("a second request inside Crawl-delay is counted as rate-limited", async () => {
    expect((await call("/a", { ua: BINGBOT, env: OFF })).status).toBe(200);
    expect((await call("/b", { ua: BINGBOT, env: OFF })).status).toBe(429);
    expect(crawler(await activity(), "bingbot")?.total).toEqual({
      pass: 1,
      block: 0,
      report: 0,
      unavailable: 0,
      "rate-limited": 1,
      "serve-robots-txt": 0,
    });
  });

  it.each([
    { why: "MODE=off judges nothing", vars: { ...OFF, MODE: "off" } },
    { why: "RECORD_ACTIVITY=false records nothing", vars: { ...OFF, RECORD_ACTIVITY: "false" } },
  ])("nothing recorded: $why", async ({ vars }) => {
    await call("/private/x", { ua: GOOGLEBOT, env: vars });
    await call("/", { ua: CHROME, env: vars });
    const answer = await activity();
    expect(answer.totals["crawlerRequests"]).toBe(0);
    expect(answer.humans.total).toBe(0);
    expect(answer.recent).toEqual([]);
  });

  it("a typo in MODE enforces its default, and activity records the block the edge made", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect((await call("/private/x", { ua: GOOGLEBOT, env: { ...OFF, MODE: "enforse" } })).status).toBe(403);
    expect(crawler(await activity(), "Googlebot")?.total).toMatchObject({ pass: 0, block: 1 });
  });

  it("GET status says whether activity is recorded", async () => {
    const on = (await (await admin("status")).json()) as { activity: unknown; policy: unknown };
    expect(on.activity).toEqual({ recording: true });
    expect(on.policy).toEqual({ version: 0, source: "var", stale: false, fallback: null });
    const off = (await (await admin("status", { env: { RECORD_ACTIVITY: "false" } })).json()) as { activity: unknown };
    expect(off.activity).toEqual({ recording: false });
  });

  it("says when recording is off", async () => {
    const answer = (await (await admin("activity", { env: { RECORD_ACTIVITY: "false" } })).json()) as ActivityAnswer;
    expect(answer.recording).toBe(false);
    expect(answer.warning).toBe("RECORD_ACTIVITY is false: nothing new is recorded");
  });
});

// Issue 31 (low): anyone could make the page say Googlebot ignores robots.txt by sending its
// name from another address. Counted per verification standing: a crawler's row holds only
// requests not refuted; refuted claims are the impostors' row, whatever name they used.
describe("violations per verification standing", () => {
  it("an impostor's disallowed requests are the impostors' row, never Googlebot's", async () => {
    await storeCrawlerLists();
    const impostor = { ua: GOOGLEBOT, headers: { "cf-connecting-ip": "203.0.113.9" } };
    for (const path of ["/private/a", "/private/b"])
      await call(path, { ...impostor, env: { VERIFY_CRAWLERS: "report" } });
    await call("/private/c", { ua: GOOGLEBOT, headers: fromCrawler("googlebot"), env: { MODE: "report" } });
    const answer = await activity();
    const rows = answer.crawlers.map((entry) => ({
      token: entry.token,
      requests: entry.requests,
      refuted: entry.verified["refuted"],
      violations: entry.violations,
    }));
    expect(rows).toEqual([
      { token: "(refuted claims)", requests: 2, refuted: 2, violations: 2 },
      { token: "Googlebot", requests: 1, refuted: 0, violations: 1 },
    ]);
    expect(answer.violations.map(({ token, verified, path, count }) => [token, verified, path, count])).toEqual([
      ["Googlebot", "verified", "/private/c", 1],
      ["(refuted claims)", "refuted", "/private/b", 1],
      ["(refuted claims)", "refuted", "/private/a", 1],
    ]);
  });
});

describe("GET activity: parameters", () => {
  it.each([
    { query: "?hours=0", error: 'hours must be a whole number from 1 to 720, got "0"' },
    { query: "?hours=721", error: 'hours must be a whole number from 1 to 720, got "721"' },
    { query: "?hours=1e3", error: 'hours must be a whole number from 1 to 720, got "1e3"' },
    { query: "?hours=-1", error: 'hours must be a whole number from 1 to 720, got "-1"' },
    { query: "?recent=1001", error: 'recent must be a whole number from 0 to 1000, got "1001"' },
    { query: "?recent=%20", error: 'recent must be a whole number from 0 to 1000, got " "' },
  ])("$query -> 400", async ({ query, error }) => {
    const response = await admin(`activity${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error });
  });

  it.each([
    { query: "?origin=https://elsewhere.example", status: 404 },
    { query: "?origin=javascript:alert(1)", status: 400 },
    { query: "?origin=//origin.test", status: 400 },
  ])("origin $query -> $status (only an origin this edge serves)", async ({ query, status }) => {
    expect((await admin(`activity${query}`)).status).toBe(status);
  });

  it("needs the admin token", async () => {
    expect((await admin("activity", { token: null })).status).toBe(401);
    expect((await admin("replay", { method: "POST", token: "wrong-token-0123456", body: { draft: "" } })).status).toBe(
      401,
    );
  });

  it("hours=1 is the current hour only; recent=2 the two newest requests", async () => {
    for (const path of ["/1", "/2", "/3"]) await call(path, { ua: GOOGLEBOT, env: OFF });
    const answer = await activity("?hours=1&recent=2");
    expect(answer.buckets).toHaveLength(1);
    expect(answer.recent.map((entry) => entry.path)).toEqual(["/3", "/2"]);
  });
});

const stub = () => env.ACTIVITY.get(env.ACTIVITY.idFromName(ORIGIN));

const event = (time: number, token: string, path: string) => ({
  time,
  token,
  tokens: [token],
  category: null,
  verified: "unchecked" as const,
  method: "GET",
  path,
  action: "pass" as const,
  layer: "robots.txt" as const,
  line: null,
  rule: null,
  violation: false,
});

const hourly = (hour: number, token: string) => ({
  hour,
  token,
  category: null,
  verified: "unchecked" as const,
  action: "pass" as const,
  layer: "robots.txt" as const,
  count: 1,
  violations: 0,
});

const NOW = Date.UTC(2026, 10, 23, 12, 30);
const HOUR0 = NOW - (NOW % 3_600_000);
const sqlCount = (table: string) =>
  runInDurableObject(
    stub(),
    async (_object: ActivityLog, state) =>
      state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n,
  );

describe("the ActivityLog object stays bounded", () => {
  it("keeps 30 days of hours, and the last 500 requests per crawler history", async () => {
    const recent = Array.from({ length: 600 }, (_, i) => event(NOW - 600 + i, "FooBot", `/p${i}`));
    await stub().record(
      { hourly: [hourly(HOUR0 - 30 * 86_400_000, "Old"), hourly(HOUR0 - 29 * 86_400_000, "Kept")], humans: [], recent },
      NOW,
    );
    const kept = await stub().recentRequests(10_000, NOW);
    expect([kept.length, kept[0]?.path, kept.at(-1)?.path]).toEqual([500, "/p100", "/p599"]);
    const tokens = await runInDurableObject(stub(), async (_object: ActivityLog, state) =>
      state.storage.sql
        .exec<{ token: string }>("SELECT token FROM hourly_counts ORDER BY hour")
        .toArray()
        .map((row) => row.token),
    );
    expect(tokens).toEqual(["Kept"]);
  });

  it("a flood under one name evicts no other crawler's history", async () => {
    const gptbot = { ...event(NOW - 5_000, "GPTBot", "/kept"), category: "ai-training" as const };
    await stub().record({ hourly: [], humans: [], recent: [gptbot] }, NOW);
    const flood = Array.from({ length: 10_000 }, (_, i) => event(NOW - 4_000 + i / 10, "Flood", `/f${i}`));
    for (let i = 0; i < flood.length; i += 1_000)
      await stub().record({ hourly: [], humans: [], recent: flood.slice(i, i + 1_000) }, NOW);
    const kept = await stub().recentRequests(10_000, NOW);
    expect(kept.filter((entry) => entry.token === "GPTBot").map((entry) => entry.path)).toEqual(["/kept"]);
    expect(kept.filter((entry) => entry.token === "Flood")).toHaveLength(500);
  });

  it("one hour holds at most 200 invented names; later ones count as (other); known and verified crawlers never", async () => {
    const rows = Array.from({ length: 250 }, (_, i) => hourly(HOUR0, `Bot${i}`));
    await stub().record({ hourly: rows, humans: [], recent: [] }, NOW);
    await stub().record(
      {
        hourly: [
          hourly(HOUR0, "Bot3"),
          hourly(HOUR0, "Bot999"),
          { ...hourly(HOUR0, "GPTBot"), category: "ai-training" },
          { ...hourly(HOUR0, "NewVerifiedBot"), verified: "verified" as const },
        ],
        humans: [],
        recent: [],
      },
      NOW,
    );
    const stored = await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    const tokens = new Map<string, number>();
    for (const row of stored.counts) tokens.set(row.token, (tokens.get(row.token) ?? 0) + row.count);
    // Shown: GPTBot and the verified name, the 50 busiest invented names (Bot3 with 2 first); the rest as one.
    expect(tokens.get("GPTBot")).toBe(1);
    expect(tokens.get("NewVerifiedBot")).toBe(1);
    expect(tokens.get("Bot3")).toBe(2);
    expect(tokens.size).toBe(2 + 50 + 1);
    expect(tokens.get("(other)")).toBe(250 + 2 - 50 - 1);
    // The 150 invented names not shown; the 52 folded into (other) when they were written are not named at all.
    expect(stored.otherNames).toBe(200 - 50);
  });

  it("writes per flush, not per request: batches wait in memory until the write", async () => {
    for (let i = 0; i < 20; i++)
      await stub().record({ hourly: [{ ...hourly(HOUR0, "Bingbot"), count: 50 }], humans: [], recent: [] }, NOW);
    expect(await sqlCount("hourly_counts")).toBe(0);
    const read = await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    expect(read.counts).toEqual([expect.objectContaining({ token: "Bingbot", count: 1_000 })]);
    expect(await sqlCount("hourly_counts")).toBe(1);
  });

  it("an unknown stored action is a visible problem, never read as a pass", async () => {
    await stub().record({ hourly: [hourly(HOUR0, "Bingbot")], humans: [], recent: [] }, NOW);
    await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    await runInDurableObject(stub(), async (_object: ActivityLog, state) => {
      state.storage.sql.exec(
        "INSERT INTO hourly_counts VALUES (?, 'Bingbot', '', 'unchecked', 'teleport', 'robots.txt', 7, 0)",
        HOUR0,
      );
    });
    const read = await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    expect(read.counts.map((row) => [row.action, row.count])).toEqual([["pass", 1]]);
    expect(read.problems).toEqual([
      'stored action "teleport" is not one this version knows (pass, report, block, unavailable, rate-limited, serve-robots-txt): those counts are not shown',
    ]);
  });

  it("names an earlier version stored read back as what they meant (version 1: rateLimited, impostor)", async () => {
    await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    await runInDurableObject(stub(), async (_object: ActivityLog, state) => {
      state.storage.sql.exec(
        "INSERT INTO hourly_counts VALUES (?, 'Bingbot', '', 'impostor', 'rateLimited', 'rate', 3, 0)",
        HOUR0,
      );
    });
    const read = await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    expect(read.counts.map((row) => [row.action, row.verified, row.count])).toEqual([["rate-limited", "refuted", 3]]);
    expect(read.problems).toEqual([]);
  });

  it("the 30-day view with 200 new names an hour answers bounded: named crawlers shown, one (other) entry, days", async () => {
    // 720 hours × 200 invented names, written straight into SQLite (bench/activity.bench.ts times this read).
    await stub().record(
      { hourly: [{ ...hourly(HOUR0, "GPTBot"), category: "ai-training" }], humans: [], recent: [] },
      NOW,
    );
    await stub().read({ fromHour: HOUR0, toHour: HOUR0 }, 0, NOW);
    await runInDurableObject(stub(), async (_object: ActivityLog, state) => {
      state.storage.sql.exec(
        `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < 719),
                        b(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM b WHERE i < 199)
         INSERT INTO hourly_counts SELECT ? - n * 3600000, 'Invented-' || n || '-' || i, '', 'unchecked', 'pass',
                                          'robots.txt', 1, 0 FROM h, b`,
        HOUR0,
      );
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const response = await admin("activity?hours=720&recent=0");
    vi.useRealTimers();
    const text = await response.text();
    const answer = JSON.parse(text) as ActivityAnswer;
    // 720 hours from 13:00 on 24 October to 12:00 on 23 November: 31 days, the first and last partial.
    expect(answer.bucket).toBe("day");
    expect([answer.buckets.length, answer.buckets[0], answer.buckets.at(-1)]).toEqual([
      31,
      "2026-10-24T00:00:00.000Z",
      "2026-11-23T00:00:00.000Z",
    ]);
    expect(answer.totals["crawlerRequests"]).toBe(144_001);
    expect(answer.crawlers).toHaveLength(1 + 50 + 1);
    expect(answer.crawlers[0]).toMatchObject({ token: "GPTBot", requests: 1 });
    expect(answer.crawlers.at(-1)).toMatchObject({ token: "(other)", requests: 143_950, names: 143_950 });
    // One count per action of the vocabulary, per day and shown crawler: bounded by what is shown, not by the names.
    expect(text.length).toBeLessThan(250_000);
  });
});

const record = async () => {
  await call("/private/a", { ua: GOOGLEBOT, env: OFF }); // block, line 2
  await call("/public", { ua: GOOGLEBOT, env: OFF }); // pass
  await call("/private/b", { ua: BINGBOT, env: OFF }); // block, line 8
  await call("/news", { ua: GPTBOT, env: OFF }); // block, line 5
};

describe("POST replay", () => {
  it("a draft that opens /private/ to all but bingbot and closes /public changes two decisions", async () => {
    await record();
    const draft = [
      "# draft", //                  1
      "User-agent: *", //            2
      "Disallow: /public", //        3
      "", //                         4
      "User-agent: GPTBot", //       5
      "Disallow: /", //              6
      "", //                         7
      "User-agent: bingbot", //      8
      "Disallow: /private/", //      9
    ].join("\n");
    const response = await admin("replay", { method: "POST", body: { draft }, env: OFF });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      requests: number;
      changedCount: number;
      changed: { token: string; method: string; path: string; live: unknown; draft: unknown }[];
      crawlers: { token: string; requests: number; changed: number }[];
    };
    expect(answer.requests).toBe(4);
    expect(answer).toMatchObject({ recorded: 4, partial: false });
    expect(answer).not.toHaveProperty("note");
    // GPTBot and bingbot are blocked as before, by lines that moved: not a change.
    expect(answer.changedCount).toBe(2);
    // Newest first: replay judges the newest requests first, so a partial answer is the latest.
    expect(answer.changed).toEqual([
      {
        time: expect.any(String),
        token: "Googlebot",
        method: "GET",
        path: "/public",
        live: { action: "pass", layer: "robots.txt", line: null, rule: null },
        draft: { action: "block", layer: "robots.txt", line: 3, rule: "disallow: /public" },
      },
      {
        time: expect.any(String),
        token: "Googlebot",
        method: "GET",
        path: "/private/a",
        live: { action: "block", layer: "robots.txt", line: 2, rule: "disallow: /private/" },
        draft: { action: "pass", layer: "robots.txt", line: null, rule: null },
      },
    ]);
    expect(answer.crawlers).toEqual([
      { token: "Googlebot", requests: 2, changed: 2 },
      { token: "bingbot", requests: 1, changed: 0 },
      { token: "GPTBot", requests: 1, changed: 0 },
    ]);
  });

  it("a draft policy alone, judged over the live robots.txt", async () => {
    await record();
    const policy = {
      routes: [{ pattern: "/public", rules: [{ crawlers: ["category:search-engine"], action: "block" }] }],
    };
    const answer = (await (await admin("replay", { method: "POST", body: { policy }, env: OFF })).json()) as {
      requests: number;
      changedCount: number;
      changed: { token: string; path: string; live: { action: string }; draft: { action: string; layer: string } }[];
    };
    expect(answer.requests).toBe(4);
    expect(answer.changedCount).toBe(1);
    expect(answer.changed[0]).toMatchObject({
      token: "Googlebot",
      path: "/public",
      live: { action: "pass" },
      draft: { action: "block", layer: "policy" },
    });
  });

  it.each([
    { why: "not JSON", body: "{", status: 400, error: "the body must be JSON" },
    {
      why: "an array",
      body: "[]",
      status: 400,
      error: 'the body must be a JSON object {"draft"?: "<robots.txt text>", "policy"?: {…}}',
    },
    {
      why: "neither draft nor policy",
      body: "{}",
      status: 400,
      error: 'give "draft" (robots.txt text), "policy", or both',
    },
    { why: "a draft that is not text", body: '{"draft": 42}', status: 400, error: '"draft" must be robots.txt text' },
    {
      why: "a policy with a problem",
      body: '{"policy": {"routes": [{"pattern": "nope", "rules": []}]}}',
      status: 400,
      error: "policy: ",
    },
    {
      why: "a draft policy over the live policy's 64 KiB cap",
      body: JSON.stringify({
        policy: { routes: Array.from({ length: 1600 }, (_, n) => ({ pattern: `*/s${n}*.pdf$`, mode: "report" })) },
      }),
      status: 400,
      error: "bytes as JSON; a policy may be at most 65536",
    },
    {
      why: "a body over 1 MiB",
      body: JSON.stringify({ draft: "x".repeat(1_048_577) }),
      status: 413,
      error: "the body must be at most 1048576 bytes",
    },
  ])("refused: $why", async ({ body, status, error }) => {
    const response = await call("/__robots/replay", {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toContain(error);
  });
});
