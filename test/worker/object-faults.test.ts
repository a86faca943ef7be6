// Durable Object faults (issue 30: our failure is never the visitor's), planted in the real
// runtime: the activity object's and the crawl-rate objects' storage refusing writes, holding
// values of another shape, and objects that are reset or fail their calls. Whatever happens to
// them, a person gets the origin's answer and a crawler the decision robots.txt makes; counts
// wait for the next try; GET status names the problem. Expectations are literal.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityLog } from "../../src/worker/activity/object.ts";
import type { CrawlRate } from "../../src/worker/edge/crawl-rate-object.ts";
import { crawlRateKey } from "../../src/worker/edge/crawl-rate-object.ts";
import { admin, BINGBOT, call, CHROME, fakeOrigin, freshState, ORIGIN } from "./helpers.ts";

const ROBOTS = "User-agent: bingbot\nDisallow: /private/\n";

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
  await admin("refresh", { method: "POST" });
});
afterEach(async () => {
  vi.useRealTimers();
  await freshState();
});

const activityStub = () => env.ACTIVITY.get(env.ACTIVITY.idFromName(ORIGIN));

/** What a person, a crawler on an allowed path and one on a disallowed path are answered. */
async function served(): Promise<number[]> {
  return [
    (await call("/page", { ua: CHROME })).status,
    (await call("/page", { ua: BINGBOT })).status,
    (await call("/private/x", { ua: BINGBOT })).status,
  ];
}
const SERVED = [200, 200, 403];

async function statusProblems(): Promise<string[]> {
  const response = await admin("status");
  expect(response.status).toBe(200);
  return ((await response.json()) as { objects: { problems: string[] } }).objects.problems;
}

interface Counted {
  humans: number;
  bingbot: number;
  problems: string[];
}

async function counted(): Promise<Counted> {
  const response = await admin("activity");
  expect(response.status).toBe(200);
  const answer = (await response.json()) as {
    humans: { total: number };
    crawlers: { token: string; requests: number }[];
    problems: string[];
  };
  return {
    humans: answer.humans.total,
    bingbot: answer.crawlers.find((crawler) => crawler.token === "bingbot")?.requests ?? 0,
    problems: answer.problems,
  };
}

/** Every call of the object's class to `method` throws as a reset object's call does, until restore(). */
async function failCalls(stub: DurableObjectStub, method: string): Promise<() => Promise<void>> {
  let prototype: Record<string, unknown> = {};
  let original: unknown;
  await runInDurableObject(stub, async (object: object) => {
    prototype = Object.getPrototypeOf(object) as Record<string, unknown>;
    original = prototype[method];
    prototype[method] = () => {
      throw new Error("Durable Object reset because its code was updated.");
    };
  });
  return async () => {
    prototype[method] = original;
  };
}

/** The object's memory lost, its storage kept: what a restart, a crash or a deploy leaves. */
async function resetActivityObject(): Promise<void> {
  await runInDurableObject(activityStub(), async (object: ActivityLog) => {
    (object as unknown as { storeOf: unknown }).storeOf = undefined;
  });
}

/** The activity object's SQL refusing every write (a full or failing store) until `restore()`. */
async function failActivityWrites(): Promise<() => Promise<void>> {
  type Runner = { exec: (query: string, ...bindings: unknown[]) => unknown; transaction: (body: () => void) => void };
  await runInDurableObject(activityStub(), async (object: ActivityLog) => {
    const store = (object as unknown as { store: { sql: Runner; realSql?: Runner } }).store;
    const real = store.sql;
    store.realSql = real;
    store.sql = {
      exec: (query, ...bindings) => {
        if (/^\s*(INSERT|UPDATE|DELETE)/i.test(query)) throw new Error("SQLITE_FULL: database or disk is full");
        return real.exec(query, ...bindings);
      },
      transaction: (body) => real.transaction(body),
    };
  });
  return async () => {
    await runInDurableObject(activityStub(), async (object: ActivityLog) => {
      const store = (object as unknown as { store: { sql: Runner; realSql?: Runner } }).store;
      if (store.realSql) store.sql = store.realSql;
    });
  };
}

describe("activity reaches storage at once, and a reset object keeps it", () => {
  it("the first batch is in storage (one journal row) at once, later ones within 20 s; a reset object reads them back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await call("/page", { ua: CHROME })).status).toBe(200);
    expect((await call("/page", { ua: BINGBOT })).status).toBe(200);
    vi.setSystemTime(Date.now() + 20_000);
    expect((await call("/private/x", { ua: BINGBOT })).status).toBe(403);
    const rows = await runInDurableObject(activityStub(), async (_object: ActivityLog, state) => ({
      journal: state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM pending_journal").one().n,
      hourly: state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM hourly_counts").one().n,
    }));
    expect(rows).toEqual({ journal: 1, hourly: 0 });
    await resetActivityObject();
    expect(await counted()).toEqual({ humans: 1, bingbot: 2, problems: [] });
    // The read wrote the tables and dropped the journal in the same transaction.
    const journal = await runInDurableObject(
      activityStub(),
      async (_object: ActivityLog, state) =>
        state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM pending_journal").one().n,
    );
    expect(journal).toBe(0);
  });
});

