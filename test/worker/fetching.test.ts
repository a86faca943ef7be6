// How the edge fetches and keeps robots.txt: RFC 9309 §2.3 status codes, redirects, time-outs,
// size limit, stale-while-revalidate, last-good retention, and KV reads on a warm isolate.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_ROBOTS_BYTES } from "../../src/core/index.ts";
import { parseConfig } from "../../src/config/read-config.ts";
import { PROJECT_URL, VERSION } from "../../src/worker/robots/origin-fetch.ts";
import { clearRobotsMemory, MEMORY_RECHECK_MS, refresh } from "../../src/worker/robots/cache.ts";
import { fromBase64 } from "../../src/worker/robots/entry.ts";
import { clearStoreMemory, readEntry } from "../../src/worker/store.ts";
import packageJson from "../../package.json";
import {
  admin,
  call,
  fakeOrigin,
  freshState,
  GOOGLEBOT,
  ORIGIN,
  robotsFetches,
  type RobotsBehaviour,
} from "./helpers.ts";

const GOOD = "User-agent: *\nDisallow: /private/\n";

beforeEach(freshState);
afterEach(freshState);

// th "Handling of errors and HTTP status codes": what a crawler request and /robots.txt get
// when the origin's robots.txt answers so, with no earlier copy stored.
const statusTable: { name: string; robots: RobotsBehaviour; crawler: number; robotsTxt: number; why: string }[] = [
  { name: "200", robots: { body: GOOD }, crawler: 403, robotsTxt: 200, why: "rfc9309 §2.3.1.1 2xx: obey" },
  { name: "404", robots: { status: 404 }, crawler: 200, robotsTxt: 404, why: "rfc9309 §2.3.1.3 4xx: no restriction" },
  { name: "403", robots: { status: 403 }, crawler: 200, robotsTxt: 404, why: "hi: 401 and 403 count as 4xx" },
  { name: "401", robots: { status: 401 }, crawler: 200, robotsTxt: 404, why: "hi: 401 and 403 count as 4xx" },
  { name: "410", robots: { status: 410 }, crawler: 200, robotsTxt: 404, why: "rfc9309 §2.3.1.3 4xx" },
  { name: "429", robots: { status: 429 }, crawler: 503, robotsTxt: 503, why: "th: 429 is treated like 5xx" },
  {
    name: "500",
    robots: { status: 500 },
    crawler: 503,
    robotsTxt: 503,
    why: "rfc9309 §2.3.1.4 5xx: complete disallow",
  },
  { name: "503", robots: { status: 503 }, crawler: 503, robotsTxt: 503, why: "rfc9309 §2.3.1.4 5xx" },
  {
    name: "network error",
    robots: { networkError: true },
    crawler: 503,
    robotsTxt: 503,
    why: "th: network errors are server errors",
  },
  { name: "time-out", robots: { hang: true }, crawler: 503, robotsTxt: 503, why: "th: time-outs are server errors" },
];

