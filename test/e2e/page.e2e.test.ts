// The operator page in a real browser: Debian's Chromium driven by playwright-core against
// `wrangler dev`. Screenshots go to test-results/screenshots/ (CI artefacts).
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";
import { SHOTS, startPageRig, type PageRig } from "./page-rig.ts";

const TOKEN = "page-e2e-token-0123";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const ROBOTS =
  "User-agent: *\nDisallow: /private/\nDissalow: /typo\nAllow: /private/press-kit/\n\nUser-agent: GPTBot\nDisallow: /\n";

let origin: DemoOrigin;
let edge: EdgeProcess;
let rig: PageRig;
let page: Page;

beforeAll(async () => {
  rig = await startPageRig({ token: TOKEN, robots: ROBOTS });
  ({ origin, edge, page } = rig);
}, 120_000);

afterAll(() => rig?.stop());

const shot = (name: string) => page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: true });

describe("operator page", () => {
  it("asks for the token and shows nothing of the site before it is accepted", async () => {
    await page.goto(`${edge.url}/__robots/`);
    await expect.poll(() => page.isVisible("#login")).toBe(true);
    expect(await page.isVisible("#app")).toBe(false);
    expect(await page.content()).not.toContain("Dissalow");
    await shot("1-sign-in");
  });

  it("a wrong token is refused and nothing is shown", async () => {
    await page.fill("#token", "wrong-token");
    await page.press("#token", "Enter");
    await expect.poll(() => page.textContent("#message")).toBe("That token was not accepted.");
    expect(await page.isVisible("#app")).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem("robots-edge-token"))).toBeNull();
  });

  it("the right token (typed, Enter) shows the file with line numbers and a diagnostic on its line", async () => {
    await page.focus("#token");
    await page.keyboard.type(TOKEN);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#app:not(.hidden)");
    await page.waitForSelector("#L3");
    expect(await page.textContent("#L1")).toBe("User-agent: *");
    expect(await page.getAttribute("#L3", "class")).toContain("warning");
    expect(await page.textContent("#L3 .diag")).toContain('"Dissalow" is read as "disallow"');
    expect(await page.textContent("#fetch-status")).toContain("ok");
    expect(await page.evaluate(() => sessionStorage.getItem("robots-edge-token"))).toBe(TOKEN);
    await shot("2-file-and-diagnostics");
  });

  it("the tester shows the decision, the action and highlights the deciding line", async () => {
    await page.fill("#ua", GOOGLEBOT);
    await page.fill("#urls", "/private/report\n/private/press-kit/\n/blog/");
    await page.click("#run");
    await page.waitForSelector("#results tbody tr:nth-child(3)");
    const rows = await page.$$eval("#results tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      ["/private/report", "disallowed", "block 403", "*", "disallow: /private/ (line 2)"],
      ["/private/press-kit/", "allowed", "pass", "*", "allow: /private/press-kit/ (line 4)"],
      ["/blog/", "allowed", "pass", "*", "no-matching-rule"],
    ]);
    // How the tested crawler is verified, or why not (this edge runs with VERIFY_CRAWLERS=off).
    expect(await page.textContent("#test-note")).toBe(
      "Unverifiable: VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *",
    );
    // Long cells wrap only where they would overflow, never mid-word otherwise (issue #11).
    expect(await page.evaluate("getComputedStyle(document.querySelector('#results td')).wordBreak")).toBe("normal");
    expect(await page.evaluate("getComputedStyle(document.querySelector('#results td')).overflowWrap")).toBe(
      "break-word",
    );
    expect(await page.getAttribute("#L2", "class")).toContain("hit");
    await page.click("#results tbody tr:nth-child(2) button");
    expect(await page.getAttribute("#L4", "class")).toContain("hit");
    await shot("3-tester");
  });

  it("draft mode compares a pasted robots.txt with the live one, publishing nothing", async () => {
    await page.check("#draft-mode");
    await page.fill("#draft", "User-agent: *\nDisallow: /blog/\n");
    await page.click("#run");
    await page.waitForSelector("#results tbody tr.differs");
    const differing = await page.$$eval("#results tbody tr.differs td:first-child", (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(differing).toEqual(["/private/report", "/blog/"]);
    expect(await page.textContent("#test-note")).toBe("2 URL(s) decided differently by the draft.");
    expect((await rawRequest(edge.url, "/robots.txt", { ua: GOOGLEBOT })).body).toBe(ROBOTS);
    await shot("4-draft");
    await page.uncheck("#draft-mode");
  });

  it("a URL list past the work budget: the judged ones shown, and the edge's note saying so", async () => {
    // 100 paths of 4,000 characters: past POST test's work budget (replay's, policy/replay.ts).
    const urls = Array.from({ length: 100 }, (_, n) => `/p${String(n).padStart(3, "0")}/${"a".repeat(3_994)}`);
    await page.fill("#urls", urls.join("\n"));
    await page.click("#run");
    await expect.poll(() => page.textContent("#test-note")).toContain("Only part was judged");
    const shown = await page.$$eval("#results tbody tr", (trs) => trs.length);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(100);
    expect(await page.textContent("#test-note")).toBe(
      "Unverifiable: VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *" +
        ` Only part was judged: judged the first ${shown} of 100 URLs: the tester stops at replay's work budget` +
        ' (docs/operating.md, "Limits"); ask again with the rest.',
    );
    // The short list again, so the tests after this one see the page as before.
    await page.fill("#urls", "/private/report\n/private/press-kit/\n/blog/");
    await page.click("#run");
    await expect.poll(() => page.$$eval("#results tbody tr", (trs) => trs.length)).toBe(3);
    // The tester's five columns scroll inside their box on a phone, never widening the page.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(
      0,
    );
    expect(await page.$eval("#results", (table) => table.parentElement?.getAttribute("tabindex"))).toBe("0");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("starts and ends a crawl pause", async () => {
    await page.fill("#pause-minutes", "5");
    await page.click("#pause-start");
    await expect.poll(() => page.textContent("#pause-state")).toContain("Paused until");
    expect((await rawRequest(edge.url, "/blog/", { ua: GOOGLEBOT })).status).toBe(503);
    await shot("5-paused");
    await page.click("#pause-end");
    await expect.poll(() => page.textContent("#pause-state")).toBe("Not paused.");
    expect((await rawRequest(edge.url, "/blog/", { ua: GOOGLEBOT })).status).toBe(200);
  });

  it("is readable on a phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // A string, not a function: this file is typed for Node, without the DOM library.
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await shot("6-phone");
  });
});

