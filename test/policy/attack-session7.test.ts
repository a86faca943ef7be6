// Outside review, session 7 (issues 30 and 31): attempts on the surfaces changed this session,
// pure rows through decideEdge (the one decision the Worker makes). `it.fails` marks a hole
// found: green now, red once fixed; its expectation is the correct behaviour, written literally.
// Plain `it` rows held and stay as regression rows. Nothing here fixes the code.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { enforcementMatcher } from "../../src/policy/path-spellings.ts";
import { gatheredFacts } from "./gathered-facts.ts";

const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const NOON = Date.UTC(2026, 0, 1, 12, 0, 0);

/** The edge's action on `path` for `ua` under `file`, compiled as the edge enforces it. */
function edge(file: string, path: string, ua = BINGBOT) {
  const matcher = enforcementMatcher(parseRobotsTxt(file));
  const action = decideEdge(
    gatheredFacts({
      agent: classifyUserAgent(ua),
      robots: { state: "ok", matcher, retryAfter: 300 },
      now: NOON,
      rateLimiter: false,
      pathAndQuery: path,
    }),
  );
  if (!("action" in action)) throw new Error("the facts were all gathered: no further request expected");
  return { action: action.action, status: action.status };
}

/** RFC 9309's and Google's answer (the engine, as `robots-edge check` gives it). */
function engineAllows(file: string, path: string, ua = BINGBOT): boolean {
  return compileRobots(parseRobotsTxt(file)).decide(classifyUserAgent(ua).tokens, path, { obeysGlobalGroup: true })
    .allowed;
}

