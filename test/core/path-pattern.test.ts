import { describe, expect, it } from "vitest";
import { compilePathPattern, compileRobots, parseRobotsTxt } from "../../src/core/index.ts";

// RFC 9309 §2.2.3: `*` matches any sequence, a final `$` the end; §2.2.2: the longer
// (canonical) pattern is the more specific. The published API uses the rules' matcher.
const rows: { pattern: string; path: string; matches: boolean; why: string }[] = [
  { pattern: "/articles/", path: "/articles/2024", matches: true, why: "rfc9309 §2.2.2 prefix" },
  { pattern: "/articles/", path: "/Articles/2024", matches: false, why: "rfc9309 §2.2.2 case-sensitive" },
  { pattern: "/*.pdf$", path: "/a/b.pdf", matches: true, why: "rfc9309 §2.2.3 * and $" },
  { pattern: "/*.pdf$", path: "/a/b.pdf?x=1", matches: false, why: "rfc9309 §2.2.3 $ ends the URL" },
  { pattern: "/%70rivate", path: "/private/x", matches: true, why: "rfc9309 §2.2.2 unreserved escape decoded" },
  { pattern: "/caf\u00e9", path: "/caf%C3%A9/menu", matches: true, why: "rfc9309 §2.2.2 UTF-8 percent-encoded" },
  { pattern: "*", path: "/anything", matches: true, why: "rfc9309 §2.2.3 * alone" },
];

describe("compilePathPattern", () => {
  it.each(rows)("rfc9309 $pattern vs $path -> $matches ($why)", ({ pattern, path, matches }) => {
    expect(compilePathPattern(pattern).matches(path)).toBe(matches);
  });

  it.each([
    { pattern: "/a", specificity: 2 },
    { pattern: "/a*", specificity: 3 },
    { pattern: "/%61", specificity: 2 },
    { pattern: "/caf\u00e9", specificity: 10 },
  ])("rfc9309 §2.2.2 specificity of $pattern is $specificity", ({ pattern, specificity }) => {
    expect(compilePathPattern(pattern).specificity).toBe(specificity);
  });
});

// A tree keeps one of each wildcard pattern after a head (rule-tree.ts bestOfEachPattern): rules
// that look alike but match differently must both stay. `/*$` ends at the path's end (so it
// matches `/`); `/*$*` holds a literal `$` (it does not). Found by the property tests' CI runs:
// both were one key, and `/` lost its winning rule.
describe("rules alike but not the same pattern are both matched", () => {
  it.each([
    { rules: "allow: /*$\nallow: /*$**\n", path: "/", allowed: true, winner: "/*$" },
    { rules: "allow: /*$*\ndisallow: /*$\n", path: "/", allowed: false, winner: "/*$" },
    { rules: "disallow: /*$\nallow: /*$*\n", path: "/", allowed: false, winner: "/*$" },
    { rules: "disallow: /*$\nallow: /*$*\n", path: "/a$b", allowed: true, winner: "/*$*" },
    { rules: "disallow: /a*b\ndisallow: /a*b$\n", path: "/a-b-c", allowed: false, winner: "/a*b" },
  ])("$rules on $path: allowed $allowed by $winner", ({ rules, path, allowed, winner }) => {
    const decision = compileRobots(parseRobotsTxt(new TextEncoder().encode(`user-agent: *\n${rules}`))).decide(
      ["x"],
      path,
    );
    expect([decision.allowed, decision.rule?.pattern]).toEqual([allowed, winner]);
  });
});
