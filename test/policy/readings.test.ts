// Issue 30 item 7, the edge's decision: a crawler other than Google's is refused only what every
// mainstream reading of robots.txt refuses (src/policy/readings.ts); the rest passes on, marked
// would-block with the reason; Google's crawlers are judged by Google's reading. Pure, through
// explain (the same decideEdge the Worker performs).
import { describe, expect, it } from "vitest";
import { defaultSettings } from "../../src/config/edge-settings.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { explainRequest } from "../../src/policy/explain.ts";
import type { Mode } from "../../src/policy/mode.ts";
import { BINGBOT_FILE, GOOGLEBOT_FILE, SPACE_FILE } from "../fixtures/readings-files.ts";

const UA = {
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  msnbot: "msnbot/2.1",
  applebot:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
  ahrefsbot: "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
};

const BINGBOT_REASON =
  "RFC 9309 and Google's parser: refused by \"disallow: /\" (line 11, group bingbot); urllib.robotparser, robots-parser and the 1996 draft: allowed (no rule of its group, bingbot, matches). The edge refuses a crawler other than Google's only what every reading refuses (robots-edge lint names the fix)";

const rows: {
  name: string;
  robots: string;
  ua: keyof typeof UA;
  path: string;
  mode: Mode;
  action: string;
  status: number | null;
  line: number | null;
  disputed: string | null;
  rate: string | null;
}[] = [
  {
    name: "bingbot: disputed, passes marked, held to its delay",
    robots: BINGBOT_FILE,
    ua: "bingbot",
    path: "/page",
    mode: "enforce",
    action: "report",
    status: null,
    line: 11,
    disputed: "disallow: /",
    rate: "would be limited (429) if faster than one request every 10 s",
  },
  {
    name: "msnbot: the same",
    robots: BINGBOT_FILE,
    ua: "msnbot",
    path: "/page",
    mode: "enforce",
    action: "report",
    status: null,
    line: 11,
    disputed: "disallow: /",
    rate: "would be limited (429) if faster than one request every 10 s",
  },
  {
    name: "Applebot: the same",
    robots: BINGBOT_FILE,
    ua: "applebot",
    path: "/",
    mode: "enforce",
    action: "report",
    status: null,
    line: 11,
    disputed: "disallow: /",
    rate: "would be limited (429) if faster than one request every 10 s",
  },
  {
    name: "AhrefsBot: every reading refuses it",
    robots: BINGBOT_FILE,
    ua: "ahrefsbot",
    path: "/page",
    mode: "enforce",
    action: "block",
    status: 403,
    line: 11,
    disputed: null,
    rate: null,
  },
  {
    name: "MODE=report: bingbot marked with the reason",
    robots: BINGBOT_FILE,
    ua: "bingbot",
    path: "/page",
    mode: "report",
    action: "report",
    status: null,
    line: 11,
    disputed: "disallow: /",
    rate: null,
  },
  {
    name: "MODE=report: AhrefsBot marked, no dispute",
    robots: BINGBOT_FILE,
    ua: "ahrefsbot",
    path: "/page",
    mode: "report",
    action: "report",
    status: null,
    line: 11,
    disputed: null,
    rate: null,
  },
  {
    name: "Googlebot in bingbot's place: Google's reading, refused",
    robots: GOOGLEBOT_FILE,
    ua: "googlebot",
    path: "/page",
    mode: "enforce",
    action: "block",
    status: 403,
    line: 5,
    disputed: null,
    rate: null,
  },
  {
    name: "Googlebot, the issue's file: no group names it, passes",
    robots: BINGBOT_FILE,
    ua: "googlebot",
    path: "/page",
    mode: "enforce",
    action: "pass",
    status: null,
    line: null,
    disputed: null,
    rate: null,
  },
  {
    name: "a raw space: bingbot passes, marked (robots-parser and urllib match /sp%20ace)",
    robots: SPACE_FILE,
    ua: "bingbot",
    path: "/sp%20ace",
    mode: "enforce",
    action: "report",
    status: null,
    line: 2,
    disputed: "disallow: /sp%20ace",
    rate: null,
  },
  {
    name: "a raw space: Googlebot passes, unmarked (Google never matches it)",
    robots: SPACE_FILE,
    ua: "googlebot",
    path: "/sp%20ace",
    mode: "enforce",
    action: "pass",
    status: null,
    line: null,
    disputed: null,
    rate: null,
  },
];

describe("refuse only what the crawler itself reads", () => {
  it.each(rows)("$name", ({ robots, ua, path, mode, action, status, line, disputed, rate }) => {
    const explanation = explainRequest({
      userAgent: UA[ua],
      url: path,
      settings: { ...defaultSettings(), mode, verifyCrawlers: "off", enforceRates: "honoured" },
      state: "ok",
      matcher: compileRobots(parseRobotsTxt(robots)),
      paused: false,
      facts: { now: Date.parse("2026-11-27T12:00:00Z") },
    });
    expect(explanation.action).toEqual({ action, status, retryAfter: null, rateLimit: rate });
    expect(explanation.line?.line ?? null).toBe(line);
    expect(explanation.reading?.text ?? null).toBe(disputed);
  });

  it("the reason names both readings' answers", () => {
    const explanation = explainRequest({
      userAgent: UA.bingbot,
      url: "/page",
      settings: { ...defaultSettings(), verifyCrawlers: "off" },
      state: "ok",
      matcher: compileRobots(parseRobotsTxt(BINGBOT_FILE)),
      paused: false,
    });
    expect(explanation.reading).toEqual({ line: 11, text: "disallow: /", reason: BINGBOT_REASON });
  });
});
