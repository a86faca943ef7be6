// Issue 32 part 4: a crawl rate, stated before it is enforced. Crawler answers whose group or
// rule binds a rate carry RateLimit-Policy / RateLimit (draft-ietf-httpapi-ratelimit-headers-10),
// the 429s and Visit-time's 503 included; answers nothing binds carry neither. The clock is the test's.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { crawlRateKey, type CrawlRate } from "../../src/worker/edge/crawl-rate-object.ts";
import { call, CHROME, fakeOrigin, freshState, GOOGLEBOT, GPTBOT, ORIGIN } from "./helpers.ts";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

beforeEach(async () => {
  await freshState();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(freshState);

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

function stated(response: Response) {
  return {
    status: response.status,
    policy: response.headers.get("ratelimit-policy"),
    state: response.headers.get("ratelimit"),
    retryAfter: response.headers.get("retry-after"),
  };
}

describe("RateLimit-Policy / RateLimit on crawler answers", () => {
  it("a Crawl-delay group's crawler: its pass states the delay spent, its 429 the wait", async () => {
    fakeOrigin({ body: "User-agent: FooBot\nCrawl-delay: 10\n" });
    expect(stated(await call("/a", { ua: "FooBot/1.0" }))).toEqual({
      status: 200,
      policy: '"crawl-delay";q=1;w=10',
      state: '"crawl-delay";r=0;t=10',
      retryAfter: null,
    });
    advance(3);
    expect(stated(await call("/b", { ua: "FooBot/1.0" }))).toEqual({
      status: 429,
      policy: '"crawl-delay";q=1;w=10',
      state: '"crawl-delay";r=0;t=7',
      retryAfter: "7",
    });
  });

  it("Request-rate: the policy on a pass (its count is not known), the wait on its 429", async () => {
    fakeOrigin({ body: "User-agent: FooBot\nRequest-rate: 2/60\n" });
    expect(stated(await call("/1", { ua: "FooBot/1.0" }))).toEqual({
      status: 200,
      policy: '"request-rate";q=2;w=60',
      state: null,
      retryAfter: null,
    });
    await call("/2", { ua: "FooBot/1.0" });
    expect(stated(await call("/3", { ua: "FooBot/1.0" }))).toEqual({
      status: 429,
      policy: '"request-rate";q=2;w=60',
      state: '"request-rate";r=0;t=60',
      retryAfter: "60",
    });
  });

  it("Visit-time closed: 503 with the group's rate policies and the wait", async () => {
    fakeOrigin({ body: "User-agent: FooBot\nVisit-time: 0100-0200\nCrawl-delay: 5\n" });
    expect(stated(await call("/a", { ua: "FooBot/1.0" }))).toEqual({
      status: 503,
      policy: '"crawl-delay";q=1;w=5',
      state: '"crawl-delay";r=0;t=46800',
      retryAfter: "46800",
    });
  });

  it("a policy `pace` rule: its 429 states one try per Retry-After", async () => {
    fakeOrigin({ body: "User-agent: *\nAllow: /\n" });
    const POLICY = JSON.stringify({
      routes: [{ pattern: "/slow/", rules: [{ crawlers: ["GPTBot"], action: "pace", retryAfter: 600 }] }],
    });
    expect(stated(await call("/slow/a", { ua: GPTBOT, env: { POLICY } }))).toEqual({
      status: 429,
      policy: '"pace";q=1;w=600',
      state: '"pace";r=0;t=600',
      retryAfter: "600",
    });
  });

  it.each([
    { why: "a person", ua: CHROME },
    { why: "Googlebot under a `*` Crawl-delay it does not honour (ENFORCE_RATES=true)", ua: GOOGLEBOT },
    { why: "a crawler whose group binds no rate", ua: "BarBot/1.0" },
  ])("nothing binds, nothing is stated: $why", async ({ ua }) => {
    fakeOrigin({ body: "User-agent: BarBot\nDisallow: /x/\n\nUser-agent: *\nCrawl-delay: 10\n" });
    expect(stated(await call("/a", { ua }))).toEqual({ status: 200, policy: null, state: null, retryAfter: null });
  });

  it("an origin that states its own RateLimit-Policy keeps it", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.pathname === "/robots.txt") return new Response("User-agent: FooBot\nCrawl-delay: 10\n");
      return new Response("api", { headers: { "ratelimit-policy": '"api";q=100;w=60' } });
    });
    expect(stated(await call("/a", { ua: "FooBot/1.0" }))).toEqual({
      status: 200,
      policy: '"api";q=100;w=60',
      state: null,
      retryAfter: null,
    });
  });
});

// What a robots.txt the edge does not control can make of these fields and of the limiter
// (crawl-rate.ts rateLimitsAt bounds both; attack session 9).
describe("RateLimit fields and the limiter, bounded", () => {
  it("5,000 Request-rate lines, each implied by the first: one item of 23 bytes", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `Request-rate: ${i + 1}/${i + 60}\n`).join("");
    fakeOrigin({ body: `User-agent: FooBot\n${lines}` });
    expect(stated(await call("/a", { ua: "FooBot/1.0" }))).toEqual({
      status: 200,
      policy: '"request-rate";q=1;w=60',
      state: null,
      retryAfter: null,
    });
  });

  it("a 20-digit Crawl-delay is enforced and stated as a year", async () => {
    fakeOrigin({ body: "User-agent: FooBot\nCrawl-delay: 99999999999999999999\n" });
    expect(stated(await call("/a", { ua: "FooBot/1.0" })).policy).toBe('"crawl-delay";q=1;w=31536000');
    expect(stated(await call("/b", { ua: "FooBot/1.0" }))).toEqual({
      status: 429,
      policy: '"crawl-delay";q=1;w=31536000',
      state: '"crawl-delay";r=0;t=31536000',
      retryAfter: "31536000",
    });
  });

  it("Request-rate: 20000/1h is counted by a bucket the object keeps and reads back", async () => {
    fakeOrigin({ body: "User-agent: FooBot\nRequest-rate: 20000/1h\n" });
    expect((await call("/a", { ua: "FooBot/1.0" })).status).toBe(200);
    const key = crawlRateKey(ORIGIN, "foobot", { knownToken: undefined, proven: false, address: undefined });
    const limiter = env.CRAWL_RATE.get(env.CRAWL_RATE.idFromName(key));
    const stored = await runInDurableObject(limiter, async (_object: CrawlRate, state) => state.storage.get("state"));
    expect(stored).toMatchObject({ recent: [T0], buckets: { "20000/3600000": { tokens: 19_999, at: T0 } } });
    await runInDurableObject(limiter, async (object: CrawlRate, state) => {
      await state.storage.put("state", {
        recent: [T0],
        buckets: { "20000/3600000": { tokens: 0, at: T0 } },
        keepUntil: T0 + 7_200_000,
      });
      Object.assign(object, { state: undefined });
    });
    expect(stated(await call("/b", { ua: "FooBot/1.0" }))).toEqual({
      status: 429,
      policy: '"request-rate";q=20000;w=3600',
      state: '"request-rate";r=0;t=1',
      retryAfter: "1",
    });
  });
});
