// Many path patterns indexed once (src/core/pattern-index.ts), as the operator policy's routes
// are: the most specific matching pattern (rfc9309 §2.2.2: the longest canonical pattern; on a
// tie, the first written), found by one walk of the path. Rows with the expected index written
// down, then a property against trying each pattern in turn (compilePathPattern).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePathPattern, indexPathPatterns } from "../../src/core/index.ts";
import { FEW_PATTERNS } from "../../src/core/pattern-index.ts";
import { propertyRuns } from "../property-runs.ts";

// Padding a list past FEW_PATTERNS with patterns no path here matches turns it into a tree.
const padded = (list: readonly string[]) => [
  ...list,
  ...Array.from({ length: FEW_PATTERNS + 1 }, (_, i) => `/~never-${i}`),
];
/** Another spelling, as the edge's ruleSpelling gives one: `%27` read as `'`. */
const quoteSpelled = (canonical: string) => (canonical.includes("%27") ? canonical.replaceAll("%27", "'") : undefined);

describe("indexPathPatterns finds the most specific match", () => {
  const patterns = ["/", "/articles/", "/articles/*.pdf$", "*/drafts/", "/art", "/%61rticles/", "/beta/*$"];
  it.each([
    { path: "/x", index: 0, why: "only / matches" },
    { path: "/articles/1", index: 1, why: "rfc9309 §2.2.2 longest prefix" },
    { path: "/articles/a.pdf", index: 2, why: "rfc9309 §2.2.3 * and $" },
    { path: "/articles/a.pdf?x", index: 1, why: "rfc9309 §2.2.3 $ ends the URL" },
    { path: "/x/drafts/y", index: 3, why: "a pattern starting with *" },
    { path: "/art", index: 4, why: "prefix of another pattern" },
    { path: "/beta/x", index: 6, why: "a trailing *$ matches any rest" },
    { path: "/%61rticles/z", index: 1, why: "the same canonical pattern twice: the first written wins" },
  ])("rfc9309 $path -> pattern $index ($why)", ({ path, index }) => {
    expect(indexPathPatterns(patterns).find(path)).toBe(index);
  });

  it("no pattern matches: -1", () => {
    expect(indexPathPatterns(["/a", "*b$"]).find("/c")).toBe(-1);
    expect(indexPathPatterns([]).find("/c")).toBe(-1);
  });

  it("rfc9309 §2.2.2 the same answer as trying each pattern in turn (longest, then first)", () => {
    const piece = fc.constantFrom("a", "b", "/", "*", "ab", "%2F", ";");
    const pattern = fc
      .tuple(fc.array(piece, { maxLength: 5 }), fc.boolean())
      .map(([parts, anchored]) => `/${parts.join("")}${anchored ? "$" : ""}`);
    const path = fc
      .array(fc.constantFrom("a", "b", "/", "ab", "%2F", ";"), { maxLength: 30 })
      .map((p) => `/${p.join("")}`);
    fc.assert(
      fc.property(fc.array(pattern, { maxLength: 60 }), path, (list, target) => {
        let expected = -1;
        let best = -1;
        list.forEach((text, i) => {
          const compiled = compilePathPattern(text);
          if (compiled.matches(target) && compiled.specificity > best) [expected, best] = [i, compiled.specificity];
        });
        expect(indexPathPatterns(list).find(target)).toBe(expected);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("rfc9309 §2.2.2 the same answer when many wildcard patterns meet a long path (matched in one pass)", () => {
    const pattern = fc
      .array(fc.constantFrom("a", "b", "/", "*", "ab"), { minLength: 1, maxLength: 5 })
      .map((parts) => `/*${parts.join("")}`);
    const path = fc
      .array(fc.constantFrom("a", "b", "/", "ab"), { minLength: 150, maxLength: 200 })
      .map((p) => `/${p.join("")}`);
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 300, maxLength: 320 }), path, (list, target) => {
        let expected = -1;
        let best = -1;
        list.forEach((text, i) => {
          const compiled = compilePathPattern(text);
          if (compiled.matches(target) && compiled.specificity > best) [expected, best] = [i, compiled.specificity];
        });
        expect(indexPathPatterns(list).find(target)).toBe(expected);
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  // A few patterns are tried in turn (FEW_PATTERNS), more are walked in a tree: the same answers.
  it.each([
    { list: ["/a'b", "/a%27"], path: "/a'b", every: 0, asWritten: 0, why: "an other spelling ranks by its own length" },
    { list: ["/a", "/a%27b"], path: "/a'b", every: 1, asWritten: 0, why: "longer, by its other spelling only" },
    { list: ["/a%27", "/a'"], path: "/a'", every: 0, asWritten: 1, why: "a tie: the first written" },
    {
      list: ["/x/", "*.pdf$", "/x/a"],
      path: "/x/a.pdf",
      every: 1,
      asWritten: 1,
      why: "the longest of three, a wildcard",
    },
    { list: ["/x/", "*.pdf$"], path: "/x/a.pdf?q", every: 0, asWritten: 0, why: "$ ends the URL" },
    { list: ["/x/", "*.pdf$"], path: "/y", every: -1, asWritten: -1, why: "none" },
  ])("rfc9309 §2.2.2 $list on $path: $every, as written $asWritten ($why), in turn and in a tree", (row) => {
    for (const list of [row.list, padded(row.list)]) {
      const index = indexPathPatterns(list, quoteSpelled);
      expect([index.findCanonical(row.path), index.findCanonicalAsWritten(row.path)]).toEqual([
        row.every,
        row.asWritten,
      ]);
    }
  });

  it("rfc9309 §2.2.2 a few patterns tried in turn answer as the tree does, other spellings included", () => {
    const piece = fc.constantFrom("a", "b", "/", "*", "%27", "'", ";");
    const pattern = fc
      .tuple(fc.array(piece, { maxLength: 4 }), fc.boolean())
      .map(([parts, anchored]) => `/${parts.join("")}${anchored ? "$" : ""}`);
    const path = fc.array(fc.constantFrom("a", "b", "/", "'", ";"), { maxLength: 12 }).map((p) => `/${p.join("")}`);
    fc.assert(
      fc.property(fc.array(pattern, { maxLength: 4 }), path, (list, target) => {
        const few = indexPathPatterns(list, quoteSpelled);
        const tree = indexPathPatterns(padded(list), quoteSpelled);
        expect([few.findCanonical(target), few.findCanonicalAsWritten(target)]).toEqual([
          tree.findCanonical(target),
          tree.findCanonicalAsWritten(target),
        ]);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it("a long path against a few wildcard patterns: the tree's bound, the same answer", () => {
    const long = `/${"ab/".repeat(20_000)}end.pdf`;
    expect(indexPathPatterns(["/*b/*c", "/*.pdf$", "/ab/"]).find(long)).toBe(1);
  });

  it("patterns shared between indexes stay right past the table's bound (it starts again)", () => {
    const indexes = Array.from({ length: 5_000 }, (_, i) => indexPathPatterns(["/shared/", `/own-${i}/`]));
    expect(indexes.map((index) => index.find("/own-7/x"))).toEqual(indexes.map((_, i) => (i === 7 ? 1 : -1)));
    expect(indexes.map((index) => index.find("/shared/x")).every((found) => found === 0)).toBe(true);
  });
});
