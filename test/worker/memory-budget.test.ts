// One budget for the isolate's robots.txt memories (src/worker/memory-budget.ts): the robots.txt
// memory, its unsaved entries and the store's last good values, filled together, stay within
// 64 MiB; and a robots.txt whose compiled matcher is estimated over a third of it is not built:
// robots.txt unavailable (a person passes, a crawler gets 503 + Retry-After), named in GET status,
// repaired by a new file and POST refresh.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/worker/config.ts";
import { IsolateMemory } from "../../src/worker/isolate-memory.ts";
import { MemoryBudget } from "../../src/worker/memory-budget.ts";
import {
  clearRobotsMemory,
  refresh,
  robotsMemoryUse,
  robotsWeight,
  storedRobots,
} from "../../src/worker/robots/cache.ts";
import { cappedMatcher } from "../../src/worker/robots/capped-matcher.ts";
import { applyFetch, type StoredCopy } from "../../src/worker/robots/entry.ts";
import { lastGoodUse, writeEntry } from "../../src/worker/store.ts";
import { admin, call, CHROME, countingKv, fakeOrigin, freshState, GOOGLEBOT, ORIGIN } from "./helpers.ts";

beforeEach(freshState);
afterEach(freshState);

const MiB = 1024 * 1024;
/** What the budget is said to be (memory-budget.ts), written down here, not read from it. */
const BUDGET = 64 * MiB;

/** A 400 KiB robots.txt of one rule and a comment: its text is what it weighs (no matcher asked). */
const BULKY = `User-agent: *\nDisallow: /private/\n# ${"x".repeat(400 * 1024)}\n`;

const entryOf = (authority: string, body: string) =>
  applyFetch(
    undefined,
    authority,
    {
      kind: "ok",
      status: 200,
      body: new TextEncoder().encode(body),
      etag: undefined,
      lastModified: undefined,
      maxAge: undefined,
    },
    { now: Date.now(), maxAgeSeconds: 86_400 },
  );

/** KV whose writes fail (the daily write quota spent): every refresh leaves an unsaved entry. */
const refusingWrites = (): KVNamespace =>
  ({
    get: env.ROBOTS.get.bind(env.ROBOTS),
    getWithMetadata: env.ROBOTS.getWithMetadata.bind(env.ROBOTS),
    list: env.ROBOTS.list.bind(env.ROBOTS),
    delete: env.ROBOTS.delete.bind(env.ROBOTS),
    put: () => Promise.reject(new Error("planted: KV PUT failed: 429 Too Many Requests")),
  }) as unknown as KVNamespace;

describe("the three robots.txt memories filled together stay within the one budget", () => {
  // Each host's entry is held up to three times: remembered (memory), as last read well
  // (lastGood, its text), and unsaved (its KV write failed). Apart, their bounds were
  // 64 + 32 + 64 MiB; together they must not pass 64 MiB.
  const rows = [
    { stored: 100, unsaved: 0, why: "stored hosts read: remembered and last good, each a copy of the text" },
    { stored: 60, unsaved: 60, why: "and as many fetched whose KV write failed: unsaved too" },
    { stored: 0, unsaved: 100, why: "only unsaved: memory and unsaved hold the same entries" },
  ];
  for (const { stored, unsaved, why } of rows) {
    it(`${stored} stored and ${unsaved} unsaved files of 400 KiB (${why}): at most 64 MiB held, the newest answer without a read`, async () => {
      const weight = robotsWeight({ entry: entryOf("https://w.tenants.example", BULKY) });
      expect(weight).toBeGreaterThan(400 * 1024);
      for (let n = 0; n < stored; n++) await writeEntry(env.ROBOTS, entryOf(`https://s${n}.tenants.example`, BULKY));
      clearRobotsMemory();
      for (let n = 0; n < stored; n++) await storedRobots(`https://s${n}.tenants.example`, env.ROBOTS);
      const origin = fakeOrigin({ body: BULKY });
      const { config } = loadConfig({ ...env, ORIGIN_URL: "", AUTHORITIES: "*.tenants.example" });
      const kv = refusingWrites();
      for (let n = 0; n < unsaved; n++) await refresh(`https://u${n}.tenants.example`, kv, config, undefined);
      expect(origin.requests.length).toBe(unsaved);
      const use = robotsMemoryUse();
      const held = (use.origins + use.unsaved) * weight + lastGoodUse().bytes;
      expect(held).toBeLessThanOrEqual(BUDGET);
      expect(use.budgetBytes).toBeLessThanOrEqual(BUDGET);
      // Full, not starved: the newest of each kind is still held, and answers without a KV read.
      expect(use.origins).toBeGreaterThan(10);
      if (unsaved > 0) expect(use.unsaved).toBeGreaterThan(10);
      const reads: string[] = [];
      const newest = unsaved > 0 ? `https://u${unsaved - 1}.tenants.example` : `https://s${stored - 1}.tenants.example`;
      expect((await storedRobots(newest, countingKv(reads, "robots:")))?.entry.authority).toBe(newest);
      expect(reads).toEqual([]);
    }, 120_000);
  }
});

