// Crawl-delay / Request-rate (429, Durable Object per crawler) and Visit-time (503) at the
// edge, in workerd with the real Durable Object; the clock is the test's.
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { crawlRateKey } from "../../src/worker/edge/crawl-rate-object.ts";
import { BINGBOT, call, CHROME, fakeOrigin, freshState, GOOGLEBOT, ORIGIN } from "./helpers.ts";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

beforeEach(async () => {
  await freshState();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(freshState);

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

/**
 * Most tables below hold crawlers to a `*` group's lines, which by default bind only crawlers
 * that honour them (see "who is bound by default"): these calls opt every crawler in.
 */
const paced = (path: string, options: Parameters<typeof call>[1] = {}) =>
  call(path, { ...options, env: { ENFORCE_RATES: "all", ...options.env } });

describe("who is bound by default (ENFORCE_RATES=true): crawlers that honour the lines", () => {
  // Google documents that Googlebot ignores Crawl-delay and reads sustained 429/503 as
  // overload (URLs dropped): a `*` group's Crawl-delay must not throttle it unless asked.
  it.each([
    { robots: "User-agent: *\nCrawl-delay: 10\n", ua: GOOGLEBOT, setting: "true", second: 200 },
    { robots: "User-agent: *\nCrawl-delay: 10\n", ua: GOOGLEBOT, setting: "all", second: 429 },
    { robots: "User-agent: Googlebot\nCrawl-delay: 10\n", ua: GOOGLEBOT, setting: "true", second: 429 },
    { robots: "User-agent: *\nCrawl-delay: 10\n", ua: "FooBot/1.0", setting: "true", second: 200 },
    { robots: "User-agent: FooBot\nCrawl-delay: 10\n", ua: "FooBot/1.0", setting: "true", second: 429 },
    { robots: "User-agent: Googlebot\nCrawl-delay: 10\n", ua: GOOGLEBOT, setting: "false", second: 200 },
    { robots: "User-agent: *\nVisit-time: 0000-0001\n", ua: GOOGLEBOT, setting: "true", second: 200 },
  ])("$robots for $ua with ENFORCE_RATES=$setting: second request $second", async ({ robots, ua, setting, second }) => {
    fakeOrigin({ body: robots });
    expect((await call("/a", { ua, env: { ENFORCE_RATES: setting } })).status).toBe(200);
    advance(1);
    expect((await call("/b", { ua, env: { ENFORCE_RATES: setting } })).status).toBe(second);
  });
});

describe("Crawl-delay and Request-rate", () => {
  it("too fast -> 429 with Retry-After until the next allowed request; then allowed again", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n" });
    expect((await paced("/a", { ua: GOOGLEBOT })).status).toBe(200);
    advance(3);
    const early = await paced("/b", { ua: GOOGLEBOT });
    expect(early.status).toBe(429);
    expect(early.headers.get("retry-after")).toBe("7");
    advance(7);
    expect((await paced("/c", { ua: GOOGLEBOT })).status).toBe(200);
  });

  it("one crawler's pace does not hold back another under the same group", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\n" });
    expect((await paced("/a", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await paced("/a", { ua: BINGBOT })).status).toBe(200);
    expect((await paced("/b", { ua: GOOGLEBOT })).status).toBe(429);
  });

  it("Request-rate: 2/60 allows two, then waits for the window", async () => {
    fakeOrigin({ body: "User-agent: *\nRequest-rate: 2/60\n" });
    expect((await paced("/1", { ua: GOOGLEBOT })).status).toBe(200);
    advance(1);
    expect((await paced("/2", { ua: GOOGLEBOT })).status).toBe(200);
    advance(1);
    const third = await paced("/3", { ua: GOOGLEBOT });
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("58");
  });

  it("humans are never paced; groups without such lines are not either", async () => {
    // The Disallow closes the * group's user-agent lines; without it, bingbot would join that
    // group (Crawl-delay does not end a run of user-agent lines).
    fakeOrigin({ body: "User-agent: *\nDisallow: /nothing\nCrawl-delay: 10\n\nUser-agent: bingbot\nDisallow: /x\n" });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await paced(`/h${i}`, { ua: CHROME })).status);
    for (let i = 0; i < 3; i++) statuses.push((await paced(`/b${i}`, { ua: BINGBOT })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("ENFORCE_RATES=false turns it off", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\n" });
    expect((await paced("/a", { ua: GOOGLEBOT, env: { ENFORCE_RATES: "false" } })).status).toBe(200);
    expect((await paced("/b", { ua: GOOGLEBOT, env: { ENFORCE_RATES: "false" } })).status).toBe(200);
  });

  it("a disallowed request is blocked, not counted", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n" });
    expect((await paced("/private/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect((await paced("/open", { ua: GOOGLEBOT })).status).toBe(200);
  });
});

describe("Visit-time", () => {
  it("outside the window -> 503 with Retry-After until it opens; inside -> allowed (window across midnight)", async () => {
    fakeOrigin({ body: "User-agent: *\nVisit-time: 2200-0530\n" });
    const outside = await paced("/a", { ua: GOOGLEBOT });
    expect(outside.status).toBe(503);
    expect(outside.headers.get("retry-after")).toBe(String(10 * 3600));
    vi.setSystemTime(Date.UTC(2026, 10, 22, 23, 0, 0));
    expect((await paced("/b", { ua: GOOGLEBOT })).status).toBe(200);
    vi.setSystemTime(Date.UTC(2026, 10, 23, 3, 0, 0));
    expect((await paced("/c", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await paced("/d", { ua: CHROME })).status).toBe(200);
  });
});

// Issue #9: one limiter per origin, group and crawler product token, never per raw token; the
// anonymous are kept apart by network; an object's state goes once its longest window passed.
// A claim shares its crawler's limiter only when proven; unproven, it is paced with its network.
describe("which requests share a limiter (crawlRateKey)", () => {
  const rows: { group: string; knownToken?: string; proven: boolean; address?: string; key: string; why: string }[] = [
    { group: "*", knownToken: "Googlebot", proven: true, key: "https://o.test * googlebot", why: "verified under *" },
    {
      group: "Googlebot",
      knownToken: "Googlebot",
      proven: true,
      key: "https://o.test googlebot",
      why: "its own group",
    },
    {
      group: "*",
      knownToken: "Googlebot",
      proven: false,
      address: "203.0.113.9",
      key: "https://o.test * googlebot net:203.0.113.0/24",
      why: "unproven claim under *: with its network",
    },
    {
      group: "SeznamBot",
      knownToken: "SeznamBot",
      proven: false,
      address: "203.0.113.9",
      key: "https://o.test seznambot net:203.0.113.0/24",
      why: "unproven claim in its own group: with its network",
    },
    {
      group: "foobot",
      proven: false,
      address: "192.0.2.7",
      key: "https://o.test foobot net:192.0.2.0/24",
      why: "FooBot-<random> under foobot, one network",
    },
    { group: "*", proven: false, address: "192.0.2.7", key: "https://o.test * net:192.0.2.0/24", why: "unknown token" },
    { group: "*", proven: false, address: "192.0.2.200", key: "https://o.test * net:192.0.2.0/24", why: "same /24" },
    {
      group: "*",
      proven: false,
      address: "198.51.100.1",
      key: "https://o.test * net:198.51.100.0/24",
      why: "another network",
    },
    {
      group: "*",
      proven: false,
      address: "2001:db8:1:2::9",
      key: "https://o.test * net:2001:db8:1::/48",
      why: "IPv6 /48",
    },
    {
      group: "*",
      proven: false,
      address: "::ffff:192.0.2.9",
      key: "https://o.test * net:192.0.2.0/24",
      why: "IPv4-mapped",
    },
    { group: "*", proven: false, address: "not an ip", key: "https://o.test * net:unknown", why: "no usable address" },
    { group: "*", proven: false, key: "https://o.test * net:unknown", why: "no address (local runs)" },
    // Issue 30: a user-triggered fetcher acts for many people; proven, it is still paced per client network.
    {
      group: "ChatGPT-User",
      knownToken: "ChatGPT-User",
      proven: true,
      address: "23.98.142.5",
      key: "https://o.test chatgpt-user net:23.98.142.0/24",
      why: "a proven user-triggered fetcher in its own group: with its network",
    },
    {
      group: "*",
      knownToken: "Perplexity-User",
      proven: true,
      address: "2001:db8:7:1::5",
      key: "https://o.test * perplexity-user net:2001:db8:7::/48",
      why: "a proven user-triggered fetcher under *: with its network",
    },
    {
      group: "FeedFetcher-Google",
      knownToken: "FeedFetcher-Google",
      proven: true,
      address: "192.0.2.9",
      key: "https://o.test feedfetcher-google net:192.0.2.0/24",
      why: "Google's user-triggered fetchers too",
    },
  ];
  it.each(rows)("$why -> $key", ({ group, knownToken, proven, address, key }) => {
    expect(crawlRateKey("https://o.test", group, { knownToken, proven, address })).toBe(key);
  });
});

const bing = (path: string, address?: string) =>
  call(path, { ua: BINGBOT, headers: address ? { "cf-connecting-ip": address } : {} });

// A spoofed claim cannot spend the real crawler's pace. SeznamBot (Crawl-delay documented,
// no address list or reverse DNS to check it by) is unverifiable: each network keeps its own
// pace. bingbot is verified by Microsoft's list: the real one is never paced with an impostor.
describe("a spoofed crawler cannot put the real one on 429", () => {
  const SEZNAMBOT =
    "Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)";
  const SPOOFER = "203.0.113.9";
  const seznam = (path: string, address: string) =>
    call(path, { ua: SEZNAMBOT, headers: { "cf-connecting-ip": address } });

  it("SeznamBot: a request per Crawl-delay from another network leaves the real one its pace", async () => {
    fakeOrigin({ body: "User-agent: SeznamBot\nCrawl-delay: 10\n" });
    expect((await seznam("/s1", SPOOFER)).status).toBe(200);
    advance(1);
    expect((await seznam("/real1", "77.75.77.10")).status).toBe(200);
    advance(1);
    expect((await seznam("/s2", SPOOFER)).status).toBe(429); // the spoofer is held to its own pace
    expect((await seznam("/real2", "77.75.77.10")).status).toBe(429); // and the real one to its own
  });

  it("bingbot verified by its list: an impostor and an unverifiable claim do not share its limiter", async () => {
    fakeOrigin({ body: "User-agent: bingbot\nCrawl-delay: 10\n" });
    await env.ROBOTS.put(
      "crawler-ranges",
      JSON.stringify({ sources: { bingbot: { fetchedAt: Date.now(), cidrs: ["157.55.39.0/24"] } } }),
    );
    expect((await bing("/impostor", SPOOFER)).status).toBe(200);
    expect((await bing("/no-address")).status).toBe(200);
    advance(1);
    expect((await bing("/real1", "157.55.39.5")).status).toBe(200);
    advance(1);
    expect((await bing("/real2", "157.55.39.6")).status).toBe(429); // verified: one pace for the crawler
  });
});

// Issue 30: a group naming a user-triggered fetcher with Crawl-delay once put every person using
// that product behind one limiter: one user's fetch 429'd everyone else's.
describe("a user-triggered fetcher is paced per client network, never one limiter for all its users", () => {
  const CHATGPT_USER =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
  const chatgptUser = (path: string, address: string) =>
    call(path, { ua: CHATGPT_USER, headers: { "cf-connecting-ip": address } });

  it("one user's fetch does not 429 another network's; the same network keeps the site's pace", async () => {
    fakeOrigin({ body: "User-agent: ChatGPT-User\nCrawl-delay: 10\n" });
    await env.ROBOTS.put(
      "crawler-ranges",
      JSON.stringify({
        sources: { "chatgpt-user": { fetchedAt: Date.now(), cidrs: ["23.98.142.0/24", "52.230.152.0/24"] } },
      }),
    );
    expect((await chatgptUser("/one-user", "23.98.142.5")).status).toBe(200);
    advance(1);
    expect((await chatgptUser("/another-user", "52.230.152.7")).status).toBe(200);
    advance(1);
    expect((await chatgptUser("/one-user-again", "23.98.142.6")).status).toBe(429);
  });
});

describe("rate state stays bounded", () => {
  it("60 requests as FooBot-<random> from one network make one Durable Object, not 60", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 1\n" });
    const before = (await listDurableObjectIds(env.CRAWL_RATE)).length;
    for (let i = 0; i < 60; i++) {
      const ua = `FooBot-${crypto.randomUUID().slice(0, 8)}/1.0`;
      await paced(`/p${i}`, { ua, headers: { "cf-connecting-ip": `192.0.2.${i}` } });
      advance(2);
    }
    expect((await listDurableObjectIds(env.CRAWL_RATE)).length - before).toBe(1);
  });

  it("token-less clients on different networks do not share one limiter", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\n" });
    const anonymous = "python-requests/2.31";
    expect((await paced("/a", { ua: anonymous, headers: { "cf-connecting-ip": "192.0.2.1" } })).status).toBe(200);
    expect((await paced("/b", { ua: anonymous, headers: { "cf-connecting-ip": "192.0.2.1" } })).status).toBe(429);
    expect((await paced("/c", { ua: anonymous, headers: { "cf-connecting-ip": "198.51.100.1" } })).status).toBe(200);
  });

  it("the alarm deletes an object's state once its longest window has passed, not before", async () => {
    fakeOrigin({ body: "User-agent: *\nCrawl-delay: 10\nRequest-rate: 1/120\n" });
    expect((await paced("/a", { ua: GOOGLEBOT })).status).toBe(200);
    const stub = env.CRAWL_RATE.get(
      env.CRAWL_RATE.idFromName(
        crawlRateKey(ORIGIN, "*", { knownToken: "Googlebot", proven: false, address: undefined }),
      ),
    );
    const stored = () => runInDurableObject(stub, async (_object, state) => (await state.storage.list()).size);
    expect(await stored()).toBe(1);
    advance(100);
    await runDurableObjectAlarm(stub);
    expect(await stored()).toBe(1); // 120 s window (+60 s slack) not over: kept
    advance(100);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stored()).toBe(0);
    expect((await paced("/b", { ua: GOOGLEBOT })).status).toBe(200);
  });
});
