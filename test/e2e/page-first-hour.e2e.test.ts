// The operator page as a newcomer first sees it (issue #35): under `npm run dev` (identity checks
// off on loopback) one line says the crawler lists are not used, instead of 18 warnings about
// lists that do not apply; with the checks on, the lists' warnings are one collapsed item with a
// count. Back on the tab, the page reads the status again: an origin that stopped answering
// shows as a problem without a reload. Screenshots in test-results/screenshots/.
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startDevScript, startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { SHOTS } from "./page-rig.ts";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const DEV_TOKEN = "dev-admin-token-local";
const TOKEN = "first-hour-token-0123";

let browser: Browser;
const started: { stop(): Promise<unknown> }[] = [];

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  started.push({ stop: () => browser.close() });
}, 60_000);

afterAll(async () => {
  for (const part of started.toReversed()) await part.stop().catch(() => undefined);
});

// One `npm run dev` for the two describes below that stand on it, started by the first that
// needs it: the first only reads the page as a newcomer finds it, so it runs before the second
// sends crawler requests and saves a policy (describes run in file order). One start fewer.
let demo: Promise<EdgeProcess> | undefined;
function demoDev(): Promise<EdgeProcess> {
  demo ??= startDevScript([]).then((dev) => {
    started.push(dev);
    return dev;
  });
  return demo;
}

async function signedIn(url: string, token: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  started.push({ stop: () => page.close() });
  await page.goto(`${url}/__robots/`);
  await page.fill("#token", token);
  await page.press("#token", "Enter");
  await page.waitForSelector("#app:not(.hidden)");
  await page.waitForSelector("#edge-now dt");
  return page;
}

const nowFacts = (page: Page) =>
  page.$$eval("#edge-now dt", (terms) =>
    Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling?.textContent])),
  );

describe("npm run dev's page: identity checks off", () => {
  let dev: EdgeProcess;
  let page: Page;

  beforeAll(async () => {
    dev = await demoDev();
    page = await signedIn(dev.url, DEV_TOKEN);
  }, 120_000);

  it("says in one line that the crawler lists are not used, and shows no warning", async () => {
    const facts = await nowFacts(page);
    expect(facts["Crawler lists"]).toBe("identity checks are off here: crawler lists are not used");
    expect(facts["Reverse DNS"]).toBeUndefined();
    expect(await page.isVisible("#warnings")).toBe(false);
    expect(await page.isVisible("#problems")).toBe(false);
    await page.screenshot({ path: resolve(SHOTS, "first-hour-1-dev-page.png") });
  });
});

