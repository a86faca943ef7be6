// The spellings of a request path the edge judges (src/policy/path-spellings.ts): every way a
// common origin may read the same request target. The edge blocks when any of them is
// disallowed. Rows: the path and query as requested, and every spelling, canonical first.
import { describe, expect, it } from "vitest";
import { enforcementSpellings, removeDotSegments, ruleSpelling } from "../../src/policy/path-spellings.ts";

describe("enforcementSpellings", () => {
  it.each([
    // One spelling: nothing an origin could read two ways.
    { path: "/private/x", spellings: ["/private/x"], why: "plain path" },
    { path: "/a/b?q=1", spellings: ["/a/b?q=1"], why: "the query is kept as written" },
    { path: "/%70rivate/", spellings: ["/private/"], why: "rfc9309 §2.2.2: unreserved escapes decoded" },
    { path: "/caf%c3%a9/", spellings: ["/caf%C3%A9/"], why: "hex upper-cased" },
    { path: "/café/", spellings: ["/caf%C3%A9/"], why: "raw UTF-8 compared percent-encoded" },
    { path: "/Private/", spellings: ["/Private/"], why: "case kept: paths are case-sensitive" },
    // Dot segments and repeated slashes: every common origin resolves them.
    { path: "/a/../private/", spellings: ["/private/"], why: "RFC 3986 §5.2.4" },
    { path: "/./private/", spellings: ["/private/"], why: "single dot" },
    { path: "/../../private/", spellings: ["/private/"], why: "never climbs above the root" },
    { path: "/private/..", spellings: ["/"], why: "trailing .. keeps the slash" },
    { path: "/a//b///c", spellings: ["/a/b/c"], why: "runs of / merged" },
    { path: "/a/%2E%2E/private/", spellings: ["/private/"], why: "%2E is unreserved: decoded, then resolved" },
    // Parameters and encoded slashes: each origin's reading.
    { path: "/private;x=1/", spellings: ["/private;x=1/", "/private/"], why: "parameters dropped (Java)" },
    { path: "/private%2Fx", spellings: ["/private%2Fx", "/private/x"], why: "%2F decoded (nginx static)" },
    { path: "/private%2freport", spellings: ["/private%2Freport", "/private/report"], why: "lower-case %2f" },
    {
      path: "/private;%2F../",
      spellings: ["/private;%2F../", "/", "/private/"],
      why: "issue #9: servlet strips ;… to the next raw / before decoding",
    },
    {
      path: "/private;jsessionid=x%2F..%2F/report",
      spellings: ["/private;jsessionid=x%2F..%2F/report", "/report", "/private/report"],
      why: "issue #9: jsessionid hiding an encoded ../",
    },
    { path: "/a;b/c;d?e;f", spellings: ["/a;b/c;d?e;f", "/a/c?e;f"], why: "the query's ; is not a parameter" },
    // A leading // is a network-path reference to origins that resolve the target as a URL.
    { path: "//evil.test/private/", spellings: ["/evil.test/private/", "/private/"], why: "//host/path" },
    { path: "///evil.test/private/", spellings: ["/evil.test/private/", "/private/"], why: "///host/path" },
    { path: "//user@evil.test/private/x", spellings: ["/user@evil.test/private/x", "/private/x"], why: "userinfo" },
    { path: "//evil.test", spellings: ["/evil.test", "/"], why: "authority only" },
    { path: "//", spellings: ["/"], why: "nothing after the slashes" },
    { path: "//h/../private/?q", spellings: ["/private/?q"], why: "both readings agree: one spelling" },
    // An origin that decodes %2F and then resolves the target as a URL reference.
    {
      path: "/%2Fevil.test/private/",
      spellings: ["/%2Fevil.test/private/", "/evil.test/private/", "/private/"],
      why: "/%2Fhost/path",
    },
    { path: "/%2F/evil.test/x", spellings: ["/%2F/evil.test/x", "/evil.test/x", "/x"], why: "/%2F/host/path" },
    // Reserved-character escapes (but %2F, %3F, %23) decoded: MediaWiki serves %3A as ":".
    { path: "/wiki/Special%3ARandom", spellings: ["/wiki/Special%3ARandom", "/wiki/Special:Random"], why: "%3A" },
    { path: "/wiki/Special%3aX", spellings: ["/wiki/Special%3AX", "/wiki/Special:X"], why: "lower-case hex" },
    { path: "/wiki/O%27Brien", spellings: ["/wiki/O%27Brien", "/wiki/O'Brien"], why: "%27 is '" },
    { path: "/a%40b%2C%3D", spellings: ["/a%40b%2C%3D", "/a@b,="], why: "@ , =" },
    { path: "/a%3Fb%23c", spellings: ["/a%3Fb%23c"], why: "%3F and %23 would end the path: kept" },
    { path: "/a%3Bx/b", spellings: ["/a%3Bx/b", "/a;x/b", "/a/b"], why: "%3B decoded is a parameter, dropped" },
    {
      path: "/wiki/Special%3AX%2F..%2Fy",
      spellings: ["/wiki/Special%3AX%2F..%2Fy", "/wiki/y", "/wiki/Special:X%2F..%2Fy"],
      why: "with an encoded ../: readings of both",
    },
    { path: "/x?a%3Ab", spellings: ["/x?a%3Ab"], why: "the query is left as written" },
  ])("$path -> $spellings ($why)", ({ path, spellings }) => {
    expect(enforcementSpellings(path)).toEqual(spellings);
  });
});

describe("ruleSpelling: a rule's reserved escapes read as their characters, as the path's are", () => {
  it.each([
    {
      pattern: "/wiki/Wikipedia_talk:Bureaucrats%27_noticeboard",
      other: "/wiki/Wikipedia_talk:Bureaucrats'_noticeboard",
    },
    { pattern: "/wiki/Special%3AX%40y%2C%3D", other: "/wiki/Special:X@y,=" },
    { pattern: "/a%3Bx/%28b%29", other: "/a;x/(b)" },
    { pattern: "/a%2Ab%24", other: undefined, why: "%2A and %24 already match a literal * and $" },
    { pattern: "/a%2Fb%3Fc%23d", other: undefined, why: "%2F, %3F and %23 are not read as characters" },
    { pattern: "/a%20b", other: undefined, why: "not a reserved character" },
    { pattern: "/plain/", other: undefined },
    { pattern: "/%%3A", other: "/%:", why: "a stray % stays" },
  ])("$pattern -> $other", ({ pattern, other }) => {
    expect(ruleSpelling(pattern)).toBe(other);
  });
});

describe("removeDotSegments (RFC 3986 §5.2.4 examples for absolute paths)", () => {
  it.each([
    { path: "/a/b/c/./../../g", out: "/a/g" },
    { path: "/mid/content=5/../6", out: "/mid/6" },
    { path: "/a/b/..", out: "/a/" },
    { path: "/..", out: "/" },
    { path: "/a/.", out: "/a/" },
    { path: "/a..b/.c/", out: "/a..b/.c/" },
  ])("$path -> $out", ({ path, out }) => {
    expect(removeDotSegments(path)).toBe(out);
  });
});
