// Crawl-delay / Request-rate (429, Durable Object per crawler) and Visit-time (503) at the
// edge, in workerd with the real Durable Object; the clock is the test's.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BINGBOT, call, CHROME, fakeOrigin, freshState, GOOGLEBOT } from "./helpers.ts";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

beforeEach(async () => {
  await freshState();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(freshState);

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

describe("Crawl-delay and Request-rate", () => {
  it("too fast -> 429 with Retry-After until the next allowed request; then allowed again", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n" });
    expect((await call("/a", { ua: GOOGLEBOT })).status).toBe(200);
    advance(3);
    const early = await call("/b", { ua: GOOGLEBOT });
    expect(early.status).toBe(429);
    expect(early.headers.get("retry-after")).toBe("7");
    advance(7);
    expect((await call("/c", { ua: GOOGLEBOT })).status).toBe(200);
  });

  it("one crawler's pace does not hold back another under the same group", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\n" });
    expect((await call("/a", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/a", { ua: BINGBOT })).status).toBe(200);
    expect((await call("/b", { ua: GOOGLEBOT })).status).toBe(429);
  });

  it("Request-rate: 2/60 allows two, then waits for the window", async () => {
    fakeOrigin({ body: "User-agent: *\nRequest-rate: 2/60\n" });
    expect((await call("/1", { ua: GOOGLEBOT })).status).toBe(200);
    advance(1);
    expect((await call("/2", { ua: GOOGLEBOT })).status).toBe(200);
    advance(1);
    const third = await call("/3", { ua: GOOGLEBOT });
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("58");
  });

  it("humans are never paced; groups without such lines are not either", async () => {
    // The Disallow closes the * group's user-agent lines; without it, bingbot would join that
    // group (Crawl-delay does not end a run of user-agent lines).
    fakeOrigin({ body: "User-agent: *\nDisallow: /nothing\nCrawl-delay: 10\n\nUser-agent: bingbot\nDisallow: /x\n" });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(`/h${i}`, { ua: CHROME })).status);
    for (let i = 0; i < 3; i++) statuses.push((await call(`/b${i}`, { ua: BINGBOT })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("ENFORCE_RATES=false turns it off", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\n" });
    expect((await call("/a", { ua: GOOGLEBOT, env: { ENFORCE_RATES: "false" } })).status).toBe(200);
    expect((await call("/b", { ua: GOOGLEBOT, env: { ENFORCE_RATES: "false" } })).status).toBe(200);
  });

  it("a disallowed request is blocked, not counted", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n" });
    expect((await call("/private/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
  });
});

describe("Visit-time", () => {
  it("outside the window -> 503 with Retry-After until it opens; inside -> allowed (window across midnight)", async () => {
    fakeOrigin({ body: "User-agent: *\nVisit-time: 2200-0530\n" });
    const outside = await call("/a", { ua: GOOGLEBOT });
    expect(outside.status).toBe(503);
    expect(outside.headers.get("retry-after")).toBe(String(10 * 3600));
    vi.setSystemTime(Date.UTC(2026, 10, 22, 23, 0, 0));
    expect((await call("/b", { ua: GOOGLEBOT })).status).toBe(200);
    vi.setSystemTime(Date.UTC(2026, 10, 23, 3, 0, 0));
    expect((await call("/c", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/d", { ua: CHROME })).status).toBe(200);
  });
});
