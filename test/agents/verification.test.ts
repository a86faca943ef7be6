// Crawler verification: published ranges (fixtures, never fetched) and Cloudflare's verdict.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { KNOWN_CRAWLERS } from "../../src/agents/operators/tables.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import {
  categoryOfCloudflare,
  cloudflareBotOf,
  hostInDomains,
  needsReverseDns,
  outcomeOfCheck,
  parseRangeList,
  RangeSet,
  verificationPlan,
  verifyCrawlerDetailed,
  type VerificationInput,
} from "../../src/agents/verification.ts";

const fixture: unknown = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../fixtures/googlebot-ranges.json"), "utf8"),
);
const googlebotRanges = new RangeSet(parseRangeList(fixture) ?? []);
const applebotRanges = new RangeSet(["17.241.0.0/16"]);
const ranges = new Map([
  ["googlebot", googlebotRanges],
  ["applebot", applebotRanges],
]);
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** The claim's truth in one word, "not-claimed" when nothing verifiable was claimed. */
function statusOf(input: VerificationInput): string {
  const result = verifyCrawlerDetailed(input);
  return result.why === "not-claimed" ? "not-claimed" : result.status;
}

describe("RangeSet", () => {
  it.each([
    { address: "66.249.64.1", inside: true },
    { address: "66.249.64.31", inside: true },
    { address: "66.249.64.32", inside: false },
    { address: "66.249.66.5", inside: true },
    { address: "2001:4860:4801:10::abcd", inside: true },
    { address: "2001:4860:4801:11::1", inside: false },
    { address: "::ffff:66.249.64.2", inside: true },
    { address: "203.0.113.9", inside: false },
    { address: "not an address", inside: false },
  ])("$address -> $inside", ({ address, inside }) => {
    expect(googlebotRanges.contains(address)).toBe(inside);
  });
});

describe("parseRangeList", () => {
  it.each([
    { json: fixture, count: 3 },
    { json: { prefixes: [] }, count: undefined },
    { json: { prefixes: [{ ipv4Prefix: "nonsense" }] }, count: undefined },
    { json: "<html>", count: undefined },
  ])("%# -> $count prefixes", ({ json, count }) => {
    expect(parseRangeList(json)?.length).toBe(count);
  });
});

describe("verified, refuted or unverifiable", () => {
  it.each([
    { ua: GOOGLEBOT, address: "66.249.64.1", cf: undefined, result: "verified" },
    { ua: GOOGLEBOT, address: "203.0.113.9", cf: undefined, result: "refuted" },
    { ua: GOOGLEBOT, address: null, cf: undefined, result: "unverifiable" },
    // Cloudflare's flag says SOME verified bot sent it, not which: the loaded list decides.
    { ua: GOOGLEBOT, address: "203.0.113.9", cf: true, result: "refuted" },
    { ua: GOOGLEBOT, address: "66.249.64.1", cf: false, result: "refuted" },
    { ua: "GPTBot/1.2", address: "203.0.113.9", cf: undefined, result: "unverifiable" },
    { ua: "SomeBot/1.0", address: "203.0.113.9", cf: undefined, result: "not-claimed" },
  ])("$ua from $address (cf $cf) -> $result", ({ ua, address, cf, result }) => {
    expect(statusOf({ agent: classifyUserAgent(ua), address, cfVerifiedBot: cf, ranges })).toBe(result);
  });

  // Our failure to refresh a list must not make a crawler from a range added since an impostor.
  const stale = new Map([["googlebot", new RangeSet(parseRangeList(fixture) ?? [], { stale: true })]]);
  it.each([
    { address: "66.249.64.1", result: "verified", why: "a stale list still verifies what it holds" },
    { address: "203.0.113.9", result: "unverifiable", why: "but refutes nothing" },
  ])("stale list: $why", ({ address, result }) => {
    const input = { agent: classifyUserAgent(GOOGLEBOT), address, cfVerifiedBot: undefined, ranges: stale };
    expect(statusOf(input)).toBe(result);
    expect(needsReverseDns(input)).toBe(result === "unverifiable");
  });
});

