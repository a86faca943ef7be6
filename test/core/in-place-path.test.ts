// A decision takes one of two routes (match.ts `decide`): the fast one matches the path where it
// stands in the URL (path.ts `pathStartInPlace`, rule-tree.ts `findInPlace`), the general one
// builds the canonical path first (pathAndQuery -> canonicalizePath -> matchablePath, then
// `findIn`). The fast route may say "unsure" (null) and hand over, but when it answers it must
// give the general route's answer. Rows with the expected route and winner written down, then
// properties on generated rules and URLs full of what the fast route must not misread: `%`
// escapes (either hex case, `%2F`, `%2A`, `%24`, stray `%`), non-ASCII, spaces, `$`, `*`, a
// query, a fragment.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalizePath, compileRobots, parseRobotsTxt, pathAndQuery } from "../../src/core/index.ts";
import { canonicalPathEnd, pathStartInPlace } from "../../src/core/path.ts";
import { compilePattern, matchablePath, type CompiledPattern } from "../../src/core/pattern.ts";
import { RuleTree } from "../../src/core/rule-tree.ts";
import { propertyRuns } from "../property-runs.ts";

const RUNS = { seed: 20261124, numRuns: propertyRuns(3000) } as const;

function treeOf(patterns: readonly string[]): RuleTree {
  return new RuleTree(patterns.map((pattern, i) => compilePattern({ kind: "disallow", pattern, line: i }, i)));
}

/** The general route's winner (its index in the list), or -1. */
function generalWinner(tree: RuleTree, url: string): number {
  return tree.find(matchablePath(canonicalizePath(pathAndQuery(url))))?.order ?? -1;
}

/** The fast route's winner (index, or -1), or "unsure" when it hands over. */
function inPlaceWinner(tree: RuleTree, url: string): number | "unsure" {
  const start = pathStartInPlace(url);
  if (start < 0) return "unsure";
  const found: CompiledPattern | undefined | null = tree.findInPlace(url, start);
  return found === null ? "unsure" : (found?.order ?? -1);
}

describe("the fast route answers, or hands over", () => {
  const patterns = ["/a", "/a/b$", "/z/*.pdf$", "/%2F", "/x%2Ay", "/c*d", "/é", "/q?s=1"];
  it.each([
    { url: "https://example.com/a/c", route: 0, why: "a prefix rule, plain ASCII" },
    { url: "https://example.com/a/b", route: 1, why: "`$`: the path ends here" },
    { url: "https://example.com/a/b#frag", route: 1, why: "`$`: a fragment ends the path" },
    { url: "https://example.com/a/b?x", route: 0, why: "`$`: a query goes on" },
    { url: "https://example.com/z/r.pdf", route: 2, why: "`*` and `$` read the rest of the path" },
    { url: "https://example.com/z/r.pdf#x", route: 2, why: "the rest ends at the fragment" },
    { url: "https://example.com/z/r%20.pdf", route: "unsure", why: "a rewritten character in the rest a `*` reads" },
    { url: "https://example.com/a/x%41", route: 0, why: "a `%` in a rest no `$` or `*` reads" },
    { url: "https://example.com/a/%41", route: "unsure", why: "a `%` where the walk stops" },
    { url: "https://example.com/%61/c", route: "unsure", why: "`%61` is `a` in canonical spelling" },
    { url: "https://example.com/%2F", route: "unsure", why: "a `%` equal to a head's is not trusted" },
    { url: "https://example.com/x*y", route: 4, why: "a literal `*` in the URL matches `%2A`" },
    { url: "https://example.com/c-d", route: 5, why: "a wildcard rule" },
    { url: "https://example.com/é", route: "unsure", why: "non-ASCII is percent-encoded first" },
    { url: "https://example.com/q?s=1&t", route: 7, why: "a query is part of the path" },
    { url: "https://example.com?q", route: "unsure", why: "a query straight after the authority" },
    { url: "/a/b", route: 1, why: "a path on its own" },
    { url: "/zz", route: -1, why: "no rule matches" },
  ])("$url -> $route ($why)", ({ url, route }) => {
    const tree = treeOf(patterns);
    expect(inPlaceWinner(tree, url)).toBe(route);
    if (route !== "unsure") expect(generalWinner(tree, url)).toBe(route);
  });
});

describe("a node with many children (looked up in a table)", () => {
  // Eight heads after `/`: the `/` node is wide (more than six children).
  const patterns = ["/a", "/b/x$", "/c", "/d*e", "/e", "/f", "/g", "/h", "/~"];
  it.each([
    { url: "https://example.com/a", route: 0 },
    { url: "https://example.com/b/x", route: 1 },
    { url: "https://example.com/b/xy", route: -1 },
    { url: "https://example.com/dze", route: 3 },
    { url: "https://example.com/h/i", route: 7 },
    { url: "https://example.com/~", route: 8 },
    { url: "https://example.com/i", route: -1 },
    { url: "https://example.com/é", route: "unsure" },
    { url: "https://example.com/%68", route: "unsure" },
  ])("$url -> $route", ({ url, route }) => {
    const tree = treeOf(patterns);
    expect(inPlaceWinner(tree, url)).toBe(route);
    if (route !== "unsure") expect(generalWinner(tree, url)).toBe(route);
  });
});

// Small alphabets, so that heads share prefixes and URLs run into the rules' heads often.
const patternUnit = fc.constantFrom(
  "/",
  "a",
  "b",
  "ab",
  "*",
  "%2F",
  "%2f",
  "%61",
  "%2A",
  "%24",
  "%",
  "é",
  "?",
  "=",
  "#",
  " ",
  "$",
);
const patternArb = fc
  .tuple(fc.constantFrom("/", "/", "*", "/a"), fc.string({ unit: patternUnit, maxLength: 6 }), fc.boolean())
  .map(([first, rest, anchored]) => `${first}${rest}${anchored ? "$" : ""}`);
