// Properties of the compiled matcher, checked against the reference matcher
// (reference-matcher.ts) on random files, and of canonicalizePath. Seeds are fixed, so a
// failure repeats; fast-check prints the shrunk counterexample.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalizePath,
  compileRobots,
  parseRobotsTxt,
  reviveRobots,
  serializeRobots,
  type Decision,
} from "../../src/core/index.ts";
import { referenceDecide, referenceMatches, type ReferenceRule } from "./reference-matcher.ts";
import { propertyRuns } from "../property-runs.ts";

const RUNS = { seed: 20261122, numRuns: propertyRuns(2000) } as const;

// Patterns from a small alphabet, so that `*`, `**`, a trailing `*`, a final `$` and a `$`
// in the middle (a literal there) all come up often. Most start with "/" or "*" as real
// rules do; a few start elsewhere (they match no path, since paths start with "/").
const patternChar = fc.constantFrom("/", "a", "b", ".", "?", "=", "*", "$", "**", "*$");
const patternArb = fc
  .tuple(fc.constantFrom("/", "/", "/", "*", "/*", "a", "$"), fc.string({ unit: patternChar, maxLength: 6 }))
  .map(([start, rest]) => start + rest);

const ruleArb: fc.Arbitrary<ReferenceRule> = fc.record({
  kind: fc.constantFrom("allow" as const, "disallow" as const),
  pattern: patternArb,
});
const rulesArb = fc.array(ruleArb, { minLength: 1, maxLength: 8 });

const pathChar = fc.constantFrom("/", "a", "b", ".", "?", "=");
const randomPathArb = fc.string({ unit: pathChar, maxLength: 10 }).map((rest) => `/${rest}`);

/** A path near a pattern: each `*` filled with random text, a final `$` kept or dropped. */
function pathNear(pattern: string): fc.Arbitrary<string> {
  const pieces = pattern.split("*");
  return fc
    .tuple(
      fc.array(fc.string({ unit: pathChar, maxLength: 3 }), { minLength: pieces.length, maxLength: pieces.length }),
      fc.string({ unit: pathChar, maxLength: 2 }),
      fc.boolean(),
    )
    .map(([fills, tail, dropDollar]) => {
      let text = pieces.map((piece, i) => (i === 0 ? piece : (fills[i - 1] ?? "") + piece)).join("");
      if (dropDollar && text.endsWith("$")) text = text.slice(0, -1);
      text += tail;
      return text.startsWith("/") ? text : `/${text}`;
    });
}

/** Random paths, and paths built to (nearly) match one of the rules. */
function pathsFor(rules: readonly ReferenceRule[]): fc.Arbitrary<string> {
  return fc.oneof(
    randomPathArb,
    fc.constantFrom(...rules).chain((rule) => pathNear(rule.pattern)),
  );
}

const scenarioArb = rulesArb.chain((rules) => fc.record({ rules: fc.constant(rules), path: pathsFor(rules) }));

function ruleLine(rule: ReferenceRule): string {
  return `${rule.kind === "allow" ? "Allow" : "Disallow"}: ${rule.pattern}\n`;
}

function robotsText(rules: readonly ReferenceRule[], token = "testbot"): string {
  return `User-agent: ${token}\n${rules.map(ruleLine).join("")}`;
}

/** The decision, the deciding rule's kind and its priority (pattern length; canonical here). */
function summary(decision: Decision) {
  return {
    allowed: decision.allowed,
    winner:
      decision.reason === "rule" && decision.rule
        ? { kind: decision.rule.kind, length: decision.rule.pattern.length }
        : undefined,
  };
}

