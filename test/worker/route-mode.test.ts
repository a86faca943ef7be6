// Route mode (no ORIGIN_URL): the AUTHORITIES allow-list, bounded isolate memory, and the
// cron's capped, paged refresh (issue #9).
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config/read-config.ts";
import { authorityOf } from "../../src/worker/robots/authorities.ts";
import { refreshDueOrigins } from "../../src/worker/robots/cron-refresh.ts";
import { IsolateMemory } from "../../src/worker/isolate-memory.ts";
import { clearRobotsMemory, MEMORY_MAX_ORIGINS, storedRobots } from "../../src/worker/robots/cache.ts";
import { MemoryBudget, ROBOTS_MEMORY_BUDGET_BYTES } from "../../src/worker/memory-budget.ts";
import { applyFetch } from "../../src/worker/robots/entry.ts";
import { writeEntry } from "../../src/worker/store.ts";
import { call, countingKv, fakeOrigin, freshState, GOOGLEBOT, runCron } from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";

beforeEach(freshState);
afterEach(freshState);

const storedKeys = async () => (await env.ROBOTS.list({ prefix: "robots:" })).keys.map((key) => key.name);

describe("AUTHORITIES: only listed hosts get a robots.txt fetched, stored and enforced", () => {
  const vars = { ORIGIN_URL: "", AUTHORITIES: "www.example.com, *.example.org" };
  const rows: { site: string; status: number; fetched: boolean; why: string }[] = [
    { site: "https://www.example.com", status: 403, fetched: true, why: "listed" },
    { site: "https://shop.example.org", status: 403, fetched: true, why: "subdomain of *.example.org" },
    { site: "https://a.b.example.org", status: 403, fetched: true, why: "deeper subdomain" },
    { site: "https://example.org", status: 200, fetched: false, why: "*.example.org is subdomains only" },
    { site: "https://example.com", status: 200, fetched: false, why: "not listed" },
    { site: "https://www.example.com.evil.test", status: 200, fetched: false, why: "suffix trick" },
    { site: "https://www.example.com:8443", status: 200, fetched: false, why: "another port is another authority" },
  ];
  // The same authority spelt otherwise is judged as listed, under the listed spelling: a
  // trailing dot (an absolute DNS name), a web port (80, 443), upper case. Before, a trailing
  // dot or `:443` on http passed unjudged.
  const spellings: { site: string; stored: string; why: string }[] = [
    { site: "https://www.example.com.", stored: "https://www.example.com", why: "a trailing dot" },
    { site: "https://www.example.com:443", stored: "https://www.example.com", why: "https's default port" },
    { site: "http://www.example.com:80", stored: "http://www.example.com", why: "http's default port" },
    {
      site: "http://www.example.com:443",
      stored: "http://www.example.com",
      why: "a web port on the other scheme (Cloudflare routes by host name)",
    },
    { site: "https://www.example.com.:443", stored: "https://www.example.com", why: "both" },
    { site: "https://WWW.Example.COM.", stored: "https://www.example.com", why: "upper case and a dot" },
    {
      site: "https://shop.example.org.",
      stored: "https://shop.example.org",
      why: "a subdomain of *.example.org, dotted",
    },
  ];
  it.each(spellings)("$site is $stored ($why): judged, one robots.txt", async ({ site, stored }) => {
    const origin = fakeOrigin({ body: ROBOTS });
    const response = await call("/private/x", { ua: GOOGLEBOT, env: vars, site });
    expect(response.status).toBe(403);
    expect(origin.requests.filter((url) => url.endsWith("/robots.txt"))).toEqual([`${stored}/robots.txt`]);
    expect(await storedKeys()).toEqual([`robots:${stored}`]);
  });
  it.each(rows)("$site -> $status ($why)", async ({ site, status, fetched }) => {
    const origin = fakeOrigin({ body: ROBOTS });
    const response = await call("/private/x", { ua: GOOGLEBOT, env: vars, site });
    expect(response.status).toBe(status);
    expect(origin.requests.includes(`${site}/robots.txt`)).toBe(fetched);
    expect(await storedKeys()).toEqual(fetched ? [`robots:${site}`] : []);
  });

  it("without AUTHORITIES every host is served (and the status warns about it)", async () => {
    fakeOrigin({ body: ROBOTS });
    expect(
      (await call("/private/x", { ua: GOOGLEBOT, env: { ORIGIN_URL: "" }, site: "https://any.test" })).status,
    ).toBe(403);
    expect(parseConfig({}).warnings).toEqual([expect.stringContaining("route mode without AUTHORITIES")]);
  });
});

