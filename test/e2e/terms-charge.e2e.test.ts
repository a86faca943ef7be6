// Issue 32 parts 1 and 4 end to end, through wrangler dev: a `charge` rule in the POLICY var
// and a signing client on loopback standing for GPTBot (its key directory served here, its
// requests signed by our own signer, covering the price header), the charges ledger read back
// through GET charges; and a Crawl-delay group's answers stating their rate (RateLimit fields).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { rawRequest } from "./clients.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const TOKEN = "e2e-terms-charge-token";
const ROBOTS = "User-agent: FooBot\nCrawl-delay: 30\n\nUser-agent: *\nAllow: /\n";

let origin: DemoOrigin;
let edge: EdgeProcess;
let directory: Server;
let agentOrigin: string;
let signer: TestSigner;

beforeAll(async () => {
  mkdirSync(resolve(import.meta.dirname, "../../test-results/screenshots"), { recursive: true });
  signer = await newSigner();
  directory = createServer((request, response) => {
    const found = request.url === "/.well-known/http-message-signatures-directory";
    response.writeHead(found ? 200 : 404, { "content-type": "application/http-message-signatures-directory+json" });
    response.end(found ? JSON.stringify({ keys: [signer.publicJwk] }) : "");
  });
  await new Promise<void>((done) => directory.listen(0, "127.0.0.1", done));
  agentOrigin = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
  origin = await startDemoOrigin();
  origin.setRobots(ROBOTS);
  edge = await startEdge({
    vars: {
      ORIGIN_URL: origin.url,
      ADMIN_TOKEN: TOKEN,
      VERIFY_CRAWLERS: "unknown",
      SIGNATURE_AGENTS: JSON.stringify({ [agentOrigin]: { token: "GPTBot", category: "ai-training" } }),
      POLICY: JSON.stringify({
        routes: [
          { pattern: "/blog/", rules: [{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }] },
        ],
      }),
    },
  });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await new Promise<void>((done) => (directory ? directory.close(() => done()) : done()));
});

async function signedGet(path: string, fields: Record<string, string>) {
  const created = Math.floor(Date.now() / 1000) - 5;
  const headers = await signRequest(signer, {
    url: `${edge.url}${path}`,
    agent: { form: "dictionary", key: "sig1", origin: agentOrigin },
    // A charge's signature must name the page (policy/terms-price.ts): @path and @query.
    components: ["@authority", "@path", "@query"],
    created,
    expires: created + 60,
    fields,
  });
  return rawRequest(edge.url, path, { ua: GPTBOT, headers });
}

const terms = (response: { status: number; headers: Readonly<Record<string, string>> }) => ({
  status: response.status,
  price: response.headers["crawler-price"] ?? null,
  error: response.headers["crawler-error"] ?? null,
  charged: response.headers["crawler-charged"] ?? null,
});

