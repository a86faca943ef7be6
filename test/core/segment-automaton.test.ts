// The one-pass matcher (segment-automaton.ts) must answer exactly as matching each pattern on
// its own does, and as the reference matcher does (issue #9: bounding the worst case must not
// change any answer).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { compilePattern } from "../../src/core/pattern.ts";
import { SegmentAutomaton } from "../../src/core/segment-automaton.ts";
import { referenceDecide, referenceMatches } from "./reference-matcher.ts";
import { propertyRuns } from "../property-runs.ts";

const RUNS = { seed: 20261123, numRuns: propertyRuns(1500) } as const;

// A tiny alphabet, so that segments overlap, repeat and are suffixes of one another.
const patternArb = fc
  .string({ unit: fc.constantFrom("a", "b", "ab", "aa", "*", "**", "/"), maxLength: 8 })
  .chain((body) => fc.constantFrom(`/${body}`, `/${body}$`, `*${body}`, `/*${body}$`));
const pathArb = fc.string({ unit: fc.constantFrom("a", "b", "/", "ab"), maxLength: 30 }).map((rest) => `/${rest}`);

describe("SegmentAutomaton", () => {
  it("rfc9309 §2.2.3 finds exactly the patterns the reference matcher matches", () => {
    fc.assert(
      fc.property(fc.array(patternArb, { minLength: 1, maxLength: 12 }), pathArb, (patterns, path) => {
        const compiled = patterns.map((pattern, i) => compilePattern({ kind: "disallow", pattern, line: i }, i));
        const wild = compiled.filter((pattern) => pattern.segments.length > 0 && path.startsWith(pattern.head));
        const found = new SegmentAutomaton(compiled).matching(
          path,
          wild.map((pattern) => ({ pattern, from: pattern.head.length })),
        );
        const expected = wild.filter((pattern) => referenceMatches(pattern.rule.pattern, path));
        expect(found.map((pattern) => pattern.order).toSorted((a, b) => a - b)).toEqual(
          expected.map((pattern) => pattern.order).toSorted((a, b) => a - b),
        );
      }),
      RUNS,
    );
  });

  it.each([
    { patterns: ["/*a*b"], path: "/aaab", matched: [0] },
    { patterns: ["/*a*b"], path: "/baaa", matched: [] },
    { patterns: ["/*ab*ab"], path: "/abab", matched: [0] },
    { patterns: ["/*aba*ab"], path: "/ababab", matched: [0] },
    { patterns: ["/*aba*aba"], path: "/ababa", matched: [] },
    { patterns: ["/*b*b$"], path: "/abab", matched: [0] },
    { patterns: ["/*b*b$"], path: "/abba", matched: [] },
    { patterns: ["/*a", "/*aa", "/*aaa"], path: "/aa", matched: [0, 1] },
    { patterns: ["/x*a"], path: "/xa", matched: [0] },
    { patterns: ["/x*$"], path: "/x", matched: [0] },
  ])("rfc9309 §2.2.3 $patterns against $path match $matched", ({ patterns, path, matched }) => {
    const compiled = patterns.map((pattern, i) => compilePattern({ kind: "disallow", pattern, line: i }, i));
    const candidates = compiled
      .filter((pattern) => path.startsWith(pattern.head))
      .map((pattern) => ({ pattern, from: pattern.head.length }));
    const found = new SegmentAutomaton(compiled).matching(path, candidates).map((pattern) => pattern.order);
    expect(found.toSorted((a, b) => a - b)).toEqual(matched);
  });
});

describe("decide() on inputs that take the one-pass route", () => {
  // 1,200 rules (about half with a leading wildcard) against paths of 100+ characters exceed the one-by-one limit.
  const rulesArb = fc.array(
    fc.record({ kind: fc.constantFrom("allow" as const, "disallow" as const), pattern: patternArb }),
    { minLength: 1200, maxLength: 1200 },
  );
  const longPath = fc
    .string({ unit: fc.constantFrom("a", "b", "/", "ab", "ba"), minLength: 100, maxLength: 140 })
    .map((rest) => `/${rest}`);
  it("rfc9309 §2.2.2 same answer and winning rule as the reference matcher", () => {
    fc.assert(
      fc.property(rulesArb, longPath, (rules, path) => {
        const text = `User-agent: t\n${rules.map((r) => `${r.kind}: ${r.pattern}`).join("\n")}\n`;
        const decision = compileRobots(parseRobotsTxt(text)).decide(["t"], path);
        const expected = referenceDecide(rules, path);
        expect(decision.allowed).toBe(expected.allowed);
        const winner = decision.reason === "rule" ? decision.rule : undefined;
        expect(winner && { kind: winner.kind, length: winner.pattern.length }).toEqual(expected.winner);
      }),
      { seed: 20261123, numRuns: propertyRuns(200) },
    );
    // 200 files of 1,200 rules through the reference: seconds alone, more on a shared machine.
  }, 60_000);

  it("google 2,000 `/*a<i>*b` rules against an 8 KB path of a's: allowed, no rule matches", () => {
    const text = `User-agent: *\n${Array.from({ length: 2000 }, (_, i) => `Disallow: /*a${i}*b`).join("\n")}\n`;
    const matcher = compileRobots(parseRobotsTxt(text));
    expect(matcher.decide(["x"], `/${"a".repeat(8191)}`).reason).toBe("no-matching-rule");
    expect(matcher.decide(["x"], `/${"a".repeat(8000)}1999${"a".repeat(100)}b`).rule?.pattern).toBe("/*a1999*b");
  });
});
