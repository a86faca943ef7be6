// pathAndQuery (src/core/path.ts): the path and query a decision judges, from an absolute URL
// or a path, without the fragment; never resolved as a URL reference. Rows written down, and a
// property against a plain reading of RFC 3986 §3 (scheme "://" authority, then path or query).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pathAndQuery } from "../../src/core/path.ts";
import { propertyRuns } from "../property-runs.ts";

const rows: readonly { url: string; path: string }[] = [
  { url: "https://example.com/a/b?q=1#f", path: "/a/b?q=1" },
  { url: "http://example.com", path: "/" },
  { url: "https://example.com?q=1", path: "/?q=1" },
  { url: "https://example.com#f/x", path: "/" },
  { url: "https://example.com?q=/x", path: "/?q=/x" },
  { url: "HTTPS://example.com/A", path: "/A" },
  { url: "ftp+x://host:21/p", path: "/p" },
  { url: "/a/../b#x", path: "/a/../b" },
  { url: "/", path: "/" },
  { url: "example.com/x", path: "/x" },
  { url: "https:/x", path: "/x" },
  { url: "", path: "/" },
];

describe("pathAndQuery", () => {
  it.each(rows)("$url -> $path", ({ url, path }) => {
    expect(pathAndQuery(url)).toBe(path);
  });
});

/** Reference: one character at a time, as RFC 3986 §3 lays a URL out. */
function reference(url: string): string {
  const noFragment = url.split("#")[0] ?? "";
  if (noFragment.startsWith("/")) return noFragment;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(noFragment);
  const rest = scheme ? noFragment.slice(scheme[0].length) : noFragment;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "/") return rest.slice(i);
    if (rest[i] === "?") return `/${rest.slice(i)}`;
  }
  return "/";
}

describe("property: pathAndQuery agrees with the reference", () => {
  it("on generated URLs", () => {
    const part = fc.string({
      unit: fc.constantFrom("a", "/", "?", "#", ":", ".", "h", "t", "p", "s", "+"),
      maxLength: 12,
    });
    const url = fc.oneof(
      part,
      fc.tuple(fc.constantFrom("http://", "https://", "h+t.p://", "x:"), part).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(url, (value) => {
        expect(pathAndQuery(value)).toBe(reference(value));
      }),
      { seed: 20261123, numRuns: propertyRuns(3000) },
    );
  });
});