// Issue #9: any request whose tokens would select a verifiable crawler's group is verified as
// that operator's crawler. Rows: the User-Agent, the range sources it must pass (literal), and
// the verdict from a Google address and from an address of no crawler operator.
const claims: readonly { ua: string; sources: string[]; fromGoogle: string; fromElsewhere: string; why: string }[] = [
  { ua: GOOGLEBOT, sources: ["googlebot"], fromGoogle: "verified", fromElsewhere: "refuted", why: "the known name" },
  {
    ua: "Googlebot-Foo/1.0",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "refuted",
    why: "an unlisted variant falls back to Googlebot's group",
  },
  {
    ua: "Googlebot-Image-X/1.0",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "refuted",
    why: "a variant of a variant falls back to Googlebot-Image, then Googlebot",
  },
  {
    ua: "Mozilla/5.0 (compatible; Googlebot-Foo/2.1; +http://www.google.com/bot.html)",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "refuted",
    why: "a variant inside a compatible comment",
  },
  {
    ua: "Googlebot-Mobile/2.1",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "refuted",
    why: "a known name with no ranges of its own, whose fallback is Googlebot",
  },
  {
    ua: "Googlebot2/1.0",
    sources: [],
    fromGoogle: "not-claimed",
    fromElsewhere: "not-claimed",
    why: "another product token: it never gets Googlebot's group (core/product-token.ts)",
  },
  {
    ua: "GooglebotX/1.0",
    sources: [],
    fromGoogle: "not-claimed",
    fromElsewhere: "not-claimed",
    why: "another product token",
  },
  {
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
    sources: ["applebot"],
    fromGoogle: "refuted",
    fromElsewhere: "refuted",
    why: "Applebot's documented Googlebot fallback is vouched for by Applebot's own check",
  },
  {
    ua: "Applebot-Foo/1.0",
    sources: ["applebot"],
    fromGoogle: "refuted",
    fromElsewhere: "refuted",
    why: "a variant of Applebot: Applebot vouches for its Googlebot fallback",
  },
  {
    ua: "SomeBot/1.0",
    sources: [],
    fromGoogle: "not-claimed",
    fromElsewhere: "not-claimed",
    why: "no verifiable crawler's token",
  },
];

describe("the plan's lists and the check: every token that selects a verifiable group (issue #9)", () => {
  it.each(claims)("$why: $ua -> $sources", ({ ua, sources }) => {
    expect(verificationPlan(classifyUserAgent(ua)).rangeSources.map((source) => source.name)).toEqual(sources);
  });

  it.each(claims)("$why: $ua from Google -> $fromGoogle, elsewhere -> $fromElsewhere", (row) => {
    const agent = classifyUserAgent(row.ua);
    const verdict = (address: string) => statusOf({ agent, address, cfVerifiedBot: undefined, ranges });
    expect({ fromGoogle: verdict("66.249.64.1"), fromElsewhere: verdict("203.0.113.9") }).toEqual({
      fromGoogle: row.fromGoogle,
      fromElsewhere: row.fromElsewhere,
    });
  });

  it("Applebot from Apple's address is verified", () => {
    const agent = classifyUserAgent("Applebot-Foo/1.0");
    expect(statusOf({ agent, address: "17.241.0.9", cfVerifiedBot: undefined, ranges })).toBe("verified");
  });

  it("tokens of two operators must both hold: Googlebot's address is not GPTBot's", () => {
    const agent = {
      crawler: true,
      tokens: ["GPTBot", "Googlebot"],
      known: undefined,
      obeysGlobalGroup: true,
      honoursRateLimits: false,
    };
    const withGpt = new Map([...ranges, ["gptbot", new RangeSet(["20.171.206.0/24"])]]);
    expect(statusOf({ agent, address: "66.249.64.1", cfVerifiedBot: undefined, ranges: withGpt })).toBe("refuted");
    expect(statusOf({ agent, address: "20.171.206.1", cfVerifiedBot: undefined, ranges: withGpt })).toBe("refuted");
  });
});

// Issue #10 "do no harm": a fetcher that skips `User-agent: *` must be verifiable, or naming it
// would be a way around `*`. AdsBot-Google-Mobile-Apps is retired and falls back to AdsBot-Google.
describe("every crawler that skips `User-agent: *` is verified", () => {
  const skipping = KNOWN_CRAWLERS.filter((crawler) => !crawler.obeysGlobalGroup);
  it.each(skipping)("$token has a range source", (crawler) => {
    const agent = classifyUserAgent(`${crawler.token}/1.0`);
    expect(verificationPlan(agent).rangeSources.length).toBeGreaterThan(0);
  });
});

