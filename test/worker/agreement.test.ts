// One record, five renderings (issue 25): for each row of the decision's steps (the precedence
// in src/policy/edge-decision.ts), the edge answers a real request, and its decision log line,
// its activity event, GET explain and POST test say the SAME action, layer, deciding line and
// verification as the edge did. Every expectation is written here literally.
//
// What explain cannot know is left out by design (policy/explain.ts): the rate limiter's state
// (a 429 depends on the request before it) and a signature (explain has no signed request).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  admin,
  BINGBOT,
  call,
  CHROME,
  CRAWLER_ADDRESSES,
  fakeOrigin,
  freshState,
  GOOGLEBOT,
  GPTBOT,
  storeCrawlerLists,
} from "./helpers.ts";

const ROBOTS = [
  "User-agent: *", //               1
  "Disallow: /private/", //         2
  "Content-Usage: train-ai=n", //   3
  "", //                            4
  "User-agent: Googlebot", //       5
  "Disallow: /nogoogle/", //        6
  "", //                            7
  "User-agent: bingbot", //         8
  "Disallow: /private/", //         9
].join("\n");

const POLICY = JSON.stringify({
  routes: [
    {
      pattern: "/articles/",
      mode: "enforce",
      blockStatus: 451,
      rules: [{ crawlers: ["category:ai-training"], action: "block" }],
    },
    { pattern: "/open-route/", mode: "off" },
    { pattern: "/signed/", rules: [{ crawlers: ["bingbot"], action: "allow", signature: "required" }] },
  ],
});

const OFF = { VERIFY_CRAWLERS: "off" } as const;
const GOOGLE_ADDRESS = CRAWLER_ADDRESSES.googlebot;
const NOT_GOOGLE = "203.0.113.9";

interface Row {
  readonly why: string;
  readonly env: Partial<Env>;
  readonly paused?: boolean;
  readonly ua: string;
  readonly path: string;
  /** The client's address (the edge's CF-Connecting-IP; explain's and the tester's `ip`). */
  readonly ip?: string;
  /** What the edge answers. */
  readonly status: number;
  /** What every rendering says of the record. */
  readonly action: string;
  readonly layer: string;
  readonly line: number | null;
  readonly rule: string | null;
  readonly verification: string;
  /** The activity event's `verified` state, where it says more than the status (`disguised`: verified by a crawler-only list). */
  readonly activityVerified?: string;
  /** Whether a decision log line is written (crawler decisions only). */
  readonly logged: boolean;
  /** What activity records: a crawler event, a person's count, or nothing (unjudged). */
  readonly activity: "crawler" | "human" | "none";
}

