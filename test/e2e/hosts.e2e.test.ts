// Policies per host end to end: `wrangler dev` in route mode with two AUTHORITIES
// (test/e2e/hosts-rig.ts), `PUT policy?host=` through the admin API, each host's requests judged
// by its own policy; and the operator page's host picker in Chromium.
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostsRig, type HostsRig } from "./hosts-rig.ts";

const TOKEN = "hosts-e2e-token-0123456";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const BLOCK_GPTBOT_X = JSON.stringify({
  routes: [{ pattern: "/x/", rules: [{ crawlers: ["GPTBot"], action: "block" }] }],
});

let rig: HostsRig;
let a: string;
let b: string;

beforeAll(async () => {
  rig = await startHostsRig({ token: TOKEN });
  [a, b] = rig.hosts;
}, 120_000);
afterAll(() => rig?.stop());

const hostQuery = (host: string) => `host=${encodeURIComponent(host)}`;

describe("route mode, two hosts: a policy for one host only", () => {
  it("PUT policy?host=a blocks GPTBot on /x/ for a; b passes it to its origin", async () => {
    const saved = await rig.admin(`policy?${hostQuery(a)}`, {
      method: "PUT",
      headers: { "if-match": '"0"', "x-saved-by": "e2e" },
      body: BLOCK_GPTBOT_X,
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ host: a, version: 1, savedAt: expect.any(String) });

    const onA = await rig.request(a, "/x/", { ua: GPTBOT });
    expect(onA.status).toBe(403);
    expect(onA.headers.get("x-robots-edge")).toContain("policy");
    const before = rig.origins[1].requests.length;
    const onB = await rig.request(b, "/x/", { ua: GPTBOT });
    expect(onB.status).toBe(404); // the demo origin's answer: it has no /x/ page
    expect(rig.origins[1].requests.slice(before)).toEqual(["/x/"]);
    // A person on a is never refused.
    expect((await rig.request(a, "/x/")).status).toBe(404);
  });

  it("GET policies lists a, its version and who saved it; explain answers per host", async () => {
    expect(await (await rig.admin("policies")).json()).toMatchObject({
      default: { host: null, version: 0 },
      hosts: [{ host: a, version: 1, via: "put", by: "e2e", source: "kv" }],
      next: null,
    });
    for (const [host, action] of [
      [a, "block"],
      [b, "pass"],
    ] as const) {
      const explained = await rig.admin(`explain?ua=${encodeURIComponent(GPTBOT)}&url=/x/&${hostQuery(host)}`);
      expect(((await explained.json()) as { action: { action: string } }).action.action).toBe(action);
    }
  });
});

describe("operator page: the policy's host picker (Chromium)", () => {
  let browser: Browser | undefined;
  afterAll(() => browser?.close());

  it("picks a host, shows its own policy or whose judges it, and saves to that host", async () => {
    browser = await chromium.launch({
      executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => {
      if (!request.url().startsWith(rig.edge.url)) throw new Error(`the page reached outside: ${request.url()}`);
    });
    await page.goto(`${rig.edge.url}/__robots/`);
    await page.fill("#token", TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("#policy-host-box:not(.hidden)", { timeout: 30_000 });
    const options = await page.$$eval("#policy-host option", (items) =>
      items.map((item) => [item.getAttribute("value") ?? "", item.textContent]),
    );
    // Sorted by name: the two ports come in either order.
    const listed = [
      [a, `${a} (version 1)`],
      [b, `${b} (none of its own)`],
    ].toSorted(([x = ""], [y = ""]) => (x < y ? -1 : 1));
    expect(options).toEqual([["", "default (hosts without their own)"], ...listed]);

    await page.selectOption("#policy-host", a);
    await expect
      .poll(() => page.textContent("#policy-state"), { timeout: 15_000 })
      .toContain(`${a}: version 1 in force`);
    expect(JSON.parse(await page.inputValue("#policy-text"))).toEqual(JSON.parse(BLOCK_GPTBOT_X));

    await page.selectOption("#policy-host", b);
    await expect
      .poll(() => page.textContent("#policy-state"), { timeout: 15_000 })
      .toContain(`${b}'s requests are judged by the default (version 0). ${b}: version 0 in force`);
    await page.fill("#policy-text", BLOCK_GPTBOT_X);
    await page.click("#policy-save");
    await expect
      .poll(() => page.textContent("#policy-state"), { timeout: 15_000 })
      .toContain(`${b}: version 1 in force`);
    // Saved to b only: b's requests are judged by it now, and a still has its version 1.
    expect((await rig.request(b, "/x/", { ua: GPTBOT })).status).toBe(403);
    expect(await (await rig.admin(`policy?${hostQuery(a)}`)).json()).toMatchObject({ version: 1 });
    expect(await (await rig.admin("policy")).json()).toMatchObject({ version: 0 });
  }, 90_000);
});