// "A group naming them still applies": such a fetcher is bound by its own group, not by `*`.
const fetcherRows: readonly { robots: string; ua: string; allowed: boolean; why: string }[] = [
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
    allowed: true,
    why: "Google documents Feedfetcher ignores robots.txt: `*` is not held against it",
  },
  {
    robots: "User-agent: *\nDisallow: /\n\nUser-agent: FeedFetcher-Google\nDisallow: /feeds/\n",
    ua: "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
    allowed: false,
    why: "a group naming it still applies",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "Mozilla/5.0 (compatible; Google-Site-Verification/1.0)",
    allowed: true,
    why: "Google Site Verifier acts for the site's owner",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    allowed: true,
    why: "ChatGPT-User acts for a user; OpenAI documents robots.txt may not apply: `*` is not held against it",
  },
  {
    robots: "User-agent: *\nDisallow: /\n\nUser-agent: ChatGPT-User\nDisallow: /feeds/\n",
    ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    allowed: false,
    why: "a group naming ChatGPT-User still applies",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
    allowed: true,
    why: "Perplexity-User: documented as generally ignoring robots.txt",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
    allowed: false,
    why: "Claude-User: Anthropic documents its bots honour robots.txt: held to `*`",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; AMZN-User/0.1) Chrome/119.0.6045.214 Safari/537.36",
    allowed: false,
    why: "Amzn-User: Amazon documents it respects robots.txt: held to `*`",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    allowed: false,
    why: "facebookexternalhit: Meta publishes no list to verify a claim against: held to `*`",
  },
  {
    robots: "User-agent: *\nDisallow: /\n",
    ua: "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
    allowed: false,
    why: "no published addresses to verify against: still held to `*`",
  },
];

describe("user-triggered fetchers and `User-agent: *` (issue #10)", () => {
  it.each(fetcherRows)("$why", ({ robots, ua, allowed }) => {
    const agent = classifyUserAgent(ua);
    const decision = compileRobots(parseRobotsTxt(robots)).decide(agent.tokens, "/feeds/x", {
      obeysGlobalGroup: agent.obeysGlobalGroup,
    });
    expect(decision.allowed).toBe(allowed);
  });
});

const jafar: unknown = JSON.parse(readFileSync(resolve(import.meta.dirname, "../fixtures/jafar-ranges.json"), "utf8"));

describe("parseRangeList reads the JAFAR draft's shape", () => {
  it.each([
    { why: "the fixture", json: jafar, cidrs: ["192.0.2.0/24", "2001:db8:1::/48"] },
    {
      why: "a newer minor version",
      json: { formatVersion: "1.7", prefixes: [{ ipv4Prefix: "192.0.2.0/24" }] },
      cidrs: ["192.0.2.0/24"],
    },
    {
      why: "a newer major version is refused",
      json: { formatVersion: "2.0", prefixes: [{ ipv4Prefix: "192.0.2.0/24" }] },
      cidrs: undefined,
    },
    {
      why: "a version that is not major.minor",
      json: { formatVersion: "one", prefixes: [{ ipv4Prefix: "192.0.2.0/24" }] },
      cidrs: undefined,
    },
    {
      why: "a numeric version",
      json: { formatVersion: 1, prefixes: [{ ipv4Prefix: "192.0.2.0/24" }] },
      cidrs: undefined,
    },
    { why: "JAFAR without prefixes", json: { formatVersion: "1.0" }, cidrs: undefined },
    { why: "null", json: null, cidrs: undefined },
  ])("$why", ({ json, cidrs }) => {
    expect(parseRangeList(json)).toEqual(cidrs);
  });
});

describe("verificationPlan", () => {
  it.each([
    { ua: GOOGLEBOT, cf: undefined, methods: ["ip-list", "reverse-dns"], lists: ["googlebot"], dns: ["google-common"] },
    {
      ua: GOOGLEBOT,
      cf: false,
      methods: ["cloudflare", "ip-list", "reverse-dns"],
      lists: ["googlebot"],
      dns: ["google-common"],
    },
    { ua: "ClaudeBot/1.0", cf: undefined, methods: ["ip-list"], lists: ["anthropic"], dns: [] },
    { ua: "CCBot/2.0 (https://commoncrawl.org/faq/)", cf: undefined, methods: ["ip-list"], lists: ["ccbot"], dns: [] },
    { ua: "DuckDuckBot/1.1", cf: undefined, methods: ["ip-list"], lists: ["duckduckbot"], dns: [] },
    {
      ua: "Mozilla/5.0 (compatible; Amazonbot/0.1)",
      cf: undefined,
      methods: ["reverse-dns"],
      lists: [],
      dns: ["amazonbot"],
    },
    {
      ua: "Mozilla/5.0 (compatible; YandexBot/3.0)",
      cf: undefined,
      methods: ["reverse-dns"],
      lists: [],
      dns: ["yandex"],
    },
    {
      ua: "Mozilla/5.0 (compatible; Baiduspider/2.0)",
      cf: undefined,
      methods: ["reverse-dns"],
      lists: [],
      dns: ["baidu"],
    },
    {
      ua: "Mozilla/5.0 (compatible; bingbot/2.0)",
      cf: undefined,
      methods: ["ip-list", "reverse-dns"],
      lists: ["bingbot"],
      dns: ["bing"],
    },
    { ua: "Applebot/0.1", cf: undefined, methods: ["ip-list", "reverse-dns"], lists: ["applebot"], dns: ["applebot"] },
    { ua: "SomeBot/1.0", cf: true, methods: [], lists: [], dns: [] },
    { ua: "Mozilla/5.0 (Windows NT 10.0) Chrome/124.0", cf: undefined, methods: [], lists: [], dns: [] },
  ])("$ua (cf $cf) -> $methods", ({ ua, cf, methods, lists, dns }) => {
    const plan = verificationPlan(classifyUserAgent(ua), cf);
    expect(plan.methods).toEqual(methods);
    expect(plan.rangeSources.map((source) => source.name)).toEqual(lists);
    expect(plan.reverseDns.map((rule) => rule.name)).toEqual(dns);
  });
});