// th/bn/hi "Examples of valid robots.txt URLs": which URLs a robots.txt governs. The edge keeps
// one robots.txt per authority (authorityOf), so a row holds when the page's authority is (or is
// not) the robots.txt's. bn/hi spell the table with http; th with https, and th's own slips
// (https "not valid for https://example.com/", https on port 80, xn--exmple-cua.com without
// www) are read as bn/hi and RFC 3986 host comparison decide.
const validityRows: { robots: string; page: string; governs: boolean; why: string }[] = [
  { robots: "http://example.com/robots.txt", page: "http://example.com/", governs: true, why: "the general case" },
  { robots: "http://example.com/robots.txt", page: "http://example.com/folder/file", governs: true, why: "subdirs" },
  { robots: "http://example.com/robots.txt", page: "http://other.example.com/", governs: false, why: "subdomain" },
  { robots: "http://example.com/robots.txt", page: "https://example.com/", governs: false, why: "other protocol" },
  { robots: "http://example.com/robots.txt", page: "http://example.com:8181/", governs: false, why: "other port" },
  { robots: "https://example.com/robots.txt", page: "http://example.com/", governs: false, why: "th: other protocol" },
  { robots: "http://www.example.com/robots.txt", page: "http://www.example.com/", governs: true, why: "its subdomain" },
  { robots: "http://www.example.com/robots.txt", page: "http://example.com/", governs: false, why: "parent domain" },
  { robots: "http://www.example.com/robots.txt", page: "http://shop.www.example.com/", governs: false, why: "sub-sub" },
  { robots: "http://www.example.com/robots.txt", page: "http://www.shop.example.com/", governs: false, why: "sibling" },
  { robots: "http://www.müller.eu/robots.txt", page: "http://www.müller.eu/", governs: true, why: "IDN" },
  { robots: "http://www.müller.eu/robots.txt", page: "http://www.xn--mller-kva.eu/", governs: true, why: "punycode" },
  { robots: "http://www.müller.eu/robots.txt", page: "http://www.muller.eu/", governs: false, why: "not the IDN" },
  {
    robots: "https://www.exämple.com/robots.txt",
    page: "https://www.xn--exmple-cua.com/",
    governs: true,
    why: "th IDN",
  },
  { robots: "https://www.exämple.com/robots.txt", page: "https://www.example.com/", governs: false, why: "th IDN" },
  { robots: "ftp://example.com/robots.txt", page: "ftp://example.com/", governs: true, why: "ftp" },
  { robots: "ftp://example.com/robots.txt", page: "http://example.com/", governs: false, why: "ftp is not http" },
  { robots: "http://212.96.82.21/robots.txt", page: "http://212.96.82.21/", governs: true, why: "an IP host" },
  {
    robots: "http://212.96.82.21/robots.txt",
    page: "http://example.com/",
    governs: false,
    why: "even if hosted there",
  },
  { robots: "http://example.com:80/robots.txt", page: "http://example.com:80/", governs: true, why: "default port" },
  { robots: "http://example.com:80/robots.txt", page: "http://example.com/", governs: true, why: "= no port" },
  { robots: "http://example.com:80/robots.txt", page: "http://example.com:81/", governs: false, why: "port 81" },
  { robots: "http://example.com:8181/robots.txt", page: "http://example.com:8181/", governs: true, why: "its port" },
  { robots: "http://example.com:8181/robots.txt", page: "http://example.com/", governs: false, why: "default port" },
];

describe("which URLs a robots.txt governs (th/bn/hi table of valid robots.txt URLs)", () => {
  it.each(validityRows)("$robots governs $page: $governs ($why)", ({ robots, page, governs }) => {
    expect(authorityOf(new URL(page)) === authorityOf(new URL(robots))).toBe(governs);
  });
});

describe("the cron: capped and paged", () => {
  const sites = ["a", "b", "c", "d", "e"].map((name) => `https://${name}.example.com`);

  async function storeExpired(origin: ReturnType<typeof fakeOrigin>): Promise<number> {
    for (const site of sites) await call("/x", { ua: GOOGLEBOT, env: { ORIGIN_URL: "" }, site });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    return origin.requests.length;
  }

  it("fetches at most `limit` origins a run and carries on where it stopped", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    await storeExpired(origin);
    const { config } = parseConfig({ ORIGIN_URL: "" });
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await refreshDueOrigins(env, config, { limit: 2 }));
    expect(runs.map((run) => run.refreshed)).toEqual([
      [sites[0], sites[1]],
      [sites[2], sites[3]],
      [sites[4]],
      [], // all fresh now
    ]);
    expect(runs.map((run) => run.complete)).toEqual([false, false, true, true]);
  });

  it("skips stored hosts that AUTHORITIES no longer lists", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    const before = await storeExpired(origin);
    // No published list is fetched: neither verification nor crawlers in disguise is on.
    await runCron({ ORIGIN_URL: "", AUTHORITIES: "c.example.com", VERIFY_CRAWLERS: "off", DISGUISED_CRAWLERS: "off" });
    expect(origin.requests.slice(before)).toEqual(["https://c.example.com/robots.txt"]);
  });

  it("proxy mode refreshes ORIGIN_URL's robots.txt only", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    const before = await storeExpired(origin); // stored by an earlier route-mode deployment
    await runCron({ VERIFY_CRAWLERS: "off", DISGUISED_CRAWLERS: "off" });
    expect(origin.requests.slice(before)).toEqual(["https://origin.test/robots.txt"]);
  });
});

