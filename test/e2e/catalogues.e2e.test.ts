// Crawler catalogues end to end through `wrangler dev`: a loopback server publishes an excerpt of
// ai.robots.txt's robots.json (test/fixtures/catalogues) and CRAWLER_CATALOGUES points at it;
// POST refresh?sources=catalogues loads it at once. NagetBot, a name the built-in table lacks and
// the list files as an AI data scraper, is refused where the purposes block training and passes
// where they allow it; a category's allow rule opens nothing `*` refuses; an oversized answer
// keeps the last good copy and shows in status; explain names the catalogue.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";

const TOKEN = "catalogues-e2e-token-0123";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const NAGET = "NagetBot/1.0 (+https://naget.example/bot)";
const YIYAN = "Mozilla/5.0 (compatible; YiyanBot/1.0)";
const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const ROBOTS_JSON = readFileSync(resolve(import.meta.dirname, "../fixtures/catalogues/robots.json"), "utf8");

let catalogue: Server;
let answer: "good" | "oversized" = "good";
const fetched: string[] = [];
let origin: DemoOrigin;
let edge: EdgeProcess;

beforeAll(async () => {
  catalogue = createServer((request, response) => {
    fetched.push(request.url ?? "");
    response.writeHead(200, { "content-type": "application/json" });
    response.end(answer === "good" ? ROBOTS_JSON : `{"x": "${"a".repeat(1024 * 1024 + 10)}"}`);
  });
  await new Promise<void>((done) => catalogue.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(catalogue.address() as AddressInfo).port}/robots.json`;
  origin = await startDemoOrigin();
  origin.setRobots(ROBOTS);
  edge = await startEdge({
    vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN, CRAWLER_CATALOGUES: JSON.stringify({ "ai-robots-txt": url }) },
  });
}, 120_000);

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await new Promise<void>((done) => (catalogue ? catalogue.close(() => done()) : done()));
});

const adminHeaders = { authorization: `Bearer ${TOKEN}` };

function adminCall(path: string, method = "GET", body?: unknown): Promise<Response> {
  return fetch(`${edge.url}/__robots/${path}`, {
    method,
    headers: { ...adminHeaders, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

async function statusOf(ua: string, path: string): Promise<number> {
  const response = await fetch(`${edge.url}${path}`, { headers: { "user-agent": ua }, redirect: "manual" });
  await response.body?.cancel();
  return response.status;
}

interface CatalogueRow {
  name: string;
  count: number | null;
  fetchedAt: string | null;
  lastError: string | null;
}

const purposes = (training: "allow" | "block") => ({
  purposes: [
    { path: "/", "search-engine": "allow", "ai-search": "allow", "ai-assistant": "allow", "ai-training": training },
  ],
});

describe("a crawler catalogue through wrangler dev", () => {
  let loadedAt: string | null = null;

  it("POST refresh?sources=catalogues loads it now, from the var's URL", async () => {
    const response = await adminCall("refresh?sources=catalogues", "POST");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { catalogues: CatalogueRow[] };
    expect(body.catalogues[0]).toMatchObject({ name: "ai-robots-txt", count: 9, lastError: null });
    loadedAt = body.catalogues[0]?.fetchedAt ?? null;
    expect(fetched).toEqual(["/robots.json"]);
  });

  it.each([
    { training: "block", naget: 403 },
    { training: "allow", naget: 200 },
  ] as const)("purposes with training $training: NagetBot $naget, a person 200", async ({ training, naget }) => {
    expect((await adminCall("policy", "PUT", purposes(training))).status).toBe(200);
    expect(await statusOf(NAGET, "/blog/")).toBe(naget);
    expect(await statusOf(CHROME, "/blog/")).toBe(200);
  });

  it("explain names the catalogue and its date", async () => {
    await adminCall("policy", "PUT", purposes("block"));
    await adminCall("refresh", "POST"); // explain reads the stored robots.txt
    const explained = (await (await adminCall(`explain?ua=${encodeURIComponent(NAGET)}&url=/blog/`)).json()) as Record<
      string,
      unknown
    >;
    expect(explained["judgedAs"]).toBe("catalogued");
    expect(explained["catalogue"]).toEqual({
      name: "ai-robots-txt",
      fetchedAt: loadedAt,
      token: "NagetBot",
      category: "ai-training",
    });
  });

  it("a category's allow rule opens nothing * refuses (YiyanBot, listed as an assistant)", async () => {
    const allow = { routes: [{ pattern: "/", rules: [{ crawlers: ["category:ai-assistant"], action: "allow" }] }] };
    expect((await adminCall("policy", "PUT", allow)).status).toBe(200);
    expect(await statusOf(YIYAN, "/private/report")).toBe(403);
    expect(await statusOf(YIYAN, "/blog/")).toBe(200);
  });

  it("an oversized answer keeps the last good copy, named in status", async () => {
    answer = "oversized";
    await adminCall("refresh?sources=catalogues", "POST");
    const status = (await (await adminCall("status")).json()) as {
      catalogues: { catalogues: CatalogueRow[] };
      edge: { problems: string[] };
    };
    expect(status.catalogues.catalogues[0]).toMatchObject({
      count: 9,
      fetchedAt: loadedAt,
      lastError: "refused: larger than 1048576 bytes",
    });
    expect(status.edge.problems).toContain(
      `crawler catalogue ai-robots-txt: the last fetch failed: refused: larger than 1048576 bytes; its copy of ${loadedAt} stays in force`,
    );
    await adminCall("policy", "PUT", purposes("block"));
    expect(await statusOf(NAGET, "/blog/")).toBe(403);
  });
});