const rows: Row[] = [
  {
    why: "enforce: a robots.txt rule of the crawler's own group",
    env: { ...OFF, POLICY },
    ua: GOOGLEBOT,
    path: "/nogoogle/x",
    status: 403,
    action: "block",
    layer: "robots.txt",
    line: 6,
    rule: "disallow: /nogoogle/",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "enforce: the crawler's own group allows what `*` refuses (claims taken as made)",
    env: OFF,
    ua: GOOGLEBOT,
    path: "/private/x",
    status: 200,
    action: "pass",
    layer: "robots.txt",
    line: null,
    rule: null,
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "enforce: a usage line refuses a training crawler on an allowed path",
    env: OFF,
    ua: GPTBOT,
    path: "/blog/x",
    status: 403,
    action: "block",
    layer: "usage-signal",
    line: 3,
    rule: "content-usage: train-ai",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "enforce: a policy route's rule names the crawler's category (its route's block status)",
    env: { ...OFF, POLICY },
    ua: GPTBOT,
    path: "/articles/1",
    status: 451,
    action: "block",
    layer: "policy",
    line: null,
    rule: "policy /articles/: block",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a policy route in mode off passes what robots.txt and usage lines would refuse",
    env: { ...OFF, POLICY },
    ua: GPTBOT,
    path: "/open-route/x",
    status: 200,
    action: "pass",
    layer: "policy",
    line: null,
    rule: "policy /open-route/: mode off",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a policy rule asking for a signature, none given: 403 asking for one",
    env: { ...OFF, POLICY },
    ua: BINGBOT,
    path: "/signed/x",
    status: 403,
    action: "block",
    layer: "signature",
    line: null,
    rule: "policy /signed/: allow",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "report: the rule that would block, marked",
    env: { ...OFF, MODE: "report" },
    ua: GOOGLEBOT,
    path: "/nogoogle/x",
    status: 200,
    action: "report",
    layer: "robots.txt",
    line: 6,
    rule: "disallow: /nogoogle/",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "off: forwarded unjudged, nothing logged or recorded",
    env: { ...OFF, MODE: "off" },
    ua: GOOGLEBOT,
    path: "/nogoogle/x",
    status: 200,
    action: "pass",
    layer: "mode-off",
    line: null,
    rule: null,
    verification: "unverifiable",
    logged: false,
    activity: "none",
  },
  {
    why: "off over a route in enforce: the kill switch wins",
    env: { ...OFF, MODE: "off", POLICY },
    ua: GPTBOT,
    path: "/articles/1",
    status: 200,
    action: "pass",
    layer: "mode-off",
    line: null,
    rule: null,
    verification: "unverifiable",
    logged: false,
    activity: "none",
  },
  {
    why: "a typo in MODE: its default (enforce) stands in",
    env: { ...OFF, MODE: "enforse" },
    ua: GOOGLEBOT,
    path: "/nogoogle/x",
    status: 403,
    action: "block",
    layer: "robots.txt",
    line: 6,
    rule: "disallow: /nogoogle/",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a crawl pause: 503 for a crawler",
    env: OFF,
    paused: true,
    ua: GOOGLEBOT,
    path: "/private/x",
    status: 503,
    action: "unavailable",
    layer: "pause",
    line: null,
    rule: null,
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a crawl pause: a person passes",
    env: OFF,
    paused: true,
    ua: CHROME,
    path: "/private/x",
    status: 200,
    action: "pass",
    layer: "human",
    line: null,
    rule: null,
    verification: "unverifiable",
    logged: false,
    activity: "human",
  },
  {
    why: "robots.txt, served by the edge",
    env: OFF,
    ua: GOOGLEBOT,
    path: "/robots.txt",
    status: 200,
    action: "serve-robots-txt",
    layer: "robots.txt-file",
    line: null,
    rule: null,
    verification: "unverifiable",
    logged: false,
    activity: "crawler",
  },
  {
    why: "an unverifiable claim (no address) that only `*` refuses: 503, not 403",
    env: { VERIFY_CRAWLERS: "unknown" },
    ua: GOOGLEBOT,
    path: "/private/x",
    status: 503,
    action: "unavailable",
    layer: "unproven-claim",
    line: 2,
    rule: "disallow: /private/",
    verification: "unverifiable",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a verified claim (an address in Google's list): its own group",
    env: { VERIFY_CRAWLERS: "unknown" },
    ua: GOOGLEBOT,
    path: "/private/x",
    ip: GOOGLE_ADDRESS,
    status: 200,
    action: "pass",
    layer: "robots.txt",
    line: null,
    rule: null,
    verification: "verified",
    logged: true,
    activity: "crawler",
  },
  {
    why: "an impostor under VERIFY_CRAWLERS=unknown: an anonymous bot under `*`",
    env: { VERIFY_CRAWLERS: "unknown" },
    ua: GOOGLEBOT,
    path: "/private/x",
    ip: NOT_GOOGLE,
    status: 403,
    action: "block",
    layer: "robots.txt",
    line: 2,
    rule: "disallow: /private/",
    verification: "refuted",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a browser from a crawler-only list (enforce): that crawler in disguise, whose usage line refuses",
    env: { DISGUISED_CRAWLERS: "enforce" },
    ua: CHROME,
    path: "/blog/x",
    ip: CRAWLER_ADDRESSES.gptbot,
    status: 403,
    action: "block",
    layer: "usage-signal",
    line: 3,
    rule: "content-usage: train-ai",
    verification: "verified",
    activityVerified: "disguised",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a tool's User-Agent from a crawler-only list (enforce): judged as that crawler too, whose usage line refuses",
    env: { DISGUISED_CRAWLERS: "enforce" },
    ua: "curl/8.5.0",
    path: "/blog/x",
    ip: CRAWLER_ADDRESSES.gptbot,
    status: 403,
    action: "block",
    layer: "usage-signal",
    line: 3,
    rule: "content-usage: train-ai",
    verification: "verified",
    activityVerified: "disguised",
    logged: true,
    activity: "crawler",
  },
  {
    why: "a tool's User-Agent from a crawler-only list under report (the default): that crawler's refusal only marked",
    env: {},
    ua: "curl/8.5.0",
    path: "/blog/x",
    ip: CRAWLER_ADDRESSES.gptbot,
    status: 200,
    action: "report",
    layer: "usage-signal",
    line: 3,
    rule: "content-usage: train-ai",
    verification: "verified",
    activityVerified: "disguised",
    logged: true,
    activity: "crawler",
  },
  {
    why: "an impostor under VERIFY_CRAWLERS=block: 403 for the claim",
    env: { VERIFY_CRAWLERS: "block" },
    ua: GOOGLEBOT,
    path: "/open",
    ip: NOT_GOOGLE,
    status: 403,
    action: "block",
    layer: "verification",
    line: null,
    rule: null,
    verification: "refuted",
    logged: true,
    activity: "crawler",
  },
];

/** The four fields every rendering states, as one comparable value. */
interface Said {
  readonly action: unknown;
  readonly layer: unknown;
  readonly line: unknown;
  readonly rule: unknown;
  readonly verification: unknown;
}

/** explain's and the tester's answer, as their fields say it. */
function saidByExplanation(answer: Record<string, unknown>): Said {
  const action = answer["action"] as { action: string };
  const line = answer["line"] as { line: number | null; text: string } | null;
  const verification = answer["verification"] as { status: string };
  return {
    action: action.action,
    layer: answer["layer"],
    line: line?.line ?? null,
    rule: line?.text ?? null,
    verification: verification.status,
  };
}

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
  await storeCrawlerLists();
});
afterEach(freshState);

