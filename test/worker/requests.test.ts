// Each request at the edge: crawlers judged, humans untouched, re-spelled URLs, modes, pauses.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  call,
  ADSBOT,
  BINGBOT,
  CHROME,
  fakeOrigin,
  freshState,
  fromCrawler,
  GOOGLEBOT,
  GPTBOT,
  admin,
  storeCrawlerLists,
} from "./helpers.ts";

const ROBOTS = `User-agent: *
Disallow: /private/
Disallow: /café/
Allow: /private/public/

User-agent: GPTBot
Disallow: /

User-agent: AdsBot-Google
Disallow: /ads-only/
`;

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
});
afterEach(freshState);

describe("crawlers get what robots.txt says for their group", () => {
  it.each([
    { ua: GOOGLEBOT, path: "/private/x", status: 403, why: "* group: disallow /private/" },
    { ua: GOOGLEBOT, path: "/private/public/x", status: 200, why: "longer allow wins" },
    { ua: GOOGLEBOT, path: "/open", status: 200, why: "no rule matches" },
    { ua: GPTBOT, path: "/open", status: 403, why: "GPTBot group: disallow /" },
    { ua: BINGBOT, path: "/private/x?q=1", status: 403, why: "query does not hide the path" },
    { ua: "curl/8.5.0", path: "/private/x", status: 403, why: "automated clients are judged under *" },
  ])("$path for $ua -> $status ($why)", async ({ ua, path, status }) => {
    expect((await call(path, { ua })).status).toBe(status);
  });

  // AdsBot-Google skips `*` only as who it proves to be (policy/claim.ts): from an address in
  // Google's special-crawlers list; a claim that cannot be checked is held to `*` (503).
  it.each([
    { verified: true, path: "/private/x", status: 200, why: "google: AdsBot ignores the * group" },
    { verified: true, path: "/ads-only/x", status: 403, why: "AdsBot obeys its own group" },
    { verified: false, path: "/private/x", status: 503, why: "no address to check: held to *, 503" },
    { verified: false, path: "/ads-only/x", status: 403, why: "its own group refuses: 403" },
  ])("$path for AdsBot-Google, verified $verified -> $status ($why)", async ({ verified, path, status }) => {
    await storeCrawlerLists();
    const headers = verified ? fromCrawler("google-special") : {};
    expect((await call(path, { ua: ADSBOT, headers })).status).toBe(status);
  });

  it("a block names the rule and its line, in the body and in X-Robots-Edge", async () => {
    const response = await call("/private/x", { ua: GOOGLEBOT });
    expect(response.headers.get("x-robots-edge")).toBe('blocked; rule="disallow: /private/"; line=2');
    expect(await response.text()).toContain('"disallow: /private/" (line 2)');
  });

  it("the header stays ASCII for a non-ASCII rule; the body keeps it as written", async () => {
    const response = await call("/café/x", { ua: GOOGLEBOT });
    expect(response.headers.get("x-robots-edge")).toBe('blocked; rule="disallow: /caf%C3%A9/"; line=3');
    expect(await response.text()).toContain('"disallow: /café/" (line 3)');
  });

  it("HEAD is judged like GET", async () => {
    expect((await call("/private/x", { ua: GOOGLEBOT, method: "HEAD" })).status).toBe(403);
    expect((await call("/open", { ua: GOOGLEBOT, method: "HEAD" })).status).toBe(200);
  });

  it("an allowed crawler request reaches the origin unchanged (proxy mode)", async () => {
    const response = await call("/open?x=1", { ua: GOOGLEBOT });
    expect(await response.text()).toBe("origin page /open?x=1");
    expect(response.headers.get("x-origin")).toBe("yes");
  });

  it("BLOCK_STATUS sets the status of a block", async () => {
    expect((await call("/private/x", { ua: GOOGLEBOT, env: { BLOCK_STATUS: "451" } })).status).toBe(451);
  });

  it("logs one JSON line per crawler decision and none for humans", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/private/x", { ua: GOOGLEBOT });
    await call("/private/x", { ua: CHROME });
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: "robots-edge.decision",
      action: "block",
      rule: "disallow: /private/",
      line: 2,
      group: "*",
    });
  });
});

