// The admin API: authentication, status, refresh, explain; and the cron refresh.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RANGE_SOURCES } from "../../src/agents/operators/tables.ts";
import {
  admin,
  call,
  CHROME,
  fakeOrigin,
  freshState,
  GOOGLEBOT,
  ORIGIN,
  runCron,
  type RobotsBehaviour,
} from "./helpers.ts";

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

  it("GET status lists known origins and what the edge does now: the mode and why, the pause and its end", async () => {
    await call("/private/x", { ua: GOOGLEBOT });
    await admin("pause", { method: "POST", body: { minutes: 10, reason: "deploy" } });
    const body = (await (await admin("status")).json()) as {
      origins: { authority: string }[];
      edge: Record<string, unknown>;
    };
    expect(body.edge).toEqual({
      mode: { mode: "enforce", source: "var", why: 'MODE = "enforce"', routes: [] },
      pause: { until: expect.stringMatching(/^\d{4}-.+Z$/), retryAfter: 600, reason: "deploy" },
      forwarding: true,
      problems: [],
      warnings: [],
    });
    expect(body.origins.map((origin) => origin.authority)).toEqual([ORIGIN]);
  });

  it.each([
    {
      why: "MODE as set",
      env: { MODE: "report" },
      mode: { mode: "report", source: "var", why: 'MODE = "report"' },
    },
    {
      why: "MODE unset: its default",
      env: { MODE: "" },
      mode: { mode: "enforce", source: "default", why: 'MODE is not set; the default is "enforce"' },
    },
    {
      why: "a typo in MODE: the default, and why",
      env: { MODE: "enforse" },
      mode: {
        mode: "enforce",
        source: "refused",
        why: 'MODE was refused, so its default "enforce" applies (see problems)',
      },
    },
    {
      why: "policy routes with their own mode are named",
      env: { POLICY: '{"routes":[{"pattern":"/drafts/","mode":"report","rules":[]}]}' },
      mode: { mode: "enforce", source: "var", routes: [{ pattern: "/drafts/", mode: "report" }] },
    },
    {
      why: "MODE=off wins over every route's mode",
      env: { MODE: "off", POLICY: '{"routes":[{"pattern":"/drafts/","mode":"enforce","rules":[]}]}' },
      mode: { mode: "off", source: "var", why: 'MODE = "off"', routes: [] },
    },
  ])("the mode in status: $why", async ({ env: vars, mode }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const body = (await (await admin("status", { env: vars })).json()) as { edge: { mode: unknown } };
    expect(body.edge.mode).toMatchObject(mode);
  });

  // Every source of identity evidence with its age and last error; a missing or stale list warns,
  // since until it loads its crawlers' claims are unverifiable (refused, 503, wherever * refuses).
  it("GET status lists every identity source; a missing or stale list is a warning", async () => {
    const now = Date.now();
    await env.ROBOTS.put(
      "crawler-ranges",
      JSON.stringify({
        sources: {
          googlebot: { fetchedAt: now - 60_000, cidrs: ["66.249.64.0/27"] },
          bingbot: { fetchedAt: now - 3 * 86_400_000, cidrs: ["157.55.39.0/24"] },
        },
        attempts: {
          bingbot: { at: now - 60_000, error: "HTTP 503" },
          gptbot: { at: now - 60_000, error: "network down" },
        },
      }),
    );
    type Identity = {
      lists: { name: string; ageSeconds: number | null; lastError: string | null }[];
      reverseDns: { resolver: string; operators: string[] };
      cloudflare: { fields: string[] };
      warnings: string[];
    };
    const { identity } = (await (await admin("status")).json()) as { identity: Identity };
    const list = (name: string) => identity.lists.find((entry) => entry.name === name);
    expect(identity.lists.map((entry) => entry.name)).toEqual(RANGE_SOURCES.map((source) => source.name));
    expect(list("googlebot")).toMatchObject({ ageSeconds: 60, lastError: null });
    expect(list("bingbot")).toMatchObject({ ageSeconds: 3 * 86_400, lastError: "HTTP 503" });
    expect(list("gptbot")).toMatchObject({ ageSeconds: null, lastError: "network down" });
    expect(identity.reverseDns).toMatchObject({ resolver: "https://cloudflare-dns.com/dns-query" });
    expect(identity.reverseDns.operators).toContain("google-special");
    expect(identity.cloudflare.fields).toEqual(["botManagement.verifiedBot", "verifiedBotCategory"]);
    expect(identity.warnings).toContain("the bingbot list is 72 h old (last error: HTTP 503)");
    expect(identity.warnings).toContainEqual(
      expect.stringMatching(/^no gptbot list loaded yet \(last error: network down\)/),
    );
    expect(identity.warnings.some((warning) => warning.includes("googlebot"))).toBe(false);
    expect(identity.warnings).toHaveLength(RANGE_SOURCES.length - 1); // every list but googlebot's
  });
});