describe("the edge, its log line, its activity event, explain and the tester say the same", () => {
  it.each(rows)("$why: $status $action by $layer", async (row) => {
    const { env } = row;
    expect((await admin("refresh", { method: "POST", env })).status).toBe(200);
    if (row.paused) {
      expect((await admin("pause", { method: "POST", body: { minutes: 10, retryAfter: 120 }, env })).status).toBe(200);
    }
    const expected: Said = {
      action: row.action,
      layer: row.layer,
      line: row.line,
      rule: row.rule,
      verification: row.verification,
    };

    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const headers = row.ip ? { "cf-connecting-ip": row.ip } : undefined;
    const response = await call(row.path, { ua: row.ua, env, ...(headers && { headers }) });
    expect(response.status).toBe(row.status);
    const decisions = log.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((line) => line["event"] === "robots-edge.decision");
    log.mockRestore();
    if (row.logged) {
      expect(decisions).toHaveLength(1);
      const [logged] = decisions as [Record<string, unknown>];
      expect({
        action: logged["action"],
        layer: logged["layer"],
        line: logged["line"],
        rule: logged["rule"],
        verification: (logged["verification"] as { status: string }).status,
      }).toEqual(expected);
      expect(logged["status"]).toBe(row.action === "pass" || row.action === "report" ? null : row.status);
    } else {
      expect(decisions).toEqual([]);
    }

    const activity = (await (await admin("activity?recent=5", { env })).json()) as {
      totals: { humanRequests: number; crawlerRequests: number };
      recent: Record<string, unknown>[];
    };
    if (row.activity === "crawler") {
      expect(activity.totals).toMatchObject({ crawlerRequests: 1, humanRequests: 0 });
      const [event] = activity.recent as [Record<string, unknown>];
      expect({
        action: event["action"],
        layer: event["layer"],
        line: event["line"],
        rule: event["rule"],
        verification: event["verified"],
      }).toEqual({ ...expected, verification: row.activityVerified ?? row.verification });
    } else {
      expect(activity.totals).toMatchObject({
        crawlerRequests: 0,
        humanRequests: row.activity === "human" ? 1 : 0,
      });
    }

    const query = new URLSearchParams({ ua: row.ua, url: row.path, ...(row.ip && { ip: row.ip }) });
    const explained = await admin(`explain?${query}`, { env });
    expect(explained.status).toBe(200);
    const explanation = (await explained.json()) as Record<string, unknown>;
    expect(saidByExplanation(explanation)).toEqual(expected);

    const body = { ua: row.ua, urls: [row.path], ...(row.ip && { ip: row.ip }) };
    const tested = await admin("test", { method: "POST", body, env });
    expect(tested.status).toBe(200);
    const [result] = ((await tested.json()) as { results: { live: Record<string, unknown> }[] }).results;
    expect(saidByExplanation(result?.live ?? {})).toEqual(expected);
  });
});

describe("the tester's inputs", () => {
  it.each(["crawl-66-249-64-7.googlebot.com", "https://66.249.64.7/", "66.249.64.7.8"])(
    "the tester's ip is an address, or 400: %j",
    async (ip) => {
      await admin("refresh", { method: "POST" });
      const tested = await admin("test", { method: "POST", body: { ua: GOOGLEBOT, urls: ["/"], ip } });
      expect(tested.status).toBe(400);
      expect(await tested.json()).toMatchObject({ error: '"ip" must be an IPv4 or IPv6 address' });
    },
  );
});
