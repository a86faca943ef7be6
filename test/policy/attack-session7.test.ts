// Outside review, session 7 (issues 30 and 31): attempts on the surfaces changed this session,
// pure rows through decideEdge (the one decision the Worker makes). Each hole found was first an
// `it.fails` row with the correct behaviour written literally, and became a plain row when fixed
// (all 8 are fixed); the rows that held stay as regression rows.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { parsePolicy, type CompiledPolicy } from "../../src/policy/operator-policy.ts";
import { enforcementMatcher } from "../../src/policy/path-spellings.ts";
import { gatheredFacts } from "./gathered-facts.ts";

const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const NOON = Date.UTC(2026, 0, 1, 12, 0, 0);

/** The edge's action on `path` for `ua` under `file`, compiled as the edge enforces it. */
function edge(file: string, path: string, ua = BINGBOT, policy?: CompiledPolicy) {
  const matcher = enforcementMatcher(parseRobotsTxt(file));
  const action = decideEdge(
    gatheredFacts({
      agent: classifyUserAgent(ua),
      robots: { state: "ok", matcher, retryAfter: 300 },
      now: NOON,
      rateLimiter: false,
      pathAndQuery: path,
      ...(policy && { policy }),
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
  it("an allow's other spelling never lifts what RFC 9309 refuses: /a'b -> 403", () => {
    expect(engineAllows(OUTRANKED, "/a'b")).toBe(false);
    expect(edge(OUTRANKED, "/a'b")).toEqual({ action: "block", status: 403 });
  });

  // Ranked by its own length the allow's other spelling `/a'b` (4) still outranks
  // `Disallow: /a` (2) on /a'b; RFC 9309 refuses /a'b (the allow as written does not match it).
  // The written reading's refusal stands (src/core/match.ts buildTrees).
  it.each([
    { file: "User-agent: *\nDisallow: /a\nAllow: /a%27b\n", path: "/a'b", why: "a longer allow, other spelling" },
    { file: "User-agent: *\nDisallow: /wiki/\nAllow: /wiki/A%3AB\n", path: "/wiki/A:B", why: "%3A" },
  ])("an allow's other spelling lifts no refusal: $path -> 403 ($why)", ({ file, path }) => {
    expect(engineAllows(file, path)).toBe(false);
    expect(edge(file, path)).toEqual({ action: "block", status: 403 });
  });

  // Both readings pass: the allow, longer in either spelling, is not overruled by the
  // disallow's other spelling (no refusal added where neither reading refuses).
  it.each([
    { file: "User-agent: *\nDisallow: /a%27\nAllow: /a%27b\n", path: "/a'b" },
    { file: "User-agent: *\nDisallow: /a%27\nAllow: /a'b\n", path: "/a'b" },
  ])("held: $path -> pass when every reading's longest match allows", ({ file, path }) => {
    expect(engineAllows(file, path)).toBe(true);
    expect(edge(file, path)).toEqual({ action: "pass", status: null });
  });

  // The same on the live policy's routes (enforcementRoutes): route `/a%27` read as `/a'` was
  // ranked by its 5 written characters, so it, mode off, was chosen over the block route `/a'b`;
  // and a longer route's other spelling (`/a%27b` read as `/a'b`, mode off) chose itself over
  // the route the patterns as written choose (`/a`, block). The stricter route stands.
  it.each([
    { routes: [{ pattern: "/a'b", block: true }, { pattern: "/a%27" }], why: "shorter, ranked as written" },
    { routes: [{ pattern: "/a", block: true }, { pattern: "/a%27b" }], why: "longer, chosen by its other spelling" },
    { routes: [{ pattern: "/wiki/", block: true }, { pattern: "/wiki/A%3AB" }], path: "/wiki/A:B", why: "%3A" },
  ])("a route's other spelling lifts no route's refusal: /a'b -> 403 ($why)", ({ routes, path }) => {
    const json = JSON.stringify({
      routes: routes.map(({ pattern, block }) =>
        block ? { pattern, rules: [{ crawlers: ["bingbot"], action: "block" }] } : { pattern, mode: "off" },
      ),
    });
    const parsed = parsePolicy(json);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    expect(edge("User-agent: *\nDisallow:\n", path ?? "/a'b", BINGBOT, parsed.value)).toEqual({
      action: "block",
      status: 403,
    });
  });

  it.each([
    { pattern: "/a%27b", path: "/a'b", why: "the route's other spelling" },
    { pattern: "/a%27b", path: "/a%27b", why: "the route as written" },
  ])("held: a block route written escaped refuses $path ($why)", ({ pattern, path }) => {
    const parsed = parsePolicy(
      JSON.stringify({ routes: [{ pattern, rules: [{ crawlers: ["bingbot"], action: "block" }] }] }),
    );
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    expect(edge("User-agent: *\nDisallow:\n", path, BINGBOT, parsed.value)).toEqual({ action: "block", status: 403 });
  });

  // The path side leaves the query as written; the rule side decodes escapes in it too, so a
  // rule about the value `a&b` refuses another query (q=a, b=1): a 403 for a URL the file
  // allows, Googlebot included.
  it.each([
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
    { file: "User-agent: *\nDisallow: /search?q=a%26b\n", path: "/search?q=a%26b", why: "the query as written" },
    { file: "User-agent: *\nDisallow: /w%3Ax?q=a%26b\n", path: "/w:x?q=a%26b", why: "the path part still decoded" },
  ])("held: $path -> 403 ($why)", ({ file, path }) => {
    expect(edge(file, path)).toEqual({ action: "block", status: 403 });
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
  it.each([
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
