// Session 9 attack review (outside reviewer): RateLimit-Policy / RateLimit on crawler answers
// (worker/edge/rate-limit-fields.ts, policy/rate-limit-headers.ts) under a robots.txt the edge
// does not control. Tests assert the SAFE behaviour; the one once named HOLE failed before the
// bounds in crawl-rate.ts rateLimitsAt and rate-limit-headers.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, fakeOrigin, freshState } from "./helpers.ts";

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

beforeEach(async () => {
  await freshState();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(freshState);

describe("RateLimit fields a robots.txt can grow", () => {
  // Every Request-rate line in force becomes one member of RateLimit-Policy ("request-rate-N"),
  // with no bound on their number: a robots.txt (a CMS plugin's output, a hacked origin, a
  // typo'd generator) with 5,000 such lines makes every answer to that crawler carry a header
  // of ~150 KB — past what proxies and clients take for a field (8-16 KiB is common; Cloudflare
  // documents a total response-header limit) — and the limiter loops over every rate per
  // request. Safe: the fields stay small (the strictest rates, or none, stated).
  it("5,000 Request-rate lines do not make a RateLimit-Policy field past 8 KiB", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `Request-rate: ${i + 1}/${i + 60}\n`).join("");
    fakeOrigin({ body: `User-agent: FooBot\n${lines}` });
    const response = await call("/a", { ua: "FooBot/1.0" });
    const policy = response.headers.get("ratelimit-policy") ?? "";
    expect({ status: response.status, bytes: policy.length, small: policy.length <= 8192 }).toMatchObject({
      status: 200,
      small: true,
    });
  });

  it("holds: a Crawl-delay and one Request-rate state two members", async () => {
    fakeOrigin({ body: "User-agent: FooBot\nCrawl-delay: 5\nRequest-rate: 10/1m\n" });
    const response = await call("/a", { ua: "FooBot/1.0" });
    expect([response.headers.get("ratelimit-policy"), response.headers.get("ratelimit")]).toEqual([
      '"crawl-delay";q=1;w=5, "request-rate";q=10;w=60',
      '"crawl-delay";r=0;t=5',
    ]);
  });

  it("holds: a browser claiming nothing gets no RateLimit fields from a crawler's group", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 5\n" });
    const response = await call("/a", {
      ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
    });
    expect([response.status, response.headers.get("ratelimit-policy")]).toEqual([200, null]);
  });
});
