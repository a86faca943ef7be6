// The proxy escape (issue #9, critical): a request path that reads as a network-path
// reference (`//host/…`, or `/\host/…`, which WHATWG turns into `//host/…`) must reach the
// origin as a path on the origin, never as a request to the host it names. Every fetch the
// Worker makes is recorded by the fake origin; each must go to the origin's authority with
// the request's path exactly as judged.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, CHROME, fakeOrigin, freshState, GOOGLEBOT, ORIGIN, SITE, type FakeOrigin } from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";

let origin: FakeOrigin;
beforeEach(async () => {
  await freshState();
  origin = fakeOrigin({ body: ROBOTS });
});
afterEach(freshState);

// `path` is what the client sends; `forwarded` the path the origin must be asked for, written
// out literally (WHATWG has already turned `\` into `/` by the time the Worker sees it).
const escapes = [
  { path: "//evil.example/private/", forwarded: "//evil.example/private/" },
  { path: "///evil.example/private/", forwarded: "///evil.example/private/" },
  { path: "/\\evil.example/private/", forwarded: "//evil.example/private/" },
  { path: "/\\\\evil.example/x", forwarded: "///evil.example/x" },
  { path: "//user@evil.example/x", forwarded: "//user@evil.example/x" },
  { path: "//origin.test@evil.example/x", forwarded: "//origin.test@evil.example/x" },
  { path: "//evil.example:8080/x?y=1", forwarded: "//evil.example:8080/x?y=1" },
  { path: "/%2F%2Fevil.example/x", forwarded: "/%2F%2Fevil.example/x" },
  { path: "/%2f/evil.example/x", forwarded: "/%2f/evil.example/x" },
  { path: "/%5Cevil.example/x", forwarded: "/%5Cevil.example/x" },
  { path: "/%5C%5Cevil.example/x", forwarded: "/%5C%5Cevil.example/x" },
];

function forwardedPages(): string[] {
  return origin.requests.filter((url) => !url.endsWith("/robots.txt"));
}

describe("proxy mode: the forwarded URL is always ORIGIN_URL's authority", () => {
  it.each(escapes)("$path (crawler) -> $forwarded on the origin", async ({ path, forwarded }) => {
    const response = await call(path, { ua: GOOGLEBOT });
    expect(response.status).toBe(200);
    expect(forwardedPages()).toEqual([`${ORIGIN}${forwarded}`]);
  });

  it.each(escapes)("$path (human) -> $forwarded on the origin", async ({ path, forwarded }) => {
    await call(path, { ua: CHROME });
    expect(forwardedPages()).toEqual([`${ORIGIN}${forwarded}`]);
  });

  it.each(escapes)("$path with MODE=off -> $forwarded on the origin", async ({ path, forwarded }) => {
    await call(path, { ua: GOOGLEBOT, env: { MODE: "off" } });
    expect(forwardedPages()).toEqual([`${ORIGIN}${forwarded}`]);
  });

  it.each([
    { path: "///private/", why: "merged slashes are judged as /private/" },
    { path: "/\\private/x", why: "WHATWG reads /\\ as //, judged as /private/x" },
    { path: "//private/", why: "merged slashes are judged as /private/" },
  ])("$path is judged as the path forwarded ($why)", async ({ path }) => {
    expect((await call(path, { ua: GOOGLEBOT })).status).toBe(403);
    expect(forwardedPages()).toEqual([]);
  });
});

describe("route mode: the request goes to its own authority, path untouched", () => {
  it.each(escapes)("$path -> $forwarded on the site", async ({ path, forwarded }) => {
    await call(path, { ua: GOOGLEBOT, env: { ORIGIN_URL: "" } });
    expect(forwardedPages()).toEqual([`${SITE}${forwarded}`]);
  });
});
