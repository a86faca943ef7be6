// What each operator gives back (issue 24, part 2) in the real runtime: people referred by an
// operator's products counted for that operator (and nobody else), crawls and the bytes passed
// to them, GET activity's `operators`, and a policy rule that paces an operator whose recorded
// crawls per referral exceed its bound. Expectations are literal: the requests below and what
// they must have produced.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityLog } from "../../src/worker/activity/object.ts";
import {
  admin,
  call,
  CHROME,
  freshState,
  fromCrawler,
  GOOGLEBOT,
  GPTBOT,
  ORIGIN,
  storeCrawlerLists,
} from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const PAGE_BYTES = 1_234;

/** The origin: robots.txt, and every page PAGE_BYTES long with its Content-Length. */
function origin(): void {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(new Request(input, init).url);
    if (url.pathname === "/robots.txt") return new Response(ROBOTS);
    return new Response("x".repeat(PAGE_BYTES), { headers: { "content-length": String(PAGE_BYTES) } });
  });
}

beforeEach(async () => {
  await freshState();
  origin();
  await admin("refresh", { method: "POST" });
});
afterEach(freshState);

interface OperatorRow {
  operator: string;
  crawls: number;
  verified: number;
  bytes: number;
  referrals: number;
  crawlsPerReferral: number | null;
  series: { start: string; crawls: number; referrals: number }[];
}

async function operators(): Promise<OperatorRow[]> {
  const response = await admin("activity");
  expect(response.status).toBe(200);
  return ((await response.json()) as { operators: OperatorRow[] }).operators;
}

const person = (path: string, referer?: string) =>
  call(path, { ua: CHROME, ...(referer !== undefined && { headers: { referer } }) });

describe("referrals counted and attributed", () => {
  it("Referer and utm_source name the operator; a look-alike domain names nobody; nothing of them is kept", async () => {
    expect((await person("/a", "https://www.google.de/")).status).toBe(200);
    await person("/b", "https://www.google.com/search?q=secret+words");
    await person("/c", "https://chatgpt.com/");
    await person("/d?utm_source=chatgpt.com&session=s3cr3t");
    await person("/e", "https://evil-google.com/");
    await person("/f", "https://google.com.evil.net/");
    await person("/g?utm_source=chatgpt.com.evil.net");
    await person("/h");
    await call("/i", { ua: CHROME, method: "POST", headers: { referer: "https://www.bing.com/" } });

    const rows = await operators();
    expect(rows.map(({ operator, crawls, referrals }) => [operator, crawls, referrals])).toEqual([
      ["Google", 0, 2],
      ["OpenAI", 0, 2],
    ]);
    expect(rows[0]?.series.at(-1)).toMatchObject({ crawls: 0, referrals: 2 });
    const answer = JSON.stringify(await (await admin("activity")).json());
    expect(answer).toContain('"humanRequests":9');
    // The stored rows hold operator names and numbers: no referrer, query, or address.
    const stored = await runInDurableObject(
      env.ACTIVITY.get(env.ACTIVITY.idFromName(ORIGIN)),
      async (_object: ActivityLog, state) =>
        JSON.stringify(state.storage.sql.exec("SELECT * FROM operator_counts").toArray()),
    );
    for (const text of [answer, stored]) {
      for (const secret of ["google.de", "secret", "chatgpt.com", "s3cr3t", "evil"]) expect(text).not.toContain(secret);
    }
  });

  it("crawls of an operator's crawlers answered with content, with their bytes; a refused one is no crawl; an impostor counts for nobody", async () => {
    await storeCrawlerLists();
    await call("/a", { ua: GPTBOT, headers: fromCrawler("gptbot") });
    await call("/b", { ua: GPTBOT, headers: fromCrawler("gptbot") });
    await call("/private/x", { ua: GPTBOT, headers: fromCrawler("gptbot") });
    await call("/c", { ua: GPTBOT, headers: { "cf-connecting-ip": "203.0.113.9" } });
    await call("/d", { ua: GOOGLEBOT, env: { VERIFY_CRAWLERS: "off" } });
    await person("/e", "https://chatgpt.com/");

    expect(
      (await operators()).map(({ operator, crawls, verified, bytes, referrals, crawlsPerReferral }) => ({
        operator,
        crawls,
        verified,
        bytes,
        referrals,
        crawlsPerReferral,
      })),
    ).toEqual([
      // 2 verified GPTBot requests answered (the refused /private/x is none); the impostor from 203.0.113.9 is not OpenAI's.
      { operator: "OpenAI", crawls: 2, verified: 2, bytes: 2 * PAGE_BYTES, referrals: 1, crawlsPerReferral: 2 },
      // VERIFY_CRAWLERS=off: a claim taken as made counts as a crawl, never as verified.
      { operator: "Google", crawls: 1, verified: 0, bytes: PAGE_BYTES, referrals: 0, crawlsPerReferral: null },
    ]);
  });
});

const HOUR = 3_600_000;
const PACE_POLICY = JSON.stringify({
  routes: [
    {
      pattern: "/articles/",
      rules: [
        {
          crawlers: ["category:ai-training", "Googlebot"],
          action: "pace",
          retryAfter: 600,
          when: { crawlsPerReferral: { above: 100, days: 7 } },
        },
      ],
    },
  ],
});

/** Counts as the isolates would have sent them over past days (crawls of GPTBot's and Googlebot's categories). */
async function recorded(rows: { operator: string; hoursAgo: number; verified: number; referrals: number }[]) {
  const now = Date.now();
  const hour = now - (now % HOUR);
  await env.ACTIVITY.get(env.ACTIVITY.idFromName(ORIGIN)).record(
    {
      hourly: [],
      humans: [],
      recent: [],
      operators: rows.map((row) => ({
        hour: hour - row.hoursAgo * HOUR,
        operator: row.operator,
        category: row.operator === "Google" ? ("search-engine" as const) : ("ai-training" as const),
        crawls: row.verified,
        verified: row.verified,
        bytes: 0,
        referrals: row.referrals,
      })),
    },
    now,
  );
}