async function ledger(): Promise<{ charges: Record<string, string>[] }> {
  const response = await fetch(`${edge.url}/__robots/charges`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { charges: Record<string, string>[] };
}

describe("a price, end to end", () => {
  it("signed, crawler-max-price at or above the price: 200 with crawler-charged, one ledger row", async () => {
    const response = await signedGet("/blog/hello-world", { "crawler-max-price": "USD 0.05" });
    expect(terms(response)).toEqual({ status: 200, price: null, error: null, charged: "USD 0.01" });
    expect(response.body).toContain("Hello, world.");
    // The ledger is written after the response (a flush within seconds).
    let charges: Record<string, string>[] = [];
    for (let attempt = 0; attempt < 40 && charges.length === 0; attempt++) {
      await new Promise((done) => setTimeout(done, 250));
      charges = (await ledger()).charges;
    }
    expect(
      charges.map(({ operator, crawler, path, price, header, offered }) => ({
        operator,
        crawler,
        path,
        price,
        header,
        offered,
      })),
    ).toEqual([
      {
        operator: "OpenAI",
        crawler: "GPTBot",
        path: "/blog/hello-world",
        price: "USD 0.01",
        header: "crawler-max-price",
        offered: "USD 0.05",
      },
    ]);
  });

  it("signed, crawler-exact-price below the price: 402 InvalidCrawlerExactPrice", async () => {
    expect(terms(await signedGet("/blog/second-post", { "crawler-exact-price": "USD 0.001" }))).toEqual({
      status: 402,
      price: "USD 0.01",
      error: "InvalidCrawlerExactPrice",
      charged: null,
    });
  });

  it.each([
    { why: "a person", path: "/blog/hello-world", ua: CHROME },
    { why: "robots.txt, for GPTBot", path: "/robots.txt", ua: GPTBOT },
    { why: "Googlebot (no rule names it)", path: "/blog/hello-world", ua: GOOGLEBOT },
  ])("free: $why -> 200 untouched", async ({ path, ua }) => {
    expect(terms(await rawRequest(edge.url, path, { ua }))).toEqual({
      status: 200,
      price: null,
      error: null,
      charged: null,
    });
  });

  it("still one row: nothing else was charged", async () => {
    expect((await ledger()).charges).toHaveLength(1);
  });
});

describe("the operator page shows the terms and the charges ledger (Chromium)", () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it("the price in force, the owed total and the charged request", async () => {
    browser = await chromium.launch({
      executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => {
      if (!request.url().startsWith(edge.url)) throw new Error(`the page reached outside: ${request.url()}`);
    });
    await fetch(`${edge.url}/__robots/refresh`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    await page.goto(`${edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#app:not(.hidden)");
    await page.waitForSelector("#charges-table tbody tr");
    // The policy and the ledger load side by side: wait for the policy's list too.
    await page.waitForSelector("#terms-prices li");
    expect(await page.$$eval("#terms-prices li", (items) => items.map((item) => item.textContent))).toEqual([
      "/blog/: category:ai-training pay USD 0.01 per page",
    ]);
    expect(await page.textContent("#charges-summary")).toBe(
      "Owed over the period (not settled here): OpenAI: 1 charges, USD 0.010000.",
    );
    const rows = await page.$$eval("#charges-table tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].slice(1).map((td) => td.textContent)),
    );
    expect(rows).toEqual([["OpenAI", "GPTBot", "/blog/hello-world", "USD 0.01", "crawler-max-price: USD 0.05"]]);
    // The tester renders the same record: the price the rule states to an unsigned GPTBot.
    await page.selectOption("#crawler", { index: 0 });
    await page.fill("#ua", GPTBOT);
    await page.fill("#urls", "/blog/hello-world");
    await page.click("#run");
    await page.waitForSelector("#results tbody tr td:has-text('crawler-price')");
    expect(await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.children[2]?.textContent))).toEqual([
      "block 402; crawler-price USD 0.01, MissingCrawlerPrice",
    ]);
    await page.screenshot({
      path: resolve(import.meta.dirname, "../../test-results/screenshots/terms-charges.png"),
      fullPage: true,
    });
  });
});

describe("a crawl rate, stated before it is enforced", () => {
  it("a Crawl-delay group's answers carry RateLimit-Policy / RateLimit, its 429 too", async () => {
    const first = await rawRequest(edge.url, "/docs/guide/", { ua: "FooBot/1.0" });
    expect([first.status, first.headers["ratelimit-policy"], first.headers["ratelimit"]]).toEqual([
      200,
      '"crawl-delay";q=1;w=30',
      '"crawl-delay";r=0;t=30',
    ]);
    const second = await rawRequest(edge.url, "/docs/guide/install", { ua: "FooBot/1.0" });
    expect(second.status).toBe(429);
    expect(second.headers["ratelimit-policy"]).toBe('"crawl-delay";q=1;w=30');
    expect(second.headers["ratelimit"]).toMatch(/^"crawl-delay";r=0;t=(29|30)$/);
    expect(second.headers["ratelimit"]).toBe(`"crawl-delay";r=0;t=${second.headers["retry-after"]}`);
  });
});

// wrangler dev's stand-in request.cf says `verifiedBot: false`, a veto that refutes every
// unsigned claim on loopback (an impostor is judged as an anonymous bot under `*`, and no rule
// names it). A site that does not verify claims (VERIFY_CRAWLERS=off) judges GPTBot's claim as
// made: so the unsigned GPTBot's 402 is shown on a second edge with that setting.
describe("a price, for a claim judged as made (VERIFY_CRAWLERS=off)", () => {
  let unverifying: EdgeProcess;
  beforeAll(async () => {
    unverifying = await startEdge({
      vars: {
        ORIGIN_URL: origin.url,
        VERIFY_CRAWLERS: "off",
        POLICY: JSON.stringify({
          routes: [
            { pattern: "/blog/", rules: [{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }] },
          ],
        }),
      },
    });
  }, 90_000);
  afterAll(async () => {
    await unverifying?.stop();
  });

  it.each([
    {
      why: "unsigned GPTBot on a charged route: 402 with crawler-price",
      ua: GPTBOT,
      path: "/blog/hello-world",
      expected: { status: 402, price: "USD 0.01", error: "MissingCrawlerPrice", charged: null },
    },
    {
      why: "unsigned GPTBot naming a price: 400, a price needs a signature",
      ua: GPTBOT,
      path: "/blog/hello-world",
      headers: { "crawler-max-price": "USD 1" },
      expected: { status: 400, price: "USD 0.01", error: "StrongAuthRequired", charged: null },
    },
    {
      why: "GPTBot's robots.txt: free",
      ua: GPTBOT,
      path: "/robots.txt",
      expected: { status: 200, price: null, error: null, charged: null },
    },
    {
      why: "Googlebot: free",
      ua: GOOGLEBOT,
      path: "/blog/hello-world",
      expected: { status: 200, price: null, error: null, charged: null },
    },
    {
      why: "a person: untouched",
      ua: CHROME,
      path: "/blog/hello-world",
      expected: { status: 200, price: null, error: null, charged: null },
    },
  ])("$why", async ({ ua, path, headers, expected }) => {
    expect(terms(await rawRequest(unverifying.url, path, { ua, ...(headers && { headers }) }))).toEqual(expected);
  });
});
