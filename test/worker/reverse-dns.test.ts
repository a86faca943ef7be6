// Forward-confirmed reverse DNS with a stubbed resolver (never the network): each outcome,
// the cache (a second call makes no lookup), the time bound, the budget a client's addresses
// can spend (per network, never KV), and the DoH JSON parsing.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { REVERSE_DNS_RULES, type ReverseDnsRule } from "../../src/agents/operators/tables.ts";
import {
  clearReverseDnsMemory,
  dohResolver,
  networkOf,
  parseDohAnswer,
  reverseDnsFor,
  reverseName,
  type DnsAnswer,
  type DnsRecordType,
  type DnsResolver,
} from "../../src/worker/identity/reverse-dns.ts";
import { env } from "cloudflare:workers";
import { call, freshState } from "./helpers.ts";

const rule = (name: string): ReverseDnsRule => {
  const found = REVERSE_DNS_RULES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return found;
};
const GOOGLE = [rule("google-common")];
const AMAZON = [rule("amazonbot")];

/** A resolver answering from a table, counting its questions; `hang` never answers. */
function tableResolver(table: Record<string, DnsAnswer | "hang" | "fail">): DnsResolver & { questions: string[] } {
  const questions: string[] = [];
  const resolve = (name: string, type: DnsRecordType, signal: AbortSignal): Promise<DnsAnswer> => {
    questions.push(`${type} ${name}`);
    const answer = table[`${type} ${name}`];
    if (answer === "hang")
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    if (answer === "fail") return Promise.reject(new Error("resolver answered 502"));
    return Promise.resolve(answer ?? { status: "nxdomain" });
  };
  return Object.assign(resolve, { questions });
}

let cachesOpened = 0;
/** A Cache API cache no other test has used. */
function freshCache(): Promise<Cache> {
  cachesOpened++;
  return caches.open(`reverse-dns-test-${cachesOpened}`);
}

beforeEach(async () => {
  await freshState();
  clearReverseDnsMemory();
});

const PTR_V4 = "PTR 1.66.249.66.in-addr.arpa";

