// `npm run dev -- --origin <your site>` as a site owner runs it: the edge in front of a site on
// this machine enforces each crawler's own robots.txt group (the loopback-relaxed identity
// check is the only difference from the deployed edge, and the banner says so), and a second
// `npm run dev` on another port leaves the first one's state alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGES, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startDevScript, type EdgeProcess } from "../../scripts/edge-process.ts";
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
    const second = await startDevScript([]);
    try {
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
