// The spellings of a request path the edge judges (src/policy/path-spellings.ts): every
// reading a common origin may give the same bytes, canonical one first. The edge blocks when
// any spelling is disallowed, so a row here is a bypass closed (or an ambiguity kept).
import { describe, expect, it } from "vitest";
import { enforcementSpellings, removeDotSegments } from "../../src/policy/path-spellings.ts";

describe("enforcementSpellings", () => {
  it.each([
    { path: "/private/x", spellings: ["/private/x"], why: "nothing to re-spell" },
    { path: "/", spellings: ["/"], why: "root" },
    { path: "//private/", spellings: ["/private/"], why: "repeated slashes merged" },
    { path: "///private//x", spellings: ["/private/x"], why: "every run merged" },
    { path: "/./private/", spellings: ["/private/"], why: "RFC 3986 §5.2.4: . removed" },
    { path: "/a/../private/", spellings: ["/private/"], why: "RFC 3986 §5.2.4: .. climbs" },
    { path: "/../../private/", spellings: ["/private/"], why: ".. never climbs above the root" },
    { path: "/%2E%2E/private/", spellings: ["/private/"], why: "%2E is unreserved: decoded, then a dot segment" },
    { path: "/%70rivate/", spellings: ["/private/"], why: "RFC 9309: unreserved escapes decoded" },
    { path: "/Private/", spellings: ["/Private/"], why: "case kept: RFC 9309 §2.2.2 paths are case-sensitive" },
    { path: "/private/..", spellings: ["/"], why: "a trailing .. keeps the directory slash" },
    { path: "/private?x=/../y", spellings: ["/private?x=/../y"], why: "the query is the origin's: left as written" },
    {
      path: "/private%2Fx",
      spellings: ["/private%2Fx", "/private/x"],
      why: "nginx decodes %2F; others keep it",
    },
    {
      path: "/private;x=1/",
      spellings: ["/private;x=1/", "/private/"],
      why: "servlet containers strip ;parameters",
    },
    {
      path: "/a;x/../private/",
      spellings: ["/private/"],
      why: "a parameter inside a climbed-out segment leaves one reading",
    },
    {
      path: "/private;%2F../",
      spellings: ["/private;%2F../", "/", "/private/"],
      why: "issue #9: servlets strip ;%2F.. up to the raw / and serve /private/; decode-first reads /",
    },
    {
      path: "/private;jsessionid=x%2F..%2F/report",
      spellings: ["/private;jsessionid=x%2F..%2F/report", "/report", "/private/report"],
      why: "issue #9: servlets strip the parameter with its encoded slashes; nginx climbs to /report",
    },
    {
      path: "/private;a=%2f/x?q=1",
      spellings: ["/private;a=%2F/x?q=1", "/private;a=/x?q=1", "/private/x?q=1"],
      why: "lower-case hex is canonicalised; the query rides along on each",
    },
    {
      path: "/public%2F..%2Fprivate/",
      spellings: ["/public%2F..%2Fprivate/", "/private/"],
      why: "decoded slashes make dot segments",
    },
  ])("$path -> $spellings ($why)", ({ path, spellings }) => {
    expect(enforcementSpellings(path)).toEqual(spellings);
  });
});

describe("removeDotSegments (RFC 3986 §5.2.4, absolute paths)", () => {
  it.each([
    { path: "/a/b/c/./../../g", out: "/a/g", why: "RFC 3986 §5.2.4 worked example" },
    { path: "/mid/content=5/../6", out: "/mid/6", why: "RFC 3986 §5.2.4 worked example" },
    { path: "/a/.", out: "/a/", why: "a trailing . keeps the slash" },
    { path: "/..", out: "/", why: "never above the root" },
    { path: "/a.b/c..d", out: "/a.b/c..d", why: "dots inside a segment are data" },
  ])("$path -> $out ($why)", ({ path, out }) => {
    expect(removeDotSegments(path)).toBe(out);
  });
});