const pathUnit = fc.constantFrom(
  "/",
  "a",
  "b",
  "ab",
  "*",
  "$",
  "%2F",
  "%2f",
  "%61",
  "%2A",
  "%24",
  "%",
  "%4",
  "%%341",
  "é",
  "%C3%A9",
  "?",
  "=",
  "#",
  " ",
  "~",
  "%7E",
);
const originArb = fc.constantFrom("", "https://example.com", "http://a.b:8080", "HTTPS://X.Y", "x+y://h", "h");
const urlArb = fc
  .tuple(originArb, fc.string({ unit: pathUnit, maxLength: 10 }))
  .map(([origin, rest]) => `${origin}${rest.startsWith("/") || origin === "" ? "" : "/"}${rest}`);

describe("fast route = general route", () => {
  it("rfc9309 §2.2.2 §2.2.3 the same winner whenever the fast route answers", () => {
    fc.assert(
      fc.property(fc.array(patternArb, { minLength: 1, maxLength: 10 }), urlArb, (patterns, url) => {
        const tree = treeOf(patterns);
        const fast = inPlaceWinner(tree, url);
        if (fast !== "unsure") expect(fast).toBe(generalWinner(tree, url));
      }),
      { ...RUNS, examples: [[["/a%2F", "/a*b$"], "https://example.com/a%2fb"]] },
    );
  });

  it("rfc9309 §2.2.2 the fast route answers every URL already in canonical spelling", () => {
    // Without `%`, non-ASCII or other rewritten characters, a URL whose path starts with `/`
    // never needs the general route: the fast route must not hand over (or it buys nothing).
    const plain = fc.string({
      unit: fc.constantFrom("/", "a", "b", "ab", "*", "$", "?", "=", "~", "#"),
      maxLength: 10,
    });
    const noEscapes = fc.array(
      patternArb.filter((pattern) => !pattern.includes("%")),
      { minLength: 1, maxLength: 10 },
    );
    fc.assert(
      fc.property(noEscapes, fc.constantFrom("", "https://example.com"), plain, (patterns, origin, rest) => {
        const url = `${origin}/${rest}`;
        const tree = treeOf(patterns);
        expect(inPlaceWinner(tree, url)).toBe(generalWinner(tree, url));
      }),
      RUNS,
    );
  });

  it("where the path starts and ends in place is what pathAndQuery cuts out", () => {
    fc.assert(
      fc.property(urlArb, (url) => {
        const start = pathStartInPlace(url);
        if (start < 0) return;
        const hash = url.indexOf("#", start);
        expect(url.slice(start, hash < 0 ? url.length : hash)).toBe(pathAndQuery(url));
        const end = canonicalPathEnd(url, start);
        if (end >= 0) expect(matchablePath(canonicalizePath(url.slice(start, end)))).toBe(url.slice(start, end));
      }),
      RUNS,
    );
  });

  it("rfc9309 §2.2.2 /robots.txt is always allowed, in any spelling, by either route", () => {
    const robotsUnit = fc.constantFrom(
      "/robots.txt",
      "/robots%2Etxt",
      "/robots.tx%74",
      "/Robots.txt",
      "?",
      "#",
      "x",
      "%3F",
      "/",
    );
    const matcher = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /\nUser-agent: testbot\nDisallow: /r\n"));
    fc.assert(
      fc.property(
        fc.constantFrom("", "https://example.com"),
        fc.string({ unit: robotsUnit, minLength: 1, maxLength: 3 }),
        fc.constantFrom(["testbot"], ["otherbot"]),
        (origin, rest, tokens) => {
          const url = `${origin}${rest.startsWith("/") ? "" : "/"}${rest}`;
          const canonical = canonicalizePath(pathAndQuery(url));
          const isRobotsTxt = canonical === "/robots.txt" || canonical.startsWith("/robots.txt?");
          expect(matcher.decide(tokens, url).reason === "robots-txt").toBe(isRobotsTxt);
        },
      ),
      RUNS,
    );
  });
});

// Callers key what they derive from a decision on the object itself (the CLI's output line per
// answer): the matcher must hand out the same frozen object for the same answer, by either route.
describe("one object per possible decision, whichever route found it", () => {
  const matcher = compileRobots(
    parseRobotsTxt("User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: testbot\nDisallow: /t\n"),
  );
  it.each([
    {
      tokens: ["otherbot"],
      urls: ["/private/x", "/priv%61te/x", "https://example.com/private?q", "/private/%E2%82%AC"],
    },
    { tokens: ["otherbot"], urls: ["/private/ok", "/private/o%6B", "https://example.com/private/ok#f"] },
    { tokens: ["otherbot"], urls: ["/public", "/p%75blic", "https://example.com", "/%E2%82%AC"] },
    { tokens: ["otherbot"], urls: ["/robots.txt", "/robots%2Etxt", "https://example.com/robots.txt?x"] },
    { tokens: ["testbot"], urls: ["/t", "/%74", "https://example.com/tx"] },
    { tokens: ["testbot"], urls: ["/private", "/priv%61te"] },
  ])("$tokens $urls.0", ({ tokens, urls }) => {
    const decisions = [...urls, ...urls].map((url) => matcher.decide(tokens, url));
    for (const decision of decisions) expect(decision).toBe(decisions[0]);
    expect(Object.isFrozen(decisions[0])).toBe(true);
  });
});
