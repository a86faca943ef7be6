// Issue 30 item 7 in workerd: a crawler other than Google's is refused only what every reading of
// robots.txt refuses (policy/readings.ts); the rest is forwarded marked would-block, with the
// group's pacing; Google's crawlers get Google's reading; GET status names the errors.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { admin, BINGBOT, call, fakeOrigin, freshState, fromCrawler, GOOGLEBOT, storeCrawlerLists } from "./helpers.ts";

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
beforeEach(async () => {
  await freshState();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(freshState);

const BINGBOT_FILE =
  "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: msnbot\nCrawl-delay: 10\n\nUser-agent: Applebot\nCrawl-delay: 10\n\nuser-agent: AhrefsBot\ndisallow: /\n";
const GOOGLEBOT_FILE = "User-agent: Googlebot\nCrawl-delay: 10\n\nuser-agent: AhrefsBot\ndisallow: /\n";
const SPACE_FILE = "User-agent: *\nDisallow: /sp ace\n";
const MSNBOT = "msnbot/2.1 (+http://search.msn.com/msnbot.htm)";
const APPLEBOT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)";
const AHREFSBOT = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)";
const DISPUTED_ALL = 'would-block; reading=disputed; rule="disallow: /"; line=11';

const rows: {
  name: string;
  robots: string;
  ua: string;
  path: string;
  mode: string;
  /** The request comes from the crawler's published addresses (a verified claim). */
  verified?: boolean;
  first: number;
  marker: string | null;
  second: number;
}[] = [
  {
    name: "bingbot",
    robots: BINGBOT_FILE,
    ua: BINGBOT,
    path: "/a",
    mode: "enforce",
    first: 200,
    marker: DISPUTED_ALL,
    second: 429,
  },
  {
    name: "msnbot",
    robots: BINGBOT_FILE,
    ua: MSNBOT,
    path: "/a",
    mode: "enforce",
    first: 200,
    marker: DISPUTED_ALL,
    second: 429,
  },
  {
    name: "Applebot",
    robots: BINGBOT_FILE,
    ua: APPLEBOT,
    path: "/a",
    mode: "enforce",
    first: 200,
    marker: DISPUTED_ALL,
    second: 429,
  },
  {
    name: "AhrefsBot",
    robots: BINGBOT_FILE,
    ua: AHREFSBOT,
    path: "/a",
    mode: "enforce",
    first: 403,
    marker: 'blocked; rule="disallow: /"; line=11',
    second: 403,
  },
  {
    name: "bingbot, MODE=report",
    robots: BINGBOT_FILE,
    ua: BINGBOT,
    path: "/a",
    mode: "report",
    first: 200,
    marker: DISPUTED_ALL,
    second: 200,
  },
  {
    name: "AhrefsBot, MODE=report",
    robots: BINGBOT_FILE,
    ua: AHREFSBOT,
    path: "/a",
    mode: "report",
    first: 200,
    marker: 'would-block; rule="disallow: /"; line=11',
    second: 200,
  },
  {
    name: "Googlebot in bingbot's place",
    robots: GOOGLEBOT_FILE,
    ua: GOOGLEBOT,
    path: "/a",
    mode: "enforce",
    verified: true,
    first: 403,
    marker: 'blocked; rule="disallow: /"; line=5',
    second: 403,
  },
  {
    name: "bingbot, a raw space",
    robots: SPACE_FILE,
    ua: BINGBOT,
    path: "/sp%20ace",
    mode: "enforce",
    first: 200,
    marker: 'would-block; reading=disputed; rule="disallow: /sp%20ace"; line=2',
    second: 200,
  },
  {
    name: "Googlebot, a raw space",
    robots: SPACE_FILE,
    ua: GOOGLEBOT,
    path: "/sp%20ace",
    mode: "enforce",
    verified: true,
    first: 200,
    marker: null,
    second: 200,
  },
  {
    // A claim not proven is judged as Googlebot AND as an anonymous bot (policy/claim.ts): the
    // anonymous bot's reading is disputed, so the pass carries the mark.
    name: "Googlebot unverified, a raw space",
    robots: SPACE_FILE,
    ua: GOOGLEBOT,
    path: "/sp%20ace",
    mode: "enforce",
    first: 200,
    marker: 'would-block; reading=disputed; rule="disallow: /sp%20ace"; line=2',
    second: 200,
  },
];

describe("refuse only what the crawler itself reads", () => {
  it.each(rows)(
    "$name on $path under $mode: $first, then $second",
    async ({ robots, ua, path, mode, verified, first, marker, second }) => {
      fakeOrigin({ body: robots });
      await storeCrawlerLists();
      const env = { MODE: mode };
      const headers = verified ? fromCrawler("googlebot") : {};
      const answer = await call(path, { ua, env, headers });
      expect(answer.status).toBe(first);
      expect(answer.headers.get("x-robots-edge")).toBe(marker);
      vi.setSystemTime(T0 + 1000);
      expect((await call(path, { ua, env, headers })).status).toBe(second);
    },
  );

  it("GET status names the errors: the crawlers, the line, the fix", async () => {
    fakeOrigin({ body: BINGBOT_FILE });
    await call("/robots.txt");
    const status = (await (await admin("status")).json()) as {
      origins: { diagnostics: { error: number }; readings: { line: number; message: string }[] }[];
    };
    const [origin] = status.origins;
    expect(origin?.diagnostics.error).toBe(3);
    expect(origin?.readings.map(({ line }) => line)).toEqual([1, 4, 7]);
    expect(origin?.readings[0]?.message).toContain("for bingbot, RFC 9309");
    expect(origin?.readings[0]?.message).toContain('Fix: add "Disallow:" after line 2');
  });
});
