// Done-when of issue 30 item 7, end to end: `wrangler dev` in front of the demo origin serving
// the real file, then a rule with a raw space. A crawler other than Google's is refused
// only what every reading refuses (bingbot, msnbot and Applebot pass, held to their Crawl-delay,
// the disputed refusal marked would-block; AhrefsBot refused); Googlebot is judged by Google's
// reading; `robots-edge lint` on the file the edge serves exits 1 with the error.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ROBOTS, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest, run } from "./clients.ts";
import { BINGBOT_FILE, GOOGLEBOT_FILE, SPACE_FILE } from "../fixtures/readings-files.ts";

const TOKEN = "e2e-readings-token";
const UA = {
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  msnbot: "msnbot/2.1 (+http://search.msn.com/msnbot.htm)",
  applebot:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
  ahrefsbot: "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
};

const DISPUTED = 'would-block; reading=disputed; rule="disallow: /"; line=11';
const SPACE_DISPUTED = 'would-block; reading=disputed; rule="disallow: /sp%20ace"; line=2';

interface Row {
  readonly name: string;
  readonly robots: string;
  readonly ua: keyof typeof UA;
  readonly path: string;
  /** The edge's answer, its X-Robots-Edge (null: none), and a second request right after. */
  readonly status: number;
  readonly marker: string | null;
  readonly again: number;
}

const configurations: { mode: string; rows: Row[] }[] = [
  {
    mode: "enforce",
    rows: [
      { name: "bingbot", robots: BINGBOT_FILE, ua: "bingbot", path: "/", status: 200, marker: DISPUTED, again: 429 },
      { name: "msnbot", robots: BINGBOT_FILE, ua: "msnbot", path: "/", status: 200, marker: DISPUTED, again: 429 },
      { name: "Applebot", robots: BINGBOT_FILE, ua: "applebot", path: "/", status: 200, marker: DISPUTED, again: 429 },
      {
        name: "AhrefsBot",
        robots: BINGBOT_FILE,
        ua: "ahrefsbot",
        path: "/",
        status: 403,
        marker: 'blocked; rule="disallow: /"; line=11',
        again: 403,
      },
      {
        name: "Googlebot, no group of its own",
        robots: BINGBOT_FILE,
        ua: "googlebot",
        path: "/",
        status: 200,
        marker: null,
        again: 200,
      },
      {
        name: "Googlebot in bingbot's place",
        robots: GOOGLEBOT_FILE,
        ua: "googlebot",
        path: "/",
        status: 403,
        marker: 'blocked; rule="disallow: /"; line=5',
        again: 403,
      },
      {
        name: "a raw space, bingbot",
        robots: SPACE_FILE,
        ua: "bingbot",
        path: "/sp%20ace",
        status: 404,
        marker: SPACE_DISPUTED,
        again: 404,
      },
      {
        name: "a raw space, Googlebot",
        robots: SPACE_FILE,
        ua: "googlebot",
        path: "/sp%20ace",
        status: 404,
        marker: null,
        again: 404,
      },
    ],
  },
  {
    mode: "report",
    rows: [
      { name: "bingbot", robots: BINGBOT_FILE, ua: "bingbot", path: "/", status: 200, marker: DISPUTED, again: 200 },
      {
        name: "AhrefsBot",
        robots: BINGBOT_FILE,
        ua: "ahrefsbot",
        path: "/",
        status: 200,
        marker: 'would-block; rule="disallow: /"; line=11',
        again: 200,
      },
      {
        name: "a raw space, bingbot",
        robots: SPACE_FILE,
        ua: "bingbot",
        path: "/sp%20ace",
        status: 404,
        marker: SPACE_DISPUTED,
        again: 404,
      },
    ],
  },
];

let origin: DemoOrigin;
beforeAll(async () => {
  origin = await startDemoOrigin();
});
afterAll(async () => {
  await origin?.close();
});

describe.each(configurations)("refuse only what the crawler itself reads, MODE=$mode", ({ mode, rows }) => {
  let edge: EdgeProcess;
  beforeAll(async () => {
    // VERIFY_CRAWLERS=off: each claim is judged as the crawler it names (a real crawler's
    // address would be verified; wrangler dev sees loopback).
    edge = await startEdge({
      vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN, VERIFY_CRAWLERS: "off", MODE: mode },
    });
  }, 120_000);
  afterAll(async () => {
    await edge?.stop();
    origin.setRobots(DEMO_ROBOTS);
  });

  it.each(rows)(
    "$name on $path: $status ($marker), again $again",
    async ({ robots, ua, path, status, marker, again }) => {
      origin.setRobots(robots);
      const refreshed = await fetch(`${edge.url}/__robots/refresh`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(refreshed.status).toBe(200);
      const first = await rawRequest(edge.url, path, { ua: UA[ua] });
      expect(first.status).toBe(status);
      expect(first.headers["x-robots-edge"] ?? null).toBe(marker);
      expect((await rawRequest(edge.url, path, { ua: UA[ua] })).status).toBe(again);
    },
  );
});

describe("robots-edge lint on the issue's file", () => {
  it("exits 1 with the error naming the crawlers, the line and the fix", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "robots-edge-readings-")), "robots.txt");
    writeFileSync(file, BINGBOT_FILE);
    const result = await run("node", ["bin/robots-edge.js", "lint", file]);
    expect(result.code).toBe(1);
    const errors = result.stdout.split("\n").filter((line) => line.includes(": error: "));
    expect(errors.map((line) => line.slice(file.length, line.indexOf(" ", file.length) + 1))).toEqual([
      ":1: ",
      ":4: ",
      ":7: ",
    ]);
    expect(errors[0]).toContain("for bingbot, RFC 9309 and Google's parser read on from line 1");
    expect(errors[0]).toContain('Fix: add "Disallow:" after line 2');
    expect(errors[2]).toContain('Fix: add "Disallow:" after line 8');
    expect(result.stderr).toContain("3 error(s)");
  });
});