describe("npm run dev's demo and page: the small oddities (issue #35 item 9)", () => {
  let dev: EdgeProcess;
  let page: Page;
  const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const ONE_LINE_POLICY =
    '{"routes":[{"pattern":"/docs/","rules":[{"crawlers":["GPTBot"],"action":"block"}]},{"pattern":"/","mode":"enforce"}]}';

  beforeAll(async () => {
    dev = await demoDev();
    // A few crawler requests, for the activity the README's screenshot shows.
    for (const [ua, path] of [
      [GOOGLEBOT, "/blog/"],
      [GOOGLEBOT, "/private/report"],
      ["GPTBot/1.2", "/blog/"],
      ["GPTBot/1.2", "/docs/"],
      ["ClaudeBot/1.0", "/"],
    ] as const) {
      await fetch(`${dev.url}${path}`, { headers: { "user-agent": ua } }).then((response) => response.text());
    }
    const saved = await fetch(`${dev.url}/__robots/policy`, {
      method: "PUT",
      headers: { authorization: `Bearer ${DEV_TOKEN}`, "content-type": "application/json" },
      body: ONE_LINE_POLICY,
    });
    expect(saved.status).toBe(200);
    page = await signedIn(dev.url, DEV_TOKEN);
  }, 120_000);

  it("the demo's Sitemap line names the site with its port, and the sitemap answers there", async () => {
    const robots = await (await fetch(`${dev.url}/robots.txt`)).text();
    expect(robots.split("\n").filter((line) => line.startsWith("Sitemap:"))).toEqual([
      `Sitemap: ${dev.url}/sitemap.xml`,
    ]);
    const sitemap = await fetch(`${dev.url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(await sitemap.text()).toContain(`<loc>${dev.url}/blog/hello-world</loc>`);
  });

  it("a policy saved through the API as one line shows in the editor indented", async () => {
    await expect.poll(() => page.inputValue("#policy-text")).not.toBe("");
    expect(await page.inputValue("#policy-text")).toBe(
      [
        "{",
        '  "routes": [',
        "    {",
        '      "pattern": "/docs/",',
        '      "rules": [',
        "        {",
        '          "crawlers": [',
        '            "GPTBot"',
        "          ],",
        '          "action": "block"',
        "        }",
        "      ]",
        "    },",
        "    {",
        '      "pattern": "/",',
        '      "mode": "enforce"',
        "    }",
        "  ]",
        "}",
      ].join("\n"),
    );
  });

  it("the tester's note on verification stands beside the tester, not at the top of the page", async () => {
    await page.fill("#ua", GOOGLEBOT);
    await page.fill("#urls", "/private/report\n/blog/");
    await page.click("#run");
    await page.waitForSelector("#results tbody tr:nth-child(2)");
    expect(await page.textContent("#test-note")).toBe(
      "Unverifiable: VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *",
    );
    expect(await page.$eval("#test-note", (note) => note.closest("section")?.getAttribute("aria-labelledby"))).toBe(
      "tester-title",
    );
    expect(await page.textContent("#message")).toBe("");
    // The README's pictures (docs/operator-page.png, docs/activity.png) are these two.
    await page.screenshot({ path: resolve(SHOTS, "first-hour-4-readme.png"), fullPage: true });
    await page.locator("#activity").screenshot({ path: resolve(SHOTS, "first-hour-5-activity.png") });
  });
});

describe("the page with identity checks on (as deployed)", () => {
  let origin: DemoOrigin;
  let edge: EdgeProcess;
  let page: Page;

  beforeAll(async () => {
    origin = await startDemoOrigin();
    started.push({ stop: () => origin.close() });
    edge = await startEdge({ vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN } });
    started.push(edge);
    // A stored copy, as after the first crawler request: later, crawlers are judged by it.
    await fetch(`${edge.url}/__robots/refresh`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    page = await signedIn(edge.url, TOKEN);
  }, 120_000);

  it("gathers the lists' warnings into one collapsed item with their count", async () => {
    await page.waitForSelector("#warnings:not(.hidden)");
    expect(await page.$$eval("#warnings-list > li", (items) => items.length)).toBe(1);
    expect(await page.textContent("#list-warnings summary")).toBe(
      "18 crawler lists not loaded or out of date: each says what that does here",
    );
    expect(await page.getAttribute("#list-warnings", "open")).toBeNull();
    expect(await page.isVisible("#list-warnings li")).toBe(false);
    expect((await nowFacts(page))["Crawler lists"]).toBe("0 of 18 loaded");
    await page.screenshot({ path: resolve(SHOTS, "first-hour-2-warnings-collapsed.png") });
    await page.click("#list-warnings summary");
    const listed = await page.$$eval("#list-warnings li", (items) => items.map((item) => item.textContent));
    expect(listed).toHaveLength(18);
    expect(listed[0]).toMatch(/^no \S+ list loaded yet/);
  });

  it("back on the tab, an origin that stopped answering shows as a problem without a reload", async () => {
    expect(await page.isVisible("#problems")).toBe(false);
    await origin.close();
    await fetch(`${edge.url}/__robots/refresh?origin=${encodeURIComponent(origin.url)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await page.waitForSelector("#problems:not(.hidden)");
    expect(await page.textContent("#problems-list")).toMatch(
      new RegExp(
        `^origin unreachable: ${origin.url.replaceAll(".", "\\.")} gave no answer at [\\dT:.Z-]+ \\(network error: .+\\); people get 502 until it answers$`,
      ),
    );
    // The Origin panel below the banner is read again with it: it names the same failure.
    await expect
      .poll(() => page.textContent("#fetch-status"))
      .toMatch(/Origin statusno answer.*Last errornetwork error: /);
    await page.screenshot({ path: resolve(SHOTS, "first-hour-3-origin-unreachable.png") });
  });
});
