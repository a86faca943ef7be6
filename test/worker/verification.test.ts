// Verified crawlers at the edge: published ranges from the cron (fixtures; nothing fetched
// from outside), Cloudflare's verifiedBot when present, and the impostor treatments.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fixture from "../fixtures/googlebot-ranges.json";
import { admin, call, CHROME, fakeOrigin, freshState, GOOGLEBOT, runCron } from "./helpers.ts";

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

  it("VERIFY_CRAWLERS=off trusts the User-Agent", async () => {
    expect((await asGooglebot(OTHER_IP, { env: { VERIFY_CRAWLERS: "off" } })).status).toBe(200);
  });

  it("Cloudflare's botManagement.verifiedBot decides when present", async () => {
    expect((await asGooglebot(OTHER_IP, { cf: { botManagement: { verifiedBot: true } } })).status).toBe(200);
    expect((await asGooglebot(GOOGLE_IP, { cf: { botManagement: { verifiedBot: false } } })).status).toBe(403);
  });

  it("without ranges or an address it cannot tell, and trusts the claim", async () => {
    await env.ROBOTS.delete("crawler-ranges");
    expect((await call("/news/today", { ua: GOOGLEBOT })).status).toBe(200);
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
      why: "an address outside it (the DNS fallback fails here): refuted by the list",
      ua: GOOGLEBOT,
      ip: OTHER_IP,
      cf: undefined,
      env: {},
      expected: { status: "impostor", method: "ip-list", evidence: null, why: "impostor" },
    },
    {
      why: "Cloudflare's botManagement.verifiedBot decides first",
      ua: GOOGLEBOT,
      ip: OTHER_IP,
      cf: { botManagement: { verifiedBot: true } },
      env: {},
      expected: { status: "verified", method: "cloudflare", evidence: "Cloudflare verified bot", why: null },
    },
    {
      why: "a verifiedBotCategory alone is Cloudflare's verification (zones without Bot Management)",
      ua: GOOGLEBOT,
      ip: OTHER_IP,
      cf: { verifiedBotCategory: "Search Engine Crawler" },
      env: {},
      expected: {
        status: "verified",
        method: "cloudflare",
        evidence: "Cloudflare category Search Engine Crawler",
        why: null,
      },
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
      expected: { status: "unverified", method: null, evidence: null, why: "no-address" },
    },
    {
      why: "VERIFY_CRAWLERS=off",
      ua: GOOGLEBOT,
      ip: OTHER_IP,
      cf: undefined,
      env: { VERIFY_CRAWLERS: "off" },
      expected: { status: "unverified", method: null, evidence: null, why: "verify-off" },
    },
    {
      why: "a bot no method can verify",
      ua: "FooBot/1.0",
      ip: OTHER_IP,
      cf: undefined,
      env: {},
      expected: { status: "unverified", method: null, evidence: null, why: "not-claimed" },
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
      why: "outside the list, no cached DNS answer: said so, judged as claimed",
      ip: OTHER_IP,
      vars: {},
      verification: {
        status: "unverified",
        why: "not-looked-up",
        reason:
          "address not in the googlebot list; no cached reverse DNS answer for the address (explain reads the cache only; the edge would look it up)",
      },
      action: "pass",
    },
    {
      why: "VERIFY_CRAWLERS=off: the address is not checked",
      ip: OTHER_IP,
      vars: { VERIFY_CRAWLERS: "off" },
      verification: { status: "unverified", why: "verify-off" },
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