describe("GET status: a list not loaded warns what it does under the settings in force", () => {
  const VERIFY = "claims of GPTBot are unverifiable, refused (503) wherever * refuses";
  const DISGUISE = "browsers from its addresses are not recognised as GPTBot (they pass as people)";
  // [VERIFY_CRAWLERS, DISGUISED_CRAWLERS, gptbot's warning (crawler-only list), chatgpt-user's (mixed)]
  const rows: [string, string, string | undefined, string | undefined][] = [
    [
      "unknown",
      "off",
      `no gptbot list loaded yet: ${VERIFY}`,
      "no chatgpt-user list loaded yet: claims of ChatGPT-User are unverifiable, refused (503) wherever * refuses",
    ],
    [
      "block",
      "report",
      `no gptbot list loaded yet: ${VERIFY}; ${DISGUISE}`,
      "no chatgpt-user list loaded yet: claims of ChatGPT-User are unverifiable, refused (503) wherever * refuses",
    ],
    ["off", "enforce", `no gptbot list loaded yet: ${DISGUISE}`, undefined],
    ["off", "report", `no gptbot list loaded yet: ${DISGUISE}`, undefined],
    ["off", "off", undefined, undefined],
  ];
  it.each(rows)("VERIFY_CRAWLERS=%s DISGUISED_CRAWLERS=%s", async (verify, disguised, gptbot, chatgptUser) => {
    const vars = { VERIFY_CRAWLERS: verify, DISGUISED_CRAWLERS: disguised };
    const { identity } = (await (await admin("status", { env: vars })).json()) as { identity: { warnings: string[] } };
    const of = (name: string) => identity.warnings.find((warning) => warning.startsWith(`no ${name} list`));
    expect([of("gptbot"), of("chatgpt-user")]).toEqual([gptbot, chatgptUser]);
  });
});

const explain = async (ua: string, url: string) =>
  (await (await admin(`explain?ua=${encodeURIComponent(ua)}&url=${encodeURIComponent(url)}`)).json()) as Record<
    string,
    unknown
  >;

describe("explain", () => {
  beforeEach(async () => {
    await admin("refresh", { method: "POST" }); // explain reads what is stored; it never fetches
  });

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

  it.each([
    { url: "https://www.mysite.example/private/a", why: "the public host (the Worker's, whatever its name)" },
    { url: "http://127.0.0.1:8787/private/a", why: "the Worker's own local address" },
    { url: `${ORIGIN}/private/a`, why: "ORIGIN_URL's own" },
    { url: "/private/a", why: "a bare path" },
  ])("proxy mode takes any absolute URL: $why", async ({ url }) => {
    expect(await explain(GOOGLEBOT, url)).toMatchObject({
      authority: ORIGIN,
      path: "/private/a",
      action: { action: "block", status: 403 },
    });
  });

  it.each(["ftp://x.example/private/a", "private/a", "javascript:alert(1)"])(
    "refuses %s: a path or an http(s) URL only",
    async (url) => {
      const response = await admin(`explain?ua=x&url=${encodeURIComponent(url)}`);
      expect(response.status).toBe(400);
    },
  );

  it("during a pause: 503 with the pause's Retry-After, as the edge answers", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30, retryAfter: 600 } });
    expect(await explain(GOOGLEBOT, "/open")).toMatchObject({
      action: { action: "unavailable", status: 503, retryAfter: 600 },
      layer: "pause",
      reason: "pause",
    });
    const edge = await call("/open", { ua: GOOGLEBOT });
    expect([edge.status, edge.headers.get("retry-after")]).toEqual([503, "600"]);
  });
});

