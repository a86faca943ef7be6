// The admin token never leaves the edge (issue 31): a request that carries it on a misspelt
// admin path is answered here, never forwarded to the origin with the operator's secret; and a
// token of spaces is a named problem, not an admin API silently off.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config/read-config.ts";
import { call, CHROME, fakeOrigin, freshState, GOOGLEBOT, TOKEN, type FakeOrigin } from "./helpers.ts";

let origin: FakeOrigin;
beforeEach(async () => {
  await freshState();
  origin = fakeOrigin({ body: "User-agent: *\nDisallow: /private/\n" });
});
afterEach(freshState);

/** The pages the origin was asked for (robots.txt fetches aside). */
function pagesAsked(): string[] {
  return origin.requests.filter((url) => !url.endsWith("/robots.txt"));
}

describe("a request carrying the admin token is never forwarded", () => {
  it.each([
    { path: "/__ROBOTS/status", authorization: `Bearer ${TOKEN}`, why: "the prefix in another case" },
    { path: "/__robots%2Fstatus", authorization: `Bearer ${TOKEN}`, why: "the slash escaped" },
    { path: "/__robot/status", authorization: `Bearer ${TOKEN}`, why: "a letter missing" },
    { path: "/status", authorization: `bearer   ${TOKEN}  `, why: "no prefix; scheme in lower case, spaces" },
    { path: "/blog/", authorization: TOKEN, why: "the token alone, no scheme" },
    { path: "/blog/", authorization: `Basic abc, ${TOKEN}`, why: "the token as a second part, no scheme" },
    { path: "/blog/", authorization: `Bearer x,Bearer ${TOKEN}`, why: "sent twice, the second the token" },
    { path: "/blog/", authorization: `basic ${btoa(`${TOKEN}:x`)}`, why: "Basic user name, scheme in lower case" },
    { path: "/blog/", authorization: `Basic ${btoa(`me:${TOKEN}`)}`, why: "Basic password" },
    { path: "/blog/", authorization: `Basic ${btoa(TOKEN)}`, why: "Basic credentials with no colon" },
  ])("$path ($why) -> 404 at the edge, the origin asked nothing", async ({ path, authorization }) => {
    const response = await call(path, { ua: CHROME, headers: { authorization } });
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: expect.stringContaining("carries the admin token") });
    expect(body).not.toContain(TOKEN);
    expect(pagesAsked()).toEqual([]);
  });

  it("a crawler's request with the token is not forwarded either", async () => {
    const response = await call("/blog/", { ua: GOOGLEBOT, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(pagesAsked()).toEqual([]);
  });

  // What the operator is shown is what the edge did: the 404, never a pass (the log line's fields, literally).
  it.each([
    { ua: GOOGLEBOT, path: "/blog/" },
    { ua: CHROME, path: "/__ROBOTS/status" },
  ])("$ua on $path: the decision logged is the 404, layer admin-token", async ({ ua, path }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const response = await call(path, { ua, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    const decisions = lines.filter((line) => line.event === "robots-edge.decision");
    expect(decisions.map((line) => [line.action, line.status, line.layer])).toEqual([["error", 404, "admin-token"]]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it("the short dev line says the 404 and why", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/blog/", { ua: GOOGLEBOT, headers: { authorization: `Bearer ${TOKEN}` }, env: { LOG_FORMAT: "line" } });
    expect(log.mock.calls.map(([line]) => String(line))).toEqual([
      "404 Googlebot /blog/ carries the admin token, not forwarded",
    ]);
  });

  it.each([
    { authorization: "Bearer someone-elses-token-123", why: "another bearer token" },
    { authorization: `Bearer ${TOKEN}x`, why: "the token with more after it" },
    { authorization: "Basic dXNlcjpwYXNz", why: "the site's own Basic credentials" },
    { authorization: `Basic ${btoa(`${TOKEN}x:x${TOKEN}`)}`, why: "Basic halves that only hold the token" },
    { authorization: "Basic !!not base64!!", why: "Basic credentials that are not base64" },
    {
      authorization:
        'Digest username="me", realm="site", nonce="abc", uri="/x", response="0123", qop=auth, nc=00000001, cnonce="def", opaque="ghi", algorithm=SHA-256',
      why: "a Digest header of ten auth-params",
    },
    {
      authorization: `${Array.from({ length: 16 }, () => "Bearer x").join(", ")}, Bearer ${TOKEN}`,
      why: "the token past the 16 parts compared (the bound on what a header makes us hash)",
    },
  ])("other credentials pass to the origin ($why)", async ({ authorization }) => {
    const response = await call("/__ROBOTS/status", { ua: CHROME, headers: { authorization } });
    expect(await response.text()).toBe("origin page /__ROBOTS/status");
    expect(pagesAsked()).toEqual(["https://origin.test/__ROBOTS/status"]);
  });

  it("without the ADMIN_TOKEN secret, nothing is held back", async () => {
    const response = await call("/__ROBOTS/status", {
      ua: CHROME,
      headers: { authorization: `Bearer ${TOKEN}` },
      env: { ADMIN_TOKEN: "" },
    });
    expect(await response.text()).toBe("origin page /__ROBOTS/status");
  });
});

describe("an ADMIN_TOKEN of spaces is a problem, not an admin API silently off", () => {
  it.each([
    { value: " ", why: "one space" },
    { value: "                        ", why: "24 spaces" },
    { value: "\t \n", why: "tabs and a newline" },
  ])("$why: refused with a problem that says so", ({ value }) => {
    const { config, problems } = parseConfig({ ADMIN_TOKEN: value });
    expect(config.adminToken).toBeUndefined();
    expect(config.adminTokenRefused).toBe(true);
    expect(problems).toContainEqual(expect.stringContaining("ADMIN_TOKEN is set but blank"));
  });

  it("the admin prefix answers that the admin API is off, as for a short token", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await call("/__robots/status", { ua: CHROME, env: { ADMIN_TOKEN: "   " } });
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("the admin API is off");
    expect(pagesAsked()).toEqual([]);
  });

  it("an empty ADMIN_TOKEN is still unset, not refused", () => {
    const { config, problems } = parseConfig({ ADMIN_TOKEN: "" });
    expect(config.adminTokenRefused).toBe(false);
    expect(problems).toEqual([]);
  });
});
