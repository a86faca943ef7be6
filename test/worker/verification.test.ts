// Verified crawlers at the edge: published ranges from the cron (fixtures; nothing fetched
// from outside), Cloudflare's verifiedBot when present, and the impostor treatments.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fixture from "../fixtures/googlebot-ranges.json";
import { UNPROVEN_RETRY_AFTER_SECONDS } from "../../src/policy/claim.ts";
import { admin, ADSBOT, call, CHROME, fakeOrigin, freshState, GOOGLEBOT, GPTBOT, runCron } from "./helpers.ts";

// Googlebot has a group of its own that allows /news/; everyone else may not fetch it.
const ROBOTS = "User-agent: Googlebot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n";
const GOOGLE_IP = "66.249.64.7";
const OTHER_IP = "203.0.113.9";

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
  await env.ROBOTS.put(
    "crawler-ranges",
    JSON.stringify({ sources: { googlebot: { fetchedAt: Date.now(), cidrs: ["66.249.64.0/27"] } } }),
  );
});
afterEach(freshState);

const asGooglebot = (ip: string, extra: Parameters<typeof call>[1] = {}) =>
  call("/news/today", { ua: GOOGLEBOT, headers: { "cf-connecting-ip": ip }, ...extra });

describe("verified crawlers", () => {
  it("Googlebot from Google's ranges is verified and obeys its own group", async () => {
    expect((await asGooglebot(GOOGLE_IP)).status).toBe(200);
  });

  it("an impostor is judged as an unknown bot under * (default) and logged", async () => {
    const log = vi.spyOn(console, "log");
    expect((await asGooglebot(OTHER_IP)).status).toBe(403);
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "robots-edge.impostor",
        claimed: "Googlebot",
        address: OTHER_IP,
        treatment: "unknown",
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ event: "robots-edge.decision", group: "*", action: "block" }),
    );
  });

  it("VERIFY_CRAWLERS=block answers impostors 403 wherever they go", async () => {
    const response = await call("/anything", {
      ua: GOOGLEBOT,
      headers: { "cf-connecting-ip": OTHER_IP },
      env: { VERIFY_CRAWLERS: "block" },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("x-robots-edge")).toBe("impostor");
  });

  // Issue #9: a variant name that would select Googlebot's group must be verified as Google's.
  it.each([
    { ua: "Googlebot-Foo/1.0", ip: OTHER_IP, status: 403, marker: "impostor", why: "falls back to Googlebot" },
    { ua: "Googlebot-Image-X/1.0", ip: OTHER_IP, status: 403, marker: "impostor", why: "Googlebot-Image, Googlebot" },
    { ua: "Googlebot-Foo/1.0", ip: GOOGLE_IP, status: 200, marker: null, why: "from Google: its group allows" },
    { ua: "Googlebot2/1.0", ip: OTHER_IP, status: 403, marker: "blocked", why: "another token: * disallows /news/" },
  ])("VERIFY_CRAWLERS=block: $ua from $ip -> $status ($why)", async ({ ua, ip, status, marker }) => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const response = await call("/news/today", {
      ua,
      headers: { "cf-connecting-ip": ip },
      env: { VERIFY_CRAWLERS: "block" },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-robots-edge")?.split(";")[0] ?? null).toBe(marker);
  });

  it("the impostor log names the claimed token of a variant", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/news/today", { ua: "Googlebot-Foo/1.0", headers: { "cf-connecting-ip": OTHER_IP } });
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ event: "robots-edge.impostor", claimed: "Googlebot-Foo" }));
  });

  it("VERIFY_CRAWLERS=off takes the User-Agent's claim for its group", async () => {
    expect((await asGooglebot(OTHER_IP, { env: { VERIFY_CRAWLERS: "off" } })).status).toBe(200);
  });

  it("VERIFY_CRAWLERS=off: an exemption from * still needs proof (AdsBot-Google is held to *)", async () => {
    const response = await call("/news/today", {
      ua: ADSBOT,
      headers: { "cf-connecting-ip": OTHER_IP },
      env: { VERIFY_CRAWLERS: "off" },
    });
    expect(response.status).toBe(403);
  });

  // H-4: Cloudflare's flag says SOME verified bot sent the request, not which; false is a veto.
  it.each([
    {
      why: "verifiedBot true from outside Google's list",
      ip: OTHER_IP,
      cf: { botManagement: { verifiedBot: true } },
      status: 403,
    },
    {
      why: "H-4 reproduction: a verified Monitoring & Analytics bot with Googlebot's User-Agent",
      ip: OTHER_IP,
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: "Monitoring & Analytics" },
      status: 403,
    },
    {
      why: "verifiedBot false vetoes an address in the list",
      ip: GOOGLE_IP,
      cf: { botManagement: { verifiedBot: false } },
      status: 403,
    },
    {
      why: "verifiedBot true from Google's list: the list verifies",
      ip: GOOGLE_IP,
      cf: { botManagement: { verifiedBot: true } },
      status: 200,
    },
  ])("Cloudflare's fields: $why -> $status", async ({ ip, cf, status }) => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    expect((await asGooglebot(ip, { cf })).status).toBe(status);
  });

  // H-3 and "no window after deploy": a claim that cannot be checked is not believed. Googlebot's
  // group allows /news/ and * does not, so only the missing proof refuses it: 503, never 403.
  it.each([
    { why: "no list loaded yet (a fresh deploy)", lists: false, ip: GOOGLE_IP, vars: {} },
    { why: "no list loaded, VERIFY_CRAWLERS=block", lists: false, ip: GOOGLE_IP, vars: { VERIFY_CRAWLERS: "block" } },
    { why: "no client address", lists: true, ip: undefined, vars: {} },
  ])("unverifiable: $why -> 503 with Retry-After where only * refuses", async ({ lists, ip, vars }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    if (!lists) await env.ROBOTS.delete("crawler-ranges");
    const response = await call("/news/today", {
      ua: GOOGLEBOT,
      ...(ip && { headers: { "cf-connecting-ip": ip } }),
      env: vars,
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(UNPROVEN_RETRY_AFTER_SECONDS));
    expect(response.headers.get("x-robots-edge")).toBe("unproven-claim");
    const decisions = log.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((line) => line["event"] === "robots-edge.decision");
    expect(decisions).toEqual([
      expect.objectContaining({
        action: "unavailable",
        status: 503,
        layer: "unproven-claim",
        group: "*",
        verification: expect.objectContaining({ status: "unverifiable" }),
      }),
    ]);
    // Where * allows the path too, the unverifiable claim passes.
    const open = await call("/open", { ua: GOOGLEBOT, ...(ip && { headers: { "cf-connecting-ip": ip } }), env: vars });
    expect(open.status).toBe(200);
  });

  it("humans are never checked", async () => {
    expect((await call("/", { ua: CHROME, headers: { "cf-connecting-ip": OTHER_IP } })).status).toBe(200);
  });
});

