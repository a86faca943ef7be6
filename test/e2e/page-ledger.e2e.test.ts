// "What each operator gives back" (issue 24, part 2) on the operator page, in a real browser
// (Debian's Chromium, playwright-core) against `wrangler dev`: crawls of an operator's
// crawler and the people its products referred, in the table and the chart. Screenshots go
// to test-results/screenshots/.
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";
import { SHOTS, startPageRig, type PageRig } from "./page-rig.ts";

const TOKEN = "page-ledger-token-0123";
const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

let edge: EdgeProcess;
let rig: PageRig;
let page: Page;

beforeAll(async () => {
  rig = await startPageRig({ token: TOKEN, robots: ROBOTS });
  ({ edge, page } = rig);
}, 120_000);

afterAll(() => rig?.stop());

interface OperatorsApi {
  operators: { operator: string; crawls: number; referrals: number }[];
}

const operatorsApi = async (): Promise<OperatorsApi> =>
  (
    await fetch(`${edge.url}/__robots/activity?recent=0`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).json() as Promise<OperatorsApi>;

const cells = (selector: string) =>
  page.$$eval(selector, (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));

describe("operator page: what each operator gives back", () => {
  it("crawls and referred visits per operator reach GET activity", async () => {
    for (const path of ["/blog/", "/blog/", "/private/report"]) await rawRequest(edge.url, path, { ua: GPTBOT });
    const person = (referer: string) => rawRequest(edge.url, "/blog/", { ua: CHROME, headers: { referer } });
    expect((await person("https://chatgpt.com/")).status).toBe(200);
    await person("https://www.google.de/");
    await person("https://evil-google.com/");
    await rawRequest(edge.url, "/blog/?utm_source=chatgpt.com", { ua: CHROME });
    await expect
      .poll(
        async () =>
          (await operatorsApi()).operators.map(({ operator, crawls, referrals }) => [operator, crawls, referrals]),
        {
          timeout: 10_000,
          interval: 250,
        },
      )
      .toEqual([
        // Two crawls: GPTBot's 403 on /private/report is no crawl (only what the origin answered counts).
        ["OpenAI", 2, 2],
        ["Google", 0, 1],
      ]);
  });

  it("shows the table and the chart, for all operators and for the one chosen", async () => {
    await page.goto(`${edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#app:not(.hidden)");
    await page.waitForSelector("#ledger-table tbody tr td:has-text('OpenAI')");
    const rows = await cells("#ledger-table tbody tr");
    // Operator, crawls, verified (VERIFY_CRAWLERS=off: none), referred visits, crawls per referral, bytes passed.
    // Bytes: the demo origin streams its pages (chunked, no Content-Length), and the edge never
    // reads a body to measure it, so nothing is counted (test/worker/referrals.test.ts counts lengths).
    expect(rows).toEqual([
      ["OpenAI", "2", "0", "2", "1 : 1", "0"],
      ["Google", "0", "0", "1", "0 : 1", "0"],
    ]);
    expect(await page.getAttribute("#ledger-svg", "role")).toBe("img");
    expect(await page.getAttribute("#ledger-svg rect.bar.crawls", "data-count")).toBe("2");
    expect(await page.getAttribute("#ledger-svg rect.bar.referrals", "data-count")).toBe("3");
    await page.selectOption("#ledger-operator", "Google");
    expect(await page.locator("#ledger-svg rect.bar.crawls").count()).toBe(0);
    expect(await page.getAttribute("#ledger-svg rect.bar.referrals", "data-count")).toBe("1");
    expect((await cells("#ledger-table tbody tr")).map((row) => row[0])).toEqual(["Google"]);
    expect(await page.textContent("#ledger-chart-caption")).toContain("Google: crawls and referred visits per hour");
    // Nothing of the referrers or the query reaches the page.
    const content = await page.content();
    for (const text of ["chatgpt.com", "google.de", "evil-google", "utm_source="]) expect(content).not.toContain(text);
    await page.selectOption("#ledger-operator", "");
    await page.locator("#ledger-table").screenshot({ path: resolve(SHOTS, "21-ledger.png") });
  });
});