describe("compiled matcher = reference matcher (random groups)", () => {
  it("rfc9309 §2.2.2 §2.2.3 same allowed, same winning kind and length, rule from the right line", () => {
    fc.assert(
      fc.property(scenarioArb, ({ rules, path }) => {
        const decision = compileRobots(parseRobotsTxt(robotsText(rules))).decide(["testbot"], path);
        const expected = referenceDecide(rules, path);
        expect(summary(decision)).toEqual({ allowed: expected.allowed, winner: expected.winner });
        expect(decision.reason).toBe(expected.winner ? "rule" : "no-matching-rule");
        if (decision.rule) {
          // Line 1 is the user-agent line; rule i sits on line i + 2.
          expect(rules[decision.rule.line - 2]).toEqual({ kind: decision.rule.kind, pattern: decision.rule.pattern });
        }
      }),
      RUNS,
    );
  });

  it("rfc9309 §2.2.1 rules split over several groups naming the token (any case) decide as one group", () => {
    const arb = scenarioArb.chain(({ rules, path }) =>
      fc.record({
        rules: fc.constant(rules),
        path: fc.constant(path),
        cuts: fc.array(fc.boolean(), { minLength: rules.length, maxLength: rules.length }),
        others: rulesArb,
      }),
    );
    fc.assert(
      fc.property(arb, ({ rules, path, cuts, others }) => {
        // A new "User-agent: TestBot" group before each cut rule, with a "*" group between.
        const text = rules
          .map((rule, i) =>
            cuts[i] && i > 0 ? robotsText(others, "*") + robotsText([rule], "TestBot") : ruleLine(rule),
          )
          .join("");
        const decision = compileRobots(parseRobotsTxt(robotsText([]) + text)).decide(["testbot"], path);
        expect(summary(decision)).toEqual(referenceDecide(rules, path));
      }),
      { ...RUNS, numRuns: propertyRuns(1000) },
    );
  });

  it("rfc9309 §2.2.2 percent-encoded and non-ASCII rules and paths match in canonical spelling", () => {
    // The reference sees both sides canonicalised; the matcher must canonicalise them itself.
    const unit = fc.constantFrom("/", "a", "*", "$", "%61", "%2F", "%2f", "/", "é", "%C3%A9", "%c3%a9", "%7E", "~");
    const rawPattern = fc.string({ unit, minLength: 1, maxLength: 5 }).map((rest) => `/${rest}`);
    const rules = fc.array(
      fc.record({ kind: fc.constantFrom("allow" as const, "disallow" as const), pattern: rawPattern }),
      { minLength: 1, maxLength: 6 },
    );
    const rawPath = fc
      .string({
        unit: fc.constantFrom("/", "a", "$", "%61", "%2F", "%2f", "é", "%C3%A9", "%c3%a9", "%7E", "~"),
        maxLength: 6,
      })
      .map((rest) => `/${rest}`);
    fc.assert(
      fc.property(rules, rawPath, (raw, path) => {
        const decision = compileRobots(parseRobotsTxt(robotsText(raw))).decide(["testbot"], path);
        const canonicalRules = raw.map((rule) => ({ kind: rule.kind, pattern: canonicalizePath(rule.pattern) }));
        const expected = referenceDecide(canonicalRules, canonicalizePath(path));
        const winner = decision.rule
          ? { kind: decision.rule.kind, length: canonicalizePath(decision.rule.pattern).length }
          : undefined;
        expect({ allowed: decision.allowed, winner }).toEqual({ allowed: expected.allowed, winner: expected.winner });
      }),
      RUNS,
    );
  });

  it("rfc9309 §2.2.3 the reference itself: `*` any sequence, final `$` anchors, other `$` literal", () => {
    // A table, so the reference is pinned down by hand before it judges anything.
    const rows: [pattern: string, path: string, matches: boolean][] = [
      ["/a", "/ab", true],
      ["/a$", "/ab", false],
      ["/a$", "/a", true],
      ["/a$b", "/a$b", true],
      ["/a$b", "/ab", false],
      ["/a$$", "/a$", true],
      ["/a$$", "/a", false],
      ["/*b", "/aab", true],
      ["/*b$", "/aaba", false],
      ["/**b", "/b", true],
      ["/a*", "/a", true],
      ["/a*$", "/a", true],
      ["*", "/", true],
      ["$", "/", false],
      ["a", "/a", false],
      ["/*a*a$", "/a", false],
      ["/*a*a$", "/aa", true],
    ];
    for (const [pattern, path, matches] of rows)
      expect([pattern, path, referenceMatches(pattern, path)]).toEqual([pattern, path, matches]);
  });

  it("rfc9309 §2.2.2 one compiled matcher answers like a fresh one per path (no state between decisions)", () => {
    const arb = fc.tuple(rulesArb, rulesArb).chain(([mine, global]) =>
      fc.record({
        mine: fc.constant(mine),
        global: fc.constant(global),
        asks: fc.array(
          fc.tuple(fc.constantFrom(["testbot"], ["otherbot"], ["otherbot", "testbot"]), pathsFor([...mine, ...global])),
          { minLength: 1, maxLength: 20 },
        ),
      }),
    );
    fc.assert(
      fc.property(arb, ({ mine, global, asks }) => {
        const text = robotsText(mine) + robotsText(global, "*");
        const robots = parseRobotsTxt(text);
        const shared = compileRobots(robots);
        for (const [tokens, path] of [...asks, ...asks.toReversed()]) {
          expect(shared.decide(tokens, path)).toEqual(compileRobots(parseRobotsTxt(text)).decide(tokens, path));
        }
      }),
      { ...RUNS, numRuns: propertyRuns(500) },
    );
  });

  it("rfc9309 §2.2.2 serializeRobots -> reviveRobots -> compile decides the same", () => {
    const arb = fc.tuple(rulesArb, rulesArb).chain(([mine, global]) =>
      fc.record({
        text: fc.constant(robotsText(mine) + "Sitemap: https://example.com/s.xml\n" + robotsText(global, "*")),
        paths: fc.array(pathsFor([...mine, ...global]), { minLength: 1, maxLength: 10 }),
      }),
    );
    fc.assert(
      fc.property(arb, ({ text, paths }) => {
        const robots = parseRobotsTxt(text);
        const revived = reviveRobots(serializeRobots(robots));
        expect(revived).toEqual(robots);
        const original = compileRobots(robots);
        const fromJson = compileRobots(revived);
        for (const path of paths) {
          for (const tokens of [["testbot"], ["otherbot"]]) {
            expect(fromJson.decide(tokens, path)).toEqual(original.decide(tokens, path));
          }
        }
      }),
      { ...RUNS, numRuns: propertyRuns(500) },
    );
  });
});