describe("IsolateMemory: bounded LRU with an age limit", () => {
  it("keeps at most maxEntries, dropping the least recently used", () => {
    const memory = new IsolateMemory<string, number>({ maxEntries: 3, maxAgeMs: 60_000 });
    memory.set("a", 1, 0);
    memory.set("b", 2, 0);
    memory.set("c", 3, 0);
    expect(memory.get("a", 1)).toBe(1); // a is now the most recent
    memory.set("d", 4, 1);
    expect([memory.get("a", 2), memory.get("b", 2), memory.get("c", 2), memory.get("d", 2)]).toEqual([
      1,
      undefined,
      3,
      4,
    ]);
    expect(memory.size).toBe(3);
  });

  it("does not answer with a value older than maxAgeMs", () => {
    const memory = new IsolateMemory<string, number>({ maxEntries: 3, maxAgeMs: 1000 });
    memory.set("a", 1, 0);
    expect(memory.get("a", 999)).toBe(1);
    expect(memory.get("a", 1000)).toBeUndefined();
  });

  it("a stream of 10,000 keys leaves maxEntries entries", () => {
    const memory = new IsolateMemory<string, number>({ maxEntries: 500, maxAgeMs: 60_000 });
    for (let i = 0; i < 10_000; i++) memory.set(`https://h${i}.test`, i, 0);
    expect(memory.size).toBe(500);
  });

  it("refuses a bound below 1", () => {
    expect(() => new IsolateMemory({ maxEntries: 0, maxAgeMs: 1 })).toThrow(RangeError);
  });

  it("with weigh, keeps the values within its budget together, least recently used out first", () => {
    const memory = new IsolateMemory<string, string>({
      maxEntries: 100,
      maxAgeMs: 60_000,
      weigh: (text) => text.length,
      budget: new MemoryBudget(10),
    });
    memory.set("a", "aaaa", 0);
    memory.set("b", "bbbb", 0);
    expect(memory.get("a", 1)).toBe("aaaa"); // a is now the most recent
    memory.set("c", "cccc", 1); // 12 > 10: b goes
    expect([memory.peek("a"), memory.peek("b"), memory.peek("c")]).toEqual(["aaaa", undefined, "cccc"]);
    expect(memory.totalWeight).toBe(8);
    memory.set("a", "a", 2); // replaced: its old weight is no longer counted
    expect(memory.totalWeight).toBe(5);
    memory.delete("c");
    expect(memory.totalWeight).toBe(1);
    memory.set("huge", "x".repeat(50), 3); // heavier than the bound alone: kept, everything else out
    expect([memory.size, memory.peek("huge")?.length, memory.totalWeight]).toEqual([1, 50, 50]);
    memory.clear();
    expect(memory.totalWeight).toBe(0);
  });
});

const seed = async (authorities: readonly string[], body: string) => {
  const fetched = { kind: "ok", status: 200, body: new TextEncoder().encode(body) } as const;
  const now = Date.now();
  for (const authority of authorities) {
    const entry = applyFetch(
      undefined,
      authority,
      { ...fetched, etag: undefined, lastModified: undefined, maxAge: undefined },
      { now, maxAgeSeconds: 86_400 },
    );
    await writeEntry(env.ROBOTS, entry);
  }
  clearRobotsMemory();
};

describe("robots.txt memory: 1,000 hosts stay warm, a few huge files cannot fill the isolate", () => {
  it("1,000 hosts asked twice: the second round reads no robots: entry (500 were kept before)", async () => {
    const authorities = Array.from({ length: 1_000 }, (_, n) => `https://site${n}.example`);
    await seed(authorities, ROBOTS);
    const reads: string[] = [];
    for (const authority of authorities)
      expect(await storedRobots(authority, countingKv(reads, "robots:"))).toBeDefined();
    expect(reads.length).toBe(1_000);
    reads.length = 0;
    for (const authority of authorities) await storedRobots(authority, countingKv(reads, "robots:"));
    expect(reads).toEqual([]);
    expect([MEMORY_MAX_ORIGINS, ROBOTS_MEMORY_BUDGET_BYTES]).toEqual([5_000, 64 * 1024 * 1024]);
  }, 60_000);

  it("160 files of 400 KiB (87 MB as stored): the oldest leave, so the newest are kept and the first re-read", async () => {
    const authorities = Array.from({ length: 160 }, (_, n) => `https://big${n}.example`);
    await seed(authorities, `User-agent: *\nDisallow: /private/\n# ${"x".repeat(400 * 1024)}\n`);
    const reads: string[] = [];
    for (const authority of authorities) await storedRobots(authority, countingKv(reads, "robots:"));
    reads.length = 0;
    // 64 MiB / ~546 KB each, counted twice (remembered, and as last good: one budget,
    // memory-budget.ts): the newest ~61 are still held, the first ones were dropped.
    await storedRobots("https://big159.example", countingKv(reads, "robots:"));
    await storedRobots("https://big110.example", countingKv(reads, "robots:"));
    expect(reads).toEqual([]);
    await storedRobots("https://big0.example", countingKv(reads, "robots:"));
    expect(reads).toEqual(["robots:https://big0.example"]);
  }, 60_000);
});
