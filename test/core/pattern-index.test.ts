// Many path patterns indexed once (src/core/pattern-index.ts), as the operator policy's routes
// are: the most specific matching pattern (rfc9309 §2.2.2: the longest canonical pattern; on a
// tie, the first written), found by one walk of the path. Rows with the expected index written
// down, then a property against trying each pattern in turn (compilePathPattern).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePathPattern, indexPathPatterns } from "../../src/core/index.ts";
import { propertyRuns } from "../property-runs.ts";

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
});