describe("reverseDnsFor", () => {
  it.each([
    {
      why: "confirmed",
      address: "66.249.66.1",
      rules: GOOGLE,
      table: {
        [PTR_V4]: { status: "ok", data: ["crawl-66-249-66-1.googlebot.com."] },
        "A crawl-66-249-66-1.googlebot.com": { status: "ok", data: ["66.249.66.1"] },
      },
      result: { status: "confirmed", host: "crawl-66-249-66-1.googlebot.com" },
      questions: [PTR_V4, "A crawl-66-249-66-1.googlebot.com"],
    },
    {
      why: "PTR outside the operator's domains: no forward lookup of a name the client chose",
      address: "66.249.66.1",
      rules: GOOGLE,
      table: { [PTR_V4]: { status: "ok", data: ["googlebot.com.evil.example."] } },
      result: { status: "ptr-mismatch", hosts: ["googlebot.com.evil.example"] },
      questions: [PTR_V4],
    },
    {
      why: "forward mismatch",
      address: "66.249.66.1",
      rules: GOOGLE,
      table: {
        [PTR_V4]: { status: "ok", data: ["crawl-1.googlebot.com"] },
        "A crawl-1.googlebot.com": { status: "ok", data: ["66.249.66.2"] },
      },
      result: { status: "forward-mismatch", host: "crawl-1.googlebot.com" },
      questions: [PTR_V4, "A crawl-1.googlebot.com"],
    },
    {
      why: "NXDOMAIN",
      address: "66.249.66.1",
      rules: GOOGLE,
      table: {},
      result: { status: "nxdomain" },
      questions: [PTR_V4],
    },
    {
      why: "IPv6, AAAA confirms",
      address: "2001:db8::1",
      rules: AMAZON,
      table: {
        [`PTR ${reverseName("2001:db8::1")}`]: { status: "ok", data: ["a.crawl.amazonbot.amazon"] },
        "AAAA a.crawl.amazonbot.amazon": { status: "ok", data: ["2001:db8:0:0:0:0:0:1"] },
      },
      result: { status: "confirmed", host: "a.crawl.amazonbot.amazon" },
      questions: [`PTR ${reverseName("2001:db8::1")}`, "AAAA a.crawl.amazonbot.amazon"],
    },
    {
      why: "resolver error",
      address: "66.249.66.1",
      rules: GOOGLE,
      table: { [PTR_V4]: "fail" },
      result: { status: "error", message: "resolver answered 502" },
      questions: [PTR_V4],
    },
    {
      why: "timeout",
      address: "66.249.66.1",
      rules: GOOGLE,
      table: { [PTR_V4]: "hang" },
      result: { status: "timeout" },
      questions: [PTR_V4],
    },
    {
      why: "not an address",
      address: "not-an-ip",
      rules: GOOGLE,
      table: {},
      result: { status: "error", message: "not an IP address" },
      questions: [],
    },
    {
      why: "no rule: never a lookup",
      address: "66.249.66.1",
      rules: [],
      table: {},
      result: { status: "error", message: "no reverse DNS rule applies" },
      questions: [],
    },
  ] as const)("$why", async ({ address, rules, table, result, questions }) => {
    const resolve = tableResolver(table as Record<string, DnsAnswer | "hang" | "fail">);
    expect(await reverseDnsFor(address, rules, { cache: undefined, resolve, timeoutMs: 50 })).toEqual(result);
    expect(resolve.questions).toEqual(questions);
  });

  it("a second call for the address makes no lookup (isolate memory), nor after memory is lost (Cache API)", async () => {
    const resolve = tableResolver({
      [PTR_V4]: { status: "ok", data: ["crawl-1.googlebot.com"] },
      "A crawl-1.googlebot.com": { status: "ok", data: ["66.249.66.1"] },
    });
    const options = { cache: await freshCache(), resolve, timeoutMs: 1000 };
    const first = await reverseDnsFor("66.249.66.1", GOOGLE, options);
    expect(await reverseDnsFor("66.249.66.1", GOOGLE, options)).toEqual(first);
    clearReverseDnsMemory();
    expect(await reverseDnsFor("66.249.66.1", GOOGLE, options)).toEqual(first);
    expect(resolve.questions).toHaveLength(2);
  });

  it("concurrent requests for a new address share one lookup", async () => {
    const resolve = tableResolver({ [PTR_V4]: { status: "nxdomain" } });
    const options = { cache: undefined, resolve, timeoutMs: 1000 };
    await Promise.all([1, 2, 3].map(() => reverseDnsFor("66.249.66.1", GOOGLE, options)));
    expect(resolve.questions).toEqual([PTR_V4]);
  });

  it("a timeout is not cached: the next request tries again", async () => {
    const resolve = tableResolver({ [PTR_V4]: "hang" });
    const options = { cache: undefined, resolve, timeoutMs: 20 };
    await reverseDnsFor("66.249.66.1", GOOGLE, options);
    await reverseDnsFor("66.249.66.1", GOOGLE, options);
    expect(resolve.questions).toEqual([PTR_V4, PTR_V4]);
  });
});

/** A Cache API cache counting what is put into it; `failing` rejects every put. */
async function countingCache(failing = false): Promise<Cache & { puts: string[] }> {
  const cache = await freshCache();
  const puts: string[] = [];
  return Object.assign(Object.create(cache) as Cache, {
    puts,
    match: (request: RequestInfo | URL) => cache.match(request),
    put: (request: RequestInfo | URL, response: Response) => {
      puts.push(decodeURIComponent(new Request(request).url));
      return failing ? Promise.reject(new Error("cache put failed")) : cache.put(request, response);
    },
  });
}

const addressesOf64 = (count: number) =>
  Array.from({ length: count }, (_, n) => `2001:db8:1:2::${(n + 1).toString(16)}`);

