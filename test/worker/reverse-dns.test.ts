// Forward-confirmed reverse DNS with a stubbed resolver (never the network): each outcome,
// the cache (a second call makes no lookup), the time bound, and the DoH JSON parsing.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { REVERSE_DNS_RULES, type ReverseDnsRule } from "../../src/agents/verification.ts";
import {
  clearReverseDnsMemory,
  dohResolver,
  parseDohAnswer,
  reverseDnsFor,
  reverseName,
  type DnsAnswer,
  type DnsRecordType,
  type DnsResolver,
} from "../../src/worker/reverse-dns.ts";
import { freshState } from "./helpers.ts";

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
    expect(await reverseDnsFor(address, rules, { kv: env.ROBOTS, resolve, timeoutMs: 50 })).toEqual(result);
    expect(resolve.questions).toEqual(questions);
  });

  it("a second call for the address makes no lookup (isolate memory), nor after memory is lost (KV)", async () => {
    const resolve = tableResolver({
      [PTR_V4]: { status: "ok", data: ["crawl-1.googlebot.com"] },
      "A crawl-1.googlebot.com": { status: "ok", data: ["66.249.66.1"] },
    });
    const options = { kv: env.ROBOTS, resolve, timeoutMs: 1000 };
    const first = await reverseDnsFor("66.249.66.1", GOOGLE, options);
    expect(await reverseDnsFor("66.249.66.1", GOOGLE, options)).toEqual(first);
    clearReverseDnsMemory();
    expect(await reverseDnsFor("66.249.66.1", GOOGLE, options)).toEqual(first);
    expect(resolve.questions).toHaveLength(2);
  });

  it("concurrent requests for a new address share one lookup", async () => {
    const resolve = tableResolver({ [PTR_V4]: { status: "nxdomain" } });
    const options = { kv: env.ROBOTS, resolve, timeoutMs: 1000 };
    await Promise.all([1, 2, 3].map(() => reverseDnsFor("66.249.66.1", GOOGLE, options)));
    expect(resolve.questions).toEqual([PTR_V4]);
  });

  it("a timeout is not cached: the next request tries again", async () => {
    const resolve = tableResolver({ [PTR_V4]: "hang" });
    const options = { kv: env.ROBOTS, resolve, timeoutMs: 20 };
    await reverseDnsFor("66.249.66.1", GOOGLE, options);
    await reverseDnsFor("66.249.66.1", GOOGLE, options);
    expect(resolve.questions).toEqual([PTR_V4, PTR_V4]);
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
