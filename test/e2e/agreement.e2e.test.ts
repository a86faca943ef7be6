// Done-when of issues #11 and #25: the admin explain endpoint and the edge agree on every request,
// for several configurations (enforce, report, off, off over an enforcing route, a pause, a typo
// in MODE, a short ADMIN_TOKEN, an impostor, an unverifiable claim, a public URL in explain), both
// driven through `wrangler dev` in front of the demo origin. Each row states literally what both
// must say: explain's action, layer and status, and what the edge answers (status, and
// X-Robots-Edge when the edge marks the response).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ROBOTS, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";
import { sharedEdges } from "./shared-edges.ts";

const TOKEN = "e2e-agreement-token";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const OAI_SEARCHBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot";
const CCBOT = "CCBot/2.0 (https://commoncrawl.org/faq/)";

// Issue #14: usage preferences in the origin's robots.txt, enforced by category.
const USAGE_ROBOTS = `User-agent: *
Allow: /
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y
Content-Signal: /docs/ search=yes, ai-train=no
`;

// Googlebot's own group allows everything; `*` refuses /private/.
const SPLIT_ROBOTS = `User-agent: *
Disallow: /private/

User-agent: Googlebot
Allow: /
`;

/** Google's list as the cron stores it (worker/identity/crawler-ranges.ts), fetched now. */
const GOOGLE_LIST = JSON.stringify({ sources: { googlebot: { fetchedAt: Date.now(), cidrs: ["66.249.64.0/24"] } } });

const POLICY = JSON.stringify({
  routes: [
    { pattern: "/blog/", mode: "enforce", blockStatus: 451, rules: [{ crawlers: ["Googlebot"], action: "block" }] },
    { pattern: "/docs/", mode: "off" },
  ],
});

interface Row {
  readonly ua: string;
  readonly path: string;
  /** Explain's action and status (null: the edge makes no response of its own). */
  readonly action: string;
  readonly status: number | null;
  /** Explain's deciding layer (src/vocabulary.ts LAYERS), where the row is about it. */
  readonly layer?: string;
  /** Explain's verification status, where the row is about it. */
  readonly verification?: string;
  /** The client address given to explain (`ip=`): the edge's own request comes from loopback. */
  readonly ip?: string;
  /** What the edge answers; null: a row for explain alone (its comment says where the edge's side runs). */
  readonly edge: number | null;
  readonly marker?: string;
  /** The Content-Usage header on the edge's response (null: none). */
  readonly contentUsage?: string | null;
  /** The URL given to explain, when not the path itself (a visitor's absolute URL). */
  readonly explainUrl?: string;
  /** Retry-After: explain's and the edge's header alike. */
  readonly retryAfter?: number;
}

interface Configuration {
  readonly name: string;
  readonly vars: Record<string, string>;
  readonly paused?: boolean;
  readonly robots?: string;
  /** POST refresh before the rows (default true); false: explain works from nothing stored. */
  readonly refresh?: boolean;
  /** Keys stored in the edge's KV before it starts (the crawler lists, as the cron would store them). */
  readonly kv?: Record<string, string>;
  /** What GET status says the edge does now (a part of its `edge`). */
  readonly now?: Record<string, unknown>;
  readonly rows: Row[];
}

