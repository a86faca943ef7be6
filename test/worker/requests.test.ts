// Each request at the edge: crawlers judged, humans untouched, re-spelled URLs, modes, pauses.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, ADSBOT, BINGBOT, CHROME, fakeOrigin, freshState, GOOGLEBOT, GPTBOT, admin } from "./helpers.ts";

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
    { ua: ADSBOT, path: "/private/x", status: 200, why: "google: AdsBot ignores the * group" },
    { ua: ADSBOT, path: "/ads-only/x", status: 403, why: "AdsBot obeys its own group" },
    { ua: "curl/8.5.0", path: "/private/x", status: 403, why: "automated clients are judged under *" },
  ])("$path for $ua -> $status ($why)", async ({ ua, path, status }) => {
    expect((await call(path, { ua })).status).toBe(status);
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

describe("humans pass untouched, always", () => {
  it.each(["/private/x", "/anything", "/café/"])("%s", async (path) => {
    const response = await call(path, { ua: CHROME });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^origin page /);
  });
});

// rfc9309 §2.2.2 plus the edge's normalisation (policy/path-spellings.ts).
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
    { path: "/private;%2F../", status: 403, why: "issue #9: servlets strip ;%2F.. up to the raw /" },
    { path: "/private;jsessionid=x%2F..%2F/report", status: 403, why: "issue #9: parameter hiding ..%2F" },
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

describe("configuration errors answer 500 with the reason", () => {
  it.each([
    { env: { MODE: "block" }, message: 'MODE must be one of enforce, report, off, got "block"' },
    { env: { BLOCK_STATUS: "200" }, message: "BLOCK_STATUS must be a whole number from 400 to 599" },
    { env: { ORIGIN_URL: "origin.test" }, message: "ORIGIN_URL must be an absolute http(s) URL" },
    { env: { ADMIN_PREFIX: "robots" }, message: 'ADMIN_PREFIX must start and end with "/"' },
    { env: { PAUSE_UNTIL: "tomorrow" }, message: "PAUSE_UNTIL must be an ISO 8601 time" },
    { env: { FAIL_OPEN: "yes" }, message: 'FAIL_OPEN must be "true" or "false"' },
  ])("$message", async ({ env, message }) => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await call("/", { env });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain(message);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it("reports every problem at once", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const text = await (await call("/", { env: { MODE: "x", BLOCK_STATUS: "x" } })).text();
    expect(text).toContain("MODE must be");
    expect(text).toContain("BLOCK_STATUS must be");
  });
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
    expect((await call("/private/partners/feed", { ua: BINGBOT, env })).status).toBe(200);
    expect((await call("/private/partners/feed", { ua: GOOGLEBOT, env })).status).toBe(403);
    expect((await call("/private/other", { ua: BINGBOT, env })).status).toBe(403);
  });

  it("search engines under /articles/ still follow robots.txt; humans pass", async () => {
    expect((await call("/articles/1", { ua: GOOGLEBOT, env })).status).toBe(200);
    expect((await call("/articles/1", { ua: CHROME, env })).status).toBe(200);
  });

  it("an invalid POLICY fails with the reason", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await call("/", { env: { POLICY: '{"routes":[{"pattern":"articles"}]}' } });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain(
      'POLICY: routes[0].pattern must be a path pattern starting with "/" or "*"',
    );
  });

  it("explain says which layer decided", async () => {
    const explained = await admin(`explain?ua=${encodeURIComponent("CCBot/2.0")}&url=/articles/1`, { env });
    expect(await explained.json()).toMatchObject({
      layer: "policy",
      policy: { route: "/articles/", routeIndex: 0, rule: { action: "block" } },
      action: { action: "block", status: 451 },
      allowed: false,
    });
  });
});