describe("a failing storage write", () => {
  it("keeps people and crawlers served, keeps the counts, and is a problem in GET status until a write works", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await call("/warm", { ua: CHROME }); // the object exists (and has journaled) before its storage fails
    const restore = await failActivityWrites();
    vi.setSystemTime(Date.now() + 20_000);
    expect(await served()).toEqual(SERVED);
    const problem =
      "storage refused a write of the pending activity (Error: SQLITE_FULL: database or disk is full): kept in memory, tried again within 20 s";
    expect(await statusProblems()).toEqual([`activity of https://origin.test: ${problem}`]);
    // GET activity answers what is stored, and says why the rest is not there yet.
    expect(await counted()).toEqual({ humans: 0, bingbot: 0, problems: [problem] });
    await restore();
    expect(await counted()).toEqual({ humans: 2, bingbot: 2, problems: [] });
    await call("/again", { ua: CHROME });
    expect(await statusProblems()).toEqual([]);
  });
});

describe("an activity object that fails its calls (reset, overloaded)", () => {
  it("keeps people and crawlers served; the isolate keeps the batch and sends it with the next flush", async () => {
    await call("/warm", { ua: CHROME });
    const restore = await failCalls(activityStub(), "record");
    expect(await served()).toEqual(SERVED);
    expect(await statusProblems()).toEqual([
      "activity of https://origin.test: the ActivityLog object did not take a batch (Error: Durable Object reset because its code was updated.): kept for the next flush",
    ]);
    await restore();
    expect((await call("/after", { ua: CHROME })).status).toBe(200);
    // 1 (warm) + the 3 kept + 1 after: nothing lost.
    expect(await counted()).toEqual({ humans: 3, bingbot: 2, problems: [] });
    expect(await statusProblems()).toEqual([]);
  });
});

describe("stored activity values of another shape are read as absent, and named", () => {
  const rows: { name: string; plant: string; problem: string }[] = [
    {
      name: "a history that is not JSON",
      plant: `INSERT INTO crawler_history VALUES ('bingbot', '{"version":1,"events":[{"ti')`,
      problem: 'the stored history "bingbot" has no JSON object: not shown',
    },
    {
      name: "a history of a newer format",
      plant: `INSERT INTO crawler_history VALUES ('bingbot', '{"version":2,"requests":[]}')`,
      problem: 'the stored history "bingbot" has format 2: not shown',
    },
    {
      name: "a request of the wrong shape (time as text, no path)",
      plant: `INSERT INTO crawler_history VALUES ('bingbot', '{"version":1,"events":[{"time":"noon","token":"bingbot","tokens":[],"category":"search-engine","verified":"unchecked","method":"GET","action":"pass","layer":"robots.txt","line":null,"rule":null,"violation":false}]}')`,
      problem: "a stored request lacks a field or has one of another type: not shown",
    },
  ];
  it.each(rows)("$name", async ({ plant, problem }) => {
    await call("/warm", { ua: CHROME });
    await counted(); // tables exist, nothing pending
    await runInDurableObject(activityStub(), async (_object: ActivityLog, state) => {
      state.storage.sql.exec(plant);
    });
    const read = await counted();
    expect(read.problems).toEqual([problem]);
    expect(await served()).toEqual(SERVED);
    // The next write replaces the unreadable history with the requests written after it.
    const after = await counted();
    expect([after.humans, after.bingbot]).toEqual([2, 2]);
  });

  const journals: { name: string; journal: string; problem: string }[] = [
    {
      name: "not JSON",
      journal: '{"version":1,"since":',
      problem:
        "the stored pending activity (pending_journal) is no JSON object: treated as absent, its counts not recorded",
    },
    {
      name: "a newer format",
      journal: '{"version":2,"since":0}',
      problem: "the stored pending activity (pending_journal) has format 2: treated as absent, its counts not recorded",
    },
    {
      name: "a count of the wrong shape",
      journal:
        '{"version":1,"since":0,"hourly":[{"hour":"x","token":"bingbot"}],"humans":[],"operators":[],"recent":[]}',
      problem:
        "the stored pending activity (pending_journal) holds a value this version cannot read (a journal count has a wrong field: not shown): treated as absent, its counts not recorded",
    },
    {
      name: "an older shape (no recent list)",
      journal: '{"version":1,"since":0,"hourly":[],"humans":[[0,5]]}',
      problem:
        "the stored pending activity (pending_journal) lacks a field or has one of another type: treated as absent, its counts not recorded",
    },
  ];
  it.each(journals)("a journal: $name", async ({ journal, problem }) => {
    await counted(); // tables exist
    await runInDurableObject(activityStub(), async (_object: ActivityLog, state) => {
      state.storage.sql.exec("INSERT INTO pending_journal VALUES (0, ?)", journal);
    });
    await resetActivityObject();
    expect(await served()).toEqual(SERVED);
    expect(await statusProblems()).toEqual([`activity of https://origin.test: ${problem}`]);
    const read = await counted();
    expect(read).toEqual({ humans: 1, bingbot: 2, problems: [problem] });
  });
});

