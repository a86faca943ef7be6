// The site's terms end to end through `wrangler dev` (issue 32, the licence and TDMRep parts):
// a loopback licence-server stub answers OLP token introspection (RFC 7662) for one good
// token; the live policy (POLICY var) names it, requires a licence under /docs/, and blocks AI
// training under /blog/ through the purposes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const LICENCE = "https://www.example.com/license.xml";
const LINK = `<${LICENCE}>; rel="license"; type="application/rsl+xml"`;

let licenceServer: Server;
const asked: string[] = [];
let origin: DemoOrigin;
let edge: EdgeProcess;
let browser: Browser | undefined;
const TOKEN = "terms-e2e-token-0123";
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

beforeAll(async () => {
  licenceServer = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const form = new URLSearchParams(body);
      asked.push(`${request.method} ${request.url} ${form.get("token")} ${form.get("resource")}`);
      const good = request.url === "/introspect" && form.get("token") === "good-token";
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(good ? { active: true, exp: Math.floor(Date.now() / 1000) + 600 } : { active: false }),
      );
    });
  });
  await new Promise<void>((done) => licenceServer.listen(0, "127.0.0.1", done));
  const server = `http://127.0.0.1:${(licenceServer.address() as AddressInfo).port}`;
  origin = await startDemoOrigin();
  origin.setRobots("User-agent: *\nDisallow: /private/\n");
  edge = await startEdge({
    vars: {
      ORIGIN_URL: origin.url,
      ADMIN_TOKEN: TOKEN,
      POLICY: JSON.stringify({
        licence: { url: LICENCE, server },
        purposes: [{ path: "/blog/", "ai-training": "block" }],
        routes: [{ pattern: "/docs/", licence: { required: true } }],
      }),
    },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await origin?.close();
  await new Promise<void>((done) => (licenceServer ? licenceServer.close(() => done()) : done()));
});

function get(path: string, ua: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${edge.url}${path}`, { headers: { "user-agent": ua, ...headers }, redirect: "manual" });
}

describe("a licence route through wrangler dev", () => {
  it("an unlicensed crawler: 401 with WWW-Authenticate: License and the licence link", async () => {
    const response = await get("/docs/guide/", GPTBOT);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      'License error="invalid_request", error_description="a licence token is required here: Authorization: License <token>"',
    );
    expect(response.headers.get("link")).toBe(LINK);
  });

  it("with a token the licence server confirms: 200 from the origin", async () => {
    const response = await get("/docs/guide/", GPTBOT, { authorization: "License good-token" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<title>/docs/guide/</title>");
    // Asked of the policy's server, for this site's route.
    expect(asked).toContain(`POST /introspect good-token ${new URL(origin.url).origin}/docs/`);
  });

  it("with a token it does not confirm: 401 invalid_token", async () => {
    const response = await get("/docs/guide/", GPTBOT, { authorization: "License forged-token" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      'License error="invalid_token", error_description="the licence server did not confirm this token for this site"',
    );
  });

  it("a person: 200, untouched", async () => {
    const response = await get("/docs/guide/", CHROME);
    expect([response.status, response.headers.get("link"), response.headers.get("www-authenticate")]).toEqual([
      200,
      null,
      null,
    ]);
  });
});

describe("the licence link and the EU reservation through wrangler dev", () => {
  it('Link rel="license" on a crawler\'s answer', async () => {
    const response = await get("/", GOOGLEBOT);
    expect([response.status, response.headers.get("link"), response.headers.get("tdm-reservation")]).toEqual([
      200,
      LINK,
      null,
    ]);
  });

  it("tdm-reservation: 1 under a training-blocked path, whoever the crawler", async () => {
    // From wrangler dev's loopback address nothing proves GPTBot, so `*` judges it and lets
    // /blog/ in (the purposes' GPTBot group binds a proven GPTBot: purposes.e2e.test.ts); the
    // reservation is said all the same, beside the usage preference.
    const refused = await get("/blog/hello-world", GPTBOT);
    expect([refused.status, refused.headers.get("tdm-reservation"), refused.headers.get("content-usage")]).toEqual([
      200,
      "1",
      "train-ai=n",
    ]);
    const passed = await get("/blog/hello-world", GOOGLEBOT);
    expect([passed.status, passed.headers.get("tdm-reservation")]).toEqual([200, "1"]);
  });

  it("/.well-known/tdmrep.json says the same paths", async () => {
    const response = await get("/.well-known/tdmrep.json", CHROME);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ location: "/blog/*", "tdm-reservation": 1 }]);
  });
});

describe("the operator page shows the terms (Chromium)", () => {
  it("the tester says the licence check and the reservation beside the decision", async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    const page = await browser.newPage();
    await page.goto(`${edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#app:not(.hidden)");
    await page.fill("#ua", GPTBOT);
    await page.fill("#urls", "/docs/guide/\n/blog/hello-world");
    if (await page.isChecked("#draft-mode")) await page.uncheck("#draft-mode");
    await page.click("#run");
    await page.waitForSelector("#results tbody tr:nth-child(2)");
    const rows = await page.$$eval("#results tbody tr", (items) =>
      items.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")),
    );
    expect(rows.map((cells) => [cells[0], cells[2], cells[4]])).toEqual([
      [
        "/docs/guide/",
        "block 401",
        `policy /docs/: licence required (missing); terms: licence ${LICENCE}, licence check: missing`,
      ],
      // The tester judges the crawler as named (no client address to disprove it): the purposes' group refuses.
      [
        "/blog/hello-world",
        "block 403",
        `disallow: /blog/ (generated line 27); terms: licence ${LICENCE}, tdm-reservation: 1`,
      ],
    ]);
  });
});
