// Issue 24 end to end: crawlers in disguise through `wrangler dev`. A loopback server publishes
// test lists (a crawler-only gptbot list, a mixed chatgpt-user list) and CRAWLER_RANGES points
// every source at it; POST refresh?sources=ranges loads them at once. The client's address is
// set with a CF-Connecting-IP request header: wrangler dev passes a client's header to the Worker
// (without one the Worker sees 127.0.0.1), as Cloudflare never would (it sets the header itself).
// A browser User-Agent from the gptbot list is GPTBot (403 where GPTBot's group disallows, in
// every spelling); from the mixed list, or anywhere else, a person. The operator page (Chromium)
// shows it in the activity table, marked disguised.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE_SOURCES } from "../../src/agents/operators/tables.ts";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";

const TOKEN = "disguised-e2e-token-0123";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const ROBOTS = "User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n";
const LISTS: Record<string, unknown> = {
  "/gptbot.json": { prefixes: [{ ipv4Prefix: "198.51.100.0/24" }, { ipv6Prefix: "2001:db8:66::/48" }] },
  "/chatgpt-user.json": { prefixes: [{ ipv4Prefix: "192.0.2.0/24" }] },
};

let lists: Server;
let origin: DemoOrigin;
let edge: EdgeProcess;
let browser: Browser | undefined;
const listFetches: string[] = [];

beforeAll(async () => {
  lists = createServer((request, response) => {
    listFetches.push(request.url ?? "");
    const list = LISTS[request.url ?? ""];
    response.writeHead(list ? 200 : 404, { "content-type": "application/json" });
    response.end(list ? JSON.stringify(list) : "{}");
  });
  await new Promise<void>((done) => lists.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(lists.address() as AddressInfo).port}`;
  origin = await startDemoOrigin();
  origin.setRobots(ROBOTS);
  edge = await startEdge({
    vars: {
      ORIGIN_URL: origin.url,
      ADMIN_TOKEN: TOKEN,
      DISGUISED_CRAWLERS: "enforce",
      // Every source from the loopback server (no list leaves the machine); most answer 404.
      CRAWLER_RANGES: JSON.stringify(
        Object.fromEntries(RANGE_SOURCES.map((source) => [source.name, `${base}/${source.name}.json`])),
      ),
    },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await origin?.close();
  await new Promise<void>((done) => (lists ? lists.close(() => done()) : done()));
});

const adminHeaders = { authorization: `Bearer ${TOKEN}` };

function browse(path: string, address?: string): Promise<Response> {
  const headers: Record<string, string> = { "user-agent": CHROME };
  if (address) headers["cf-connecting-ip"] = address;
  return fetch(`${edge.url}${path}`, { headers, redirect: "manual" });
}

describe("crawlers in disguise through wrangler dev", () => {
  it("POST refresh?sources=ranges loads the lists from CRAWLER_RANGES now", async () => {
    const response = await fetch(`${edge.url}/__robots/refresh?sources=ranges`, {
      method: "POST",
      headers: adminHeaders,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { lists: Record<string, unknown>[] };
    const gptbot = body.lists.find((list) => list["name"] === "gptbot");
    expect(gptbot).toMatchObject({ use: "crawler-only", configured: true, lastError: null, ageSeconds: 0 });
    expect(body.lists.find((list) => list["name"] === "bingbot")).toMatchObject({ lastError: "HTTP 404" });
    expect(listFetches.toSorted()).toEqual(RANGE_SOURCES.map((source) => `/${source.name}.json`).toSorted());
  });

  it.each([
    {
      name: "from the gptbot list: GPTBot's group refuses",
      address: "198.51.100.7",
      path: "/private/report",
      status: 403,
    },
    { name: "the same, another spelling", address: "198.51.100.7", path: "/%70rivate/report", status: 403 },
    { name: "IPv6 in the gptbot list", address: "2001:db8:66::5", path: "/private/report", status: 403 },
    { name: "from the gptbot list, a path GPTBot may fetch", address: "198.51.100.7", path: "/blog/", status: 200 },
    {
      name: "from the chatgpt-user list (mixed): a person",
      address: "192.0.2.7",
      path: "/private/report",
      status: 200,
    },
    { name: "in no list: a person", address: "203.0.113.7", path: "/private/report", status: 200 },
  ])("$name -> $status", async ({ address, path, status }) => {
    const response = await browse(path, address);
    expect(response.status).toBe(status);
  });

  it("the activity API counts GPTBot's disguised requests", async () => {
    await expect
      .poll(
        async () => {
          const view = (await (await fetch(`${edge.url}/__robots/activity`, { headers: adminHeaders })).json()) as {
            crawlers: { token: string; verified: Record<string, number> }[];
          };
          return view.crawlers.find((crawler) => crawler.token === "GPTBot")?.verified["disguised"];
        },
        { timeout: 10_000, interval: 250 },
      )
      .toBe(4);
  });

  it("the operator page shows them (Chromium)", async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const page: Page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#app:not(.hidden)");
    await page.click("#activity-reload");
    await page.waitForSelector("#activity-table tbody tr td:has-text('GPTBot')");
    const headers = await page.$$eval("#activity-table thead th", (ths) => ths.map((th) => th.textContent?.trim()));
    const row = await page.$$eval("#activity-table tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)).find((cells) => cells[0] === "GPTBot"),
    );
    const disguisedAt = headers.indexOf("Disguised");
    expect(disguisedAt).toBeGreaterThan(0);
    expect(row?.[disguisedAt]).toBe("4");
    expect(
      await page.getAttribute(`#activity-table tbody tr:has(td:text-is('GPTBot')) td >> nth=${disguisedAt}`, "class"),
    ).toContain("disguised");
    const recent = await page.$$eval("#activity-recent tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].slice(1, 3).map((td) => td.textContent)),
    );
    expect(recent).toContainEqual(["GPTBot", "disguised"]);
  });
});