/** The `verification` of each decision log line the calls wrote. */
function loggedVerifications(log: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return log.mock.calls
    .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
    .filter((line) => line["event"] === "robots-edge.decision")
    .map((line) => line["verification"] as Record<string, unknown>);
}

// Issue #12: every decision line says how the crawler was verified, or why not.
describe("the decision log says how a crawler was verified, or why not", () => {
  it.each([
    {
      why: "an address in Google's list",
      ua: GOOGLEBOT,
      ip: GOOGLE_IP,
      cf: undefined,
      env: {},
      expected: { status: "verified", method: "ip-list", evidence: "googlebot", why: null },
    },
    {
      why: "an address outside it: refuted by the list",
      ua: GOOGLEBOT,
      ip: OTHER_IP,
      cf: undefined,
      env: {},
      expected: { status: "refuted", method: "ip-list", evidence: null, why: "refuted" },
    },
    {
      why: "Cloudflare's verifiedBot false vetoes",
      ua: GOOGLEBOT,
      ip: GOOGLE_IP,
      cf: { botManagement: { verifiedBot: false } },
      env: {},
      expected: { status: "refuted", method: "cloudflare", evidence: null, why: "refuted" },
    },
    {
      why: "Cloudflare's category, the claimed crawler's own, where no list is loaded (GPTBot): names no crawler (issue 31)",
      ua: GPTBOT,
      ip: OTHER_IP,
      cf: { verifiedBotCategory: "AI Crawler" },
      env: {},
      expected: { status: "unverifiable", method: null, evidence: null, why: "no-list" },
    },
    {
      why: "Cloudflare's category of another kind of crawler is no evidence (GPTBot, no list)",
      ua: GPTBOT,
      ip: OTHER_IP,
      cf: { verifiedBotCategory: "Search Engine Crawler" },
      env: {},
      expected: { status: "unverifiable", method: null, evidence: null, why: "no-list" },
    },
    {
      why: "an empty verifiedBotCategory is no evidence: the list decides",
      ua: GOOGLEBOT,
      ip: GOOGLE_IP,
      cf: { verifiedBotCategory: "" },
      env: {},
      expected: { status: "verified", method: "ip-list", evidence: "googlebot", why: null },
    },
    {
      why: "no client address",
      ua: GOOGLEBOT,
      ip: undefined,
      cf: undefined,
      env: {},
      expected: { status: "unverifiable", method: null, evidence: null, why: "no-address" },
    },
    {
      why: "VERIFY_CRAWLERS=off",
      ua: GOOGLEBOT,
      ip: OTHER_IP,
      cf: undefined,
      env: { VERIFY_CRAWLERS: "off" },
      expected: { status: "unverifiable", method: null, evidence: null, why: "verify-off" },
    },
    {
      why: "a bot no method can verify",
      ua: "FooBot/1.0",
      ip: OTHER_IP,
      cf: undefined,
      env: {},
      expected: { status: "unverifiable", method: null, evidence: null, why: "not-claimed" },
    },
  ])("$why -> $expected.status $expected.method", async ({ ua, ip, cf, env: vars, expected }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/news/today", {
      ua,
      ...(ip && { headers: { "cf-connecting-ip": ip } }),
      ...(cf && { cf }),
      env: vars,
    });
    expect(loggedVerifications(log)).toEqual([expect.objectContaining(expected)]);
  });

  it("Cloudflare's category is the category of a crawler our table does not know (a policy blocks it)", async () => {
    const policy = JSON.stringify({
      routes: [{ pattern: "/", rules: [{ crawlers: ["category:ai-training"], action: "block" }] }],
    });
    const asFooBot = (cf: Record<string, unknown>) => call("/open", { ua: "FooBot/1.0", cf, env: { POLICY: policy } });
    expect((await asFooBot({ verifiedBotCategory: "AI Crawler" })).status).toBe(403);
    expect((await asFooBot({ verifiedBotCategory: "Search Engine Crawler" })).status).toBe(200);
    expect((await asFooBot({})).status).toBe(200);
  });
});