// What a client can make reverse DNS cost: it chooses its address, and an IPv6 /64 holds 2^64
// of them. Each new address once cost a KV write (1,000 a day on Workers Free) and one or two
// DoH subrequests. Now a refuted answer holds for its whole network, answers are kept in
// isolate memory and the Cache API, and KV is never written.
describe("the budget a client's addresses can spend", () => {
  const AMAZONBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";

  it.each([
    { address: "66.249.66.1", network: "66.249.66.0/24" },
    { address: "66.249.66.255", network: "66.249.66.0/24" },
    { address: "::ffff:66.249.66.1", network: "66.249.66.0/24" },
    { address: "2001:db8:1:2:3:4:5:6", network: "2001:db8:1::/48" },
    { address: "2001:db8:1:ffff:ffff:ffff:ffff:ffff", network: "2001:db8:1::/48" },
    { address: "2001:db8:2::1", network: "2001:db8:2::/48" },
    { address: "not-an-ip", network: undefined },
  ])("networkOf($address) = $network", ({ address, network }) => {
    expect(networkOf(address)).toBe(network);
  });

  it("50 addresses of one IPv6 /64 cost at most the network's budget: 16 refuted lookups, the rest not looked up", async () => {
    const resolve = tableResolver({});
    const options = { cache: await countingCache(), resolve, timeoutMs: 1000 };
    const results = [];
    for (const address of addressesOf64(50)) results.push(await reverseDnsFor(address, AMAZON, options));
    expect(results.slice(0, 16)).toEqual(Array.from({ length: 16 }, () => ({ status: "nxdomain" })));
    expect(results[16]).toEqual({
      status: "skipped",
      reason: "16 addresses in 2001:db8:1::/48 were refuted within the hour (the last 2001:db8:1:2::10)",
    });
    expect(new Set(results.slice(16).map((result) => result.status))).toEqual(new Set(["skipped"]));
    expect(resolve.questions).toEqual(addressesOf64(16).map((address) => `PTR ${reverseName(address)}`));
    expect(options.cache.puts.slice(0, 2)).toEqual([
      "https://reverse-dns.robots-edge.invalid/crawl.amazonbot.amazon 2001:db8:1:2::1",
      "https://reverse-dns.robots-edge.invalid/crawl.amazonbot.amazon 2001:db8:1::/48",
    ]);
  });

  it("an IPv6 budget is the /48's, as crawl rates are paced: 50 addresses, each in its own /64 of one /48, cost 16 lookups", async () => {
    const resolve = tableResolver({});
    const options = { cache: undefined, resolve, timeoutMs: 1000 };
    for (let n = 1; n <= 50; n++) await reverseDnsFor(`2001:db8:1:${n.toString(16)}::1`, AMAZON, options);
    expect(resolve.questions).toHaveLength(16);
    expect(await reverseDnsFor("2001:db8:2::1", AMAZON, options)).toEqual({ status: "nxdomain" });
    expect(resolve.questions).toHaveLength(17);
  });

  it("addresses arriving together take their places first: 50 at once cost 16 lookups and count 16, so the next burst costs none", async () => {
    const questions: string[] = [];
    const resolve = async (name: string): Promise<DnsAnswer> => {
      questions.push(name);
      await new Promise((done) => setTimeout(done, 5));
      return { status: "nxdomain" };
    };
    const options = { cache: undefined, resolve, timeoutMs: 1000 };
    const first = await Promise.all(addressesOf64(50).map((address) => reverseDnsFor(address, AMAZON, options)));
    expect(questions).toHaveLength(16);
    expect(first.filter((result) => result.status === "nxdomain")).toHaveLength(16);
    expect(first[16]).toEqual({
      status: "skipped",
      reason: "0 addresses in 2001:db8:1::/48 were refuted within the hour and 16 are being looked up",
    });
    const next = await Promise.all(
      addressesOf64(100)
        .slice(50)
        .map((address) => reverseDnsFor(address, AMAZON, options)),
    );
    expect(questions).toHaveLength(16);
    expect(next[0]).toEqual({
      status: "skipped",
      reason: "16 addresses in 2001:db8:1::/48 were refuted within the hour (the last 2001:db8:1:2::10)",
    });
  });

  it("the same holds for an IPv4 /24, and another network has a budget of its own", async () => {
    const resolve = tableResolver({});
    const options = { cache: undefined, resolve, timeoutMs: 1000 };
    for (let last = 1; last <= 20; last++) await reverseDnsFor(`198.51.100.${last}`, AMAZON, options);
    await reverseDnsFor("198.51.101.1", AMAZON, options);
    expect(resolve.questions).toHaveLength(17);
    expect(resolve.questions.at(-2)).toBe("PTR 16.100.51.198.in-addr.arpa");
    expect(resolve.questions.at(-1)).toBe("PTR 1.101.51.198.in-addr.arpa");
  });

  it("a refuted address condemns itself, not its neighbours: each is checked on its own (issue 30)", async () => {
    const resolve = tableResolver({
      "PTR 10.2.0.192.in-addr.arpa": { status: "ok", data: ["c1.crawl.amazonbot.amazon."] },
      "A c1.crawl.amazonbot.amazon": { status: "ok", data: ["192.0.2.10"] },
    });
    const options = { cache: await countingCache(), resolve, timeoutMs: 1000 };
    const confirmed = { status: "confirmed", host: "c1.crawl.amazonbot.amazon" };
    expect(await reverseDnsFor("192.0.2.66", AMAZON, options)).toEqual({ status: "nxdomain" });
    expect(await reverseDnsFor("192.0.2.10", AMAZON, options)).toEqual(confirmed);
    clearReverseDnsMemory(); // another isolate of the data centre: the Cache API answers for both
    expect(await reverseDnsFor("192.0.2.66", AMAZON, options)).toEqual({ status: "nxdomain" });
    expect(await reverseDnsFor("192.0.2.10", AMAZON, options)).toEqual(confirmed);
    expect(await reverseDnsFor("192.0.2.67", AMAZON, options)).toEqual({ status: "nxdomain" });
    expect(resolve.questions).toHaveLength(4);
  });

  it("a failing Cache API costs no lookup per request: isolate memory answers", async () => {
    const resolve = tableResolver({});
    const options = { cache: await countingCache(true), resolve, timeoutMs: 1000 };
    for (let i = 0; i < 5; i++) await reverseDnsFor("2001:db8:9::1", AMAZON, options);
    expect(resolve.questions).toHaveLength(1);
    // Its neighbours: 15 more are looked up, then the /64's budget of 16, kept in isolate memory, is spent.
    for (const address of addressesOf64(20)) await reverseDnsFor(address.replace(":1:2:", ":9:0:"), AMAZON, options);
    expect(resolve.questions).toHaveLength(16);
  });

  it("through the Worker: 20 addresses of a /64 claiming Amazonbot make one DoH request and write nothing to KV", async () => {
    const doh: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.hostname === "cloudflare-dns.com") {
        doh.push(`${url.searchParams.get("type")} ${url.searchParams.get("name")}`);
        return Response.json({ Status: 3 });
      }
      if (url.pathname === "/robots.txt") {
        return new Response("User-agent: Amazonbot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n");
      }
      return new Response("origin page");
    });
    const writes: string[] = [];
    const kv = new Proxy(env.ROBOTS, {
      get(target, property) {
        if (property === "put") {
          return (key: string, ...rest: unknown[]) => {
            writes.push(key);
            return (target.put as (...args: unknown[]) => Promise<void>)(key, ...rest);
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const statuses = [];
    for (const address of addressesOf64(20)) {
      const response = await call("/news/today", {
        ua: AMAZONBOT,
        headers: { "cf-connecting-ip": address },
        env: { ROBOTS: kv, VERIFY_CRAWLERS: "block" },
      });
      statuses.push(response.status);
    }
    expect(doh).toEqual(addressesOf64(16).map((address) => `PTR ${reverseName(address)}`));
    expect(writes.filter((key) => !key.startsWith("robots:"))).toEqual([]);
    // The first 16 are refuted (impostors: 403 under block); the others were not checked, so they
    // are unverifiable, not refuted: held to `*` with 503 + Retry-After, which a real crawler retries.
    expect(statuses).toEqual([...Array.from({ length: 16 }, () => 403), 503, 503, 503, 503]);
  });

  it("through the Worker: one client next to a reverse-DNS-only crawler (same /24) cannot hold that crawler at 503", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.hostname === "cloudflare-dns.com") {
        const question = `${url.searchParams.get("type")} ${url.searchParams.get("name")}`;
        if (question === "PTR 10.2.0.192.in-addr.arpa") {
          return Response.json({ Status: 0, Answer: [{ type: 12, data: "c1.crawl.amazonbot.amazon." }] });
        }
        if (question === "A c1.crawl.amazonbot.amazon") {
          return Response.json({ Status: 0, Answer: [{ type: 1, data: "192.0.2.10" }] });
        }
        return Response.json({ Status: 3 });
      }
      if (url.pathname === "/robots.txt") {
        return new Response("User-agent: Amazonbot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n");
      }
      return new Response("origin page");
    });
    const vars = { VERIFY_CRAWLERS: "block" };
    const from = (address: string) =>
      call("/news/today", { ua: AMAZONBOT, headers: { "cf-connecting-ip": address }, env: vars });
    const neighbour = await from("192.0.2.66");
    const crawler = await from("192.0.2.10");
    expect([neighbour.status, crawler.status]).toEqual([403, 200]);
  });
});