const GPTBOT_UA =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const BINGBOT_UA = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const CHROME_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

interface ActivityApi {
  totals: { crawlerRequests: number };
  crawlers: { token: string; requests: number; total: Record<string, number> }[];
}

const activityApi = async (): Promise<ActivityApi> =>
  (
    await fetch(`${edge.url}/__robots/activity?recent=0`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).json() as Promise<ActivityApi>;

const cells = (selector: string) =>
  page.$$eval(selector, (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));

describe("operator page: activity (issue #13)", () => {
  it("recorded crawler decisions reach GET activity within 10 seconds", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const sent = Date.now();
    // GPTBot and bingbot appear nowhere earlier in this file: their counts are these requests'.
    expect((await rawRequest(edge.url, "/articles/1?session=secret", { ua: GPTBOT_UA })).status).toBe(403);
    expect((await rawRequest(edge.url, "/private/report", { ua: BINGBOT_UA })).status).toBe(403);
    expect((await rawRequest(edge.url, "/private/report", { ua: BINGBOT_UA })).status).toBe(403);
    expect((await rawRequest(edge.url, "/blog/", { ua: BINGBOT_UA })).status).toBe(200);
    expect((await rawRequest(edge.url, "/blog/", { ua: CHROME_UA })).status).toBe(200);
    await expect
      .poll(async () => (await activityApi()).crawlers.find((c) => c.token === "bingbot")?.requests, {
        timeout: 10_000,
        interval: 250,
      })
      .toBe(3);
    expect(Date.now() - sent).toBeLessThan(10_000);
    const answer = await activityApi();
    expect(answer.crawlers.find((c) => c.token === "GPTBot")?.total).toEqual({
      pass: 0,
      block: 1,
      report: 0,
      unavailable: 0,
      "rate-limited": 0,
      "serve-robots-txt": 0,
    });
  });

  it("shows the chart, the table, blocked paths, violations and recent requests", async () => {
    await page.click("#activity-reload");
    await page.waitForSelector("#activity-table tbody tr td:has-text('bingbot')");
    const rows = await cells("#activity-table tbody tr");
    // Crawler, category, requests, then one column per action of the edge's vocabulary (pass,
    // report, block, 503, 429, robots.txt served), verified, refuted, unverifiable, unchecked,
    // violations. VERIFY_CRAWLERS=off: claims taken as made are unverifiable, never verified.
    const head = await page.$$eval("#activity-table thead th", (ths) => ths.map((th) => th.textContent));
    expect(head).toEqual([
      "Crawler",
      "Category",
      "Requests",
      "Pass",
      "Report",
      "Block",
      "503",
      "429",
      "robots.txt",
      "Verified",
      "Refuted",
      "Unverifiable",
      "Unchecked",
      "Disguised",
      "Violations",
    ]);
    expect(rows).toContainEqual([
      "bingbot",
      "search-engine",
      "3",
      "1",
      "0",
      "2",
      "0",
      "0",
      "0",
      "0",
      "0",
      "3",
      "0",
      "0",
      "2",
    ]);
    expect(rows).toContainEqual([
      "GPTBot",
      "ai-training",
      "1",
      "0",
      "0",
      "1",
      "0",
      "0",
      "0",
      "0",
      "0",
      "1",
      "0",
      "0",
      "1",
    ]);
    // The chart: SVG bars, stacked by action, for the current hour; the block bar holds these 3 blocks at least.
    expect(await page.getAttribute("#activity-svg", "role")).toBe("img");
    expect(await page.locator("#activity-svg rect.bar.block").count()).toBeGreaterThanOrEqual(1);
    expect(
      Number(await page.getAttribute("#activity-svg rect.bar.block >> nth=-1", "data-count")),
    ).toBeGreaterThanOrEqual(3);
    expect(await page.textContent("#activity-blocked")).toContain("/private/report — 2");
    expect(await cells("#activity-violations tbody tr")).toContainEqual([
      "bingbot",
      "unverifiable",
      "/private/report",
      "2",
    ]);
    const recent = await cells("#activity-recent tbody tr");
    expect(recent[0]?.slice(1)).toEqual(["bingbot", "unverifiable", "GET /blog/", "Pass", "no rule matched"]);
    expect(recent[1]?.slice(1)).toEqual([
      "bingbot",
      "unverifiable",
      "GET /private/report",
      "Block",
      "disallow: /private/ (line 2)",
    ]);
    expect(await page.content()).not.toContain("session=secret");
    // Choosing one crawler filters the whole section: GPTBot's single block, in the chart and every table.
    await page.selectOption("#activity-crawler", "GPTBot");
    expect(await page.locator("#activity-svg rect.bar").count()).toBe(1);
    expect(await page.getAttribute("#activity-svg rect.bar", "data-count")).toBe("1");
    expect((await cells("#activity-table tbody tr")).map((row) => row[0])).toEqual(["GPTBot"]);
    expect((await cells("#activity-recent tbody tr")).map((row) => row.slice(1, 4))).toEqual([
      ["GPTBot", "unverifiable", "GET /articles/1"],
    ]);
    expect(await page.textContent("#activity-blocked")).toBe("/articles/1 — 1");
    expect(await page.textContent("#activity-summary")).toMatch(
      /^GPTBot: 1 crawler requests \(Pass: 0, Report: 0, Block: 1,/,
    );
    await page.selectOption("#activity-crawler", "");
    expect((await cells("#activity-table tbody tr")).length).toBeGreaterThan(2);
    // 30 days: a bar per day, labelled by date, rather than 720 one-pixel hours.
    await page.selectOption("#activity-hours", "720");
    await expect.poll(() => page.textContent("#activity-chart-caption")).toContain("per day");
    const labels = await page.$$eval("#activity-svg text", (nodes) => nodes.map((node) => node.textContent));
    expect(labels.filter((label) => /^\d\d-\d\d$/.test(label ?? "")).length).toBeGreaterThanOrEqual(2);
    expect(await page.locator("#activity-svg rect.bar").count()).toBeLessThanOrEqual(31 * 5);
    await page.selectOption("#activity-hours", "24");
    await expect.poll(() => page.textContent("#activity-chart-caption")).toContain("per hour");
    await page.locator("#activity").screenshot({ path: resolve(SHOTS, "7-activity.png") });
  });

  it("is keyboard accessible: controls in tab order, tables scroll by keyboard", async () => {
    await page.focus("#activity-hours");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("activity-crawler");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("activity-reload");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.textContent("#activity-summary")).toContain("crawler requests");
    for (const region of await page.$$eval("#activity .scroll", (nodes) =>
      nodes.map((n) => n.getAttribute("tabindex")),
    ))
      expect(region).toBe("0");
  });

  it("draft mode says how many recent crawler requests the draft would change", async () => {
    await page.check("#draft-mode");
    // The draft drops GPTBot's group: its blocked request would pass.
    await page.fill("#draft", "User-agent: *\nDisallow: /private/\n");
    await page.fill("#ua", GOOGLEBOT);
    await page.fill("#urls", "/blog/");
    await page.click("#run");
    await expect
      .poll(() => page.textContent("#replay-summary"))
      .toMatch(/^Published, this draft would change 1 of the last \d+ crawler requests\.$/);
    const total = (await activityApi()).totals.crawlerRequests;
    expect(await page.textContent("#replay-summary")).toBe(
      `Published, this draft would change 1 of the last ${total} crawler requests.`,
    );
    expect(await cells("#replay-changes tbody tr")).toEqual([["GPTBot", "GET /articles/1", "Block (line 7)", "Pass"]]);
    await shot("8-replay");
    await page.uncheck("#draft-mode");
  });

  it("the activity view is readable on a phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("#activity-reload");
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await page.locator("#activity").screenshot({ path: resolve(SHOTS, "9-activity-phone.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

/** The policy editor's version rows: version, saved, how. */
const historyRows = () =>
  page.$$eval("#policy-history tbody tr", (trs) =>
    trs.map((tr) => [...tr.children].slice(0, 3).map((td) => td.textContent)),
  );

// Issue #13: the live policy editor, at phone width (its overflow is checked at the end).
describe("operator page: the policy editor", () => {
  const BROWSER =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
  const BAD =
    '{\n  "routes": [\n    {"pattern": "/blog/",\n     "mode": "loud",\n     "rules": [{"crawlers": ["Googlebot"], "action": "deny"}]}\n  ]\n}';
  const GOOD =
    '{\n  "routes": [\n    {"pattern": "/blog/", "blockStatus": 451,\n     "rules": [{"crawlers": ["Googlebot"], "action": "block"}]}\n  ]\n}';

  it("shows version 0 (no POLICY var: no policy) and its history", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.waitForSelector("#policy-history tbody tr");
    expect(await page.textContent("#policy-state")).toContain("Version 0 in force (no policy)");
    expect(await historyRows()).toEqual([["0", "—", "POLICY var"]]);
  });

  it("a bad policy's problems are shown on their lines, and nothing is saved", async () => {
    await page.fill("#policy-text", BAD);
    await page.focus("#policy-save");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#policy-lines:not(.hidden)");
    expect(await page.textContent("#policy-problems-note")).toBe(
      "2 problem(s), shown on their lines below; nothing was saved.",
    );
    const flagged = await page.$$eval("#policy-lines li.error", (items) => items.map((item) => item.id));
    expect(flagged).toEqual(["P4", "P5"]);
    expect(await page.textContent("#P4 .diag")).toContain(
      'routes[0].mode must be one of enforce, report, off, got "loud"',
    );
    expect(await page.textContent("#P5 .diag")).toContain(
      'routes[0].rules[0].action must be "block", "allow", "pace" or "charge"',
    );
    expect((await rawRequest(edge.url, "/blog/", { ua: GOOGLEBOT })).status).toBe(200);
    await shot("10-policy-problems");
  });

  it("save puts the policy in force as version 1; the edge judges crawlers by it", async () => {
    await page.fill("#policy-text", GOOD);
    await page.click("#policy-save");
    await expect.poll(() => page.textContent("#message")).toBe("Saved as version 1.");
    expect(await page.isVisible("#policy-lines")).toBe(false);
    expect(await page.textContent("#policy-state")).toMatch(/^Version 1 in force, saved \d{4}-/);
    expect((await historyRows()).map((row) => [row[0], row[2]])).toEqual([
      ["1", "saved"],
      ["0", "POLICY var"],
    ]);
    await expect.poll(async () => (await rawRequest(edge.url, "/blog/", { ua: GOOGLEBOT })).status).toBe(451);
    expect((await rawRequest(edge.url, "/blog/", { ua: BROWSER })).status).toBe(200);
  });

  it("replay: the edited policy judged on the recent crawler requests, before saving", async () => {
    const everywhere = '{"routes": [{"pattern": "/", "rules": [{"crawlers": ["Googlebot"], "action": "block"}]}]}';
    await page.fill("#policy-text", everywhere);
    // Passed under version 1 (which blocks Googlebot only under /blog/), blocked by the edit.
    expect((await rawRequest(edge.url, "/", { ua: GOOGLEBOT })).status).toBe(200);
    // Activity is flushed in batches (by count or seconds): ask again until the request is there.
    const replayRows = async () => {
      await page.click("#policy-replay");
      await page.waitForSelector("#policy-replay-box:not(.hidden)");
      return page.$$eval("#policy-replay-table tbody tr", (trs) =>
        trs.map((tr) => [...tr.children].map((td) => td.textContent)),
      );
    };
    await expect
      .poll(replayRows, { timeout: 20_000, interval: 1_000 })
      .toContainEqual(["Googlebot", "GET /", "pass", "block (policy /: block)"]);
    expect(await page.textContent("#policy-replay-summary")).toMatch(
      /^This policy would change [1-9]\d* of the last \d+ crawler requests\.$/,
    );
    expect(await page.inputValue("#policy-text")).toBe(everywhere);
    expect((await rawRequest(edge.url, "/", { ua: GOOGLEBOT })).status).toBe(200); // nothing saved
  });

  it("rollback puts version 0's policy (none) back in force as version 2", async () => {
    await page.click("#policy-history button:has-text('Roll back to 0')");
    await expect.poll(() => page.textContent("#message")).toBe("Version 0's policy is in force again, as version 2.");
    expect((await historyRows()).map((row) => [row[0], row[2]])).toEqual([
      ["2", "rollback to 0"],
      ["1", "saved"],
      ["0", "POLICY var"],
    ]);
    expect(await page.inputValue("#policy-text")).toBe("");
    await expect.poll(async () => (await rawRequest(edge.url, "/blog/", { ua: GOOGLEBOT })).status).toBe(200);
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await shot("11-policy-history");
  });
});

// What the edge does now, at the top of the page: a typo in MODE is a problem banner, the mode
// in force (its default) says why, and during a pause the tester says 503, never "allowed".
describe("operator page: problems and what the edge does now", () => {
  let troubled: EdgeProcess;
  let view: Page;

  beforeAll(async () => {
    troubled = await startEdge({
      vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN, VERIFY_CRAWLERS: "off", MODE: "enforse" },
    });
    const auth = { authorization: `Bearer ${TOKEN}` };
    await fetch(`${troubled.url}/__robots/refresh`, { method: "POST", headers: auth });
    await fetch(`${troubled.url}/__robots/pause`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ minutes: 30, retryAfter: 600, reason: "migration" }),
    });
    view = await rig.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    await view?.close();
    await troubled?.stop();
  });

  it("shows the problem as a banner above everything, and the mode in force with why", async () => {
    await view.goto(`${troubled.url}/__robots/`);
    await view.fill("#token", TOKEN);
    await view.press("#token", "Enter");
    await view.waitForSelector("#problems:not(.hidden)");
    expect(await view.getAttribute("#problems", "role")).toBe("alert");
    expect(await view.textContent("#problems-list")).toBe('MODE must be one of enforce, report, off, got "enforse"');
    // The banner is the first thing of the signed-in page.
    expect(await view.evaluate("document.querySelector('#app').firstElementChild.id")).toBe("problems");
    const now = await view.$$eval("#edge-now dt, #edge-now dd", (nodes) => nodes.map((node) => node.textContent));
    expect(now.slice(0, 2)).toEqual([
      "Mode",
      'enforce — MODE was refused, so its default "enforce" applies (see problems)',
    ]);
    expect(now[3]).toMatch(/^until \d{4}-\d\d-\d\dT[\d:.]+Z \(migration\): crawlers get 503$/);
    // The edge enforces all the same: the typo did not switch enforcement off.
    expect((await rawRequest(troubled.url, "/private/report", { ua: GOOGLEBOT })).status).toBe(503);
  });

  it("during the pause the tester says 503 crawl pause, live and draft, and what the draft changes after it", async () => {
    await view.fill("#ua", GOOGLEBOT);
    await view.fill("#urls", "/blog/\n/private/report");
    await view.click("#run");
    await view.waitForSelector("#results tbody tr:nth-child(2)");
    const rows = await view.$$eval("#results tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].slice(0, 3).map((td) => [td.textContent, td.className])),
    );
    expect(rows).toEqual([
      [
        ["/blog/", ""],
        ["503 crawl pause; robots.txt: allowed", "held"],
        ["unavailable 503", ""],
      ],
      [
        ["/private/report", ""],
        ["503 crawl pause; robots.txt: disallowed", "held"],
        ["unavailable 503", ""],
      ],
    ]);
    await view.check("#draft-mode");
    await view.fill("#draft", "User-agent: *\nDisallow: /blog/\n");
    await view.click("#run");
    await expect
      .poll(() => view.textContent("#test-note"))
      .toBe(
        "Crawling is paused: every crawler gets 503 now, live and draft alike. Once the pause ends, 2 URL(s) would be decided differently by the draft.",
      );
    await view.uncheck("#draft-mode");
    await view.click("#run");
    await view.waitForSelector("#results tbody tr td.held");
    await view.screenshot({ path: resolve(SHOTS, "12-problem-banner.png"), fullPage: true });
  });
});
