// The admin API: authentication, status, refresh, explain; and the cron refresh.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { admin, call, CHROME, fakeOrigin, freshState, GOOGLEBOT, ORIGIN, runCron } from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\nDissalow: /typo\n\nUser-agent: Googlebot-Image\nDisallow: /img/\n";

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
});
afterEach(freshState);

describe("authentication", () => {
  it.each([
    { name: "missing token", token: null, status: 401 },
    { name: "wrong token", token: "nope", status: 401 },
    { name: "wrong token, right prefix", token: "test-admin-token-x", status: 401 },
    { name: "empty token", token: "", status: 401 },
    { name: "right token", token: undefined, status: 200 },
  ])("$name -> $status", async ({ token, status }) => {
    const response = await admin("status", { token });
    expect(response.status).toBe(status);
    if (status === 401) expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("without the ADMIN_TOKEN secret the prefix is an ordinary path, sent to the origin", async () => {
    const response = await call("/__robots/status", { ua: CHROME, env: { ADMIN_TOKEN: "" } });
    expect(await response.text()).toBe("origin page /__robots/status");
  });

  it("unknown admin routes are 404 with a pointer", async () => {
    const response = await admin("nothing");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toContain('no admin route "GET nothing"');
  });
});

describe("status and refresh", () => {
  it("POST refresh fetches now and returns the origin's status", async () => {
    const response = await admin("refresh", { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      authority: ORIGIN,
      state: "ok",
      lastStatus: 200,
      groups: 2,
      diagnostics: { error: 0, warning: 1 },
    });
  });

  it("GET status lists known origins and the pause", async () => {
    await call("/private/x", { ua: GOOGLEBOT });
    await admin("pause", { method: "POST", body: { minutes: 10 } });
    const body = (await (await admin("status")).json()) as {
      origins: { authority: string }[];
      pause: unknown;
      mode: string;
    };
    expect(body.mode).toBe("enforce");
    expect(body.origins.map((origin) => origin.authority)).toEqual([ORIGIN]);
    expect(body.pause).toMatchObject({ retryAfter: expect.any(Number) });
  });
});

describe("explain", () => {
  beforeEach(async () => {
    await admin("refresh", { method: "POST" }); // explain reads what is stored; it never fetches
  });

  const explain = async (ua: string, url: string) =>
    (await (await admin(`explain?ua=${encodeURIComponent(ua)}&url=${encodeURIComponent(url)}`)).json()) as Record<
      string,
      unknown
    >;

  it("a blocked crawler: tokens, group, rule and line, action", async () => {
    expect(await explain(GOOGLEBOT, "/private/x")).toMatchObject({
      crawler: true,
      tokens: ["Googlebot"],
      group: { token: "*", lines: [1] },
      rule: { kind: "disallow", pattern: "/private/", line: 2 },
      allowed: false,
      action: { action: "block", status: 403 },
    });
  });

  it("a fallback token: Googlebot-Image obeys its own group", async () => {
    const result = await explain("Googlebot-Image/1.0", "/img/a.png");
    expect(result).toMatchObject({
      tokens: ["Googlebot-Image", "Googlebot"],
      group: { token: "googlebot-image" },
      allowed: false,
    });
  });

  it("a human passes whatever the rules say", async () => {
    expect(await explain(CHROME, "/private/x")).toMatchObject({
      crawler: false,
      action: { action: "pass", status: null },
    });
  });

  it("a re-spelled path names the spelling that decided", async () => {
    expect(await explain(GOOGLEBOT, "/a/../private/x")).toMatchObject({ judgedPath: "/private/x", allowed: false });
  });

  it("needs ua and url", async () => {
    expect((await admin("explain?ua=x")).status).toBe(400);
  });
});

describe("cron", () => {
  it("refreshes every known origin whose entry expired", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    await call("/private/x", { ua: GOOGLEBOT });
    origin.robots = { body: "User-agent: *\nDisallow: /new/\n" };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    await runCron();
    const stored = await env.ROBOTS.get<{ copy: { fetchedAt: number } }>(`robots:${ORIGIN}`, "json");
    expect(stored?.copy.fetchedAt).toBeGreaterThan(Date.now() - 1000);
    const served = await call("/robots.txt");
    expect(await served.text()).toBe("User-agent: *\nDisallow: /new/\n");
  });
});

describe("operator page and its API", () => {
  it("the page loads without a token, holds no site state, and forbids external resources", async () => {
    const response = await call("/__robots/", { ua: CHROME });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    const html = await response.text();
    await admin("refresh", { method: "POST" }); // state exists now; the page must still not carry it
    const again = await (await call("/__robots/", { ua: CHROME })).text();
    for (const secret of ["Dissalow", "googlebot-image", "origin.test"]) expect(again).not.toContain(secret);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.google\.com\/bot)/);
  });

  it("GET robots: the stored text, groups and diagnostics with lines", async () => {
    await admin("refresh", { method: "POST" });
    const view = (await (await admin("robots")).json()) as Record<string, unknown>;
    expect(view["text"]).toBe(ROBOTS);
    expect(view["groups"]).toEqual([
      { agents: ["*"], lines: [1], rules: 2 },
      { agents: ["googlebot-image"], lines: [5], rules: 1 },
    ]);
    expect(view["diagnostics"]).toContainEqual(expect.objectContaining({ line: 3, code: "misspelt-field" }));
  });

  it("POST test: live decisions, and a draft compared side by side without publishing it", async () => {
    const draft = "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n";
    const body = { ua: GOOGLEBOT, urls: ["/private/x", "/drafts/y", "/typo"], draft };
    const result = (await (await admin("test", { method: "POST", body })).json()) as {
      results: {
        url: string;
        live: { allowed: boolean; rule: { line: number } | null };
        draft: { allowed: boolean };
        differs: boolean;
      }[];
    };
    expect(result.results.map((r) => [r.url, r.live.allowed, r.draft.allowed, r.differs])).toEqual([
      ["/private/x", false, false, false],
      ["/drafts/y", true, false, true],
      ["/typo", false, true, true],
    ]);
    expect(result.results[0]?.live.rule?.line).toBe(2);
    expect(await (await call("/robots.txt")).text()).toBe(ROBOTS);
  });

  it.each([
    { body: { urls: ["/"] }, message: '"ua" must be a User-Agent string' },
    { body: { ua: "x", urls: [] }, message: '"urls" must be a list of 1 to 200' },
    { body: { ua: "x", urls: ["/"], draft: 3 }, message: '"draft" must be robots.txt text' },
  ])("POST test refuses $body", async ({ body, message }) => {
    const response = await admin("test", { method: "POST", body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
  });
});