const explainAs = async (ua: string, ip: string, vars: Partial<Env> = {}) => {
  const response = await admin(`explain?ua=${encodeURIComponent(ua)}&url=/news/today&ip=${encodeURIComponent(ip)}`, {
    env: vars,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

// Admin explain's ip=: the stored lists and cached reverse DNS answers, never a lookup.
describe("GET explain?ip= checks a claimed crawler's address from what is stored", () => {
  beforeEach(async () => {
    await admin("refresh", { method: "POST" });
  });

  it.each([
    {
      why: "an address in the stored list",
      ip: GOOGLE_IP,
      vars: {},
      verification: { status: "verified", method: "ip-list", evidence: "googlebot" },
      action: "pass",
    },
    {
      why: "outside the list: refuted (reverse DNS never overturns a list), judged under *",
      ip: OTHER_IP,
      vars: {},
      verification: {
        status: "refuted",
        method: "ip-list",
        why: "refuted",
        reason: "address not in the googlebot list",
      },
      action: "block",
    },
    {
      why: "VERIFY_CRAWLERS=off: the address is not checked",
      ip: OTHER_IP,
      vars: { VERIFY_CRAWLERS: "off" },
      verification: { status: "unverifiable", why: "verify-off" },
      action: "pass",
    },
  ])("$why", async ({ ip, vars, verification, action }) => {
    const fetches = vi.spyOn(globalThis, "fetch");
    const before = fetches.mock.calls.length;
    const { status, body } = await explainAs(GOOGLEBOT, ip, vars);
    expect(status).toBe(200);
    expect(body).toMatchObject({ verification, action: { action } });
    expect(fetches.mock.calls.length).toBe(before); // a GET fetches nothing, DNS included
  });

  it.each([
    { ip: "not-an-address", why: "not an address" },
    { ip: "https://evil.example/", why: "a URL" },
    { ip: "66.249.64.7.evil.example", why: "a host name" },
  ])("ip= must be an address: $why -> 400", async ({ ip }) => {
    expect((await explainAs(GOOGLEBOT, ip)).status).toBe(400);
  });
});

describe("the cron refreshes the published ranges", () => {
  it("stores each source's list, and keeps the old one when a fetch fails", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = new Request(input).url;
      if (url.includes("googlebot.json")) return Response.json(fixture);
      if (url.includes("bingbot.json")) return new Response("<html>down</html>", { status: 503 });
      return new Response("User-agent: *\nDisallow:\n");
    });
    await env.ROBOTS.put(
      "crawler-ranges",
      JSON.stringify({ sources: { bingbot: { fetchedAt: 1, cidrs: ["157.55.39.0/24"] } } }),
    );
    await runCron();
    const stored = await env.ROBOTS.get<{ sources: Record<string, { cidrs: string[] }> }>("crawler-ranges", "json");
    expect(stored?.sources["googlebot"]?.cidrs).toEqual(["2001:4860:4801:10::/64", "66.249.64.0/27", "66.249.66.0/27"]);
    expect(stored?.sources["bingbot"]?.cidrs).toEqual(["157.55.39.0/24"]);
  });
});