/** The limiter of an unproven bingbot under a group naming bingbot. */
const limiter = () =>
  env.CRAWL_RATE.get(
    env.CRAWL_RATE.idFromName(
      crawlRateKey(ORIGIN, "bingbot", { knownToken: "bingbot", proven: false, address: undefined }),
    ),
  );

describe("the crawl-rate object's stored state and faults", () => {
  const PACED = "User-agent: bingbot\nCrawl-delay: 10\nDisallow: /private/\n";

  const states: { name: string; state: unknown }[] = [
    { name: "text", state: "garbage" },
    { name: "times as text", state: { recent: ["soon"], keepUntil: 0 } },
    { name: "an older shape (no keepUntil)", state: { recent: [Date.now() + 86_400_000] } },
    { name: "a newer shape (times under another name)", state: { version: 2, times: [] } },
    // checkRate never keeps more than MAX_STORED_TIMES (10,000) times or MAX_ENFORCED_RATES (4) buckets.
    {
      name: "10,001 times",
      state: { recent: Array.from({ length: 10_001 }, () => Date.now() - 1000), keepUntil: Date.now() + 86_400_000 },
    },
    {
      name: "five buckets",
      state: {
        recent: [],
        buckets: Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`${n}0001/1000`, { tokens: 0, at: Date.now() }])),
        keepUntil: Date.now() + 86_400_000,
      },
    },
    { name: "a bucket without tokens", state: { recent: [], buckets: { "20000/1000": { at: 0 } }, keepUntil: 0 } },
  ];
  it.each(states)("a stored state of $name is read as absent: served, paced afresh, named", async ({ state }) => {
    fakeOrigin({ body: PACED });
    await admin("refresh", { method: "POST" });
    await runInDurableObject(limiter(), async (_object: CrawlRate, object) => {
      await object.storage.put("state", state);
    });
    expect((await call("/page", { ua: CHROME })).status).toBe(200);
    expect((await call("/a", { ua: BINGBOT })).status).toBe(200);
    const name = "https://origin.test bingbot net:unknown";
    expect(await statusProblems()).toEqual([
      `crawl rate ${name}: the stored rate state "state" is not the shape this version writes: treated as absent, replaced by the next allowed request`,
    ]);
    // The limiter limits again (the state it wrote is its own).
    expect((await call("/b", { ua: BINGBOT })).status).toBe(429);
  });

  it("a failing storage write: the decision stands in memory, the crawler is served, the problem named", async () => {
    fakeOrigin({ body: PACED });
    await admin("refresh", { method: "POST" });
    expect((await call("/a", { ua: BINGBOT })).status).toBe(200);
    await runInDurableObject(limiter(), async (object: CrawlRate, state) => {
      const failing = new Proxy(state.storage, {
        get(target, key) {
          if (key === "put") return async () => Promise.reject(new Error("SQLITE_FULL: database or disk is full"));
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      Object.defineProperty(object, "ctx", { value: { ...state, storage: failing }, configurable: true });
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11_000);
    expect((await call("/b", { ua: BINGBOT })).status).toBe(200);
    expect((await call("/c", { ua: BINGBOT })).status).toBe(429);
    expect(await statusProblems()).toEqual([
      "crawl rate https://origin.test bingbot net:unknown: storage refused the rate state (Error: SQLITE_FULL: database or disk is full): kept in memory, written with the next request",
    ]);
    expect((await call("/page", { ua: CHROME })).status).toBe(200);
  });

  it("a limiter that fails its calls (reset): crawlers pass unpaced, people are served, the problem named", async () => {
    fakeOrigin({ body: PACED });
    await admin("refresh", { method: "POST" });
    expect((await call("/a", { ua: BINGBOT })).status).toBe(200);
    const restore = await failCalls(limiter(), "check");
    expect((await call("/b", { ua: BINGBOT })).status).toBe(200);
    expect((await call("/private/x", { ua: BINGBOT })).status).toBe(403);
    expect((await call("/page", { ua: CHROME })).status).toBe(200);
    expect(await statusProblems()).toEqual([
      "crawl rate https://origin.test bingbot net:unknown: the crawl-rate limiter did not answer (Error: Durable Object reset because its code was updated.): requests pass unpaced until it does",
    ]);
    await restore();
  });
});
