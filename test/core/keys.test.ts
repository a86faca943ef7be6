// Keys read as Google's parser reads them (src/core/fields.ts): by prefix, ASCII
// case-insensitively, with a few frequent typos. The table's answers are Google's (robots.cc
// KeyIsUserAgent / KeyIsAllow / KeyIsDisallow / KeyIsSitemap, typos on), written down; the
// property tests check our reading against the reference reading in reference-matcher.ts on
// generated keys and on generated whole files.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { readField } from "../../src/core/fields.ts";
import { referenceGoogleAllowed, referenceKey, type ReferenceKey } from "./reference-matcher.ts";
import { propertyRuns } from "../property-runs.ts";

const RUNS = { seed: 20261123, numRuns: propertyRuns(3000) } as const;

/** Our reading of a key, as one of Google's key types (our extension records are "unknown" to Google). */
function ourKey(key: string): ReferenceKey {
  const field = readField(key)?.field;
  return field === "user-agent" || field === "allow" || field === "disallow" || field === "sitemap" ? field : "unknown";
}

const spellings: readonly { key: string; google: ReferenceKey; why: string }[] = [
  { key: "User-agent", google: "user-agent", why: "the name" },
  { key: "USER-AGENT", google: "user-agent", why: "case-insensitive" },
  { key: "useragent", google: "user-agent", why: "typo accepted" },
  { key: "User agent", google: "user-agent", why: "typo accepted (one space)" },
  { key: "user-agent-x", google: "user-agent", why: "prefix: anything may follow" },
  { key: "User-Agents", google: "user-agent", why: "prefix" },
  { key: "useragentfoo", google: "user-agent", why: "typo, then anything" },
  { key: "user_agent", google: "unknown", why: "'_' is not '-'" },
  { key: "user  agent", google: "unknown", why: "two spaces are no typo Google knows" },
  { key: "user\tagent", google: "unknown", why: "a tab is not the space of the typo" },
  { key: "usr-agent", google: "unknown", why: "not a prefix" },
  { key: "x-user-agent", google: "unknown", why: "the key must start with the name" },
  { key: "agent", google: "unknown", why: "a suffix is not enough" },
  { key: "Allow", google: "allow", why: "the name" },
  { key: "allowed", google: "allow", why: "prefix" },
  { key: "ALLOW-this", google: "allow", why: "prefix, any case" },
  { key: "alow", google: "unknown", why: "allow has no typos" },
  { key: "allw", google: "unknown", why: "allow has no typos" },
  { key: "Disallow", google: "disallow", why: "the name" },
  { key: "Disallowed", google: "disallow", why: "prefix" },
  { key: "dissallow", google: "disallow", why: "typo accepted" },
  { key: "Dissalow", google: "disallow", why: "typo accepted" },
  { key: "disalow", google: "disallow", why: "typo accepted" },
  { key: "diasllow", google: "disallow", why: "typo accepted" },
  { key: "disallaw", google: "disallow", why: "typo accepted" },
  { key: "disalowed", google: "disallow", why: "typo, then anything" },
  { key: "dis-allow", google: "unknown", why: "no such typo" },
  { key: "disalloow", google: "unknown", why: "neither the name nor a typo is a prefix of it" },
  { key: "dsallow", google: "unknown", why: "no such typo" },
  { key: "Sitemap", google: "sitemap", why: "the name" },
  { key: "site-map", google: "sitemap", why: "typo accepted" },
  { key: "sitemaps", google: "sitemap", why: "prefix" },
  { key: "site map", google: "unknown", why: "no such typo" },
  { key: "Crawl-delay", google: "unknown", why: "Google ignores it (we read it as an extension)" },
  { key: "Content-Signal", google: "unknown", why: "Google ignores it (usage preferences read it)" },
  { key: "\u212Allow", google: "unknown", why: "the Kelvin sign is not an ASCII letter" },
  { key: "d\u0130sallow", google: "unknown", why: "a dotted capital I is not 'i'" },
];

describe("key spellings as Google reads them", () => {
  it.each(spellings)("$why: '$key' -> $google", ({ key, google }) => {
    expect(ourKey(key)).toBe(google);
    expect(referenceKey(key)).toBe(google);
  });
});

// Keys near the real ones: a known spelling (or a near miss of one) in random case, with a
// random tail; and short random strings over the letters the keys are made of.
const KNOWN = [
  "user-agent",
  "useragent",
  "user agent",
  "allow",
  "disallow",
  "dissallow",
  "dissalow",
  "disalow",
  "diasllow",
  "disallaw",
  "sitemap",
  "site-map",
  "crawl-delay",
  "content-usage",
  "content-signal",
];
const keyChar = fc.constantFrom(..."useragntdilowsmpcy- _xUSERAGNTDILOW\u212A\u0130".split(""));
const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join(""));
const nearMiss = (text: string) =>
  fc.oneof(
    fc.constant(text),
    fc.nat(text.length - 1).map((i) => text.slice(0, i) + text.slice(i + 1)),
    fc.tuple(fc.nat(text.length), keyChar).map(([i, char]) => text.slice(0, i) + char + text.slice(i)),
    fc.nat(text.length - 2).map((i) => text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2)),
  );