describe("hostInDomains", () => {
  it.each([
    { host: "crawl-66-249-66-1.googlebot.com", domains: ["googlebot.com"], inside: true },
    { host: "CRAWL-1.GOOGLEBOT.COM.", domains: ["googlebot.com"], inside: true },
    { host: "googlebot.com", domains: ["googlebot.com"], inside: true },
    { host: "evilgooglebot.com", domains: ["googlebot.com"], inside: false },
    { host: "googlebot.com.evil.net", domains: ["googlebot.com"], inside: false },
    { host: "x.googleusercontent.com", domains: ["gae.googleusercontent.com"], inside: false },
    { host: "x.gae.googleusercontent.com", domains: ["gae.googleusercontent.com"], inside: true },
    { host: "crawl-66-249-66-1.googlebot.com", domains: ["crawl-*.googlebot.com"], inside: true },
    { host: "crawl-.googlebot.com", domains: ["crawl-*.googlebot.com"], inside: false },
    { host: "x.crawl-1.googlebot.com", domains: ["crawl-*.googlebot.com"], inside: false },
    { host: "evilcrawl-1.googlebot.com", domains: ["crawl-*.googlebot.com"], inside: false },
    { host: "rate-limited-proxy-66-249-90-1.google.com", domains: ["rate-limited-proxy-*.google.com"], inside: true },
    { host: "rate-limited-proxy-1.google.com.evil.net", domains: ["rate-limited-proxy-*.google.com"], inside: false },
    { host: "GOOGLE-PROXY-1.GOOGLE.COM.", domains: ["google-proxy-*.google.com"], inside: true },
  ])("$host in $domains -> $inside", ({ host, domains, inside }) => {
    expect(hostInDomains(host, domains)).toBe(inside);
  });
});

