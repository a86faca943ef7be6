// Issue 30 end to end: a bad value in local KV, put there with `wrangler kv key put --local
// --persist-to <dir>` before `wrangler dev --persist-to <dir>` starts (scripts/edge-process.ts,
// startEdge's `kv`), as an operator's hand edit or another release's write would leave it. The
// Worker starts cold on it: a person still gets the origin's page, crawlers what robots.txt
// says (never a 500), /robots.txt is served, GET status names the key, and the admin API
// repairs it. (The whole matrix, every record × every fault, runs in workerd:
// test/worker/own-faults.test.ts.) The four keys are read apart from one another, so one start
// plants a fault in each (a wrangler start costs seconds of CPU; one per row was 8 starts):
// two starts, the first fault of each key, then the second. Status names each key, and each
// repair clears its own key and leaves the others named until theirs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ROBOTS, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";

const TOKEN = "e2e-admin-token-0123";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

let origin: DemoOrigin;

beforeAll(async () => {
  origin = await startDemoOrigin();
}, 30_000);
afterAll(async () => {
  await origin?.close();
});

interface Row {
  readonly key: string;
  readonly fault: string;
  /** The bad value, as `wrangler kv key put --local` stores it. */
  readonly value: () => string;
  /** What status's fault says of it. */
  readonly cause: string;
  /**
   * A bad robots: entry is read by the first request, wrangler dev's readiness probe (a client
   * without a User-Agent: a crawler), which fetches robots.txt anew and stores it over the bad
   * value before any test asks: status then shows the origin fetched, and no fault left.
   */
  readonly repairedByFirstRequest?: boolean;
  /** The admin repair: method, route, body, and the status it answers. */
  readonly repair: { readonly method: string; readonly path: string; readonly body?: string; readonly status: number };
}

const originKey = () => `robots:${origin.url}`;
const keyOf = (row: Row) => (row.key === "robots:<origin>" ? originKey() : row.key);

/** Each key's first fault, then each key's second: one start each, the four keys planted together. */
const PLANTINGS: readonly { readonly name: string; readonly rows: readonly Row[] }[] = [
  {
    name: "first faults",
    rows: [
      {
        key: "crawler-ranges",
        fault: "not JSON",
        value: () => "66.249.64.0/24",
        cause: "the stored value is not JSON",
        repair: { method: "POST", path: "refresh?sources=ranges", status: 200 },
      },
      {
        key: "pause",
        fault: "wrong shape",
        value: () => JSON.stringify({ until: "tomorrow", retryAfter: 600 }),
        cause: 'not the shape this release writes ("until" or "startedAt" is not a time)',
        repair: { method: "DELETE", path: "pause", status: 200 },
      },
      {
        key: "robots:<origin>",
        fault: "not JSON",
        value: () => DEMO_ROBOTS,
        cause: "the stored value is not JSON",
        repairedByFirstRequest: true,
        repair: { method: "POST", path: "refresh", status: 200 },
      },
      {
        key: "policy",
        fault: "not JSON",
        value: () => '{"versions": [',
        cause: "the stored value is not JSON",
        repair: { method: "PUT", path: "policy", body: '{"routes":[]}', status: 200 },
      },
    ],
  },
  {
    name: "second faults",
    rows: [
      {
        key: "crawler-ranges",
        fault: "newer schema",
        value: () => JSON.stringify({ schema: 2, sources: {}, lists: [] }),
        cause: "written by a newer release (schema 2; this release reads 1)",
        repair: { method: "POST", path: "refresh?sources=ranges", status: 200 },
      },
      {
        key: "pause",
        fault: "truncated",
        value: () => '{"until":1795000000000,"retryAf',
        cause: "the stored value is not JSON",
        repair: { method: "DELETE", path: "pause", status: 200 },
      },
      {
        key: "robots:<origin>",
        fault: "older schema",
        value: () => JSON.stringify({ version: 0, authority: origin.url, state: "ok" }),
        cause: "written by an older release (entry version 0; this release reads 1)",
        repairedByFirstRequest: true,
        repair: { method: "POST", path: "refresh", status: 200 },
      },
      {
        key: "policy",
        fault: "wrong shape",
        value: () => JSON.stringify({ versions: { 1: "allow" } }),
        cause: 'not the shape this release writes ("versions" is not a list)',
        repair: { method: "PUT", path: "policy", body: '{"routes":[]}', status: 200 },
      },
    ],
  },
];