const configurations: Configuration[] = [
  {
    name: "MODE=enforce, no policy",
    vars: {},
    rows: [
      { ua: GOOGLEBOT, path: "/private/report", action: "block", layer: "robots.txt", status: 403, edge: 403 },
      { ua: GOOGLEBOT, path: "/private/press-kit/", action: "pass", status: null, edge: 200 },
      { ua: GOOGLEBOT, path: "/%70rivate/report", action: "block", status: 403, edge: 403 },
      { ua: GOOGLEBOT, path: "/private;%2F../", action: "block", status: 403, edge: 403 },
      { ua: GPTBOT, path: "/blog/", action: "block", status: 403, edge: 403 },
      { ua: CHROME, path: "/private/report", action: "pass", status: null, edge: 200 },
      {
        ua: GOOGLEBOT,
        path: "/robots.txt",
        action: "serve-robots-txt",
        layer: "robots.txt-file",
        status: null,
        edge: 200,
        marker: "served",
      },
    ],
  },
  {
    name: "MODE=enforce during a crawl pause",
    vars: {},
    paused: true,
    rows: [
      {
        ua: GOOGLEBOT,
        path: "/blog/",
        action: "unavailable",
        layer: "pause",
        status: 503,
        edge: 503,
        marker: "paused",
        retryAfter: 120,
      },
      {
        ua: GOOGLEBOT,
        path: "/private/report",
        action: "unavailable",
        layer: "pause",
        status: 503,
        edge: 503,
        marker: "paused",
        retryAfter: 120,
      },
      { ua: GPTBOT, path: "/blog/", action: "unavailable", layer: "pause", status: 503, edge: 503, marker: "paused" },
      { ua: CHROME, path: "/blog/", action: "pass", layer: "human", status: null, edge: 200 },
      {
        ua: CHROME,
        path: "/robots.txt",
        action: "unavailable",
        layer: "pause",
        status: 503,
        edge: 503,
        marker: "paused",
      },
    ],
  },
  {
    name: "MODE=report with a policy (a route in enforce, a route off)",
    vars: { MODE: "report", POLICY },
    rows: [
      {
        ua: GOOGLEBOT,
        path: "/private/report",
        action: "report",
        layer: "robots.txt",
        status: null,
        edge: 200,
        marker: 'would-block; rule="disallow: /private/"; line=3',
      },
      { ua: GOOGLEBOT, path: "/blog/hello-world", action: "block", layer: "policy", status: 451, edge: 451 },
      { ua: GPTBOT, path: "/blog/", action: "block", status: 451, edge: 451 },
      { ua: GPTBOT, path: "/docs/guide/", action: "pass", status: null, edge: 200 },
    ],
  },
  {
    name: "usage preferences (Content-Usage, Content-Signal) under USAGE_SIGNALS=enforce",
    vars: {},
    robots: USAGE_ROBOTS,
    rows: [
      {
        ua: GPTBOT,
        path: "/",
        action: "block",
        status: 403,
        edge: 403,
        marker: 'blocked; usage="content-usage train-ai"; line=4',
      },
      { ua: GPTBOT, path: "/blog/hello-world", action: "pass", status: null, edge: 200, contentUsage: "train-ai=y" },
      { ua: CCBOT, path: "/docs/guide/", action: "block", status: 403, edge: 403 },
      { ua: GOOGLEBOT, path: "/", action: "pass", status: null, edge: 200, contentUsage: "train-ai=n" },
      {
        ua: OAI_SEARCHBOT,
        path: "/docs/guide/",
        action: "pass",
        status: null,
        edge: 200,
        contentUsage: "train-ai=n",
      },
      { ua: GOOGLEBOT, path: "/private/report", action: "block", status: 403, edge: 403 },
      { ua: CHROME, path: "/", action: "pass", status: null, edge: 200, contentUsage: null },
    ],
  },
  {
    // Before the kill-switch rows below, on the same edge (same vars): nothing refreshed it yet.
    name: "MODE=off with no robots.txt stored: explain says pass, never 'refresh first'",
    vars: { MODE: "off", POLICY },
    refresh: false,
    rows: [
      { ua: GOOGLEBOT, path: "/private/report", action: "pass", status: null, edge: 200 },
      { ua: GPTBOT, path: "/", action: "pass", status: null, edge: 200 },
    ],
  },
  {
    name: "MODE=off is the kill switch over a route in enforce",
    vars: { MODE: "off", POLICY },
    now: { mode: { mode: "off", source: "var", routes: [] }, problems: [] },
    rows: [
      { ua: GOOGLEBOT, path: "/blog/hello-world", action: "pass", layer: "mode-off", status: null, edge: 200 },
      { ua: GPTBOT, path: "/private/report", action: "pass", layer: "mode-off", status: null, edge: 200 },
    ],
  },
  {
    name: "a typo in MODE: its default (enforce) stands in, shown as a problem",
    vars: { MODE: "enforse" },
    now: {
      mode: { mode: "enforce", source: "refused" },
      problems: ['MODE must be one of enforce, report, off, got "enforse"'],
    },
    rows: [
      { ua: GOOGLEBOT, path: "/private/report", action: "block", status: 403, edge: 403 },
      { ua: GOOGLEBOT, path: "/private/press-kit/", action: "pass", status: null, edge: 200 },
      { ua: CHROME, path: "/private/report", action: "pass", status: null, edge: 200 },
    ],
  },
  {
    // Explain given no client address says what happens to a claim that cannot be checked:
    // judged under its group and under `*`, refused only by `*`, so 503 with Retry-After, never
    // 403. Googlebot's own group allows everything, `*` refuses /private/. The edge's side of
    // this row runs in workerd (test/worker/agreement.test.ts, "an unverifiable claim"): under
    // `wrangler dev` every request carries local Cloudflare fields saying `verifiedBot: false`,
    // which refute any claim (the impostor configuration below).
    name: "an unverifiable claim: explain says 503 where only * refuses, never 403",
    vars: { VERIFY_CRAWLERS: "unknown" },
    robots: SPLIT_ROBOTS,
    rows: [
      {
        ua: GOOGLEBOT,
        path: "/private/report",
        action: "unavailable",
        layer: "unproven-claim",
        verification: "unverifiable",
        status: 503,
        edge: null,
        retryAfter: 300,
      },
      {
        ua: GOOGLEBOT,
        path: "/blog/",
        action: "pass",
        layer: "robots.txt",
        verification: "unverifiable",
        status: null,
        edge: null,
      },
    ],
  },
  {
    // Google's list is loaded (as the cron stores it) and the request comes from loopback, an
    // address outside it: the claim is refuted (at the edge, `wrangler dev`'s local Cloudflare
    // fields refute it too). Explain is given the same address.
    name: "an impostor under VERIFY_CRAWLERS=block: 403 for the claim",
    vars: { VERIFY_CRAWLERS: "block" },
    robots: SPLIT_ROBOTS,
    kv: { "crawler-ranges": GOOGLE_LIST },
    rows: [
      {
        ua: GOOGLEBOT,
        path: "/blog/",
        ip: "127.0.0.1",
        action: "block",
        layer: "verification",
        verification: "refuted",
        status: 403,
        edge: 403,
        marker: "impostor",
      },
      { ua: CHROME, path: "/blog/", action: "pass", layer: "human", status: null, edge: 200 },
    ],
  },
  {
    name: "a public URL in explain (proxy mode: any host is the Worker's)",
    vars: {},
    rows: [
      {
        ua: GOOGLEBOT,
        path: "/private/report",
        explainUrl: "https://www.mysite.example/private/report",
        action: "block",
        status: 403,
        edge: 403,
      },
      {
        ua: GOOGLEBOT,
        path: "/private/press-kit/",
        explainUrl: "http://127.0.0.1:8787/private/press-kit/",
        action: "pass",
        status: null,
        edge: 200,
      },
    ],
  },
];

