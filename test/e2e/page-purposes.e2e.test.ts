// The page's purposes editor in a real browser (Debian's Chromium, playwright-core) against
// `wrangler dev`: the generated lines next to the origin's, edited into the policy text,
// saved, then served and enforced. Screenshots go to test-results/screenshots/.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";

const TOKEN = "page-purposes-token-0123";
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const SHOTS = resolve(import.meta.dirname, "../../test-results/screenshots");
const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const BYTESPIDER = "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)";

let origin: DemoOrigin;
let edge: EdgeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  origin = await startDemoOrigin();
  origin.setRobots(ROBOTS);
  edge = await startEdge({ vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN, VERIFY_CRAWLERS: "off" } });
  await fetch(`${edge.url}/__robots/refresh`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("request", (request) => {
    if (!request.url().startsWith(edge.url)) throw new Error(`the page reached outside: ${request.url()}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await origin?.close();
});

const lines = (id: string) => page.$$eval(`#${id} li`, (items) => items.map((item) => item.textContent));

describe("operator page: purposes", () => {
  it("with no purposes in force, shows the origin's file and nothing generated", async () => {
    await page.goto(`${edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#app:not(.hidden)");
    await expect.poll(() => page.textContent("#purposes-summary")).toContain("In force: no generated lines");
    expect(await lines("purposes-origin")).toEqual(["User-agent: *", "Disallow: /private/"]);
    expect(await lines("purposes-generated")).toEqual([]);
  });

  it("an edited setting goes into the policy text, with its generated lines next to the origin's", async () => {
    await page.click("#purposes-add");
    await page.selectOption('#purposes-table tbody tr:nth-child(1) select[data-category="ai-training"]', "block");
    await page.click("#purposes-add");
    await page.fill("#purposes-table tbody tr:nth-child(2) .purpose-path", "/members/");
    await page.selectOption('#purposes-table tbody tr:nth-child(2) select[data-category="search-engine"]', "block");
    await page.click("#purposes-apply");
    await expect
      .poll(() => page.textContent("#purposes-summary"))
      .toMatch(/^This draft: \d+ user-agent lines generated\.$/);
    expect(JSON.parse(await page.inputValue("#policy-text"))).toEqual({
      purposes: [
        { path: "/", "ai-training": "block" },
        { path: "/members/", "search-engine": "block" },
      ],
    });
    const generated = await lines("purposes-generated");
    expect(generated).toContain("User-agent: Bytespider");
    expect(generated).toContain("Disallow: /members/");
    expect(await lines("purposes-origin")).toEqual(["User-agent: *", "Disallow: /private/"]);
    expect(await page.textContent("#purposes-notes")).toContain("Google-Extended");
    await page.screenshot({ path: resolve(SHOTS, "20-purposes-draft.png"), fullPage: true });
  });

  it("a path the setting cannot carry is refused with its problem; nothing changes", async () => {
    await page.fill("#purposes-table tbody tr:nth-child(2) .purpose-path", "/members/*");
    await page.click("#purposes-apply");
    await expect.poll(() => page.textContent("#purposes-summary")).toContain("No preview: purposes[1].path must be");
    await page.fill("#purposes-table tbody tr:nth-child(2) .purpose-path", "/members/");
    await page.click("#purposes-apply");
    await expect.poll(() => page.textContent("#purposes-summary")).toContain("This draft:");
  });

  it("saved, the setting is served in /robots.txt and enforced", async () => {
    await page.click("#policy-save");
    await expect.poll(() => page.textContent("#policy-state")).toContain("Version 1 in force");
    await expect
      .poll(() => page.textContent("#purposes-summary"))
      .toMatch(/^In force: \d+ user-agent lines generated\.$/);
    const robots = await rawRequest(edge.url, "/robots.txt", { ua: "Mozilla/5.0 Chrome/124.0" });
    expect(robots.body).toContain("\nUser-agent: Bytespider\n");
    expect(robots.body.endsWith(ROBOTS)).toBe(true);
    expect((await rawRequest(edge.url, "/blog/", { ua: BYTESPIDER })).status).toBe(403);
  });
});