interface Status {
  readonly ownFaults: { key: string; cause: string }[];
  readonly origins: { authority: string; state: string }[];
}

describe.each(PLANTINGS)("$name of every key, planted before wrangler dev starts", ({ rows }) => {
  let edge: EdgeProcess;

  beforeAll(async () => {
    edge = await startEdge({
      vars: {
        ORIGIN_URL: origin.url,
        ADMIN_TOKEN: TOKEN,
        FETCH_TIMEOUT_MS: "1500",
        // Every client is 127.0.0.1: verification is tested in test/worker. Crawlers in disguise
        // stay at their default (report), so every browser request reads crawler-ranges.
        VERIFY_CRAWLERS: "off",
        CRAWLER_RANGES: JSON.stringify({ googlebot: `${origin.url}/ranges/googlebot.json` }),
      },
      kv: Object.fromEntries(rows.map((row) => [keyOf(row), row.value()])),
    });
  }, 90_000);
  afterAll(async () => {
    await edge?.stop();
  });

  const adminCall = (method: string, path: string, body?: string) =>
    fetch(`${edge.url}/__robots/${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}` },
      ...(body !== undefined && { body }),
    });
  const readStatus = async () => {
    const response = await adminCall("GET", "status");
    expect(response.status).toBe(200);
    return (await response.json()) as Status;
  };

  it.each(rows)(
    "GET status names $key ($fault), its cause and its repair (or the first request repaired it)",
    async (row) => {
      const { ownFaults, origins } = await readStatus();
      if (row.repairedByFirstRequest) {
        expect(ownFaults.map((fault) => fault.key)).not.toContain(keyOf(row));
        expect(origins).toEqual([expect.objectContaining({ authority: origin.url, state: "ok" })]);
        return;
      }
      expect(ownFaults).toContainEqual(
        expect.objectContaining({ key: keyOf(row), cause: expect.stringContaining(row.cause) as unknown }),
      );
    },
  );

  it.each([
    {
      who: "a person",
      ua: CHROME,
      path: "/private/report",
      status: 200,
      body: "<!doctype html><title>/private/report</title><body>Private report.</body>",
    },
    { who: "a crawler on an allowed path", ua: GOOGLEBOT, path: "/blog/hello-world", status: 200, body: undefined },
    { who: "a crawler on a disallowed path", ua: GOOGLEBOT, path: "/private/report", status: 403, body: undefined },
    { who: "/robots.txt", ua: GOOGLEBOT, path: "/robots.txt", status: 200, body: DEMO_ROBOTS },
  ])("$who -> $status", async ({ ua, path, status, body }) => {
    const response = await rawRequest(edge.url, path, { ua });
    expect(response.status).toBe(status);
    if (body !== undefined) expect(response.body).toBe(body);
  });

  // In table order: after each repair, status names exactly the keys whose repair is still to come.
  it.each(rows.map((row, i) => ({ ...row, later: rows.slice(i + 1).filter((next) => !next.repairedByFirstRequest) })))(
    "the admin repair of $key answers, and status names it no more (the others until theirs)",
    async (row) => {
      const { method, path, body, status: answer } = row.repair;
      expect((await adminCall(method, path, body)).status).toBe(answer);
      const { ownFaults } = await readStatus();
      expect(ownFaults.map((fault) => fault.key).toSorted()).toEqual(row.later.map(keyOf).toSorted());
    },
  );
});