let origin: DemoOrigin;
// Configurations with the same vars share one wrangler dev (shared-edges.ts): four use the
// defaults, two MODE=off with the policy. Each sets its origin file and refreshes before its rows
// (but the one that explains from nothing stored), and undoes its pause.
const edges = sharedEdges();
/** The shared edges a configuration has refreshed (POST refresh stores robots.txt). */
const refreshed = new Set<EdgeProcess>();
beforeAll(async () => {
  origin = await startDemoOrigin();
});
afterAll(async () => {
  await edges.stop();
  await origin?.close();
});

describe.each(configurations)("admin explain and the edge agree: $name", (configuration) => {
  const { vars, paused, robots, rows } = configuration;
  let edge: EdgeProcess;
  const admin = async (method: string, path: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}` } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${edge.url}/__robots/${path}`, init);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    origin.setRobots(robots ?? DEMO_ROBOTS);
    edge = await edges.edge({
      vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN, VERIFY_CRAWLERS: "off", ...vars },
      ...(configuration.kv && { kv: configuration.kv }),
    });
    if (configuration.refresh === false) {
      // Explain from nothing stored needs an edge no configuration has refreshed: such a
      // configuration comes before the others with its vars.
      expect(refreshed.has(edge)).toBe(false);
    } else {
      expect((await admin("POST", "refresh")).status).toBe(200);
      refreshed.add(edge);
    }
    if (paused) expect((await admin("POST", "pause", { minutes: 5, retryAfter: 120 })).status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    if (paused) expect((await admin("DELETE", "pause")).status).toBe(200);
    origin.setRobots(DEMO_ROBOTS);
  });

  it.each(rows)("$path for $ua: explain $action $status, edge $edge", async (row) => {
    const query = new URLSearchParams({ ua: row.ua, url: row.explainUrl ?? row.path, ...(row.ip && { ip: row.ip }) });
    const explained = await admin("GET", `explain?${query}`);
    expect(explained.status).toBe(200);
    expect(explained.json["action"]).toMatchObject({ action: row.action, status: row.status });
    if (row.layer !== undefined) expect(explained.json["layer"]).toBe(row.layer);
    if (row.verification !== undefined)
      expect(explained.json["verification"]).toMatchObject({ status: row.verification });
    if (row.retryAfter !== undefined) expect(explained.json["action"]).toMatchObject({ retryAfter: row.retryAfter });
    if (row.edge === null) return;
    const response = await rawRequest(edge.url, row.path, { ua: row.ua });
    expect(response.status).toBe(row.edge);
    if (row.retryAfter !== undefined) expect(response.headers["retry-after"]).toBe(String(row.retryAfter));
    if (row.marker) expect(response.headers["x-robots-edge"]).toBe(row.marker);
    if (row.contentUsage !== undefined) expect(response.headers["content-usage"] ?? null).toBe(row.contentUsage);
  });

  it.runIf(configuration.now)("GET status says what the edge does now", async () => {
    const status = await admin("GET", "status");
    expect(status.json["edge"]).toMatchObject(configuration.now ?? {});
  });
});