const explainIn = async (vars: Partial<Env>, url: string) => {
  const response = await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=${encodeURIComponent(url)}`, {
    env: vars,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("explain for every mode", () => {
  it("MODE=off with no robots.txt stored: pass, never 404 'no robots.txt stored'", async () => {
    const answer = await explainIn({ MODE: "off" }, "/private/x");
    expect(answer).toMatchObject({
      status: 200,
      body: { action: { action: "pass", status: null }, reason: "mode-off", robotsState: null },
    });
    expect(answer.body["ifEnforced"]).toBeUndefined();
  });

  it("MODE=off with a copy: pass, and what robots.txt would say with MODE=enforce", async () => {
    await admin("refresh", { method: "POST" });
    expect(await explainIn({ MODE: "off" }, "/private/x")).toMatchObject({
      status: 200,
      body: {
        action: { action: "pass" },
        reason: "mode-off",
        ifEnforced: { action: { action: "block", status: 403 }, rule: { pattern: "/private/", line: 2 } },
      },
    });
    expect((await call("/private/x", { ua: GOOGLEBOT, env: { MODE: "off" } })).status).toBe(200);
  });

  it("MODE=enforce with no copy stored: 404 saying to refresh first (explain never fetches)", async () => {
    const answer = await explainIn({}, "/private/x");
    expect(answer.status).toBe(404);
    expect(answer.body["error"]).toContain("POST refresh");
  });

  it.each([
    { url: "https://www.example.com/private/x", status: 200, action: "block" },
    { url: "https://other.example.com/private/x", status: 404, action: undefined },
  ])("route mode: $url of a served authority, else 404", async ({ url, status, action }) => {
    const route = { ORIGIN_URL: "", AUTHORITIES: "www.example.com" };
    await admin("refresh?origin=https://www.example.com", { method: "POST", env: route });
    const answer = await explainIn(route, url);
    expect(answer.status).toBe(status);
    if (action) expect(answer.body).toMatchObject({ authority: "https://www.example.com", action: { action } });
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

  it("POST test during a pause: 503 on both sides now, and a draft differs on what robots.txt says", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30, retryAfter: 600 } });
    const draft = "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n";
    const body = { ua: GOOGLEBOT, urls: ["/private/x", "/drafts/y"], draft };
    const result = (await (await admin("test", { method: "POST", body })).json()) as {
      paused: boolean;
      results: {
        url: string;
        live: { action: { action: string; status: number | null } };
        draft: { action: { action: string; status: number | null } };
        differs: boolean;
        differsAfterPause: boolean;
      }[];
    };
    expect(result.paused).toBe(true);
    expect(
      result.results.map((r) => [r.url, r.live.action.status, r.draft.action.status, r.differs, r.differsAfterPause]),
    ).toEqual([
      ["/private/x", 503, 503, false, false],
      // robots.txt's verdict beside the pause differs: so does the row (issue #31).
      ["/drafts/y", 503, 503, true, true],
    ]);
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

describe("Authorization scheme in any case (RFC 9110 §11.1)", () => {
  it.each([
    { header: "Bearer test-admin-token", status: 200 },
    { header: "bearer test-admin-token", status: 200 },
    { header: "BEARER test-admin-token", status: 200 },
    { header: "Bearer   test-admin-token", status: 200 },
    { header: "Basic test-admin-token", status: 401 },
    { header: "Bearertest-admin-token", status: 401 },
    { header: "test-admin-token", status: 401 },
  ])("$header -> $status", async ({ header, status }) => {
    const response = await call("/__robots/status", { headers: { authorization: header } });
    expect(response.status).toBe(status);
    if (status === 401) expect(await response.json()).toEqual({ error: expect.stringContaining("Bearer") });
  });
});

// Issue #9: the admin API acts only on authorities that exist; a parameter never makes the
// edge fetch a host a client chose, and a non-http(s) URL is a 400, not a 500.
describe("admin parameters name only existing authorities (proxy mode)", () => {
  const rows: { method: string; path: string; status: number; body?: unknown }[] = [
    { method: "POST", path: "refresh?origin=http://127.0.0.1:8080", status: 404 },
    { method: "POST", path: "refresh?origin=https://evil.example", status: 404 },
    { method: "POST", path: "refresh?origin=javascript:alert(1)", status: 400 },
    { method: "POST", path: "refresh?origin=file:///etc/passwd", status: 400 },
    { method: "POST", path: "refresh?origin=not%20a%20url", status: 400 },
    { method: "GET", path: "explain?ua=Googlebot&url=http://127.0.0.1:8080/private/", status: 404 },
    { method: "GET", path: "explain?ua=Googlebot&url=javascript:alert(1)", status: 400 },
    { method: "GET", path: "explain?ua=Googlebot&url=private/x", status: 400 },
    { method: "POST", path: "test?origin=http://169.254.169.254", status: 404, body: { ua: "x", urls: ["/"] } },
    { method: "POST", path: "test?origin=data:text/plain,x", status: 400, body: { ua: "x", urls: ["/"] } },
    { method: "GET", path: "robots?origin=ftp://origin.test", status: 400 },
    { method: "DELETE", path: "origin?origin=mailto:a@b.c", status: 400 },
    { method: "DELETE", path: "origin", status: 400 },
  ];
  it.each(rows)("$method $path -> $status, JSON, nothing fetched", async ({ method, path, status, body }) => {
    const origin = fakeOrigin({ body: ROBOTS });
    const response = await admin(path, { method, body });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error: expect.any(String) });
    expect(origin.requests).toEqual([]);
  });

  it("explain never fetches: with nothing stored it says to refresh first", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    const response = await admin(`explain?ua=Googlebot&url=/private/x`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringContaining("POST refresh") });
    expect(origin.requests).toEqual([]);
  });
});

describe("admin in route mode", () => {
  const routeEnv = { ORIGIN_URL: "", AUTHORITIES: "www.example.com, *.example.org" };

  it.each([
    { origin: "https://www.example.com", status: 200 },
    { origin: "https://shop.example.org", status: 200 },
    { origin: "https://example.com", status: 404 },
    { origin: "http://localhost:8787", status: 404 },
  ])("AUTHORITIES allow-list: refresh?origin=$origin -> $status", async ({ origin, status }) => {
    const fake = fakeOrigin({ body: ROBOTS });
    const response = await admin(`refresh?origin=${origin}`, { method: "POST", env: routeEnv });
    expect(response.status).toBe(status);
    expect(fake.requests.length).toBe(status === 200 ? 1 : 0);
  });

  it("without AUTHORITIES, only origins already stored can be refreshed", async () => {
    const fake = fakeOrigin({ body: ROBOTS });
    const route = { ORIGIN_URL: "" };
    expect((await admin("refresh?origin=https://unknown.example", { method: "POST", env: route })).status).toBe(404);
    expect(fake.requests).toEqual([]);
    await call("/private/x", { ua: GOOGLEBOT, env: route });
    expect((await admin("refresh?origin=https://www.example.com", { method: "POST", env: route })).status).toBe(200);
  });
});

describe("DELETE origin", () => {
  it("forgets the stored robots.txt; a second DELETE is 404", async () => {
    await call("/private/x", { ua: GOOGLEBOT });
    const deleted = await admin(`origin?origin=${ORIGIN}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ deleted: ORIGIN });
    expect(await env.ROBOTS.get(`robots:${ORIGIN}`)).toBeNull();
    const status = (await (await admin("status")).json()) as { origins: unknown[] };
    expect(status.origins).toEqual([]);
    expect((await admin(`origin?origin=${ORIGIN}`, { method: "DELETE" })).status).toBe(404);
  });
});

