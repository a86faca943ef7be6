// The edge and the admin explain ask the same decision (src/policy/edge-decision.ts): the cases
// where they used to disagree (issue #11), each driven through both, expectations literal.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { admin, BINGBOT, call, fakeOrigin, freshState, GOOGLEBOT } from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nDisallow: /private/\nCrawl-delay: 30\n";
const POLICY = JSON.stringify({
  routes: [{ pattern: "/articles/", mode: "enforce", rules: [{ crawlers: ["Googlebot"], action: "block" }] }],
});

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
});
afterEach(freshState);

async function explained(ua: string, url: string, env: Partial<Env>) {
  await admin("refresh", { method: "POST", env });
  const response = await admin(`explain?ua=${encodeURIComponent(ua)}&url=${encodeURIComponent(url)}`, { env });
  return (await response.json()) as Record<string, unknown>;
}

describe("edge and explain agree where they used to differ", () => {
  it.each([
    {
      why: "MODE=off is the kill switch, over a policy route in enforce",
      env: { MODE: "off", POLICY },
      ua: GOOGLEBOT,
      path: "/articles/x",
      edge: 200,
      explain: { action: { action: "pass", status: null }, layer: "mode-off", reason: "mode-off" },
    },
    {
      why: "MODE=off without a policy: the mode decided",
      env: { MODE: "off" },
      ua: GOOGLEBOT,
      path: "/private/x",
      edge: 200,
      explain: { action: { action: "pass", status: null }, layer: "mode-off", reason: "mode-off" },
    },
    {
      why: "a policy block says the policy rule decided, not 'ok'",
      env: { POLICY },
      ua: GOOGLEBOT,
      path: "/articles/x",
      edge: 403,
      explain: { action: { action: "block", status: 403 }, layer: "policy", reason: "policy-rule" },
    },
    {
      why: "a refused var's default stands in (BLOCK_STATUS 403), and explain says so",
      env: { BLOCK_STATUS: "99" },
      ua: GOOGLEBOT,
      path: "/private/x",
      edge: 403,
      explain: { action: { action: "block", status: 403 }, layer: "robots.txt", reason: "rule" },
    },
    {
      why: "a typo in MODE enforces (its default), and explain says so",
      env: { MODE: "enforse" },
      ua: GOOGLEBOT,
      path: "/private/x",
      edge: 403,
      explain: { action: { action: "block", status: 403 }, layer: "robots.txt" },
    },
    {
      why: "a crawler bound by Crawl-delay: explain says when it would be limited",
      env: {},
      ua: BINGBOT,
      path: "/open",
      edge: 200,
      explain: {
        action: {
          action: "pass",
          status: null,
          rateLimit: "would be limited (429) if faster than one request every 30 s",
        },
        layer: "robots.txt",
      },
    },
  ] satisfies { why: string; env: Partial<Env>; ua: string; path: string; edge: number; explain: object }[])(
    "$why",
    async ({ env, ua, path, edge, explain }) => {
      expect(await explained(ua, path, env)).toMatchObject(explain);
      expect((await call(path, { ua, env })).status).toBe(edge);
    },
  );

  it("during a pause, explain says /robots.txt answers 503 as the edge does", async () => {
    await admin("refresh", { method: "POST" });
    expect((await admin("pause", { method: "POST", body: { minutes: 10, retryAfter: 120 } })).status).toBe(200);
    const response = await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=%2Frobots.txt`);
    expect(await response.json()).toMatchObject({ action: { action: "unavailable", status: 503 }, layer: "pause" });
    expect((await call("/robots.txt", { ua: GOOGLEBOT })).status).toBe(503);
  });

  it("a 429 is logged as rate-limited, after the decision, not as a pass", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    expect((await call("/open", { ua: BINGBOT })).status).toBe(200);
    expect((await call("/open", { ua: BINGBOT })).status).toBe(429);
    const actions = log.mock.calls
      .map(([line]) => JSON.parse(String(line)) as { event: string; action: string })
      .filter((line) => line.event === "robots-edge.decision")
      .map((line) => line.action);
    expect(actions).toEqual(["pass", "rate-limited"]);
  });
});

describe("usage preferences at the edge and in explain (USAGE_SIGNALS)", () => {
  const USAGE_ROBOTS = "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n";
  const GPTBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";

  it.each([
    {
      why: "train-ai=n refuses GPTBot (ai-training)",
      env: {},
      ua: GPTBOT,
      status: 403,
      marker: 'blocked; usage="content-usage train-ai"; line=3',
      contentUsage: null,
      explain: { action: { action: "block", status: 403 }, layer: "usage-signal", reason: "usage-signal" },
    },
    {
      why: "USAGE_SIGNALS=report passes it, marked",
      env: { USAGE_SIGNALS: "report" },
      ua: GPTBOT,
      status: 200,
      marker: 'would-block; usage="content-usage train-ai"; line=3',
      contentUsage: null,
      explain: { action: { action: "report" }, layer: "usage-signal" },
    },
    {
      why: "Googlebot (search) passes, with the path's Content-Usage",
      env: {},
      ua: GOOGLEBOT,
      status: 200,
      marker: null,
      contentUsage: "train-ai=n",
      explain: { action: { action: "pass" }, layer: "robots.txt", contentUsage: "train-ai=n" },
    },
    {
      why: "USAGE_HEADER=false: Googlebot passes without the header",
      env: { USAGE_HEADER: "false" },
      ua: GOOGLEBOT,
      status: 200,
      marker: null,
      contentUsage: null,
      explain: { action: { action: "pass" }, layer: "robots.txt", contentUsage: null },
    },
  ] satisfies {
    why: string;
    env: Partial<Env>;
    ua: string;
    status: number;
    marker: string | null;
    contentUsage: string | null;
    explain: object;
  }[])("$why", async ({ env, ua, status, marker, contentUsage, explain }) => {
    fakeOrigin({ body: USAGE_ROBOTS });
    expect(await explained(ua, "/open", env)).toMatchObject(explain);
    const response = await call("/open", { ua, env });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-robots-edge")).toBe(marker);
    expect(response.headers.get("content-usage")).toBe(contentUsage);
  });
});