describe("origin down", () => {
  it("allowed requests answer 502 naming the cause; blocks and robots.txt still answer from the edge", async () => {
    await call("/open", { ua: GOOGLEBOT }); // robots.txt fetched and stored while the origin is up
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("Network connection lost."));
    const human = await call("/open", { ua: CHROME });
    expect(human.status).toBe(502);
    expect(await human.text()).toContain("the origin could not be reached (Network connection lost.)");
    expect((await call("/private/x", { ua: GOOGLEBOT })).status).toBe(403);
    expect((await call("/robots.txt")).status).toBe(200);
  });
});

describe("LOG_DECISIONS", () => {
  it.each([
    { level: "all", lines: 2 },
    { level: "blocked", lines: 1 },
    { level: "none", lines: 0 },
  ])("$level -> $lines line(s) for one allowed and one blocked request", async ({ level, lines }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/open", { ua: GOOGLEBOT, env: { LOG_DECISIONS: level } });
    await call("/private/x", { ua: GOOGLEBOT, env: { LOG_DECISIONS: level } });
    expect(log).toHaveBeenCalledTimes(lines);
  });
});

const logged = (log: { mock: { calls: unknown[][] } }) =>
  log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);

describe("decision logs stay bounded and keep queries out (issue #9)", () => {
  it("cuts the User-Agent and path to 512 characters, and leaves the query out", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const ua = `LongBot/1.0 ${"x".repeat(2000)}`;
    await call(`/private/${"p".repeat(1000)}?token=secret`, { ua });
    const [line] = logged(log);
    expect(String(line?.["userAgent"])).toHaveLength(513);
    expect(String(line?.["userAgent"]).endsWith("…")).toBe(true);
    expect(String(line?.["path"])).toHaveLength(513);
    expect(JSON.stringify(line)).not.toContain("secret");
  });

  it.each([
    { logQuery: "false", path: "/private/x" },
    { logQuery: "true", path: "/private/x?q=shoes" },
  ])("LOG_QUERY=$logQuery logs $path", async ({ logQuery, path }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/private/x?q=shoes", { ua: GOOGLEBOT, env: { LOG_QUERY: logQuery } });
    expect(logged(log)[0]).toMatchObject({ path, judgedPath: path });
  });
});

// npm run dev sets LOG_FORMAT=line: one short line per decision instead of a 600-character JSON
// line (issue #35). Written out literally: the status (or the action when the origin answered),
// the product token, the path without its query, and the deciding line with its number.
describe("LOG_FORMAT=line: one short line per decision", () => {
  it.each([
    { ua: GPTBOT, path: "/open", line: "403 GPTBot /open disallow: / (line 7)" },
    { ua: GOOGLEBOT, path: "/private/x?token=secret", line: "403 Googlebot /private/x disallow: /private/ (line 2)" },
    {
      ua: GOOGLEBOT,
      path: "/private/public/x",
      line: "pass Googlebot /private/public/x allow: /private/public/ (line 4)",
    },
    { ua: GOOGLEBOT, path: "/open", line: "pass Googlebot /open no rule matched" },
    { ua: "curl/8.5.0", path: "/private/x", line: "403 curl /private/x disallow: /private/ (line 2)" },
    // A long path is cut to 80 characters ("/private/" and 71 more), marked where it was cut.
    {
      ua: GOOGLEBOT,
      path: `/private/${"p".repeat(500)}`,
      line: `403 Googlebot /private/${"p".repeat(71)}… disallow: /private/ (line 2)`,
    },
    // A terminal escape in the User-Agent never reaches the terminal: only a product token is printed.
    { ua: "Evil\u001b[2JBot/1.0", path: "/private/x", line: "403 2JBot /private/x disallow: /private/ (line 2)" },
  ])("$path for $ua -> $line", async ({ ua, path, line }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call(path, { ua, env: { LOG_FORMAT: "line", VERIFY_CRAWLERS: "off" } });
    expect(log.mock.calls).toEqual([[line]]);
  });

  it("json (the default) keeps the JSON line", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/private/x", { ua: GOOGLEBOT });
    expect(logged(log)[0]).toMatchObject({ event: "robots-edge.decision", status: 403, line: 2 });
  });
});

