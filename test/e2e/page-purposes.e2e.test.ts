// The page's purposes editor in a real browser (Debian's Chromium, playwright-core) against
// `wrangler dev`: the generated lines next to the origin's, edited into the policy text,
// saved, then served and enforced. Screenshots go to test-results/screenshots/.
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";
import { SHOTS, startPageRig, type PageRig } from "./page-rig.ts";

const TOKEN = "page-purposes-token-0123";
const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const BYTESPIDER = "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)";

let edge: EdgeProcess;
let rig: PageRig;
let page: Page;

beforeAll(async () => {
  rig = await startPageRig({ token: TOKEN, robots: ROBOTS });
  ({ edge, page } = rig);
}, 120_000);

afterAll(() => rig?.stop());

/** The line the tester highlights in the file view: its label, text and whether it is generated. */
const highlighted = () =>
  page.$eval("#file li.hit", (item) => ({
    label: item.getAttribute("data-line"),
    text: item.firstChild?.textContent ?? "",
    generated: item.classList.contains("generated"),
  }));

/** The tester run for one crawler and path, and the edge's own header for that request. */
async function tested(ua: string, path: string) {
  await page.fill("#ua", ua);
  await page.fill("#urls", path);
  if (await page.isChecked("#draft-mode")) await page.uncheck("#draft-mode");
  // An earlier run's highlight must not stand in for this one's.
  await page.$$eval("#file li.hit", (items) => {
    for (const item of items) item.classList.remove("hit");
  });
  await page.click("#run");
  await page.waitForSelector("#file li.hit");
  const header = (await rawRequest(edge.url, path, { ua })).headers["x-robots-edge"];
  return { shown: await highlighted(), header };
}

const lines = (id: string) => page.$$eval(`#${id} li`, (items) => items.map((item) => item.textContent));

describe("operator page: purposes", () => {
  it("with no purposes in force, shows the origin's file and nothing generated", async () => {
    await page.goto(`${edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#app:not(.hidden)");
    // Signing in loads the file, the activity, the policy, then the preview: on a loaded machine
    // that takes longer than a poll's default second.
    await expect
      .poll(() => page.textContent("#purposes-summary"), { timeout: 15_000 })
      .toContain("In force: no generated lines");
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

// Issue #31: with purposes in force the page shows the served file (generated lines g1…gK,
// then the origin's with its own numbers), and the line the tester highlights is the one the
// edge cites in X-Robots-Edge, holding the rule that decided.
describe("operator page: one numbering with purposes in force", () => {
  const EXAMPLEBOT = "ExampleBot/1.0 (+https://example.test/bot)";

  beforeAll(async () => {
    // Reloaded to show the saved purposes; the token is kept for the tab (sessionStorage).
    await page.goto(`${edge.url}/__robots/`);
    await page.waitForSelector("#app:not(.hidden)");
    await page.waitForSelector("#file li.generated");
  });

  it("the file shown is the served file, the generated lines marked g1…", async () => {
    const served = (await rawRequest(edge.url, "/robots.txt", { ua: "Mozilla/5.0 Chrome/124.0" })).body;
    const items = await page.$$eval("#file li", (nodes) =>
      nodes.map((node) => [node.getAttribute("data-line"), node.firstChild?.textContent ?? ""]),
    );
    expect(items.map(([, text]) => text).join("\n")).toBe(served);
    // The origin's two lines keep their numbers, at the end; everything before them is generated.
    expect(items.slice(-3)).toEqual([
      ["1", "User-agent: *"],
      ["2", "Disallow: /private/"],
      ["3", ""],
    ]);
    expect(items[0]).toEqual(["g1", expect.stringContaining("robots-edge: lines generated")]);
    expect(await page.textContent("#file-note")).toMatch(/^As served: lines g1–g\d+ are generated from the purposes/);
  });

  it("an origin rule: the highlighted line is origin line 2, as X-Robots-Edge cites it", async () => {
    const { shown, header } = await tested(EXAMPLEBOT, "/private/x");
    expect(header).toBe('blocked; rule="disallow: /private/"; line=2');
    expect(shown).toEqual({ label: "2", text: "Disallow: /private/", generated: false });
    await page.screenshot({ path: resolve(SHOTS, "21-one-numbering-origin.png"), fullPage: true });
  });

  it("a generated rule: the highlighted line is the generated g<n> X-Robots-Edge cites", async () => {
    const { shown, header } = await tested(BYTESPIDER, "/blog/");
    expect(header).toMatch(/^blocked; rule="disallow: \/"; line=g\d+$/);
    expect(shown).toEqual({ label: header?.split("line=")[1], text: "Disallow: /", generated: true });
  });
});