describe("reverseName", () => {
  it.each([
    { address: "66.249.66.1", name: "1.66.249.66.in-addr.arpa" },
    { address: "::ffff:66.249.66.1", name: "1.66.249.66.in-addr.arpa" },
    { address: "2001:db8::1", name: "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" },
    { address: "66.249.66.1.evil.example", name: undefined },
  ])("$address -> $name", ({ address, name }) => {
    expect(reverseName(address)).toBe(name);
  });
});

describe("DoH JSON", () => {
  it.each([
    {
      json: { Status: 0, Answer: [{ name: "x", type: 12, TTL: 60, data: "crawl-1.googlebot.com." }] },
      type: "PTR",
      answer: { status: "ok", data: ["crawl-1.googlebot.com."] },
    },
    {
      json: {
        Status: 0,
        Answer: [
          { type: 5, data: "alias.example." },
          { type: 1, data: "192.0.2.1" },
        ],
      },
      type: "A",
      answer: { status: "ok", data: ["192.0.2.1"] },
    },
    { json: { Status: 0 }, type: "AAAA", answer: { status: "ok", data: [] } },
    { json: { Status: 3 }, type: "PTR", answer: { status: "nxdomain" } },
  ] as const)("%# $type", ({ json, type, answer }) => {
    expect(parseDohAnswer(json, type)).toEqual(answer);
  });

  it.each([{ json: { Status: 2 } }, { json: "<html>" }, { json: null }])("refuses $json", ({ json }) => {
    expect(() => parseDohAnswer(json, "PTR")).toThrow();
  });

  it("asks the configured https resolver only, for the name and type", async () => {
    const fetched: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      fetched.push(new Request(input).url);
      return Response.json({ Status: 0, Answer: [{ type: 1, data: "192.0.2.1" }] });
    });
    const resolve = dohResolver("https://dns.example/dns-query");
    expect(await resolve("crawl-1.googlebot.com", "A", new AbortController().signal)).toEqual({
      status: "ok",
      data: ["192.0.2.1"],
    });
    expect(fetched).toEqual(["https://dns.example/dns-query?name=crawl-1.googlebot.com&type=A"]);
  });

  it.each(["http://dns.example/dns-query", "not a url"])("refuses resolver %s", (endpoint) => {
    expect(() => dohResolver(endpoint)).toThrow();
  });
});