describe("/robots.txt in any spelling is served by the edge (issue #10)", () => {
  it.each(["/robots.txt", "/%72obots.txt", "/robots%2Etxt", "/%72%6F%62%6F%74%73.txt"])("%s", async (path) => {
    for (const ua of [CHROME, GOOGLEBOT]) {
      const response = await call(path, { ua });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-robots-edge")).toBe("served");
      expect(await response.text()).toContain("Disallow: /private/");
    }
  });
});

describe("route mode run locally without ORIGIN_URL would call itself", () => {
  it.each(["http://127.0.0.1:8787", "http://localhost:8787", "http://[::1]:8787"])(
    "%s answers 508 with what to do instead",
    async (site) => {
      const origin = fakeOrigin({ body: ROBOTS });
      const response = await call("/", { site, env: { ORIGIN_URL: "" } });
      expect(response.status).toBe(508);
      expect(await response.text()).toContain("npm run dev -- --origin http://localhost:3000");
      expect(origin.requests).toEqual([]);
    },
  );
});

describe("humans pass untouched, always", () => {
  it.each(["/private/x", "/anything", "/café/"])("%s", async (path) => {
    const response = await call(path, { ua: CHROME });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^origin page /);
  });
});

// th/rfc9309 §2.2.2 plus the edge's normalisation (policy/path-spellings.ts).
describe("re-spelled URLs cannot slip past a rule", () => {
  it.each([
    { path: "/%70rivate/x", status: 403, why: "percent-encoded unreserved letter" },
    { path: "/%70%72ivate/x", status: 403, why: "two encoded letters" },
    { path: "/priv%61te/x", status: 403, why: "encoded letter in the middle" },
    { path: "/Private/x", status: 200, why: "paths are case-sensitive: another path" },
    { path: "//private/x", status: 403, why: "repeated slashes" },
    { path: "/./private/x", status: 403, why: "dot segment" },
    { path: "/a/../private/x", status: 403, why: "dot-dot segment" },
    { path: "/private;x=1/y", status: 403, why: "path parameters some servers drop" },
    { path: "/private%2Fx", status: 403, why: "encoded slash some servers decode" },
    { path: "/caf%C3%A9/menu", status: 403, why: "percent-encoded UTF-8 = raw UTF-8 rule" },
    { path: "/caf%c3%a9/menu", status: 403, why: "hex case does not matter" },
    { path: "/café/menu", status: 403, why: "raw UTF-8" },
    { path: "/private/public/../secret", status: 403, why: "dot-dot out of an allowed directory" },
  ])("$path -> $status ($why)", async ({ path, status }) => {
    expect((await call(path, { ua: GOOGLEBOT })).status).toBe(status);
    expect((await call(path, { ua: CHROME })).status).toBe(200);
  });
});