/** Groups of two user-agent lines and one rule up to 500 KiB: ~143 MiB estimated compiled. */
const overCap = () => {
  let text = "";
  for (let n = 0; ; n++) {
    const group = `User-agent: a${n}\nUser-agent: b${n}\nDisallow: /x${n}\n`;
    if (text.length + group.length > 500 * 1024) return text;
    text += group;
  }
};
const ORDINARY = "User-agent: *\nDisallow: /x1\n";
const FAULT_KEY = `robots.txt of ${ORIGIN}`;

describe("a robots.txt over the per-file cap: robots.txt unavailable, named, repairable", () => {
  it("person passes to the origin, crawler 503 + Retry-After (never 403), /robots.txt served; status names it; a smaller file and POST refresh repair it", async () => {
    const origin = fakeOrigin({ body: overCap() });
    const rows: { ua: string; path: string; status: number; retryAfter: boolean; fromOrigin: boolean }[] = [
      { ua: CHROME, path: "/x1", status: 200, retryAfter: false, fromOrigin: true },
      { ua: GOOGLEBOT, path: "/x1", status: 503, retryAfter: true, fromOrigin: false },
      { ua: GOOGLEBOT, path: "/y", status: 503, retryAfter: true, fromOrigin: false },
      { ua: GOOGLEBOT, path: "/x1", status: 503, retryAfter: true, fromOrigin: false },
      { ua: CHROME, path: "/y", status: 200, retryAfter: false, fromOrigin: true },
      { ua: GOOGLEBOT, path: "/robots.txt", status: 200, retryAfter: false, fromOrigin: false },
    ];
    for (const row of rows) {
      const response = await call(row.path, { ua: row.ua });
      expect([row.path, row.ua === CHROME ? "person" : "crawler", response.status]).toEqual([
        row.path,
        row.ua === CHROME ? "person" : "crawler",
        row.status,
      ]);
      expect(Number(response.headers.get("retry-after") ?? 0) > 0).toBe(row.retryAfter);
      expect(response.headers.get("x-origin") === "yes").toBe(row.fromOrigin);
    }
    // Fetched once: the verdict is kept, not asked again per request.
    expect(origin.requests.filter((url) => url.endsWith("/robots.txt"))).toHaveLength(1);
    const status = (await (await admin("status")).json()) as {
      ownFaults: { key: string; cause: string; repair: string }[];
    };
    expect(status.ownFaults).toEqual([
      expect.objectContaining({
        key: FAULT_KEY,
        cause: expect.stringMatching(
          /^its robots\.txt would compile to an estimated \d+\.\d MiB, over the 21\.3 MiB one file/,
        ),
        repair: expect.stringContaining(`POST refresh?origin=${ORIGIN}`),
      }),
    ]);

    // The repair: the site serves a smaller file, the operator refreshes.
    origin.robots = { body: ORDINARY };
    expect((await admin("refresh", { method: "POST" })).status).toBe(200);
    const repaired = [
      { ua: GOOGLEBOT, path: "/x1", status: 403 },
      { ua: GOOGLEBOT, path: "/y", status: 200 },
      { ua: CHROME, path: "/x1", status: 200 },
    ];
    for (const row of repaired)
      expect([row.path, (await call(row.path, { ua: row.ua })).status]).toEqual([row.path, row.status]);
    const after = (await (await admin("status")).json()) as { ownFaults: { key: string }[] };
    expect(after.ownFaults.map((fault) => fault.key)).not.toContain(FAULT_KEY);
  }, 120_000);
});