const long = (body: string) => `/${body}`;

describe("pathological patterns (correctness only; speed is for the benchmarks)", () => {
  const a4999 = "a".repeat(4999);
  // Each pattern has exactly 15 `*`; each path is 5,000 characters.
  const rows = [
    { pattern: `/${"a*".repeat(15)}b`, path: long(a4999), matches: false, why: "no b anywhere" },
    { pattern: `/${"a*".repeat(15)}b`, path: long(`${"a".repeat(4998)}b`), matches: true, why: "b at the very end" },
    {
      pattern: `/${"a*".repeat(15)}b`,
      path: long(`${"a".repeat(14)}b${"a".repeat(4984)}`),
      matches: false,
      why: "b comes before the 15th a",
    },
    {
      pattern: `/${"*a".repeat(14)}*b$`,
      path: long(`${"a".repeat(4998)}b`),
      matches: true,
      why: "anchored b at the end",
    },
    {
      pattern: `/${"*a".repeat(14)}*b$`,
      path: long(`${"a".repeat(4997)}ba`),
      matches: false,
      why: "anchored: b is not last",
    },
    {
      pattern: `/${"*ab".repeat(15)}$`,
      path: long("ab".repeat(2499) + "a"),
      matches: false,
      why: "anchored: ends in a",
    },
    {
      pattern: `/${"*ab".repeat(15)}$`,
      path: long("ba".repeat(2499) + "b"),
      matches: true,
      why: "15 ab's, the last at the end",
    },
  ];

  it.each(rows)("rfc9309 §2.2.3 15 wildcards vs 5,000 characters: $why", ({ pattern, path, matches }) => {
    expect([...pattern].filter((char) => char === "*")).toHaveLength(15);
    expect(path).toHaveLength(5000);
    expect(referenceMatches(pattern, path)).toBe(matches);
    const decision = compileRobots(parseRobotsTxt(`User-agent: testbot\nDisallow: ${pattern}\n`)).decide(
      ["testbot"],
      path,
    );
    expect(decision.allowed).toBe(!matches);
  });
});

// RFC 3986 §2.3 unreserved characters; encodeURIComponent also leaves !*'() alone.
const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const unreservedChar = fc.constantFrom(...UNRESERVED);
const nonAsciiChar = fc
  .integer({ min: 0x80, max: 0x10ffff })
  .filter((point) => point < 0xd800 || point > 0xdfff)
  .map((point) => String.fromCodePoint(point));

function percentEncodeChar(char: string, lowerHex: boolean): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).padStart(2, "0");
  return `%${lowerHex ? hex.toLowerCase() : hex.toUpperCase()}`;
}