describe("modes", () => {
  it("MODE=report passes disallowed requests, marked, and logs them", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const response = await call("/private/x", { ua: GOOGLEBOT, env: { MODE: "report" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-robots-edge")).toBe('would-block; rule="disallow: /private/"; line=2');
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({ action: "report", mode: "report" });
  });

  it("MODE=off passes everything without reading robots.txt", async () => {
    const origin = fakeOrigin({ body: ROBOTS });
    const response = await call("/private/x", { ua: GOOGLEBOT, env: { MODE: "off" } });
    expect(response.status).toBe(200);
    expect(origin.requests).toEqual(["https://origin.test/private/x"]);
  });
});

// A bad setting degrades only itself: its default stands in, enforcement goes on, the site
// never goes down, and visitors see nothing of the configuration.
describe("configuration problems: a bad var's default stands in, enforcement goes on", () => {
  it.each([
    { env: { MODE: "enforse" }, status: 403 },
    { env: { MODE: "block" }, status: 403 },
    { env: { BLOCK_STATUS: "200" }, status: 403 },
    { env: { BLOCK_STATUS: "451", FAIL_OPEN: "yes" }, status: 451 },
    { env: { ADMIN_PREFIX: "robots" }, status: 403 },
    { env: { ADMIN_TOKEN: "short" }, status: 403 },
    { env: { PAUSE_UNTIL: "tomorrow" }, status: 403 },
    { env: { POLICY: '{"routes":[{"pattern":"articles"}]}' }, status: 403 },
    { env: { MODE: "report", VERIFY_CRAWLERS: "strict" }, status: 200 },
  ])("$env: a disallowed crawler request gets $status, the problem is logged", async ({ env, status }) => {
    fakeOrigin({ body: "User-agent: *\nDisallow: /private/\n" });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await call("/private/x", { ua: GOOGLEBOT, env });
    expect(response.status).toBe(status);
    expect(await response.text()).not.toMatch(/must be|enforse|ADMIN|POLICY|VERIFY_CRAWLERS/);
    expect(error.mock.calls.some(([line]) => String(line).includes('"where":"config"'))).toBe(true);
  });

  it("a too-short ADMIN_TOKEN turns the admin API off with an error that says why, never naming the token", async () => {
    fakeOrigin({ body: "User-agent: *\nDisallow: /private/\n" });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const env = { ADMIN_TOKEN: "hunter2-short" };
    for (const path of ["status", ""]) {
      const response = await admin(path, { token: "hunter2-short", env });
      expect(response.status).toBe(503);
      const body = await response.text();
      expect(body).toContain("the admin API is off: ADMIN_TOKEN is shorter than 16 characters");
      expect(body).not.toContain("hunter2");
    }
    expect((await call("/private/x", { ua: GOOGLEBOT, env })).status).toBe(403);
  });

  it("the problems are logged once a minute per isolate, not once per request", async () => {
    fakeOrigin({ body: "User-agent: *\nDisallow: /private/\n" });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const env = { MODE: "sometimes" };
    for (let i = 0; i < 5; i++) expect((await call(`/p${i}`, { ua: GOOGLEBOT, env })).status).toBe(200);
    const configLines = error.mock.calls.filter(([line]) => String(line).includes('"where":"config"'));
    expect(configLines).toHaveLength(1);
  });

  it.each([{ ORIGIN_URL: "origin.test" }, { ORIGIN_URL: "https://user:secret@origin.test" }])(
    "$ORIGIN_URL: an unusable ORIGIN_URL answers a generic 502",
    async (env) => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const response = await call("/", { env });
      expect(response.status).toBe(502);
      expect(await response.text()).not.toMatch(/ORIGIN_URL|secret|origin\.test/);
    },
  );
});

describe("crawl pause", () => {
  it("pause on: crawlers and /robots.txt get 503 with Retry-After, humans pass; off again", async () => {
    const started = await admin("pause", { method: "POST", body: { minutes: 30, retryAfter: 600, reason: "deploy" } });
    expect(started.status).toBe(200);
    const crawler = await call("/open", { ua: GOOGLEBOT });
    expect(crawler.status).toBe(503);
    expect(crawler.headers.get("retry-after")).toBe("600");
    const robots = await call("/robots.txt", { ua: CHROME });
    expect(robots.status).toBe(503);
    expect(robots.headers.get("retry-after")).toBe("600");
    expect((await call("/open", { ua: CHROME })).status).toBe(200);

    expect((await admin("pause", { method: "DELETE" })).status).toBe(200);
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/robots.txt")).status).toBe(200);
  });

  it("a pause's 503s are logged like every other crawler decision; humans are not (issue #15)", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30 } });
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/open?q=1", { ua: GOOGLEBOT });
    await call("/robots.txt", { ua: CHROME });
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: "robots-edge.decision",
      action: "unavailable",
      status: 503,
      retryAfter: 1800,
      layer: "pause",
      path: "/open",
      group: null,
    });
  });

  it("ends when DELETEd", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30 } });
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(503);
    expect((await admin("pause", { method: "DELETE" })).status).toBe(200);
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
    expect((await call("/robots.txt")).status).toBe(200);
  });

  it("ends by itself, and Retry-After never points past its end", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    await admin("pause", { method: "POST", body: { minutes: 2 } });
    const early = await call("/open", { ua: GOOGLEBOT });
    expect(Number(early.headers.get("retry-after"))).toBeLessThanOrEqual(120);
    vi.setSystemTime(start + 121_000);
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
  });

  it("PAUSE_UNTIL pauses statically until that time", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const response = await call("/open", { ua: GOOGLEBOT, env: { PAUSE_UNTIL: until } });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(3500);
    expect((await call("/open", { ua: GOOGLEBOT, env: { PAUSE_UNTIL: "2000-01-01T00:00:00Z" } })).status).toBe(200);
  });

  it.each([
    { body: { minutes: 0 }, message: '"minutes" must be a whole number from 1 to 2880' },
    { body: { minutes: 5000 }, message: "MAX_PAUSE_MINUTES" },
    { body: { minutes: 5, retryAfter: -1 }, message: '"retryAfter" must be a whole number of seconds' },
    { body: "soon", message: "body must be a JSON object" },
  ])("refuses $body", async ({ body, message }) => {
    const response = await admin("pause", { method: "POST", body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
  });

  it("warns about pauses longer than a day", async () => {
    const response = await admin("pause", { method: "POST", body: { minutes: 1500 } });
    expect(((await response.json()) as { warning?: string }).warning).toMatch(/dropped from search indexes/);
  });
});