/** A verified GPTBot request under the pace policy. */
const gptbot = (path: string) =>
  call(path, { ua: GPTBOT, headers: fromCrawler("gptbot"), env: { POLICY: PACE_POLICY } });

describe("the crawlsPerReferral condition paces an operator from recorded counts", () => {
  it("OpenAI at 400:1 over 7 days: paced on /articles/ with 429 and Retry-After, once the isolate has the counts", async () => {
    await storeCrawlerLists();
    await recorded([
      { operator: "OpenAI", hoursAgo: 2, verified: 300, referrals: 1 },
      { operator: "OpenAI", hoursAgo: 6 * 24, verified: 500, referrals: 1 },
      // Older than 7 days: not in the window.
      { operator: "OpenAI", hoursAgo: 8 * 24, verified: 0, referrals: 1_000 },
      { operator: "Google", hoursAgo: 2, verified: 500, referrals: 50 },
    ]);
    // The first request finds no counts in this isolate: the condition does not hold (do no harm);
    // the isolate reads them after the response.
    expect((await gptbot("/articles/1")).status).toBe(200);
    const paced = await gptbot("/articles/2");
    expect(paced.status).toBe(429);
    expect(paced.headers.get("retry-after")).toBe("600");
    // Only on the rule's route, and only for the operator over the ratio.
    expect((await gptbot("/about")).status).toBe(200);
    const google = await call("/articles/3", {
      ua: GOOGLEBOT,
      headers: fromCrawler("googlebot"),
      env: { POLICY: PACE_POLICY },
    });
    expect(google.status).toBe(200);
    // What the edge did is what activity shows: the pace, by the policy's rule.
    const recent = ((await (await admin("activity")).json()) as { recent: Record<string, unknown>[] }).recent;
    expect(recent.find((entry) => entry["path"] === "/articles/2")).toMatchObject({
      action: "rate-limited",
      layer: "policy",
      rule: "policy /articles/: pace",
    });
    // Explain says the same, from the same counts.
    const explained = await admin(
      `explain?ua=${encodeURIComponent(GPTBOT)}&url=/articles/4&ip=${fromCrawler("gptbot")["cf-connecting-ip"]}`,
      { env: { POLICY: PACE_POLICY } },
    );
    expect(await explained.json()).toMatchObject({ action: { action: "rate-limited", status: 429, retryAfter: 600 } });
  });

  it("OpenAI at 100:1 (not above): never paced", async () => {
    await storeCrawlerLists();
    await recorded([{ operator: "OpenAI", hoursAgo: 1, verified: 800, referrals: 8 }]);
    expect((await gptbot("/articles/1")).status).toBe(200);
    expect((await gptbot("/articles/2")).status).toBe(200);
    // Counts recorded now reach this isolate at its next read, a minute after the last: no read per request.
    await recorded([{ operator: "OpenAI", hoursAgo: 1, verified: 10_000, referrals: 0 }]);
    expect((await gptbot("/articles/3")).status).toBe(200);
  });

  it("replay shows what the rule would have done to the recorded requests", async () => {
    await storeCrawlerLists();
    await recorded([{ operator: "OpenAI", hoursAgo: 1, verified: 800, referrals: 0 }]);
    await call("/articles/9", { ua: GPTBOT, headers: fromCrawler("gptbot") });
    const response = await admin("replay", { method: "POST", body: { policy: JSON.parse(PACE_POLICY) } });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { changedCount: number; changed: Record<string, unknown>[] };
    expect(result.changedCount).toBe(1);
    expect(result.changed[0]).toMatchObject({
      token: "GPTBot",
      path: "/articles/9",
      live: { action: "pass" },
      draft: { action: "rate-limited", layer: "policy", rule: "policy /articles/: pace" },
    });
  });
});

describe("counts stored by the release before categories", () => {
  it("read back: shown as the operator's, never fed to a condition (they counted refusals and user fetches too)", async () => {
    const now = Date.now();
    const hour = now - (now % HOUR);
    const stub = env.ACTIVITY.get(env.ACTIVITY.idFromName(ORIGIN));
    // The previous release's table, before the object's first call of this version.
    await runInDurableObject(stub, async (_object: ActivityLog, state) => {
      state.storage.sql.exec(`CREATE TABLE operator_counts (
        hour INTEGER NOT NULL, operator TEXT NOT NULL, crawls INTEGER NOT NULL, verified INTEGER NOT NULL,
        bytes INTEGER NOT NULL, referrals INTEGER NOT NULL, PRIMARY KEY (hour, operator)) WITHOUT ROWID`);
      state.storage.sql.exec("INSERT INTO operator_counts VALUES (?, 'OpenAI', 5000, 5000, 0, 1)", hour);
    });
    const rows = await operators();
    expect(rows.map(({ operator, crawls, verified, referrals }) => [operator, crawls, verified, referrals])).toEqual([
      ["OpenAI", 5_000, 5_000, 1],
    ]);
    expect(await stub.ledgerDays(now)).toEqual([
      { operator: "OpenAI", daysAgo: 0, crawls: 5_000, verified: 5_000, bytes: 0, referrals: 1 },
    ]);
    await storeCrawlerLists();
    // 5,000 crawls : 1 referral would be over 100, but none of them is GPTBot's category: not paced.
    expect((await gptbot("/articles/1")).status).toBe(200);
    expect((await gptbot("/articles/2")).status).toBe(200);
  });
});