describe("verifyCrawlerDetailed says how, or why not", () => {
  const AMAZONBOT = "Mozilla/5.0 (compatible; Amazonbot/0.1)";
  it.each([
    {
      ua: GOOGLEBOT,
      address: "66.249.64.1",
      cf: undefined,
      dns: undefined,
      status: "verified",
      method: "ip-list",
      reason: "address in the googlebot list",
    },
    {
      ua: GOOGLEBOT,
      address: "66.249.64.1",
      cf: false,
      dns: undefined,
      status: "refuted",
      method: "cloudflare",
      reason: "Cloudflare: not a verified bot",
    },
    {
      ua: GOOGLEBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: undefined,
      status: "refuted",
      method: "ip-list",
      reason: "address not in the googlebot list",
    },
    // Reverse DNS never overturns a loaded list.
    {
      ua: GOOGLEBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "confirmed", host: "crawl-1.googlebot.com" },
      status: "refuted",
      method: "ip-list",
      reason: "address not in the googlebot list",
    },
    {
      ua: GOOGLEBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "timeout" },
      status: "refuted",
      method: "ip-list",
      reason: "address not in the googlebot list",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "confirmed", host: "a-1.crawl.amazonbot.amazon" },
      status: "verified",
      method: "reverse-dns",
      reason: "forward-confirmed a-1.crawl.amazonbot.amazon",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "confirmed", host: "crawl-1.googlebot.com" },
      status: "refuted",
      method: "reverse-dns",
      reason: "crawl-1.googlebot.com not under crawl.amazonbot.amazon",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "ptr-mismatch", hosts: ["host.example.net"] },
      status: "refuted",
      method: "reverse-dns",
      reason: "PTR host.example.net not under crawl.amazonbot.amazon",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "forward-mismatch", host: "a.crawl.amazonbot.amazon" },
      status: "refuted",
      method: "reverse-dns",
      reason: "a.crawl.amazonbot.amazon does not resolve back to the address",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "nxdomain" },
      status: "refuted",
      method: "reverse-dns",
      reason: "no PTR record for the address",
    },
    // H-3: a failed lookup proves nothing either way.
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "timeout" },
      status: "unverifiable",
      method: undefined,
      reason: "cannot check: reverse DNS timed out",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "error", message: "resolver status 2" },
      status: "unverifiable",
      method: undefined,
      reason: "cannot check: reverse DNS failed (resolver status 2)",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: { status: "error", message: "resolver answered 500" },
      status: "unverifiable",
      method: undefined,
      reason: "cannot check: reverse DNS failed (resolver answered 500)",
    },
    {
      ua: AMAZONBOT,
      address: "203.0.113.9",
      cf: undefined,
      dns: undefined,
      status: "unverifiable",
      method: undefined,
      reason: "cannot check: reverse DNS not looked up",
    },
    {
      ua: "GPTBot/1.2",
      address: "203.0.113.9",
      cf: undefined,
      dns: undefined,
      status: "unverifiable",
      method: undefined,
      reason: "cannot check: no gptbot list loaded",
    },
    {
      ua: GOOGLEBOT,
      address: null,
      cf: undefined,
      dns: undefined,
      status: "unverifiable",
      method: undefined,
      reason: "cannot check: no client address",
    },
    {
      ua: "SomeBot/1.0",
      address: "203.0.113.9",
      cf: true,
      dns: undefined,
      status: "unverifiable",
      method: undefined,
      reason: "claims no verifiable crawler",
    },
  ] as const)(
    "$ua from $address, dns $dns.status -> $status by $method",
    ({ ua, address, cf, dns, status, method, reason }) => {
      const result = verifyCrawlerDetailed({
        agent: classifyUserAgent(ua),
        address,
        cfVerifiedBot: cf,
        ranges,
        reverseDns: dns,
      });
      expect(result).toMatchObject({ status, method, reason });
    },
  );

  it.each([
    { ua: GOOGLEBOT, address: "66.249.64.1", cf: undefined, lists: ranges, needed: false, why: "the list confirms" },
    {
      ua: GOOGLEBOT,
      address: "203.0.113.9",
      cf: undefined,
      lists: ranges,
      needed: false,
      why: "the list refutes: reverse DNS never overturns it",
    },
    {
      ua: GOOGLEBOT,
      address: "203.0.113.9",
      cf: undefined,
      lists: new Map(),
      needed: true,
      why: "no googlebot list loaded: Google's documented host names may confirm",
    },
    { ua: GOOGLEBOT, address: "203.0.113.9", cf: false, lists: ranges, needed: false, why: "Cloudflare's veto" },
    { ua: AMAZONBOT, address: "203.0.113.9", cf: undefined, lists: ranges, needed: true, why: "DNS only" },
    { ua: AMAZONBOT, address: null, cf: undefined, lists: ranges, needed: false, why: "no address" },
    { ua: "GPTBot/1.2", address: "203.0.113.9", cf: undefined, lists: ranges, needed: false, why: "no DNS rule" },
    {
      ua: "Mozilla/5.0 (Windows NT 10.0) Chrome/124.0",
      address: "203.0.113.9",
      cf: undefined,
      lists: ranges,
      needed: false,
      why: "claims nothing",
    },
  ])("needsReverseDns: $ua from $address -> $needed ($why)", ({ ua, address, cf, lists, needed }) => {
    expect(needsReverseDns({ agent: classifyUserAgent(ua), address, cfVerifiedBot: cf, ranges: lists })).toBe(needed);
  });
});