describe("per-route policy (POLICY var) layered over robots.txt", () => {
  const POLICY = JSON.stringify({
    routes: [
      { pattern: "/articles/", blockStatus: 451, rules: [{ crawlers: ["category:ai-training"], action: "block" }] },
      { pattern: "/private/partners/", rules: [{ crawlers: ["bingbot"], action: "allow" }] },
    ],
  });
  const env = { POLICY };

  it("blocks every AI training crawler under /articles/ though robots.txt allows it there", async () => {
    const response = await call("/articles/1", { ua: "CCBot/2.0 (https://commoncrawl.org/faq/)", env });
    expect(response.status).toBe(451);
    expect(response.headers.get("x-robots-edge")).toBe('blocked; policy="/articles/"; route=1; rule=1');
    expect(await response.text()).toContain(`crawler policy for "/articles/"`);
  });

  it("lets one partner crawler through one disallowed path, and no one else", async () => {
    await storeCrawlerLists();
    const headers = fromCrawler("bingbot");
    expect((await call("/private/partners/feed", { ua: BINGBOT, env, headers })).status).toBe(200);
    expect((await call("/private/partners/feed", { ua: GOOGLEBOT, env, headers })).status).toBe(403);
    expect((await call("/private/other", { ua: BINGBOT, env, headers })).status).toBe(403);
    // The allow rule is granted only to a proven claim: an unverifiable one is held to `*` (503).
    expect((await call("/private/partners/feed", { ua: BINGBOT, env })).status).toBe(503);
  });

  it("search engines under /articles/ still follow robots.txt; humans pass", async () => {
    expect((await call("/articles/1", { ua: GOOGLEBOT, env })).status).toBe(200);
    expect((await call("/articles/1", { ua: CHROME, env })).status).toBe(200);
  });

  it("explain says which layer decided", async () => {
    await admin("refresh", { method: "POST", env }); // explain reads the stored copy only
    const explained = await admin(`explain?ua=${encodeURIComponent("CCBot/2.0")}&url=/articles/1`, { env });
    expect(await explained.json()).toMatchObject({
      layer: "policy",
      policy: { route: "/articles/", routeIndex: 0, rule: { action: "block" } },
      action: { action: "block", status: 451 },
      allowed: false,
    });
  });
});