// Issue #12: operators that document reverse DNS instead of a list (Amazonbot) are verified by
// forward-confirmed reverse DNS over DoH (the resolver is this fake), once per address.
describe("reverse DNS at the edge", () => {
  const AMAZONBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";
  const ADDRESS = "192.0.2.10";
  const PTR_NAME = "10.2.0.192.in-addr.arpa";

  const amazonbotRequest = () =>
    call("/news/today", { ua: AMAZONBOT, headers: { "cf-connecting-ip": ADDRESS }, env: { VERIFY_CRAWLERS: "block" } });

  function fakeDns(ptr: string, forward: string): string[] {
    const asked: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.hostname === "cloudflare-dns.com") {
        const name = url.searchParams.get("name") ?? "";
        const type = url.searchParams.get("type");
        asked.push(`${type} ${name}`);
        const answer =
          type === "PTR" && name === PTR_NAME
            ? [{ name, type: 12, data: ptr }]
            : type === "A" && name === ptr.replace(/\.$/, "")
              ? [{ name, type: 1, data: forward }]
              : [];
        return Response.json({ Status: 0, Answer: answer });
      }
      if (url.pathname === "/robots.txt")
        return new Response("User-agent: Amazonbot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n");
      return new Response(`origin page ${url.pathname}`);
    });
    return asked;
  }

  it.each([
    {
      why: "PTR under crawl.amazonbot.amazon, resolving back",
      ptr: "c1.crawl.amazonbot.amazon.",
      forward: ADDRESS,
      status: 200,
      marker: null,
    },
    { why: "PTR elsewhere", ptr: "host.evil.example.", forward: ADDRESS, status: 403, marker: "impostor" },
    {
      why: "PTR right, but it resolves to another address",
      ptr: "c1.crawl.amazonbot.amazon.",
      forward: "198.51.100.7",
      status: 403,
      marker: "impostor",
    },
  ])("VERIFY_CRAWLERS=block, $why -> $status", async ({ ptr, forward, status, marker }) => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const asked = fakeDns(ptr, forward);
    const response = await amazonbotRequest();
    expect(response.status).toBe(status);
    expect(response.headers.get("x-robots-edge")).toBe(marker);
    expect(asked[0]).toBe(`PTR ${PTR_NAME}`);
    const lookups = asked.length;
    await amazonbotRequest();
    expect(asked).toHaveLength(lookups); // the answer is cached for the address
  });

  // H-3: a resolver the client's own reverse zone can make fail (SERVFAIL, 500, a timeout) leaves the
  // claim unverifiable: Amazonbot's group allows /news/, * does not, so the answer is 503, even
  // under VERIFY_CRAWLERS=block, and the failure is not cached (the next request asks again).
  it.each([
    { why: "SERVFAIL", answer: () => Promise.resolve(Response.json({ Status: 2 })), error: "resolver status 2" },
    {
      why: "the resolver answers 500",
      answer: () => Promise.resolve(new Response("error", { status: 500 })),
      error: "resolver answered 500",
    },
    { why: "a timeout", answer: () => new Promise<Response>(() => undefined), error: "timed out" },
  ])("reverse DNS fails ($why): unverifiable, 503 where only * refuses", async ({ answer, error }) => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const asked: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.hostname === "cloudflare-dns.com") {
        asked.push(url.searchParams.get("type") ?? "");
        return answer();
      }
      if (url.pathname === "/robots.txt")
        return new Response("User-agent: Amazonbot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n");
      return new Response(`origin page ${url.pathname}`);
    });
    const response = await call("/news/today", {
      ua: AMAZONBOT,
      headers: { "cf-connecting-ip": ADDRESS },
      env: { VERIFY_CRAWLERS: "block", FETCH_TIMEOUT_MS: "100" },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("x-robots-edge")).toBe("unproven-claim");
    expect(asked).toEqual(["PTR"]);
    // GET status shows the resolver's last error (seen by this isolate).
    const status = (await (await admin("status")).json()) as { identity: { reverseDns: { lastError: string } } };
    expect(status.identity.reverseDns.lastError).toBe(error);
  });

  it("the log names the confirmed host; explain?ip= then reads the cached answer without a lookup", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const asked = fakeDns("c1.crawl.amazonbot.amazon.", ADDRESS);
    await amazonbotRequest();
    expect(loggedVerifications(log)).toEqual([
      expect.objectContaining({ status: "verified", method: "reverse-dns", evidence: "c1.crawl.amazonbot.amazon" }),
    ]);
    const lookups = asked.length;
    const response = await admin(`explain?ua=${encodeURIComponent(AMAZONBOT)}&url=/news/today&ip=${ADDRESS}`, {
      env: { VERIFY_CRAWLERS: "block" },
    });
    expect(await response.json()).toMatchObject({
      verification: {
        status: "verified",
        method: "reverse-dns",
        evidence: "c1.crawl.amazonbot.amazon",
        reason: "forward-confirmed c1.crawl.amazonbot.amazon (reverse DNS from cache)",
      },
      action: { action: "pass" },
    });
    expect(asked).toHaveLength(lookups);
  });

  // C-1 reproduction: PTR of 34.96.10.1 is 34-96-10-1.gae.googleusercontent.com (A back to it), a
  // Google Cloud customer's host. AdsBot-Google skips *, so a believed claim passed a path * refuses.
  it.each([
    { why: "Google's special-crawlers list loaded: refuted by it", list: true, status: 403, marker: "blocked" },
    { why: "no list yet: the name proves nothing, 503", list: false, status: 503, marker: "unproven-claim" },
  ])("C-1: AdsBot-Google from a gae.googleusercontent.com host, $why", async ({ list, status, marker }) => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const host = "34-96-10-1.gae.googleusercontent.com";
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.hostname === "cloudflare-dns.com") {
        const name = url.searchParams.get("name");
        const type = url.searchParams.get("type");
        if (type === "PTR" && name === "1.10.96.34.in-addr.arpa")
          return Response.json({ Status: 0, Answer: [{ name, type: 12, data: `${host}.` }] });
        if (type === "A" && name === host)
          return Response.json({ Status: 0, Answer: [{ name, type: 1, data: "34.96.10.1" }] });
        return Response.json({ Status: 0, Answer: [] });
      }
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nDisallow: /private/\n");
      return new Response(`origin page ${url.pathname}`);
    });
    await env.ROBOTS.put(
      "crawler-ranges",
      JSON.stringify({
        sources: list ? { "google-special": { fetchedAt: Date.now(), cidrs: ["66.249.90.0/24"] } } : {},
      }),
    );
    const response = await call("/private/x", {
      ua: "AdsBot-Google (+http://www.google.com/adsbot.html)",
      headers: { "cf-connecting-ip": "34.96.10.1" },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-robots-edge")?.split(";")[0]).toBe(marker);
  });

  it("a client claiming no such operator causes no lookup", async () => {
    const asked = fakeDns("x.", ADDRESS);
    await call("/news/today", {
      ua: "FooBot/1.0",
      headers: { "cf-connecting-ip": ADDRESS },
      env: { VERIFY_CRAWLERS: "block" },
    });
    await call("/news/today", {
      ua: CHROME,
      headers: { "cf-connecting-ip": ADDRESS },
      env: { VERIFY_CRAWLERS: "block" },
    });
    expect(asked).toEqual([]);
  });
});