// Evidence must name the identity it proves. C-1: Google documents one host name mask per class
// of its crawlers (common: crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com; special-case:
// rate-limited-proxy-*.google.com; user-triggered: google-proxy-*.google.com); a
// *.gae.googleusercontent.com name is a Google Cloud customer's host and proves nothing. H-4:
// Cloudflare's verifiedBot says SOME verified bot sent the request; its category is evidence only
// when it is the claimed crawler's own, and never for a crawler exempt from `*`.
describe("evidence must name the identity it proves", () => {
  const ADSBOT = "AdsBot-Google (+http://www.google.com/adsbot.html)";
  const FEEDFETCHER = "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)";
  const CHATGPT_USER =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
  const MEDIAPARTNERS = "Mediapartners-Google";
  const OAI_SEARCHBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot";
  const GAE = { status: "confirmed", host: "34-96-10-1.gae.googleusercontent.com" } as const;
  const special = new Map([["google-special", new RangeSet(["66.249.90.0/24"])]]);
  const none = new Map<string, RangeSet>();
  it.each([
    {
      why: "C-1 reproduction: AdsBot-Google from 34.96.10.1 (gae.googleusercontent.com), list loaded",
      ua: ADSBOT,
      lists: special,
      cf: {},
      dns: GAE,
      status: "refuted",
    },
    {
      why: "C-1: the same before the list loads: not verified (and not refuted by a name)",
      ua: ADSBOT,
      lists: none,
      cf: {},
      dns: GAE,
      status: "unverifiable",
    },
    { why: "C-1: Googlebot, gae name, list loaded", ua: GOOGLEBOT, lists: ranges, cf: {}, dns: GAE, status: "refuted" },
    { why: "C-1: Googlebot, gae name, no list", ua: GOOGLEBOT, lists: none, cf: {}, dns: GAE, status: "unverifiable" },
    {
      why: "FeedFetcher-Google, gae name: never accepted",
      ua: FEEDFETCHER,
      lists: none,
      cf: {},
      dns: GAE,
      status: "unverifiable",
    },
    {
      why: "Googlebot, no list, its class's name crawl-*.googlebot.com",
      ua: GOOGLEBOT,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "crawl-66-249-66-1.googlebot.com" },
      status: "verified",
    },
    {
      why: "Googlebot, no list, geo-crawl-*.geo.googlebot.com",
      ua: GOOGLEBOT,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "geo-crawl-35-1-2-3.geo.googlebot.com" },
      status: "verified",
    },
    {
      why: "Googlebot, no list, a special-case crawler's name: another class",
      ua: GOOGLEBOT,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "rate-limited-proxy-66-249-90-1.google.com" },
      status: "unverifiable",
    },
    {
      why: "AdsBot-Google, no list, rate-limited-proxy-*.google.com",
      ua: ADSBOT,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "rate-limited-proxy-66-249-90-1.google.com" },
      status: "verified",
    },
    {
      why: "AdsBot-Google, no list, a common crawler's name: another class",
      ua: ADSBOT,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "crawl-66-249-66-1.googlebot.com" },
      status: "unverifiable",
    },
    {
      why: "FeedFetcher-Google, no list, google-proxy-*.google.com",
      ua: FEEDFETCHER,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "google-proxy-66-249-81-1.google.com" },
      status: "verified",
    },
    {
      why: "FeedFetcher-Google, no list, any other google.com name",
      ua: FEEDFETCHER,
      lists: none,
      cf: {},
      dns: { status: "confirmed", host: "www.google.com" },
      status: "unverifiable",
    },
    {
      why: "H-4 reproduction: a verified Monitoring & Analytics bot sending Googlebot's User-Agent, no list",
      ua: GOOGLEBOT,
      lists: none,
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: "Monitoring & Analytics" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: "H-4: the same with the list loaded: refuted",
      ua: GOOGLEBOT,
      lists: ranges,
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: "Monitoring & Analytics" },
      dns: undefined,
      status: "refuted",
    },
    {
      why: "H-4: verifiedBot true with no category names no crawler",
      ua: GOOGLEBOT,
      lists: none,
      cf: { botManagement: { verifiedBot: true } },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: "issue 31: the claimed crawler's own category, no list: a category is not a name, unverifiable",
      ua: GOOGLEBOT,
      lists: none,
      cf: { verifiedBotCategory: "Search Engine Crawler" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: "issue 31: a category of the claimed crawler's own never wins over a PTR that refutes it (YandexBot)",
      ua: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
      lists: none,
      cf: { verifiedBotCategory: "Search Engine Crawler" },
      dns: { status: "nxdomain" },
      status: "refuted",
    },
    {
      why: "H-4: never for an exemption from `*` (ChatGPT-User, category AI Assistant)",
      ua: CHATGPT_USER,
      lists: none,
      cf: { verifiedBotCategory: "AI Assistant" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: 'no Cloudflare string confirms a crawler of our category "other" (Mediapartners-Google), no list',
      ua: MEDIAPARTNERS,
      lists: none,
      cf: { verifiedBotCategory: "Advertising & Marketing" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: '"Other" is no category: it confirms nothing, no list',
      ua: MEDIAPARTNERS,
      lists: none,
      cf: { verifiedBotCategory: "Other" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: 'a BotBase behavior name in the category field is no category ("Search" for Googlebot), no list',
      ua: GOOGLEBOT,
      lists: none,
      cf: { verifiedBotCategory: "Search" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: 'an intermediary\'s label in the category field is no category ("Intermediary"), no list',
      ua: GOOGLEBOT,
      lists: none,
      cf: { verifiedBotCategory: "Intermediary" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: "issue 31: the AI Search category confirms no OAI-SearchBot, no list",
      ua: OAI_SEARCHBOT,
      lists: none,
      cf: { verifiedBotCategory: "AI Search" },
      dns: undefined,
      status: "unverifiable",
    },
    {
      why: "H-4: verifiedBot false vetoes an address in the list",
      ua: GOOGLEBOT,
      address: "66.249.64.1",
      lists: ranges,
      cf: { botManagement: { verifiedBot: false } },
      dns: undefined,
      status: "refuted",
    },
  ] as const)("$why -> $status", (row) => {
    const { ua, lists, cf, dns, status } = row;
    const cloudflare = cloudflareBotOf(cf);
    const result = verifyCrawlerDetailed({
      agent: classifyUserAgent(ua),
      address: "address" in row ? (row.address ?? null) : "34.96.10.1",
      cfVerifiedBot: cloudflare.verified,
      cfCategory: cloudflare.category,
      ranges: lists,
      ...(dns && { reverseDns: dns }),
    });
    expect(result.status).toBe(status);
  });
});

// Issue #12: each operator's own page says what it publishes (README, "Verified crawlers").
describe("the operators added from their own pages", () => {
  it.each([
    {
      ua: "Mozilla/5.0 (compatible; Qwantbot/1.0_12345; +https://help.qwant.com/bot/)",
      lists: ["qwantbot"],
      dns: ["qwant"],
    },
    { ua: "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)", lists: [], dns: ["mojeek"] },
    {
      ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
      lists: ["mistralai-user"],
      dns: [],
    },
    { ua: "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)", lists: ["duckassistbot"], dns: [] },
    { ua: "Mozilla/5.0 (compatible; MistralAI-Training/1.0)", lists: [], dns: [] },
  ])("$ua -> lists $lists, reverse DNS $dns", ({ ua, lists, dns }) => {
    const agent = classifyUserAgent(ua);
    const plan = verificationPlan(agent);
    expect(plan.rangeSources.map((source) => source.name)).toEqual(lists);
    expect(plan.reverseDns.map((rule) => rule.name)).toEqual(dns);
  });
});

describe("outcomeOfCheck: the shown value says what verified it, or why not", () => {
  const MOJEEK = "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)";
  it.each([
    {
      ua: GOOGLEBOT,
      address: "66.249.64.1",
      cf: undefined,
      category: undefined,
      dns: undefined,
      status: "verified",
      method: "ip-list",
      evidence: "googlebot",
      why: null,
    },
    {
      ua: "GPTBot/1.2",
      address: "203.0.113.9",
      cf: true,
      category: "AI Crawler",
      dns: undefined,
      status: "unverifiable",
      method: null,
      evidence: null,
      why: "no-list",
    },
    {
      ua: MOJEEK,
      address: "5.102.173.71",
      cf: undefined,
      category: undefined,
      dns: { status: "confirmed", host: "crawl-5-102-173-71.mojeek.com" },
      status: "verified",
      method: "reverse-dns",
      evidence: "crawl-5-102-173-71.mojeek.com",
      why: null,
    },
    {
      ua: MOJEEK,
      address: "5.102.173.71",
      cf: undefined,
      category: undefined,
      dns: { status: "ptr-mismatch", hosts: ["x.example.net"] },
      status: "refuted",
      method: "reverse-dns",
      evidence: null,
      why: "refuted",
    },
    {
      ua: MOJEEK,
      address: "5.102.173.71",
      cf: undefined,
      category: undefined,
      dns: { status: "timeout" },
      status: "unverifiable",
      method: null,
      evidence: null,
      why: "lookup-failed",
    },
    {
      ua: MOJEEK,
      address: "5.102.173.71",
      cf: undefined,
      category: undefined,
      dns: undefined,
      status: "unverifiable",
      method: null,
      evidence: null,
      why: "not-looked-up",
    },
    {
      ua: GOOGLEBOT,
      address: null,
      cf: undefined,
      category: undefined,
      dns: undefined,
      status: "unverifiable",
      method: null,
      evidence: null,
      why: "no-address",
    },
    {
      ua: "GPTBot/1.2",
      address: "203.0.113.9",
      cf: undefined,
      category: undefined,
      dns: undefined,
      status: "unverifiable",
      method: null,
      evidence: null,
      why: "no-list",
    },
    {
      ua: "FooBot/1.0",
      address: "203.0.113.9",
      cf: undefined,
      category: undefined,
      dns: undefined,
      status: "unverifiable",
      method: null,
      evidence: null,
      why: "not-claimed",
    },
  ] as const)("$ua from $address -> $status $method $why", ({ ua, address, cf, category, dns, ...expected }) => {
    const result = verifyCrawlerDetailed({
      agent: classifyUserAgent(ua),
      address,
      cfVerifiedBot: cf,
      cfCategory: category,
      ranges,
      ...(dns && { reverseDns: dns }),
    });
    expect(outcomeOfCheck(result)).toMatchObject(expected);
  });
});

// Cloudflare's fields (developers.cloudflare.com/bots/concepts/bot/verified-bots/categories):
// botManagement.verifiedBot decides; a non-empty verifiedBotCategory alone means verified; an
// empty one is no evidence (zones without a bot product).
describe("cloudflareBotOf", () => {
  it.each([
    { cf: undefined, verified: undefined, category: undefined, why: "no cf object (local runs)" },
    { cf: {}, verified: undefined, category: undefined, why: "a zone without bot products" },
    { cf: { verifiedBotCategory: "" }, verified: undefined, category: undefined, why: "empty: not evidence" },
    {
      cf: { verifiedBotCategory: "AI Crawler" },
      verified: true,
      category: "AI Crawler",
      why: "the category says verified",
    },
    {
      cf: { botManagement: { verifiedBot: false } },
      verified: false,
      category: undefined,
      why: "Bot Management says no",
    },
    {
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: "Search Engine Crawler" },
      verified: true,
      category: "Search Engine Crawler",
      why: "both",
    },
    {
      // A vetoed category would still give an unknown bot that category's policy rules.
      cf: { botManagement: { verifiedBot: false }, verifiedBotCategory: "Search Engine Crawler" },
      verified: false,
      category: undefined,
      why: "verifiedBot decides, and its false takes the category with it",
    },
    {
      cf: { botManagement: { verifiedBot: "yes" }, verifiedBotCategory: 7 },
      verified: undefined,
      category: undefined,
      why: "wrong types are no evidence",
    },
  ])("$why", ({ cf, verified, category }) => {
    expect(cloudflareBotOf(cf)).toEqual({ verified, category });
  });
});

// Every `verifiedBotCategory` string value Cloudflare documents (developers.cloudflare.com/bots/
// concepts/bot/verified-bots/, "Categories", last updated 2026-07-01), and what it is in ours.
describe("categoryOfCloudflare: only categories that say the same as ours", () => {
  it.each([
    { cloudflare: "Academic Research", ours: undefined },
    { cloudflare: "Accessibility", ours: undefined },
    { cloudflare: "Advertising & Marketing", ours: undefined },
    { cloudflare: "Aggregator", ours: undefined },
    { cloudflare: "AI Assistant", ours: "ai-assistant" },
    { cloudflare: "AI Crawler", ours: "ai-training" },
    { cloudflare: "AI Search", ours: "ai-search" },
    { cloudflare: "Archiver", ours: "archiver" },
    { cloudflare: "Feed Fetcher", ours: undefined },
    { cloudflare: "Monitoring & Analytics", ours: "monitoring" },
    { cloudflare: "Page Preview", ours: "social-preview" },
    { cloudflare: "Search Engine Crawler", ours: "search-engine" },
    { cloudflare: "Search Engine Optimization", ours: "seo-tool" },
    { cloudflare: "Security", ours: undefined },
    { cloudflare: "Social Media Marketing", ours: undefined },
    { cloudflare: "Webhooks", ours: undefined },
    { cloudflare: "Other", ours: undefined },
    // Spellings: Cloudflare's value, not the client's, so case is no attack; white space trimmed.
    { cloudflare: "ai crawler", ours: "ai-training" },
    { cloudflare: " Search Engine Crawler ", ours: "search-engine" },
    // BotBase behaviors and the Direct / Intermediary labels are never delivered in this field;
    // a value spelled like one is no category, even where the behavior maps in the table.
    { cloudflare: "Search", ours: undefined },
    { cloudflare: "Agent", ours: undefined },
    { cloudflare: "Training", ours: undefined },
    { cloudflare: "Direct", ours: undefined },
    { cloudflare: "Intermediary", ours: undefined },
    { cloudflare: "AI Crawlers", ours: undefined },
    { cloudflare: "", ours: undefined },
    { cloudflare: undefined, ours: undefined },
  ])("$cloudflare -> $ours", ({ cloudflare, ours }) => {
    expect(categoryOfCloudflare(cloudflare)).toBe(ours);
  });
});
