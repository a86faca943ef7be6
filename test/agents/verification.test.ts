// Crawler verification: published ranges (fixtures, never fetched) and Cloudflare's verdict.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { parseRangeList, RangeSet, verifyCrawler } from "../../src/agents/verification.ts";

const fixture: unknown = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../fixtures/googlebot-ranges.json"), "utf8"),
);
const googlebotRanges = new RangeSet(parseRangeList(fixture) ?? []);
const ranges = new Map([["googlebot", googlebotRanges]]);
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