// Issue 31 (Medium) "A category is not a name": Cloudflare's verified-bot category proves at
// most that SOME verified crawler of that category asked. It never grants a named crawler's
// group; a named crawler needs evidence that names it, and a PTR that refutes the claim wins.
describe("a category is not a name", () => {
  const YANDEXBOT = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)";
  const AMAZONBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";
  // Each named crawler has a group that allows /news/; `*` refuses it.
  const NAMED =
    "User-agent: YandexBot\nUser-agent: Amazonbot\nUser-agent: GPTBot\nUser-agent: Googlebot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n";

  /** The origin, and a resolver answering every PTR with NXDOMAIN (the claim refuted) or failing. */
  function originAndResolver(dns: "nxdomain" | "fails"): void {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.hostname === "cloudflare-dns.com") {
        return dns === "nxdomain" ? Response.json({ Status: 3 }) : new Response("bad gateway", { status: 502 });
      }
      if (url.pathname === "/robots.txt") return new Response(NAMED);
      return new Response("origin page");
    });
  }

  it.each([
    {
      why: "a verified Search Engine Crawler claiming YandexBot, its PTR refutes the claim",
      ua: YANDEXBOT,
      category: "Search Engine Crawler",
      dns: "nxdomain",
      verify: "block",
      status: 403,
    },
    {
      why: "the same, reverse DNS failing: unverifiable, held to `*` (503), never YandexBot's group",
      ua: YANDEXBOT,
      category: "Search Engine Crawler",
      dns: "fails",
      verify: "unknown",
      status: 503,
    },
    {
      why: "a verified AI Crawler claiming Amazonbot, its PTR refutes the claim",
      ua: AMAZONBOT,
      category: "AI Crawler",
      dns: "nxdomain",
      verify: "block",
      status: 403,
    },
    {
      why: "a verified AI Crawler claiming GPTBot, no GPTBot list loaded: unverifiable, held to `*`",
      ua: GPTBOT,
      category: "AI Crawler",
      dns: "fails",
      verify: "unknown",
      status: 503,
    },
  ] as const)("$why -> $status", async ({ ua, category, dns, verify, status }) => {
    originAndResolver(dns);
    await env.ROBOTS.delete("crawler-ranges");
    const response = await call("/news/today", {
      ua,
      headers: { "cf-connecting-ip": OTHER_IP },
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: category },
      env: { VERIFY_CRAWLERS: verify },
    });
    expect(response.status).toBe(status);
  });

  it("Googlebot claimed by a verified Search Engine Crawler while Google's list is not loaded: not verified", async () => {
    originAndResolver("fails");
    await env.ROBOTS.delete("crawler-ranges");
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const response = await asGooglebot(OTHER_IP, { cf: { verifiedBotCategory: "Search Engine Crawler" } });
    expect(response.status).toBe(503);
    expect(loggedVerifications(log)).toEqual([expect.objectContaining({ status: "unverifiable", method: null })]);
  });
});