// A short ADMIN_TOKEN turns off the admin API, and only it: the edge enforces as before, and
// the admin prefix answers why instead of the origin's 404.
describe("a short ADMIN_TOKEN: the admin API is off, enforcement is not", () => {
  let edge: EdgeProcess;
  beforeAll(async () => {
    edge = await startEdge({ vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: "too-short", VERIFY_CRAWLERS: "off" } });
  }, 90_000);
  afterAll(async () => {
    await edge?.stop();
  });

  it.each([
    { ua: GOOGLEBOT, path: "/private/report", edge: 403 },
    { ua: GPTBOT, path: "/blog/", edge: 403 },
    { ua: CHROME, path: "/private/report", edge: 200 },
  ])("$path for $ua: edge $edge", async ({ ua, path, edge: status }) => {
    expect((await rawRequest(edge.url, path, { ua })).status).toBe(status);
  });

  it.each(["status", "explain?ua=x&url=/", ""])("admin %j answers 503 saying why", async (path) => {
    const response = await fetch(`${edge.url}/__robots/${path}`, { headers: { authorization: "Bearer too-short" } });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: string };
    expect(body.error).toContain("the admin API is off: ADMIN_TOKEN is shorter than 16 characters");
    expect(body.error).not.toContain("too-short");
  });
});