describe("disputed readings: a rule every reading holds is never lifted", () => {
  // urllib.robotparser: a blank line right after user-agent lines (no rule yet) DISCARDS that
  // entry (`if state == 1: entry = Entry()`), so bingbot falls to `*`; robots-parser skips blank
  // lines, so bingbot joins AhrefsBot's group. No reading gives bingbot an empty group, yet
  // core/readings.ts recordReading does ("records before the last hold no rule"): /private,
  // refused by RFC 9309, Google, urllib and robots-parser alike, is passed as "disputed".
  const BLANK_AFTER_AGENT =
    "User-agent: *\nDisallow: /private\n\nUser-agent: bingbot\n\nUser-agent: AhrefsBot\nDisallow: /\n";
  it("a lone user-agent line before a blank line: /private is refused by every reading -> 403", () => {
    expect(engineAllows(BLANK_AFTER_AGENT, "/private")).toBe(false);
    expect(edge(BLANK_AFTER_AGENT, "/private")).toEqual({ action: "block", status: 403 });
  });
  // A line of spaces is no blank line to urllib (`if not line` on the raw line) nor to
  // robots-parser (it skips it): bingbot and AhrefsBot are one group for all three parsers.
  const SPACES_LINE = "User-agent: bingbot\n   \nUser-agent: AhrefsBot\nDisallow: /\n";
  it("a whitespace-only line is no record break for urllib or robots-parser -> 403", () => {
    expect(edge(SPACES_LINE, "/x")).toEqual({ action: "block", status: 403 });
  });

  it.each([
    {
      why: "a comment line between user-agent lines is no record break",
      file: "User-agent: bingbot\n# n\nUser-agent: AhrefsBot\nDisallow: /\n",
    },
    {
      why: "AhrefsBot in the issue's file is refused by every reading",
      file: "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: AhrefsBot\nDisallow: /\n",
      ua: "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    },
    {
      why: "Googlebot is judged by Google's reading alone",
      file: "User-agent: Googlebot\nCrawl-delay: 10\n\nUser-agent: AhrefsBot\nDisallow: /\n",
      ua: GOOGLEBOT,
    },
    {
      why: "a raw-space rule beside a plain one: the plain rule still refuses",
      file: "User-agent: *\nDisallow: /sp ace\nDisallow: /sp\n",
      path: "/sp%20ace",
    },
    { why: "`|` is carried raw by requests: no dispute", file: "User-agent: *\nDisallow: /a|b\n", path: "/a|b" },
  ])("held: $why -> 403", ({ file, ua, path }) => {
    expect(edge(file, path ?? "/x", ua)).toEqual({ action: "block", status: 403 });
  });

  it.each([
    {
      why: "a raw-space disallow: only the record reading refuses, passed marked",
      file: "User-agent: *\nDisallow: /sp ace\n",
      path: "/sp%20ace",
    },
    {
      why: "a raw-space allow: RFC 9309 refuses, the record reading allows, passed marked",
      file: "User-agent: bingbot\nAllow: /p ub\nDisallow: /p\n",
      path: "/p%20ub",
    },
  ])("held: $why -> report", ({ file, path }) => {
    expect(edge(file, path)).toEqual({ action: "report", status: null });
  });
});

describe("rule-side escapes (ruleSpelling)", () => {
  // The other spelling of an ALLOW rule ranks by the rule as written (5 characters, `/a%27`),
  // so it outranks the longer-matching `Disallow: /a'b` (4) on the literal path: RFC 9309 and
  // Google refuse /a'b, the edge forwards it. src/core/match.ts (the other spelling "ranks as
  // it does"), src/policy/path-spellings.ts enforcementMatcher.
  const OUTRANKED = "User-agent: *\nDisallow: /a'b\nAllow: /a%27\n";
  it.fails("an allow's other spelling never lifts what RFC 9309 refuses: /a'b -> 403", () => {
    expect(engineAllows(OUTRANKED, "/a'b")).toBe(false);
    expect(edge(OUTRANKED, "/a'b")).toEqual({ action: "block", status: 403 });
  });

  // The path side leaves the query as written; the rule side decodes escapes in it too, so a
  // rule about the value `a&b` refuses another query (q=a, b=1): a 403 for a URL the file
  // allows, Googlebot included.
  it.fails.each([
    {
      file: "User-agent: *\nDisallow: /search?q=a%26b\n",
      path: "/search?q=a&b=1",
      why: "%26 in a query value is not &",
    },
    { file: "User-agent: *\nDisallow: /search?q=c%2B%2B\n", path: "/search?q=c++", why: "%2B in a query is not +" },
    {
      file: "User-agent: *\nDisallow: /search?q=a%26b\n",
      path: "/search?q=a&b=1",
      ua: GOOGLEBOT,
      why: "Googlebot too",
    },
  ])("a rule's query is left as written: $path passes ($why)", ({ file, path, ua }) => {
    expect(engineAllows(file, path, ua)).toBe(true);
    expect(edge(file, path, ua)).toEqual({ action: "pass", status: null });
  });

  it.each([
    { file: "User-agent: *\nDisallow: /a%2A\n", path: "/a*", why: "%2A matches a literal *" },
    { file: "User-agent: *\nDisallow: /a%24\n", path: "/a$x", why: "%24 is a literal $, no anchor" },
    { file: "User-agent: *\nDisallow: /caf%C3%A9%27\n", path: "/café'", why: "UTF-8 and a literal '" },
    { file: "User-agent: *\nDisallow: /a%3a\n", path: "/a:", why: "a lower-case escape" },
  ])("held: $path -> 403 ($why)", ({ file, path }) => {
    expect(edge(file, path)).toEqual({ action: "block", status: 403 });
  });

  it.each([
    { file: "User-agent: *\nDisallow: /a%2Ab\n", path: "/axb", why: "%2A never becomes a wildcard" },
    { file: "User-agent: *\nDisallow: /a%2527\n", path: "/a'", why: "%25 is a literal %, not a second escape" },
    { file: "User-agent: *\nDisallow: /a%2527\n", path: "/a%27", why: "nor decoded twice" },
  ])("held: $path -> pass ($why)", ({ file, path }) => {
    expect(edge(file, path)).toEqual({ action: "pass", status: null });
  });
});

describe("a device or platform name is no bot evidence", () => {
  // withoutPlatformNames applies only where BROWSER_SHAPED opens the comment with Windows,
  // Macintosh, X11, Linux, iPhone, iPad, iPod or Android: IE's and Windows Phone's
  // compatible-style strings (the whole platform after "compatible;"), Firefox OS / KaiOS
  // ("(Mobile; …)") and smart TVs ("(SMART-TV; …)") keep their model names as evidence, and
  // isbot reads "Robot". src/agents/classify.ts BROWSER_SHAPED, withoutPlatformNames.
  it.fails.each([
    "Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch; NOKIA; Robot 2)",
    "Mozilla/5.0 (Mobile; Windows Phone 8.1; Android 4.0; ARM; Trident/7.0; Touch; rv:11.0; IEMobile/11.0; NOKIA; Robot 635) like iPhone OS 7_0_3 Mac OS X AppleWebKit/537 (KHTML, like Gecko) Mobile Safari/537",
    "Mozilla/5.0 (Mobile; ROBOT-K1; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5",
    "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0; Robot 55) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36",
  ])("a device named Robot is a person: %s", (ua) => {
    expect(classifyUserAgent(ua).crawler).toBe(false);
  });

  it.each([
    {
      ua: "Mozilla/5.0 (Linux; Android 10; GPTBot) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
      token: "GPTBot",
    },
    {
      ua: "Mozilla/5.0 (Linux; Android 10; AhrefsBot) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
      token: "AhrefsBot",
    },
  ])("held: a known crawler's name in the platform comment still names it ($token)", ({ ua, token }) => {
    expect(classifyUserAgent(ua)).toMatchObject({ crawler: true, tokens: [token] });
  });

  it("held: a bare unknown name in the platform comment is a person's device (by design: it could send no name)", () => {
    const ua =
      "Mozilla/5.0 (Windows NT 10.0; SiteScraperBot) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
    expect(classifyUserAgent(ua).crawler).toBe(false);
  });
});