/** Any mix of well-formed escapes (either hex case), unreserved, reserved and non-ASCII. */
const wellFormedPiece = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.boolean())
    .map(([byte, lower]) => percentEncodeChar(String.fromCharCode(byte), lower)),
  unreservedChar,
  fc.constantFrom("/", "?", "=", "&", "*", "$", ":", "#", "[", " "),
  nonAsciiChar,
);
/** As above, plus stray `%` signs that start no escape. */
const anyPiece = fc.oneof(wellFormedPiece, fc.constantFrom("%", "%4", "%g1", "%%"));

describe("canonicalizePath", () => {
  it("rfc9309 §2.2.2 is idempotent when every % starts an escape", () => {
    fc.assert(
      fc.property(fc.string({ unit: wellFormedPiece, maxLength: 12 }), (value) => {
        const once = canonicalizePath(value);
        expect(canonicalizePath(once)).toBe(once);
      }),
      RUNS,
    );
  });

  // Found by this suite: decoding an unreserved escape right after a stray "%" used to spell a
  // new escape ("%%341" -> "%41" -> "A"). A stray "%" stays the octet "%" (as Google keeps it),
  // and a decoded hex digit that would complete an escape after it stays encoded (path.ts).
  it("rfc9309 §2.2.2 is idempotent on any string, stray % included", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyPiece, maxLength: 12 }), (value) => {
        const once = canonicalizePath(value);
        expect(canonicalizePath(once)).toBe(once);
      }),
      { ...RUNS, examples: [["%%341"], ["/%%6161"]] },
    );
  });

  it("rfc9309 §2.2.2 decide() answers alike for a path and its canonical spelling (/%%341)", () => {
    const matcher = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /A\n"));
    const raw = "/%%341";
    expect(matcher.decide(["anybot"], canonicalizePath(raw))).toEqual(matcher.decide(["anybot"], raw));
  });

  it("rfc9309 §2.2.2 percent-encoded unreserved characters decode to themselves", () => {
    const encoded = fc.array(fc.tuple(unreservedChar, fc.boolean()), { maxLength: 12 });
    fc.assert(
      fc.property(encoded, (chars) => {
        const plain = chars.map(([char]) => char).join("");
        const escaped = chars.map(([char, lower]) => percentEncodeChar(char, lower)).join("");
        expect(canonicalizePath(escaped)).toBe(plain);
      }),
      RUNS,
    );
  });

  it("rfc9309 §2.2.2 raw non-ASCII equals its UTF-8 percent-encoding (either hex case)", () => {
    // Only characters whose canonical spelling is what encodeURIComponent produces: non-ASCII
    // (no lone surrogates: encodeURIComponent refuses them), unreserved, and !*'() which
    // neither side touches. Reserved ASCII ("/" -> "%2F") and "%" are not: the RFC keeps
    // reserved escapes distinct from the raw character.
    const unit = fc.oneof(unreservedChar, fc.constantFrom("!", "*", "'", "(", ")"), nonAsciiChar);
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 10 }), (raw) => {
        const encoded = encodeURIComponent(raw);
        const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
        expect(canonicalizePath(encoded)).toBe(canonicalizePath(raw));
        expect(canonicalizePath(lowerHex)).toBe(canonicalizePath(raw));
      }),
      RUNS,
    );
  });

  it("rfc9309 §2.2.2 the canonical spelling is ASCII, whatever the input", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyPiece, maxLength: 12 }), (value) => {
        const canonical = canonicalizePath(value);
        expect([...canonical].filter((char) => char.charCodeAt(0) >= 0x80)).toEqual([]);
      }),
      RUNS,
    );
  });

  it("rfc9309 §2.2.2 escapes left in the canonical spelling are upper-case and not unreserved", () => {
    fc.assert(
      fc.property(fc.string({ unit: wellFormedPiece, maxLength: 12 }), (value) => {
        const canonical = canonicalizePath(value);
        for (let i = 0; i < canonical.length; i++) {
          if (canonical[i] !== "%") continue;
          const hex = canonical.slice(i + 1, i + 3);
          expect(hex).toMatch(/^[0-9A-F]{2}$/);
          expect(UNRESERVED).not.toContain(String.fromCharCode(Number.parseInt(hex, 16)));
        }
      }),
      RUNS,
    );
  });
});
