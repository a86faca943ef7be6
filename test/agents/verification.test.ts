// Crawler verification: published ranges (fixtures, never fetched) and Cloudflare's verdict.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { KNOWN_CRAWLERS } from "../../src/agents/crawlers.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { parseRangeList, rangeSourcesFor, RangeSet, verifyCrawler } from "../../src/agents/verification.ts";

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

describe("verifyCrawler", () => {
  it.each([
    { ua: GOOGLEBOT, address: "66.249.64.1", cf: undefined, result: "verified" },
    { ua: GOOGLEBOT, address: "203.0.113.9", cf: undefined, result: "impostor" },
    { ua: GOOGLEBOT, address: null, cf: undefined, result: "unverifiable" },
    { ua: GOOGLEBOT, address: "203.0.113.9", cf: true, result: "verified" },
    { ua: GOOGLEBOT, address: "66.249.64.1", cf: false, result: "impostor" },
    { ua: "GPTBot/1.2", address: "203.0.113.9", cf: undefined, result: "unverifiable" },
    { ua: "SomeBot/1.0", address: "203.0.113.9", cf: undefined, result: "not-claimed" },
  ])("$ua from $address (cf $cf) -> $result", ({ ua, address, cf, result }) => {
    expect(verifyCrawler({ agent: classifyUserAgent(ua), address, cfVerifiedBot: cf, ranges })).toBe(result);
  });
});

// Issue #9: any request whose tokens would select a verifiable crawler's group is verified as
// that operator's crawler. Rows: the User-Agent, the range sources it must pass (literal), and
// the verdict from a Google address and from an address of no crawler operator.
const claims: readonly { ua: string; sources: string[]; fromGoogle: string; fromElsewhere: string; why: string }[] = [
  { ua: GOOGLEBOT, sources: ["googlebot"], fromGoogle: "verified", fromElsewhere: "impostor", why: "the known name" },
  {
    ua: "Googlebot-Foo/1.0",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "impostor",
    why: "an unlisted variant falls back to Googlebot's group",
  },
  {
    ua: "Googlebot-Image-X/1.0",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "impostor",
    why: "a variant of a variant falls back to Googlebot-Image, then Googlebot",
  },
  {
    ua: "Mozilla/5.0 (compatible; Googlebot-Foo/2.1; +http://www.google.com/bot.html)",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "impostor",
    why: "a variant inside a compatible comment",
  },
  {
    ua: "Googlebot-Mobile/2.1",
    sources: ["googlebot"],
    fromGoogle: "verified",
    fromElsewhere: "impostor",
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
    fromGoogle: "impostor",
    fromElsewhere: "impostor",
    why: "Applebot's documented Googlebot fallback is vouched for by Applebot's own check",
  },
  {
    ua: "Applebot-Foo/1.0",
    sources: ["applebot"],
    fromGoogle: "impostor",
    fromElsewhere: "impostor",
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

describe("rangeSourcesFor and verifyCrawler: every token that selects a verifiable group (issue #9)", () => {
  it.each(claims)("$why: $ua -> $sources", ({ ua, sources }) => {
    expect(rangeSourcesFor(classifyUserAgent(ua)).map((source) => source.name)).toEqual(sources);
  });

  it.each(claims)("$why: $ua from Google -> $fromGoogle, elsewhere -> $fromElsewhere", (row) => {
    const agent = classifyUserAgent(row.ua);
    const verdict = (address: string) => verifyCrawler({ agent, address, cfVerifiedBot: undefined, ranges });
    expect({ fromGoogle: verdict("66.249.64.1"), fromElsewhere: verdict("203.0.113.9") }).toEqual({
      fromGoogle: row.fromGoogle,
      fromElsewhere: row.fromElsewhere,
    });
  });

  it("Applebot from Apple's address is verified", () => {
    const agent = classifyUserAgent("Applebot-Foo/1.0");
    expect(verifyCrawler({ agent, address: "17.241.0.9", cfVerifiedBot: undefined, ranges })).toBe("verified");
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
    expect(verifyCrawler({ agent, address: "66.249.64.1", cfVerifiedBot: undefined, ranges: withGpt })).toBe(
      "impostor",
    );
    expect(verifyCrawler({ agent, address: "20.171.206.1", cfVerifiedBot: undefined, ranges: withGpt })).toBe(
      "impostor",
    );
  });
});

// Issue #10 "do no harm": a fetcher that skips `User-agent: *` must be verifiable, or naming it
// would be a way around `*`. AdsBot-Google-Mobile-Apps is retired and falls back to AdsBot-Google.
describe("every crawler that skips `User-agent: *` is verified", () => {
  const skipping = KNOWN_CRAWLERS.filter((crawler) => !crawler.obeysGlobalGroup);
  it.each(skipping)("$token has a range source", (crawler) => {
    const agent = classifyUserAgent(`${crawler.token}/1.0`);
    expect(rangeSourcesFor(agent).length).toBeGreaterThan(0);
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
    allowed: false,
    why: "an AI assistant's fetcher stays held to `*`, where usage signals address it",
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