describe("origin status codes, nothing stored yet", () => {
  it.each(statusTable)(
    "robots.txt $name -> crawler $crawler, /robots.txt $robotsTxt ($why)",
    async ({ robots, crawler, robotsTxt }) => {
      fakeOrigin(robots);
      const envOverride = { FETCH_TIMEOUT_MS: "200" };
      const judged = await call("/private/page", { ua: GOOGLEBOT, env: envOverride });
      expect(judged.status).toBe(crawler);
      // A first fetch that failed is retried FIRST_RETRY_SECONDS (30 s) later, not after 5 minutes.
      if (crawler === 503) expect(Number(judged.headers.get("retry-after"))).toBeGreaterThan(25);
      if (crawler === 503) expect(Number(judged.headers.get("retry-after"))).toBeLessThanOrEqual(30);
      const served = await call("/robots.txt", { ua: GOOGLEBOT, env: envOverride });
      expect(served.status).toBe(robotsTxt);
      // Retry-After is when the edge next tries (FIRST_RETRY_SECONDS after the first failure), not RETRY_AFTER.
      if (robotsTxt === 503) expect(Number(served.headers.get("retry-after"))).toBeGreaterThan(25);
      if (robotsTxt === 503) expect(Number(served.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    },
  );

  it("FAIL_OPEN=true lets crawlers through while nothing is known", async () => {
    fakeOrigin({ status: 503 });
    expect((await call("/private/page", { ua: GOOGLEBOT, env: { FAIL_OPEN: "true" } })).status).toBe(200);
  });
});

const chain =
  (hops: number) =>
  (url: URL): RobotsBehaviour => {
    const hop = url.pathname === "/robots.txt" ? 0 : Number(url.pathname.slice(4));
    return hop < hops ? { status: 301, location: `${ORIGIN}/hop${hop + 1}` } : { body: GOOD };
  };

describe("redirects (rfc9309 §2.3.1.2: follow at least five)", () => {
  it("5 redirects are followed", async () => {
    const origin = fakeOrigin(chain(5));
    expect((await call("/private/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect(origin.requests.filter((url) => !url.includes("/private/"))).toHaveLength(6);
  });

  it("a 6th redirect counts as 404: everything allowed", async () => {
    fakeOrigin(chain(6));
    expect((await call("/private/x", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/robots.txt")).status).toBe(404);
  });
});

describe("the body", () => {
  it("serves the origin's exact bytes, BOM and CRLF included", async () => {
    const bytes = new TextEncoder().encode("\uFEFFUser-agent: *\r\nDisallow: /private/\r\n");
    fakeOrigin({ body: bytes, headers: { etag: '"v1"' } });
    const served = await call("/robots.txt");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    expect(served.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(served.headers.get("etag")).toBe('"v1"');
    expect(served.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
  });

  it("HEAD /robots.txt answers like GET without a body", async () => {
    fakeOrigin({ body: GOOD });
    const head = await call("/robots.txt", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("reads 500 KiB: rules past it do not apply, the served copy is cut there", async () => {
    const head = "User-agent: *\nDisallow: /early/\n#";
    const body = `${head}${"x".repeat(MAX_ROBOTS_BYTES)}\nDisallow: /late/\n`;
    fakeOrigin({ body });
    expect((await call("/early/1", { ua: GOOGLEBOT })).status).toBe(403);
    expect((await call("/late/1", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await (await call("/robots.txt")).arrayBuffer()).byteLength).toBe(MAX_ROBOTS_BYTES);
  });
});

describe("keeping the last good copy", () => {
  const faults: { name: string; robots: RobotsBehaviour; inForce: "good" | "none" }[] = [
    { name: "500", robots: { status: 500 }, inForce: "good" },
    { name: "503", robots: { status: 503 }, inForce: "good" },
    { name: "429", robots: { status: 429 }, inForce: "good" },
    { name: "time-out", robots: { hang: true }, inForce: "good" },
    { name: "network error", robots: { networkError: true }, inForce: "good" },
    { name: "an HTML page", robots: { body: "<!DOCTYPE html><html><body>Oops</body></html>" }, inForce: "good" },
    { name: "2 MB of junk", robots: { body: "z".repeat(2 * 1024 * 1024) }, inForce: "good" },
    { name: "404", robots: { status: 404 }, inForce: "none" },
  ];

  it.each(faults)("after a good copy, $name keeps it ($inForce in force)", async ({ robots, inForce }) => {
    const origin = fakeOrigin({ body: GOOD });
    const envOverride = { FETCH_TIMEOUT_MS: "200" };
    expect((await call("/private/a", { ua: GOOGLEBOT, env: envOverride })).status).toBe(403);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    origin.robots = robots;
    clearRobotsMemory();
    // The expired entry still answers; the refresh runs in waitUntil.
    await call("/private/b", { ua: GOOGLEBOT, env: envOverride });
    const after = await call("/private/c", { ua: GOOGLEBOT, env: envOverride });
    expect(after.status).toBe(inForce === "good" ? 403 : 200);
    const served = await call("/robots.txt", { env: envOverride });
    expect(served.status).toBe(inForce === "good" ? 200 : 404);
    if (inForce === "good") expect(await served.text()).toBe(GOOD);
    const stored = await env.ROBOTS.get(`robots:${ORIGIN}`, "json");
    expect(stored).toMatchObject({ copy: { fetchedAt: expect.any(Number) } });
  });

  it("after 30 days without a good fetch the last copy still answers (Google: the last cached copy)", async () => {
    const origin = fakeOrigin({ body: GOOD });
    await call("/private/a", { ua: GOOGLEBOT });
    origin.robots = { status: 503 };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31 * 86_400_000);
    clearRobotsMemory();
    await call("/x", { ua: GOOGLEBOT });
    clearRobotsMemory();
    expect((await call("/public", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(403);
  });
});

// Issue 30 item 6: what a run of fetch outcomes leaves in force, when the edge checks again,
// and what GET status warns of. Each step is a refresh at `at` seconds after START.
const START = Date.parse("2026-11-01T00:00:00.000Z");
const DAY = 86_400;
const OUTCOMES = {
  good: { body: GOOD },
  404: { status: 404 },
  503: { status: 503 },
  redirects: (url: URL): RobotsBehaviour => {
    const hop = url.pathname === "/robots.txt" ? 0 : Number(url.pathname.slice(4));
    return { status: 301, location: `${ORIGIN}/hop${hop + 1}` };
  },
} as const;
const outcomeRows: {
  name: string;
  steps: { at: number; robots: keyof typeof OUTCOMES }[];
  state: string;
  recheckSeconds: number;
  crawler: number;
  warning: string | null;
}[] = [
  {
    name: "a 404 after a good copy: warned, rechecked after 5 minutes",
    steps: [
      { at: 0, robots: "good" },
      { at: 3600, robots: 404 },
    ],
    state: "none",
    recheckSeconds: 300,
    crawler: 200,
    warning:
      'robots.txt was good at 2026-11-01T00:00:00.000Z, then the edge\'s fetch got origin answered 404: no robots.txt: read as "no robots.txt", every URL is allowed. The edge checks again from 5 minutes on (expiresAt); if the file was removed on purpose, DELETE origin clears this',
  },
  {
    name: "a second 404: the interval doubles",
    steps: [
      { at: 0, robots: "good" },
      { at: 3600, robots: 404 },
      { at: 3900, robots: 404 },
    ],
    state: "none",
    recheckSeconds: 600,
    crawler: 200,
    warning:
      'robots.txt was good at 2026-11-01T00:00:00.000Z, then the edge\'s fetch got origin answered 404: no robots.txt: read as "no robots.txt", every URL is allowed. The edge checks again from 5 minutes on (expiresAt); if the file was removed on purpose, DELETE origin clears this',
  },
  {
    name: "a transient 404, then the file again: enforced, no warning",
    steps: [
      { at: 0, robots: "good" },
      { at: 3600, robots: 404 },
      { at: 3900, robots: "good" },
    ],
    state: "ok",
    recheckSeconds: DAY,
    crawler: 403,
    warning: null,
  },
  {
    name: "a redirect loop after a good copy: warned, rechecked after 5 minutes",
    steps: [
      { at: 0, robots: "good" },
      { at: 3600, robots: "redirects" },
    ],
    state: "none",
    recheckSeconds: 300,
    crawler: 200,
    warning:
      'robots.txt was good at 2026-11-01T00:00:00.000Z, then the edge\'s fetch got more than 5 redirects: read as "no robots.txt", every URL is allowed. The edge checks again from 5 minutes on (expiresAt); if the file was removed on purpose, DELETE origin clears this',
  },
  {
    name: "a 404 with no copy before: no warning, the normal lifetime",
    steps: [{ at: 0, robots: 404 }],
    state: "none",
    recheckSeconds: DAY,
    crawler: 200,
    warning: null,
  },
  {
    name: "a first fetch that fails: retried after 30 s",
    steps: [{ at: 0, robots: 503 }],
    state: "unavailable",
    recheckSeconds: 30,
    crawler: 503,
    warning: null,
  },
  {
    name: "a 3-second outage on the first fetch: enforced at the first retry",
    steps: [
      { at: 0, robots: 503 },
      { at: 30, robots: "good" },
    ],
    state: "ok",
    recheckSeconds: DAY,
    crawler: 403,
    warning: null,
  },
  {
    name: "first fetches failing on: 30, 60, 120, 240 s, then every 300 s",
    steps: [
      { at: 0, robots: 503 },
      { at: 30, robots: 503 },
      { at: 90, robots: 503 },
      { at: 210, robots: 503 },
      { at: 450, robots: 503 },
      { at: 750, robots: 503 },
    ],
    state: "unavailable",
    recheckSeconds: 300,
    crawler: 503,
    warning: null,
  },
  {
    name: "no copy, failing for 29 days: still 503",
    steps: [
      { at: 0, robots: 503 },
      { at: 29 * DAY, robots: 503 },
    ],
    state: "unavailable",
    recheckSeconds: 60,
    crawler: 503,
    warning: null,
  },
  {
    name: "no copy, failing for more than 30 days: no restrictions (RFC 9309 §2.3.1.4), warned",
    steps: [
      { at: 0, robots: 503 },
      { at: 30 * DAY + 1, robots: 503 },
    ],
    state: "none",
    recheckSeconds: 300,
    crawler: 200,
    warning:
      'robots.txt has been unreachable since 2026-11-01T00:00:00.000Z (origin answered 503) with no copy ever fetched: after 30 days RFC 9309 §2.3.1.4 reads it as "no robots.txt", every URL is allowed until it answers',
  },
  {
    name: "and failing on after that: still no restrictions, still warned",
    steps: [
      { at: 0, robots: 503 },
      { at: 30 * DAY + 1, robots: 503 },
      { at: 30 * DAY + 301, robots: 503 },
    ],
    state: "none",
    recheckSeconds: 300,
    crawler: 200,
    warning:
      'robots.txt has been unreachable since 2026-11-01T00:00:00.000Z (origin answered 503) with no copy ever fetched: after 30 days RFC 9309 §2.3.1.4 reads it as "no robots.txt", every URL is allowed until it answers',
  },
  {
    name: "a good copy, then failing for 40 days: the last copy answers",
    steps: [
      { at: 0, robots: "good" },
      { at: 40 * DAY, robots: 503 },
    ],
    state: "ok",
    recheckSeconds: 300,
    crawler: 403,
    warning: null,
  },
];

describe("fetch outcomes over time (issue 30 item 6)", () => {
  it.each(outcomeRows)("$name", async ({ steps, state, recheckSeconds, crawler, warning }) => {
    const origin = fakeOrigin(OUTCOMES.good);
    vi.useFakeTimers({ toFake: ["Date"] });
    for (const { at, robots } of steps) {
      vi.setSystemTime(START + at * 1000);
      origin.robots = OUTCOMES[robots];
      await admin("refresh", { method: "POST" });
    }
    const entry = await readEntry(env.ROBOTS, ORIGIN);
    expect(entry?.state).toBe(state);
    expect(((entry?.expiresAt ?? 0) - (entry?.lastFetchAt ?? 0)) / 1000).toBe(recheckSeconds);
    expect((await call("/private/x", { ua: GOOGLEBOT })).status).toBe(crawler);
    const status = (await (await admin("status")).json()) as { origins: { warning: string | null }[] };
    expect(status.origins[0]?.warning).toBe(warning);
  });
});

describe("caching", () => {
  it("a warm isolate reads KV zero times per request", async () => {
    fakeOrigin({ body: GOOD });
    await call("/private/warm-up", { ua: GOOGLEBOT });
    const get = vi.spyOn(env.ROBOTS, "get");
    const list = vi.spyOn(env.ROBOTS, "list");
    for (let i = 0; i < 20; i++) await call(`/private/${i}`, { ua: GOOGLEBOT });
    for (let i = 0; i < 5; i++) await call("/robots.txt");
    expect(get).toHaveBeenCalledTimes(0);
    expect(list).toHaveBeenCalledTimes(0);
  });

  it("a cold isolate reads the stored entry once instead of fetching the origin", async () => {
    const origin = fakeOrigin({ body: GOOD });
    await call("/private/a", { ua: GOOGLEBOT });
    clearRobotsMemory();
    const fetchesBefore = origin.requests.length;
    const get = vi.spyOn(env.ROBOTS, "get");
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(403);
    expect(get.mock.calls.filter(([key]) => String(key) === `robots:${ORIGIN}`)).toHaveLength(1);
    expect(origin.requests.slice(fetchesBefore).some((url) => url.endsWith("/robots.txt"))).toBe(false);
  });

  it("an entry stored in another format is not read: the edge fetches robots.txt again and stores it anew", async () => {
    const origin = fakeOrigin({ body: GOOD });
    await call("/private/a", { ua: GOOGLEBOT });
    const key = `robots:${ORIGIN}`;
    const stored = (await env.ROBOTS.get<Record<string, unknown>>(key, "json")) ?? {};
    await env.ROBOTS.put(key, JSON.stringify({ ...stored, version: 0 }));
    // A new isolate: no memory of the entry, nor of its last good value (store.ts).
    clearRobotsMemory();
    clearStoreMemory();
    expect(await readEntry(env.ROBOTS, ORIGIN)).toBeUndefined();
    const fetchesBefore = robotsFetches(origin);
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(403);
    expect(robotsFetches(origin)).toBe(fetchesBefore + 1);
    expect((await readEntry(env.ROBOTS, ORIGIN))?.version).toBe(1);
  });

  it("re-reads KV after MEMORY_RECHECK_MS to see other isolates' refreshes", async () => {
    fakeOrigin({ body: GOOD });
    await call("/private/a", { ua: GOOGLEBOT });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + MEMORY_RECHECK_MS + 1);
    const get = vi.spyOn(env.ROBOTS, "get");
    await call("/private/b", { ua: GOOGLEBOT });
    expect(get.mock.calls.some(([key]) => String(key) === `robots:${ORIGIN}`)).toBe(true);
  });

  it("stale-while-revalidate: an expired copy answers at once, one refresh replaces it", async () => {
    const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": "max-age=60" } });
    await call("/private/a", { ua: GOOGLEBOT });
    origin.robots = { body: "User-agent: *\nDisallow: /other/\n" };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const before = origin.requests.filter((url) => url.endsWith("/robots.txt")).length;
    const stale = await call("/private/b", { ua: GOOGLEBOT });
    expect(stale.status).toBe(403); // answered by the stale copy
    const fresh = await call("/private/c", { ua: GOOGLEBOT });
    expect(fresh.status).toBe(200); // the refresh (run in waitUntil) replaced it
    expect((await call("/other/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect(origin.requests.filter((url) => url.endsWith("/robots.txt")).length - before).toBe(1);
  });

  it("the origin's max-age shortens the lifetime but never lengthens it past ROBOTS_MAX_AGE", async () => {
    fakeOrigin({ body: GOOD, headers: { "cache-control": "max-age=999999" } });
    const now = Date.now();
    await call("/robots.txt");
    const stored = await env.ROBOTS.get<{ expiresAt: number }>(`robots:${ORIGIN}`, "json");
    expect((stored?.expiresAt ?? 0) - now).toBeLessThanOrEqual(86_400_000 + 5_000);
    expect((stored?.expiresAt ?? 0) - now).toBeGreaterThan(86_400_000 - 5_000);
  });
});

describe("stored models of another schema version", () => {
  it("are re-parsed from the stored bytes instead of trusted", async () => {
    const origin = fakeOrigin({ body: GOOD });
    await call("/robots.txt");
    const key = `robots:${ORIGIN}`;
    const stored = (await env.ROBOTS.get<Record<string, Record<string, unknown>>>(key, "json")) ?? {};
    await env.ROBOTS.put(key, JSON.stringify({ ...stored, copy: { ...stored["copy"], model: '{"schema":999}' } }));
    clearRobotsMemory();
    const fetchesBefore = origin.requests.length;
    expect((await call("/private/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect(origin.requests.length).toBe(fetchesBefore);
  });
});

// Issue #9: a 2xx body that is not a robots.txt (a soft error) never replaces a copy in force.
// "Not a robots.txt": HTML, or no user-agent line followed by a rule (one User-agent or
// Sitemap line alone is a request echo or an error page, not a file).
describe("soft errors: a 2xx body with no group structure never replaces a good copy", () => {
  const softErrors: { name: string; robots: RobotsBehaviour | ((url: URL) => RobotsBehaviour) }[] = [
    { name: "Not Found", robots: { body: "Not Found" } },
    { name: "a JSON error", robots: { body: '{"error":"Not Found","status":404}' } },
    { name: "Error: upstream request timeout", robots: { body: "Error: upstream request timeout" } },
    {
      name: "a plain-text maintenance page",
      robots: { body: "We'll be back soon!\nMaintenance: until 06:00 UTC\nContact: ops@example.com\n" },
    },
    { name: "an empty body", robots: { body: "" } },
    {
      name: "a page echoing the request's headers (one User-Agent line)",
      robots: {
        body: "GET /robots.txt HTTP/1.1\nHost: origin.test\nUser-Agent: robots-edge/0.1.0\nAccept: text/plain, */*\n",
      },
    },
    {
      name: "an error page with a sitemap link (one Sitemap line)",
      robots: { body: "Error 503: the service is busy, try again later.\nSitemap: https://origin.test/sitemap.xml\n" },
    },
    { name: "a user-agent line with unknown fields only", robots: { body: "User-agent: *\nError: timeout\n" } },
    {
      name: "a page reached through a redirect to another host",
      robots: (url) =>
        url.host === "origin.test"
          ? { status: 302, location: "https://login.example.net/robots.txt" }
          : { body: "Please sign in: session expired" },
    },
  ];

  it.each(softErrors)("$name keeps the good copy in force", async ({ robots }) => {
    const origin = fakeOrigin({ body: GOOD });
    expect((await call("/private/a", { ua: GOOGLEBOT })).status).toBe(403);
    origin.robots = robots;
    const refreshed = (await (await admin("refresh", { method: "POST" })).json()) as Record<string, unknown>;
    expect(refreshed).toMatchObject({ state: "ok", lastError: expect.stringContaining("not a robots.txt") });
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(403);
    expect(await (await call("/robots.txt")).text()).toBe(GOOD);
  });

  // The other way: a real file replaces the copy, however little it says.
  it.each([
    { name: "allow everything (an empty Disallow)", body: "User-agent: *\nDisallow:\n", status: 200 },
    { name: "a Crawl-delay only", body: "User-agent: *\nCrawl-delay: 5\n", status: 200 },
    { name: "a Content-Usage line only", body: "User-agent: *\nContent-Usage: train-ai=n\n", status: 200 },
    { name: "one rule", body: "User-agent: *\nDisallow: /other/\n", status: 200 },
  ])("a real file replaces the copy: $name", async ({ body, status }) => {
    const origin = fakeOrigin({ body: GOOD });
    expect((await call("/private/a", { ua: GOOGLEBOT })).status).toBe(403);
    origin.robots = { body };
    expect(await (await admin("refresh", { method: "POST" })).json()).toMatchObject({ state: "ok" });
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(status);
    expect(await (await call("/robots.txt")).text()).toBe(body);
  });

  it("after a 4xx, a later soft error does not bring the older copy back into force", async () => {
    const origin = fakeOrigin({ body: GOOD });
    expect((await call("/private/a", { ua: GOOGLEBOT })).status).toBe(403);
    origin.robots = { status: 404 };
    await admin("refresh", { method: "POST" });
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(200);
    origin.robots = { body: "Not Found" };
    expect(await (await admin("refresh", { method: "POST" })).json()).toMatchObject({ state: "none" });
    expect((await call("/private/c", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/robots.txt")).status).toBe(404);
  });

  it("with no copy before, a soft error is what the origin has: nothing is disallowed", async () => {
    fakeOrigin({ body: "Not Found" });
    expect((await call("/private/a", { ua: GOOGLEBOT })).status).toBe(200);
  });
});

/** Start counting KV writes of robots.txt entries; call the result for the count so far. */
function countWrites(): () => number {
  const put = vi.spyOn(env.ROBOTS, "put");
  return () => put.mock.calls.filter(([key]) => String(key).startsWith("robots:")).length;
}

describe("Cache-Control: no-cache / max-age=0", () => {
  it.each(["no-cache", "max-age=0", "no-store"])(
    "%s: 30 crawler requests at once -> 1 fetch, 1 write (lifetime floored at 60 s)",
    async (cacheControl) => {
      const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": cacheControl } });
      const writes = countWrites();
      for (let i = 0; i < 30; i++) await call(`/page/${i}`, { ua: GOOGLEBOT });
      expect(robotsFetches(origin)).toBe(1);
      expect(writes()).toBeLessThanOrEqual(1);
    },
  );

  it("30 requests over 5 minutes: a fetch a minute at most, and unchanged bytes are not written again", async () => {
    const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": "no-cache" } });
    const writes = countWrites();
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let i = 0; i < 30; i++) {
      await call(`/page/${i}`, { ua: GOOGLEBOT });
      vi.setSystemTime(Date.now() + 10_000);
    }
    expect(robotsFetches(origin)).toBeLessThanOrEqual(6);
    expect(writes()).toBe(1);
  });

  it("changed bytes are written at once", async () => {
    const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": "no-cache" } });
    const writes = countWrites();
    await call("/a", { ua: GOOGLEBOT });
    origin.robots = { body: "User-agent: *\nDisallow: /other/\n", headers: { "cache-control": "no-cache" } };
    await admin("refresh", { method: "POST" });
    expect(writes()).toBe(2);
    expect((await call("/other/x", { ua: GOOGLEBOT })).status).toBe(403);
  });
});

describe("the edge's robots.txt fetch identifies itself", () => {
  it("sends User-Agent robots-edge/<package version> (+project URL)", async () => {
    const origin = fakeOrigin({ body: GOOD });
    await call("/robots.txt");
    expect(origin.robotsUserAgents).toEqual([`robots-edge/${packageJson.version} (+${PROJECT_URL})`]);
    expect(VERSION).toBe(packageJson.version);
    expect(PROJECT_URL).toMatch(/^https:\/\//);
  });

  it.each([401, 403])("a %s on robots.txt is a warning in status, the page's data and the log", async (code) => {
    fakeOrigin({ status: code });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect((await call("/private/a", { ua: GOOGLEBOT })).status).toBe(200); // 4xx: no robots.txt (RFC 9309)
    const status = (await (await admin("status")).json()) as { origins: { warning: string | null }[] };
    expect(status.origins[0]?.warning).toContain(`the origin answered ${code}`);
    const view = (await (await admin("robots")).json()) as { status: { warning: string | null } };
    expect(view.status.warning).toContain("robots-edge/");
    expect(warn.mock.calls.map(([line]) => JSON.parse(String(line)) as { event: string })).toEqual([
      expect.objectContaining({ event: "robots-edge.robots-warning", authority: ORIGIN }),
    ]);
  });

  it("a 404 is no warning", async () => {
    fakeOrigin({ status: 404 });
    await call("/private/a", { ua: GOOGLEBOT });
    const status = (await (await admin("status")).json()) as { origins: { warning: string | null }[] };
    expect(status.origins[0]?.warning).toBeNull();
  });
});

describe("a refresh never writes an older copy over a newer one another isolate stored", () => {
  it("re-reads KV before keeping a copy after a failed fetch", async () => {
    const origin = fakeOrigin({ body: GOOD });
    await call("/robots.txt");
    const older = await readEntry(env.ROBOTS, ORIGIN); // what this isolate remembers
    const newer = "User-agent: *\nDisallow: /newer/\n";
    origin.robots = { body: newer };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 1000);
    await admin("refresh", { method: "POST" }); // "another isolate" stores the newer copy
    origin.robots = { status: 503 };
    vi.setSystemTime(Date.now() + 1000);
    const { config } = parseConfig({ ORIGIN_URL: ORIGIN });
    await refresh(ORIGIN, env.ROBOTS, config, older);
    const stored = await readEntry(env.ROBOTS, ORIGIN);
    expect(stored?.copy && new TextDecoder().decode(fromBase64(stored.copy.bodyBase64))).toBe(newer);
  });
});

// A refresh whose KV write fails (KV down, or Workers Free's 1,000 writes a day spent) must not
// be retried on every crawler request: the fetched entry answers from isolate memory for its
// lifetime, as a stored one would.
/** KV refuses every robots.txt entry write, as when the day's writes are spent. */
function failingRobotsWrites(): void {
  const put = env.ROBOTS.put.bind(env.ROBOTS);
  vi.spyOn(env.ROBOTS, "put").mockImplementation((key, ...rest) =>
    String(key).startsWith("robots:")
      ? Promise.reject(new Error("KV put() limit exceeded for the day."))
      : put(key, ...rest),
  );
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
}

describe("a robots.txt that cannot be stored is not fetched again per request", () => {
  it("first fetch unstored: 30 crawler requests over 30 minutes make one fetch, and the copy is obeyed", async () => {
    const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": "max-age=3600" } });
    failingRobotsWrites();
    vi.useFakeTimers({ toFake: ["Date"] });
    const statuses = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await call(`/private/${i}`, { ua: GOOGLEBOT })).status);
      vi.setSystemTime(Date.now() + 60_000);
    }
    expect(new Set(statuses)).toEqual(new Set([403]));
    expect(robotsFetches(origin)).toBe(1);
  });

  it("an expired stored copy whose refresh cannot be stored: one fetch, not one per request", async () => {
    const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": "max-age=3600" } });
    await call("/private/a", { ua: GOOGLEBOT });
    origin.robots = { body: "User-agent: *\nDisallow: /other/\n", headers: { "cache-control": "max-age=3600" } };
    failingRobotsWrites();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3_601_000);
    for (let i = 0; i < 20; i++) {
      await call(`/page/${i}`, { ua: GOOGLEBOT });
      vi.setSystemTime(Date.now() + 30_000);
    }
    expect(robotsFetches(origin)).toBe(2);
    expect((await call("/other/x", { ua: GOOGLEBOT })).status).toBe(403); // the new copy is in force
    expect((await call("/private/b", { ua: GOOGLEBOT })).status).toBe(200);
  });

  it("once its lifetime is over, it is fetched again", async () => {
    const origin = fakeOrigin({ body: GOOD, headers: { "cache-control": "max-age=600" } });
    failingRobotsWrites();
    vi.useFakeTimers({ toFake: ["Date"] });
    await call("/private/a", { ua: GOOGLEBOT });
    vi.setSystemTime(Date.now() + 601_000);
    await call("/private/b", { ua: GOOGLEBOT });
    await call("/private/c", { ua: GOOGLEBOT });
    expect(robotsFetches(origin)).toBe(2);
  });
});