describe("MemoryBudget: the least recently used across its memories go first, precious ones last", () => {
  // Three memories of one 10-unit budget, as cache.ts and store.ts draw on it: `memory` and
  // `lastGood` are copies (one LRU across both), `unsaved` is precious (dropped only when they are empty).
  const rows: { steps: string; held: string[] }[] = [
    { steps: "m:a4 l:b4 m:c4", held: ["l:b", "m:c"] },
    { steps: "m:a4 l:b4 get-m:a m:c4", held: ["m:a", "m:c"] },
    { steps: "u:a4 m:b4 l:c4", held: ["u:a", "l:c"] },
    { steps: "u:a4 u:b4 m:c4", held: ["u:b", "m:c"] }, // the value just set stays
    { steps: "m:a2 u:b4 u:c4 m:d4", held: ["u:c", "m:d"] },
    { steps: "u:a4 u:b4 u:c4", held: ["u:b", "u:c"] },
  ];
  for (const { steps, held } of rows) {
    it(`${steps} -> ${held.join(" ")}`, () => {
      const budget = new MemoryBudget(10);
      const options = { maxEntries: 100, maxAgeMs: 60_000, weigh: (text: string) => text.length, budget };
      const memories = {
        m: new IsolateMemory<string, string>(options),
        l: new IsolateMemory<string, string>(options),
        u: new IsolateMemory<string, string>({ ...options, precious: true }),
      };
      for (const step of steps.split(" ")) {
        const [which = "", rest = ""] = step.split(":");
        const memory = memories[which.replace("get-", "") as keyof typeof memories];
        if (which.startsWith("get-")) memory.get(rest, 0);
        else memory.set(rest.slice(0, 1), "x".repeat(Number(rest.slice(1))), 0);
      }
      const found = Object.entries(memories).flatMap(([which, memory]) =>
        ["a", "b", "c", "d"].filter((key) => memory.peek(key) !== undefined).map((key) => `${which}:${key}`),
      );
      expect(found.toSorted()).toEqual(held.toSorted());
      expect(budget.totalWeight).toBeLessThanOrEqual(10);
    });
  }
});

// A copy that counts how often its model text is taken: the fingerprint takes it once, a parse
// (modelOf) and the estimate take it again.
function counted(copy: StoredCopy) {
  let reads = 0;
  const proxy = new Proxy(copy, {
    get: (target, key) => {
      if (key === "model") reads++;
      return target[key as keyof StoredCopy];
    },
  });
  return { proxy, reads: () => reads };
}

describe("the verdict on a file over the cap is kept: a KV re-read of the same copy parses nothing", () => {
  const rows = [
    { body: overCap(), first: "over", again: 1, why: "over the cap: the verdict answers, the model is not read again" },
    {
      body: ORDINARY,
      first: "built",
      again: 3,
      why: "within it: nothing is remembered here (the loaded entry keeps its matcher)",
    },
  ];
  for (const { body, first, again, why } of rows) {
    it(`${first}: asked again, the model is read ${again} time(s) (${why})`, () => {
      clearRobotsMemory();
      const copy = entryOf(ORIGIN, body).copy;
      if (!copy) throw new Error("no copy");
      const built = cappedMatcher(ORIGIN, counted(copy).proxy);
      expect(built.matcher === undefined ? "over" : "built").toBe(first);
      const second = counted({ ...copy });
      cappedMatcher(ORIGIN, second.proxy);
      expect(second.reads()).toBe(again);
    });
  }
});
