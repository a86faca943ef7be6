// `check`'s URL test over a stream of lines: remembering an accepted `scheme://authority` must
// never change an answer. Each row and each generated sequence is judged against the plain test
// (a regular expression and URL.canParse per URL), whose answers for the rows are written down.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isUrlOrPath, urlOrPathTest } from "../../src/cli/url-argument.ts";
import { propertyRuns } from "../property-runs.ts";

describe("isUrlOrPath: what a URL operand may be", () => {
  it.each([
    { url: "/", ok: true },
    { url: "/a b", ok: true },
    { url: "https://example.com", ok: true },
    { url: "https://example.com/x?y#z", ok: true },
    { url: "HTTP://EXAMPLE.COM/", ok: true },
    { url: "https:///example.com/x", ok: true },
    { url: "https://exa\tmple.com/", ok: true },
    { url: "https://user:pw@example.com:8080/", ok: true },
    { url: "https://example.com:99999/", ok: false },
    { url: "https://example.com:8o/", ok: false },
    { url: "https://exa mple.com/", ok: false },
    { url: "https://example.com\u0001/x", ok: false },
    { url: "https://@example.com/", ok: true },
    { url: "https://user@/x", ok: false },
    { url: "https://1.2.3.999/", ok: false },
    { url: "https://[::1/", ok: false },
    { url: "https://", ok: false },
    { url: "ftp://example.com/", ok: false },
    { url: "example.com/x", ok: false },
    { url: "", ok: false },
  ])("$url: $ok", ({ url, ok }) => {
    expect(isUrlOrPath(url)).toBe(ok);
    // The remembering test agrees on its own, and after a good URL of the same site.
    expect(urlOrPathTest()(url)).toBe(ok);
    const afterGood = urlOrPathTest();
    afterGood("https://example.com/");
    expect(afterGood(url)).toBe(ok);
  });
});

describe("urlOrPathTest: the same answers as isUrlOrPath, line after line", () => {
  // Pieces chosen to sit on every edge of "same scheme and authority": a site followed by more
  // authority (a port, a control character, a space, a dot), by each character that ends it,
  // and authorities the parser refuses or trims.
  const scheme = fc.constantFrom("https://", "http://", "HTTPS://", "https:///", "https:/\\", "ftp://", "");
  const authority = fc.constantFrom(
    "example.com",
    "example.com.",
    "example.com:80",
    "example.com:99999",
    "example.com:",
    "example.co",
    "example.com\u0001",
    "example.com ",
    "exa\tmple.com",
    "exa mple.com",
    "user@example.com",
    "user@",
    "@example.com",
    "1.2.3.4",
    "1.2.3.999",
    "[::1]",
    "[::1",
    "xn--ls8h.la",
    "xn--a.com",
    "ex%41mple.com",
    "ex%zzmple.com",
    "例え.jp",
    "",
  );
  const rest = fc.constantFrom("", "/", "\\", "?", "#", "/x", "?q=1", "#top", ".evil/", ":1/", "\u0001/", " /", "é/");
  // A few sites per sequence, so that lines come back to a site they have seen.
  const sites = fc.array(
    fc.tuple(scheme, authority).map(([a, b]) => a + b),
    { minLength: 1, maxLength: 3 },
  );
  const lines = fc.array(fc.tuple(fc.nat(), rest), { minLength: 1, maxLength: 12 });

  it("agrees on every line of generated sequences", () => {
    fc.assert(
      fc.property(sites, lines, (seen, picks) => {
        const test = urlOrPathTest();
        for (const [site, tail] of picks) {
          const url = `${seen[site % seen.length]}${tail}`;
          expect(test(url), url).toBe(isUrlOrPath(url));
        }
      }),
      { numRuns: propertyRuns(5000) },
    );
  });
});