const keyArb = fc.oneof(
  fc
    .tuple(
      fc
        .constantFrom(...KNOWN)
        .chain(nearMiss)
        .chain(randomCase),
      fc.string({ unit: keyChar, maxLength: 4 }),
    )
    .map(([key, tail]) => key + tail),
  fc.string({ unit: keyChar, minLength: 1, maxLength: 12 }),
);

describe("property: our key reading is Google's", () => {
  it("agrees with the reference on generated keys", () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(ourKey(key)).toBe(referenceKey(key));
      }),
      RUNS,
    );
  });
});

// Whole files: user-agent lines whose values mix letters, digits, dots, versions and words;
// rules under misspelt and prefixed keys; answers for letters-only crawlers compared with the
// reference reading of the whole file (keys, groups, tokens and rules as Google reads them).
const agentValue = fc
  .tuple(
    fc.constantFrom("FooBot", "foo", "Foo", "bar", "MJ", "foo-", "foo_bar", "*", "360", ""),
    fc.constantFrom("", "", "2", "12bot", ".org", "/1.2", " bar", "-x", "_2", "3r", "*", " *"),
  )
  .map(([name, tail]) => name + tail);
const agentKey = fc.constantFrom("User-agent", "user-agent-x", "USERAGENT", "user agent", "user_agent", "usr-agent");
const ruleKey = fc.constantFrom(
  "Allow",
  "allowed",
  "alow",
  "Disallow",
  "Dissalow",
  "disalow",
  "diasllow",
  "disallaw",
  "Disallowed",
  "dis-allow",
);
const otherKey = fc.constantFrom("Sitemap", "site-map", "Crawl-delay", "Content-Signal", "Host");
const patternArb = fc
  .tuple(
    fc.constantFrom("/", "/", "*", "/*"),
    fc.string({ unit: fc.constantFrom("a", "b", "/", "*", "$"), maxLength: 4 }),
  )
  .map(([start, rest]) => start + rest);
const lineArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(agentKey, agentValue).map(([key, value]) => `${key}: ${value}`) },
  { weight: 4, arbitrary: fc.tuple(ruleKey, patternArb).map(([key, value]) => `${key}: ${value}`) },
  { weight: 1, arbitrary: fc.tuple(ruleKey, fc.constant("")).map(([key]) => `${key}:`) },
  { weight: 1, arbitrary: fc.tuple(otherKey, patternArb).map(([key, value]) => `${key}: ${value}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "# comment", "user-agent foo", "disallow /a", "allow /a b") },
);
const fileArb = fc.array(lineArb, { maxLength: 14 }).map((lines) => lines.join("\n"));
const crawlerArb = fc.constantFrom("FooBot", "foo", "bar", "MJ", "foo-", "foo_bar", "other");
const pathArb = fc.string({ unit: fc.constantFrom("a", "b", "/"), maxLength: 5 }).map((rest) => `/${rest}`);

describe("property: group choice and keys as Google's parser reads the file", () => {
  it("letters-only crawlers get Google's answer on generated files", () => {
    fc.assert(
      fc.property(fileArb, crawlerArb, pathArb, (robots, crawler, path) => {
        const ours = compileRobots(parseRobotsTxt(robots)).decide([crawler], path).allowed;
        expect(ours).toBe(referenceGoogleAllowed(robots, crawler, path));
      }),
      RUNS,
    );
  });
});

// Google-only: a line with no colon is `key value` when it is exactly two runs of characters
// other than space and tab (robots.cc GetKeyAndValueFrom); both sides are then trimmed.
const missingColon: readonly { line: string; blocked: boolean; why: string }[] = [
  { line: "Disallow /x", blocked: true, why: "two words" },
  { line: "Disallow \t /x", blocked: true, why: "spaces and tabs between" },
  { line: "Disallow\v /x", blocked: true, why: "the key is trimmed of a vertical tab" },
  { line: "Disallow \v/x", blocked: true, why: "the value is trimmed of a vertical tab" },
  { line: "Disallow /x /y", blocked: false, why: "three words: not a directive" },
  { line: "Disallow \v /x", blocked: false, why: "a vertical tab makes a third run" },
];

describe("lines without a colon", () => {
  it.each(missingColon)("$why: '$line'", ({ line, blocked }) => {
    const robots = `User-agent: *\n${line}\n`;
    expect(compileRobots(parseRobotsTxt(robots)).decide(["a"], "/x").allowed).toBe(!blocked);
    expect(referenceGoogleAllowed(robots, "a", "/x")).toBe(!blocked);
  });
});
