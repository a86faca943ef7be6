// `npm run dev -- --origin <your site>` as a site owner runs it: the edge in front of a site on
// this machine enforces each crawler's own robots.txt group (the loopback-relaxed identity
// check is the only difference from the deployed edge, and the banner says so), and a second
// `npm run dev` on another port leaves the first one's state alone.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGES, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { freePort, startDevScript, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";

// Googlebot's own group disallows less than *'s: judged as an impostor (under * alone) it would
// be refused /docs/; judged as itself it is refused /blog/hello-world only.
const SITE_ROBOTS = `User-agent: Googlebot
Disallow: /blog/hello-world

User-agent: *
Disallow: /docs/
`;
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const TOKEN = "dev-admin-token-local";

let site: DemoOrigin;
let edge: EdgeProcess;

beforeAll(async () => {
  site = await startDemoOrigin();
  site.setRobots(SITE_ROBOTS);
  edge = await startDevScript(["--origin", site.url]);
}, 120_000);

afterAll(async () => {
  await edge?.stop();
  await site?.close();
});

describe("npm run dev -- --origin <a site on this machine>", () => {
  it("the banner names the site and says which check loopback relaxes, and why", () => {
    expect(edge.output()).toContain(`your site:      ${site.url}`);
    expect(edge.output()).toContain("Relaxed here: crawler identity checks (VERIFY_CRAWLERS=off");
    expect(edge.output()).toContain("comes from 127.0.0.1, which is no crawler");
  });

  it.each([
    { ua: GOOGLEBOT, path: "/blog/hello-world", status: 403, why: "Googlebot's own group disallows it" },
    { ua: GOOGLEBOT, path: "/docs/guide/", status: 200, why: "Googlebot's own group allows what * disallows" },
    { ua: GOOGLEBOT, path: "/blog/second-post", status: 200, why: "allowed by its own group" },
    { ua: "GPTBot/1.2", path: "/docs/guide/", status: 403, why: "no group of its own: * disallows it" },
    { ua: CHROME, path: "/docs/guide/", status: 200, why: "a person is never judged" },
  ])("$ua $path -> $status ($why)", async ({ ua, path, status }) => {
    const response = await rawRequest(edge.url, path, { ua });
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body).toContain(PAGES[path] ?? "?");
  });

  // What a newcomer needs to know in the first hour, said at start (issue #35).
  it("the banner says the site answers, that state starts empty, and how logs and edits behave", () => {
    expect(edge.output()).toContain(`your site:      ${site.url}   answers (GET /robots.txt: 200)`);
    expect(edge.output()).toContain("State: empty at every start (live policy, pause, activity, robots.txt copies);");
    expect(edge.output()).toContain("npm run dev -- --persist keeps it from one run to the next.");
    expect(edge.output()).toContain(
      'Edits to wrangler.toml apply on save (wrangler reloads: "Local server updated and ready")',
    );
    expect(edge.output()).toContain(
      'Logs: one line per crawler decision, e.g. "403 GPTBot /blog/ disallow: / (line 12)";',
    );
  });

  it("prints one short line per crawler decision, not the JSON", async () => {
    await rawRequest(edge.url, "/docs/guide/?q=1", { ua: "GPTBot/1.2" });
    await expect.poll(() => edge.output()).toContain("403 GPTBot /docs/guide/ disallow: /docs/ (line 5)\n");
    expect(edge.output()).not.toContain('"event":"robots-edge.decision"');
  });

  it("a second npm run dev on a busy port says so before any banner, and suggests --port", () => {
    const port = Number(new URL(edge.url).port);
    const second = spawnSync("node", ["scripts/dev.js", "--port", String(port)], {
      cwd: resolve(import.meta.dirname, "../.."),
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(second.status).toBe(2);
    expect(second.stdout).toBe("");
    expect(second.stderr).toBe(
      `npm run dev: port ${port} is in use (another npm run dev?): stop it, or start this one on another port: npm run dev -- --port ${port + 1}\n`,
    );
  });

  it("robots.txt is the site's own, served by the edge", async () => {
    const response = await rawRequest(edge.url, "/robots.txt", { ua: CHROME });
    expect(response.body).toBe(SITE_ROBOTS);
  });
});

async function adminStatus(url: string) {
  const response = await fetch(`${url}/__robots/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { code: response.status, body: (await response.json()) as { origins?: { authority: string }[] } };
}

describe("two npm run dev instances on different ports", () => {
  it("keep their own state: starting a second leaves the first one's admin API working", async () => {
    const authority = site.url;
    expect((await adminStatus(edge.url)).body.origins?.map((origin) => origin.authority)).toEqual([authority]);
    // The second in front of a site that is not running: said at start, not discovered later.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const second = await startDevScript(["--origin", nowhere]);
    try {
      expect(second.output()).toContain(
        `your site:      ${nowhere}   NOT ANSWERING (ECONNREFUSED): people get 502 and crawlers 503 until it does; is your site running, and is --origin right?`,
      );
      const first = await adminStatus(edge.url);
      expect(first.code).toBe(200);
      expect(first.body.origins?.map((origin) => origin.authority)).toEqual([authority]);
      expect((await rawRequest(edge.url, "/blog/hello-world", { ua: GOOGLEBOT })).status).toBe(403);
      expect((await adminStatus(second.url)).code).toBe(200);
    } finally {
      await second.stop();
    }
  }, 150_000);
});
