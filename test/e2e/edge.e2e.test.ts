// The product as a site owner runs it: the Worker under `wrangler dev` (workerd, local KV) in
// proxy mode in front of a real origin process, driven by real clients — raw HTTP with corpus
// User-Agents, wget as an obedient and as a disobedient crawler, Python's robotparser — through
// origin faults, a crawl pause and a table of re-spelled URLs.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { DEMO_ROBOTS, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { corpusAgents, expectedStatus, SITE_PATHS, sweepOf } from "../corpus-sweep.ts";
import { mapBounded, pythonCanFetch, rawRequest, run } from "./clients.ts";

const TOKEN = "e2e-admin-token-0123";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const CORPUS = resolve(import.meta.dirname, "../fixtures/corpus/agents");
/** Requests in flight at once in the sweeps below: each is independent (DEMO_ROBOTS sets no pacing). */
const IN_FLIGHT = 8;

let origin: DemoOrigin;
let edge: EdgeProcess;
const demo = compileRobots(parseRobotsTxt(DEMO_ROBOTS));

beforeAll(async () => {
  origin = await startDemoOrigin();
  edge = await startEdge({
    vars: {
      ORIGIN_URL: origin.url,
      ADMIN_TOKEN: TOKEN,
      FETCH_TIMEOUT_MS: "1500",
      RETRY_AFTER: "120",
      ROBOTS_MAX_AGE: "3600",
      // Every client here is 127.0.0.1, and wrangler dev's stand-in request.cf says
      // botManagement.verifiedBot: false for all: verification is tested in test/worker.
      VERIFY_CRAWLERS: "off",
    },
  });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

const get = (path: string, ua: string) => rawRequest(edge.url, path, { ua });

async function adminCall(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(`${edge.url}/__robots/${path}`, init);
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const refresh = () => adminCall("POST", "refresh");

describe("crawlers and browsers from the corpus", () => {
  it("robots.txt is served by the edge, byte for byte", async () => {
    await refresh();
    const response = await get("/robots.txt", CHROME);
    expect(response.status).toBe(200);
    expect(response.body).toBe(DEMO_ROBOTS);
  });

  it.each([
    { ua: GOOGLEBOT, path: "/private/report", status: 403 },
    { ua: GOOGLEBOT, path: "/private/press-kit/", status: 200 },
    { ua: GOOGLEBOT, path: "/files/report.pdf", status: 403 },
    { ua: GOOGLEBOT, path: "/blog/", status: 200 },
    { ua: GPTBOT, path: "/blog/", status: 403 },
    { ua: CHROME, path: "/private/report", status: 200 },
  ])("$path for $ua -> $status", async ({ ua, path, status }) => {
    expect((await get(path, ua)).status).toBe(status);
  });

  // Corpus User-Agents with literal answers under the demo robots.txt (`*`: Disallow /private/,
  // /search, /*.pdf$, Allow /private/press-kit/; GPTBot, ClaudeBot, CCBot: Disallow /).
  it.each([
    { ua: "Googlebot-Image/1.0", path: "/private/report", status: 403, why: "no Googlebot-Image group: *" },
    { ua: "Googlebot-Image/1.0", path: "/blog/", status: 200, why: "* allows" },
    {
      ua: "AdsBot-Google (+http://www.google.com/adsbot.html)",
      path: "/private/report",
      status: 403,
      why: "ignores * only when proven: VERIFY_CRAWLERS=off proves nothing",
    },
    {
      ua: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      path: "/search",
      status: 403,
      why: "*",
    },
    {
      ua: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      path: "/docs/",
      status: 200,
      why: "*",
    },
    { ua: "CCBot/2.0 (https://commoncrawl.org/faq/)", path: "/blog/", status: 403, why: "CCBot group: Disallow /" },
    {
      ua: "CCBot/2.0 (https://commoncrawl.org/faq/)",
      path: "/robots.txt",
      status: 200,
      why: "robots.txt always served",
    },
    { ua: "python-requests/2.21.0", path: "/files/report.pdf", status: 403, why: "automated client under *: /*.pdf$" },
    { ua: "python-requests/2.21.0", path: "/private/press-kit/", status: 200, why: "longer allow wins" },
    { ua: "python-requests/2.21.0", path: "/nowhere", status: 404, why: "allowed; the origin has no such page" },
  ])("corpus agent $ua on $path -> $status ($why)", async ({ ua, path, status }) => {
    expect((await get(path, ua)).status).toBe(status);
  });

  // The two sweeps below compute their expectation with the product's own classifier and
  // matcher (expectedStatus): they check that the deployed edge agrees with the engine over
  // corpus strings, not that the engine is right — the literal rows above and the spec tables in
  // test/core do that. The full samples (every 8th and 12th, about 4,900 requests) run straight
  // into workerd in test/worker/corpus-sweep.test.ts; here a sample of those same strings goes
  // through wrangler dev, the path a site owner runs (a request costs ~10 ms of CPU here).
  it("every browser string passes everywhere (every 64th of the corpus, every page)", async () => {
    const requests = sweepOf(corpusAgents(readFileSync(resolve(CORPUS, "browsers.jsonl"), "utf8"), 64));
    const statuses = await mapBounded(requests, IN_FLIGHT, async ({ ua, path }) => (await get(path, ua)).status);
    const failures = requests.flatMap(({ ua, path }, i) => {
      const status = statuses[i];
      return status !== expectedStatus(ua, path) || status === 403 || status === 503 ? [`${status} ${path} ${ua}`] : [];
    });
    expect(failures).toEqual([]);
  }, 120_000);

  it("crawler strings get exactly what robots.txt says for their group (every 96th, every page)", async () => {
    const requests = sweepOf(corpusAgents(readFileSync(resolve(CORPUS, "crawlers.jsonl"), "utf8"), 96));
    const statuses = await mapBounded(requests, IN_FLIGHT, async ({ ua, path }) => (await get(path, ua)).status);
    const failures = requests.flatMap(({ ua, path }, i) =>
      statuses[i] === expectedStatus(ua, path)
        ? []
        : [`${statuses[i]} (expected ${expectedStatus(ua, path)}) ${path} ${ua}`],
    );
    expect(failures).toEqual([]);
    expect(statuses.filter((status) => status === 403).length).toBeGreaterThan(100);
  }, 120_000);
});

/** `wget --recursive` over the whole site through the edge, into a scratch folder removed after. */
async function wgetCrawl(options: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), "robots-edge-wget-"));
  const common = ["--recursive", "--level=10", "--no-verbose", "--tries=1", "--timeout=10"];
  try {
    return await run("wget", [...common, ...options, "-P", dir, `${edge.url}/`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("wget, a real crawler", () => {
  it("obeying robots.txt: finishes and fetches no disallowed URL", async () => {
    await refresh();
    const seenBefore = origin.requests.length;
    const result = await wgetCrawl(["-e", "robots=on"]);
    expect([0, 8]).toContain(result.code); // 8: some URL answered an error (the edge's 403s, the origin's 404s)
    const fetched = origin.requests.slice(seenBefore).filter((path) => path !== "/robots.txt");
    expect(fetched.length).toBeGreaterThan(5);
    const wget = classifyUserAgent("Wget/1.21");
    const disallowed = fetched.filter((path) => !demo.decide(wget.tokens, path).allowed);
    expect(disallowed).toEqual([]);
  }, 60_000);

  it("ignoring robots.txt with a crawler User-Agent: refused at the edge on every disallowed URL", async () => {
    const seenBefore = origin.requests.length;
    const result = await wgetCrawl(["-e", "robots=off", `--user-agent=${GOOGLEBOT}`]);
    const refused = [...result.stderr.matchAll(/^(\S+):\s*\n?.*ERROR 403/gm)].map(
      (match) => new URL(match[1] ?? "").pathname,
    );
    const fetched = origin.requests.slice(seenBefore);
    expect(fetched.filter((path) => !demo.decide(["Googlebot"], path).allowed)).toEqual([]);
    // What wget can discover: /private/report is linked only from /private/, itself refused.
    for (const path of ["/private/", "/files/report.pdf", "/search", "/caf%C3%A9/secret/recipe"])
      expect(refused).toContain(path);
    expect(refused.every((path) => !demo.decide(["Googlebot"], path).allowed)).toBe(true);
    expect(fetched).toContain("/private/press-kit/"); // allowed inside a disallowed directory
  }, 60_000);
});

describe("Python's urllib.robotparser reading the served robots.txt", () => {
  it("agrees with the edge except where the 1994 draft differs from RFC 9309, each explained", async () => {
    const agents = [GOOGLEBOT, GPTBOT, "Wget/1.21"];
    const pairs = agents.flatMap((ua) =>
      SITE_PATHS.map((path) => ({ ua: classifyUserAgent(ua).tokens[0] ?? ua, path, raw: ua })),
    );
    const python = await pythonCanFetch(
      `${edge.url}/robots.txt`,
      pairs.map(({ ua, path }) => ({ ua, url: `${edge.url}${path}` })),
    );
    const edgeStatuses = await mapBounded(pairs, IN_FLIGHT, async (pair) => (await get(pair.path, pair.raw)).status);
    const differences: string[] = [];
    for (const [i, pair] of pairs.entries()) {
      const edgeAllowed = edgeStatuses[i] !== 403;
      if (edgeAllowed === python[i]) continue;
      const decision = demo.decide([pair.ua], pair.path);
      const rules = decision.group?.rules ?? [];
      const why = /[*$]/.test(decision.rule?.pattern ?? "")
        ? "wildcard rule: robotparser has no * or $"
        : rules.some((rule) => rule.kind !== decision.rule?.kind && pair.path.startsWith(rule.pattern))
          ? "robotparser takes the first matching rule in file order, RFC 9309 the longest"
          : "UNEXPLAINED";
      differences.push(
        `${pair.ua} ${pair.path}: edge ${edgeAllowed ? "allows" : "blocks"}, robotparser ${python[i] ? "allows" : "blocks"} — ${why}`,
      );
    }
    expect(differences.filter((line) => line.includes("UNEXPLAINED"))).toEqual([]);
    expect(differences).toContain(
      "Googlebot /files/report.pdf: edge blocks, robotparser allows — wildcard rule: robotparser has no * or $",
    );
    expect(differences).toContain(
      "Googlebot /private/press-kit/: edge allows, robotparser blocks — robotparser takes the first matching rule in file order, RFC 9309 the longest",
    );
  }, 60_000);
});

describe("origin faults: the last good robots.txt survives every one", () => {
  const faults = [
    { name: "500", behaviour: { status: 500 }, inForce: "good" },
    { name: "503", behaviour: { status: 503 }, inForce: "good" },
    { name: "429", behaviour: { status: 429 }, inForce: "good" },
    { name: "a hang past the fetch time-out", behaviour: { hang: true as const }, inForce: "good" },
    { name: "2 MB of junk", behaviour: { status: 200, body: "x".repeat(2 * 1024 * 1024) }, inForce: "good" },
    {
      name: "an HTML page",
      behaviour: {
        status: 200,
        body: "<!DOCTYPE html><html><body>Maintenance</body></html>",
        contentType: "text/html",
      },
      inForce: "good",
    },
    { name: "404", behaviour: { status: 404 }, inForce: "none" },
    { name: "403", behaviour: { status: 403 }, inForce: "none" },
    { name: "6 redirects", behaviour: { redirects: 6 }, inForce: "none" },
  ] as const;

  it.each(faults)(
    "robots.txt answers $name",
    async ({ behaviour, inForce }) => {
      origin.setRobots(DEMO_ROBOTS);
      expect((await refresh()).json).toMatchObject({ state: "ok", lastError: null });
      origin.setRobots(behaviour);
      const status = (await refresh()).json;
      expect(status["copyFetchedAt"]).not.toBeNull(); // the good copy is still in the entry
      expect((await get("/private/report", GOOGLEBOT)).status).toBe(inForce === "good" ? 403 : 200);
      expect((await get("/blog/", GOOGLEBOT)).status).toBe(200);
      expect((await get("/private/report", CHROME)).status).toBe(200);
      const robots = await get("/robots.txt", CHROME);
      expect(robots.status).toBe(inForce === "good" ? 200 : 404);
      if (inForce === "good") expect(robots.body).toBe(DEMO_ROBOTS);
      origin.setRobots(DEMO_ROBOTS);
      expect((await refresh()).json).toMatchObject({ state: "ok" });
    },
    30_000,
  );

  it("5 redirects are followed", async () => {
    origin.setRobots({ redirects: 5, finalBody: "User-agent: *\nDisallow: /blog/\n" });
    expect((await refresh()).json).toMatchObject({ state: "ok" });
    expect((await get("/blog/", GOOGLEBOT)).status).toBe(403);
    origin.setRobots(DEMO_ROBOTS);
    await refresh();
  });

  it("the whole origin goes down and comes back", async () => {
    await refresh();
    await origin.goDown();
    try {
      expect((await refresh()).json).toMatchObject({
        state: "ok",
        lastError: expect.stringContaining("network error"),
      });
      expect((await get("/private/report", GOOGLEBOT)).status).toBe(403);
      expect((await get("/blog/", GOOGLEBOT)).status).toBe(502);
      expect((await get("/blog/", CHROME)).status).toBe(502);
      const robots = await get("/robots.txt", GOOGLEBOT);
      expect(robots.status).toBe(200);
      expect(robots.body).toBe(DEMO_ROBOTS);
    } finally {
      await origin.comeBack();
    }
    expect((await refresh()).json).toMatchObject({ state: "ok", lastError: null });
    expect((await get("/blog/", GOOGLEBOT)).status).toBe(200);
  }, 30_000);
});

describe("crawl pause through the admin API", () => {
  it("starts, answers 503 with Retry-After to crawlers and robots.txt, lets humans pass, ends", async () => {
    expect((await adminCall("POST", "pause", { minutes: 5, retryAfter: 120, reason: "e2e" })).status).toBe(200);
    const crawler = await get("/blog/", GOOGLEBOT);
    expect(crawler.status).toBe(503);
    expect(crawler.headers["retry-after"]).toBe("120");
    const robots = await get("/robots.txt", CHROME);
    expect(robots.status).toBe(503);
    expect(robots.headers["retry-after"]).toBe("120");
    expect((await get("/blog/", CHROME)).status).toBe(200);
    expect((await adminCall("DELETE", "pause")).status).toBe(200);
    expect((await get("/blog/", GOOGLEBOT)).status).toBe(200);
    expect((await get("/robots.txt", CHROME)).status).toBe(200);
  });
});

// Disallowed: /private/ and /café/secret/. Each re-spelling must keep the origin's content
// behind the rule for crawlers, and no human may be blocked.
describe("bypass attempts with re-spelled paths", () => {
  it.each([
    { path: "/%70rivate/", crawler: 403 },
    { path: "/%70%72ivate/x", crawler: 403 },
    { path: "/Private/", crawler: 404, why: "case-sensitive: another path, passed to the origin" },
    { path: "//private/", crawler: 403 },
    { path: "/./private/", crawler: 403 },
    { path: "/a/../private/", crawler: 403 },
    { path: "/private;x=1/", crawler: 403 },
    { path: "/priv%61te/", crawler: 403 },
    { path: "/private%2Fx", crawler: 403 },
    { path: "/private%2freport", crawler: 403 },
    { path: "/café/secret/recipe", crawler: 403, why: "raw UTF-8 on the wire" },
    { path: "/caf%C3%A9/secret/recipe", crawler: 403 },
    { path: "/caf%c3%a9/secret/recipe", crawler: 403 },
    { path: "/caf%C3%A9/menu", crawler: 200 },
    { path: "/private;%2F../", crawler: 403, why: "servlet reading: ;… stripped to the next raw /" },
    { path: "/private;jsessionid=x%2F..%2F/report", crawler: 403, why: "servlet reading" },
    { path: "//evil.test/private/report", crawler: 403, why: "network-path reading of //host/…" },
    { path: "/a/%2e%2e/private/", crawler: 403, why: "an encoded dot-segment is a dot-segment (RFC 3986 §2.3)" },
    { path: "/a/%2E./private/", crawler: 403, why: "half encoded" },
    { path: "/%2e%2e/private/", crawler: 403, why: "above the root" },
    { path: "/\\private/", crawler: 403, why: "a backslash is a slash to URL parsers" },
    { path: "/private/%00", crawler: 403, why: "an encoded NUL is just an octet under /private/" },
  ])("$path -> crawler $crawler, human not blocked", async ({ path, crawler }) => {
    expect((await get(path, GOOGLEBOT)).status).toBe(crawler);
    expect([403, 503]).not.toContain((await get(path, CHROME)).status);
  });
});

// Every layer judges every spelling: a live-policy route (mode report, off or an allow rule)
// chosen by one spelling, and a path-scoped usage preference, hold on every spelling. Also the
// `%3A` LinkChecker sends for `:`, and `/%2F<host>/…` read as a network path.
describe("bypass attempts through the live policy and usage preferences", () => {
  it.each([
    "/beta/..%2Fprivate/report",
    "/beta/..;/private/report",
    "//beta/private/report",
    "/beta/x;y=%2F..%2F..%2F/private/report",
  ])('policy {"routes":[{"pattern":"/beta/","mode":"report"}]}: %s -> crawler 403, human not blocked', async (path) => {
    expect((await adminCall("PUT", "policy", { routes: [{ pattern: "/beta/", mode: "report" }] })).status).toBe(200);
    try {
      expect((await get(path, GOOGLEBOT)).status).toBe(403);
      expect([403, 503]).not.toContain((await get(path, CHROME)).status);
    } finally {
      expect((await adminCall("POST", "policy/rollback", { version: 0 })).status).toBe(200);
    }
  });

  const USAGE_ROBOTS =
    "User-agent: *\nDisallow: /private/\nDisallow: /wiki/Special:\nDisallow: /wiki/Talk:O%27Brien\nContent-Usage: /ai-no/ train-ai=n\n";
  it.each([
    { path: "/pub/..%2Fai-no/x", ua: GPTBOT },
    { path: "/pub/..;/ai-no/x", ua: GPTBOT },
    { path: "//pub/ai-no/x", ua: GPTBOT },
    { path: "/ai-no;x=1/x", ua: GPTBOT },
    { path: "/wiki/Special%3ARandom", ua: GOOGLEBOT, why: "LinkChecker's %3A for :" },
    { path: "/wiki/Talk:O'Brien", ua: GOOGLEBOT, why: "the rule's %27 sent as '" },
    { path: "/%2Fevil.test/private/report", ua: GOOGLEBOT, why: "%2F decoded, then a network path" },
  ])("robots.txt with Content-Usage: /ai-no/ train-ai=n: $path -> crawler 403", async ({ path, ua }) => {
    origin.setRobots(USAGE_ROBOTS);
    try {
      expect((await refresh()).json).toMatchObject({ state: "ok" });
      expect((await get(path, ua)).status).toBe(403);
      expect((await get("/blog/", ua)).status).toBe(200);
      expect([403, 503]).not.toContain((await get(path, CHROME)).status);
    } finally {
      origin.setRobots(DEMO_ROBOTS);
      await refresh();
    }
  });
});

// Issue #9, the proxy escape: a request target that is a network-path reference must never
// leave ORIGIN_URL's host. A second server stands for "another host": it must see nothing.
// The demo origin resolves its request target as a URL reference (as many Node frameworks do)
// and serves `//host/private/report` as its own /private/report, so the edge must judge
// that reading too.
// Request targets in absolute-form (RFC 9112 §3.2.2), as a proxy-minded client sends them:
// the edge judges the path it forwards, whatever the authority in the target says.
describe("absolute-form request targets", () => {
  it("are judged by their path, for the edge's own host and for another", async () => {
    const { host } = new URL(edge.url);
    const rows = [
      { target: `http://${host}/private/report`, crawler: 403 },
      { target: `http://${host}/blog/`, crawler: 200 },
      { target: "http://evil.test/private/report", crawler: 403 },
    ];
    for (const { target, crawler } of rows) {
      expect((await get(target, GOOGLEBOT)).status, target).toBe(crawler);
      expect([403, 503], target).not.toContain((await get(target, CHROME)).status);
    }
  });
});

describe("the request never leaves the origin's host", () => {
  it("escapes are judged as the origin reads them and reach only the origin", async () => {
    const elsewhere = await startDemoOrigin();
    try {
      const host = new URL(elsewhere.url).host;
      const rows = [
        { path: `//${host}/private/report`, crawler: 403 },
        { path: `///${host}/private/report`, crawler: 403 },
        { path: `/\\${host}/private/report`, crawler: 403 },
        { path: `//user@${host}/private/report`, crawler: 403 },
        { path: `//${host}/blog/`, crawler: 200 },
      ];
      for (const { path, crawler } of rows) {
        expect((await get(path, GOOGLEBOT)).status, path).toBe(crawler);
        expect((await get(path, CHROME)).status, path).toBe(200);
      }
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});