// A KV whose list fails as told; everything else is the real local KV.
const failingList = (fails: (options: KVNamespaceListOptions | undefined) => boolean) => {
  const kv = env.ROBOTS;
  const list = (options?: KVNamespaceListOptions) =>
    fails(options) ? Promise.reject(new Error("KV list failed: 500 Internal Server Error")) : kv.list(options);
  const robots = new Proxy(kv, {
    get: (target, name) => (name === "list" ? list : (Reflect.get(target, name) as () => unknown).bind(target)),
  });
  return { ROBOTS: robots };
};

describe("status", () => {
  it("shows config problems to the operator, never to the public", async () => {
    const bad = { MODE: "bogus", BLOCK_STATUS: "200" };
    const status = (await (await admin("status", { env: bad })).json()) as { edge: { problems: string[] } };
    expect(status.edge.problems).toEqual([
      expect.stringContaining("MODE must be one of"),
      expect.stringContaining("BLOCK_STATUS must be"),
    ]);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const visitor = await call("/private/x", { ua: GOOGLEBOT, env: bad });
    expect(await visitor.text()).not.toMatch(/MODE|BLOCK_STATUS|bogus/);
  });

  // A wrong --origin or a site that is down was only an origin's `lastError` (issue #35): while
  // its last fetch got no answer at all, it is a problem; any HTTP answer is not.
  it.each<{ name: string; before: RobotsBehaviour | null; now: RobotsBehaviour; problem: RegExp | null }>([
    {
      name: "no answer, no copy",
      before: null,
      now: { networkError: true },
      problem:
        /^origin unreachable: https:\/\/origin\.test gave no answer at 20\d\d-\d\d-\d\dT[\d:.]+Z \(network error: Network connection lost\.\); people get 502 and crawlers 503 until it answers$/,
    },
    {
      name: "no answer, a kept copy judges crawlers",
      before: { body: ROBOTS },
      now: { networkError: true },
      problem:
        /^origin unreachable: https:\/\/origin\.test gave no answer at [\dT:.Z-]+ \(network error: Network connection lost\.\); people get 502 until it answers$/,
    },
    { name: "answered 500", before: null, now: { status: 500 }, problem: null },
    { name: "answered 200", before: null, now: { body: ROBOTS }, problem: null },
  ])("$name -> an unreachable-origin problem: $problem", async ({ before, now, problem }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    if (before) {
      fakeOrigin(before);
      expect((await admin(`refresh?origin=${ORIGIN}`, { method: "POST" })).status).toBe(200);
    }
    fakeOrigin(now);
    await admin(`refresh?origin=${ORIGIN}`, { method: "POST" });
    const status = (await (await admin("status")).json()) as { edge: { problems: string[] } };
    expect(status.edge.problems).toEqual(problem ? [expect.stringMatching(problem)] : []);
  });

  it("pages the origins: limit and next", async () => {
    const route = { ORIGIN_URL: "" };
    const hosts = ["a", "b", "c", "d", "e"].map((name) => `https://${name}.example.com`);
    for (const site of hosts) await call("/x", { ua: GOOGLEBOT, env: route, site });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `status?limit=2&cursor=${encodeURIComponent(cursor)}` : "status?limit=2";
      const page = (await (await admin(query, { env: route })).json()) as {
        origins: { authority: string }[];
        next: string | null;
      };
      expect(page.origins.length).toBeLessThanOrEqual(2);
      seen.push(...page.origins.map((origin) => origin.authority));
      cursor = page.next;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.toSorted()).toEqual(hosts);
    expect(pages).toBe(3);
  });

  it.each([
    {
      name: "KV down, no cursor",
      query: "status",
      fails: () => true,
      status: 503,
      error:
        "the list of known origins could not be read from KV (KV list failed: 500 Internal Server Error); try again shortly",
    },
    {
      name: "KV down, with a cursor",
      query: "status?cursor=abc",
      fails: () => true,
      status: 503,
      error:
        "the list of known origins could not be read from KV (KV list failed: 500 Internal Server Error); try again shortly",
    },
    {
      name: "a cursor KV refuses while KV works",
      query: "status?cursor=abc",
      fails: (options: KVNamespaceListOptions | undefined) => options?.cursor !== undefined,
      status: 400,
      error:
        "cursor must be the `next` value of an earlier status answer (KV refused it: KV list failed: 500 Internal Server Error)",
    },
  ])("a failed KV list is said as what it is: $name -> $status", async ({ query, fails, status, error }) => {
    const response = await admin(query, { env: failingList(fails) });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error });
  });

  it.each(["limit=0", "limit=1001", "limit=x", "limit=1.5"])("%s is a 400", async (query) => {
    const response = await admin(`status?${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

describe("DELETE pause while PAUSE_UNTIL is set", () => {
  it("does not say ended: the static pause remains, and why", async () => {
    const until = new Date(Date.now() + 10 * 60_000).toISOString();
    const paused = { PAUSE_UNTIL: until };
    await admin("pause", { method: "POST", body: { minutes: 5 }, env: paused });
    const response = await admin("pause", { method: "DELETE", env: paused });
    expect(await response.json()).toMatchObject({
      ended: false,
      deletedStoredPause: true,
      pause: { reason: "PAUSE_UNTIL", untilIso: until },
      warning: expect.stringContaining("PAUSE_UNTIL"),
    });
    expect((await call("/x", { ua: GOOGLEBOT, env: paused })).status).toBe(503);
  });

  it("without it, ends the pause", async () => {
    await admin("pause", { method: "POST", body: { minutes: 5 } });
    expect(await (await admin("pause", { method: "DELETE" })).json()).toMatchObject({ ended: true, pause: null });
    expect((await call("/x", { ua: GOOGLEBOT })).status).toBe(200);
  });
});
