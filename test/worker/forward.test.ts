// Where an allowed request goes: ORIGIN_URL's scheme, host and port, with the request's path
// and query copied in as text — never resolved as a URL reference (issue #9, the proxy
// escape: `new URL("//evil.test/x", origin)` is https://evil.test/x). Each row: the path as the
// client sent it, and the exact URL the origin must receive.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, CHROME, fakeOrigin, freshState, GOOGLEBOT, ORIGIN, SITE } from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";

beforeEach(async () => {
  await freshState();
});
afterEach(freshState);

describe("proxy mode: every request stays on ORIGIN_URL's host", () => {
  // `crawler`: what Googlebot gets. Under `Disallow: /private/` the edge also judges the
  // network-path reading (`//host/private/` is `/private/` to origins that resolve the
  // target as a URL reference), so those rows are blocked and reach nothing.
  it.each([
    { path: "//evil.test/private/", crawler: 403, to: `${ORIGIN}//evil.test/private/`, why: "network-path ref" },
    { path: "///evil.test/private/", crawler: 403, to: `${ORIGIN}///evil.test/private/`, why: "three slashes" },
    { path: "/\\evil.test/private/", crawler: 403, to: `${ORIGIN}//evil.test/private/`, why: "WHATWG: /\\ is //" },
    { path: "//user@evil.test/private/", crawler: 403, to: `${ORIGIN}//user@evil.test/private/`, why: "userinfo" },
    { path: "//u:p@evil.test:8443/x", crawler: 200, to: `${ORIGIN}//u:p@evil.test:8443/x`, why: "userinfo, port" },
    { path: "//127.0.0.1:9/private/", crawler: 403, to: `${ORIGIN}//127.0.0.1:9/private/`, why: "loopback" },
    { path: "//127.0.0.1:9/open", crawler: 200, to: `${ORIGIN}//127.0.0.1:9/open`, why: "loopback, allowed" },
    { path: "/%2F%2Fevil.test/x", crawler: 200, to: `${ORIGIN}/%2F%2Fevil.test/x`, why: "encoded slashes kept" },
    { path: "//evil.test/x?n=//e.test/", crawler: 200, to: `${ORIGIN}//evil.test/x?n=//e.test/`, why: "query" },
    { path: "/open?a=1&b=%2F", crawler: 200, to: `${ORIGIN}/open?a=1&b=%2F`, why: "ordinary path and query" },
  ])("$path -> $to, crawler $crawler ($why)", async ({ path, crawler, to }) => {
    const human = fakeOrigin({ body: ROBOTS });
    expect((await call(path, { ua: CHROME })).status).toBe(200);
    expect(human.requests.filter((url) => !url.endsWith("/robots.txt"))).toEqual([to]);
    const bot = fakeOrigin({ body: ROBOTS });
    expect((await call(path, { ua: GOOGLEBOT })).status).toBe(crawler);
    expect(bot.requests.filter((url) => !url.endsWith("/robots.txt"))).toEqual(crawler === 200 ? [to] : []);
  });

  it("a disallowed path hidden behind //host is judged as the path the origin receives", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    // The origin receives "//private/…" on its own host; the edge merges slashes when judging.
    expect((await call("//private/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect(origin.requests.filter((url) => !url.endsWith("/robots.txt"))).toEqual([]);
  });
});

describe("route mode: the request goes to the host it was addressed to", () => {
  it.each([
    { path: "//evil.test/private/", to: `${SITE}//evil.test/private/` },
    { path: "/\\evil.test/x", to: `${SITE}//evil.test/x` },
  ])("$path -> $to", async ({ path, to }) => {
    const origin = fakeOrigin({ body: ROBOTS });
    expect((await call(path, { ua: CHROME, env: { ORIGIN_URL: "" } })).status).toBe(200);
    expect(origin.requests.filter((url) => !url.endsWith("/robots.txt"))).toEqual([to]);
  });
});

/** Records the headers of each page request the origin receives; answers with hop-by-hop headers. */
function headerOrigin(): Headers[] {
  const seen: Headers[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname === "/robots.txt") return new Response(ROBOTS);
    seen.push(request.headers);
    return new Response("page", {
      headers: { connection: "x-origin-secret", "x-origin-secret": "1", "keep-alive": "timeout=5", "x-kept": "yes" },
    });
  });
  return seen;
}

describe("redirects are never followed by the edge", () => {
  it.each([
    { mode: "proxy", env: {} },
    { mode: "route", env: { ORIGIN_URL: "" } },
  ])("$mode mode: the client gets the origin's 302", async ({ env }) => {
    const fetched: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      fetched.push(request.url);
      if (new URL(request.url).pathname === "/robots.txt") return new Response(ROBOTS);
      if (request.url.includes("elsewhere.test")) return new Response("followed");
      // A redirect the fetch would follow unless told not to.
      return request.redirect === "manual"
        ? new Response(null, { status: 302, headers: { location: "https://elsewhere.test/x" } })
        : new Response("followed");
    });
    const response = await call("/open", { ua: CHROME, env });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://elsewhere.test/x");
    expect(fetched.some((url) => url.includes("elsewhere.test"))).toBe(false);
  });
});

describe("headers to and from the origin", () => {
  it("drops hop-by-hop headers and the ones Connection names, in both directions", async () => {
    const seen = headerOrigin();
    const response = await call("/open", {
      ua: CHROME,
      headers: {
        connection: "x-client-secret, keep-alive",
        "x-client-secret": "1",
        "keep-alive": "1",
        "x-kept": "yes",
      },
    });
    expect(seen).toHaveLength(1);
    const sent = seen[0] ?? new Headers();
    expect([sent.get("x-client-secret"), sent.get("keep-alive"), sent.get("connection")]).toEqual([null, null, null]);
    expect(sent.get("x-kept")).toBe("yes");
    expect([response.headers.get("x-origin-secret"), response.headers.get("keep-alive")]).toEqual([null, null]);
    expect(response.headers.get("x-kept")).toBe("yes");
  });

  it("a client's Connection header cannot remove the client address or Cloudflare's headers", async () => {
    const seen = headerOrigin();
    const protectedHeaders = {
      "cf-connecting-ip": "192.0.2.1",
      "x-forwarded-for": "192.0.2.1",
      "x-real-ip": "192.0.2.1",
    };
    await call("/open", {
      ua: CHROME,
      headers: { connection: "cf-connecting-ip, x-forwarded-for, x-real-ip", ...protectedHeaders },
    });
    const sent = seen[0] ?? new Headers();
    expect([sent.get("cf-connecting-ip"), sent.get("x-forwarded-for"), sent.get("x-real-ip")]).toEqual([
      "192.0.2.1",
      "192.0.2.1",
      "192.0.2.1",
    ]);
  });

  it.each(["x-forwarded-host", "x-original-url", "x-rewrite-url", "x-http-method-override"])(
    "a client's %s is not passed to the origin",
    async (name) => {
      const seen = headerOrigin();
      await call("/open", { ua: CHROME, headers: { [name]: "/private/x" } });
      expect(seen[0]?.get(name)).toBeNull();
    },
  );
});
