// "Every layer judges every spelling" (src/policy/path-spellings.ts judgeEverySpelling): the
// operator's policy routes and the usage preferences are judged on every spelling of the path,
// as robots.txt is, and a pass counts only if it holds for every spelling. Rows: the adversarial
// review's reproductions, written as requested, with the action the edge must take.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { NOT_GATHERED, type EdgeFacts } from "../../src/policy/edge-facts.ts";
import { judge } from "../../src/policy/judge.ts";
import { parsePolicy, type CompiledPolicy } from "../../src/policy/operator-policy.ts";
import { enforcementMatcher } from "../../src/policy/path-spellings.ts";
import { gatheredFacts } from "./gathered-facts.ts";

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const PARTNER = "PartnerBot/1.0 (+https://partner.example/bot)";
const NOON = Date.UTC(2026, 0, 1, 12, 0, 0);

function policyOf(json: string): CompiledPolicy {
  const parsed = parsePolicy(json);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.value;
}

const PRIVATE = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /private/\n"));

function decided(over: Pick<EdgeFacts, "pathAndQuery"> & Partial<EdgeFacts>) {
  return decideEdge(
    gatheredFacts({
      agent: classifyUserAgent(BINGBOT),
      robots: { state: "ok", matcher: PRIVATE, retryAfter: 300 },
      now: NOON,
      rateLimiter: false,
      ...over,
    }),
  );
}

describe("a live-policy route is chosen per spelling: off, report and allow lift nothing another spelling refuses", () => {
  const report = policyOf('{"routes":[{"pattern":"/beta/","mode":"report"}]}');
  const off = policyOf('{"routes":[{"pattern":"/open/","mode":"off"}]}');
  const allow = policyOf(
    '{"routes":[{"pattern":"/partners/","rules":[{"crawlers":["PartnerBot"],"action":"allow"}]}]}',
  );
  it.each([
    // The review's reproduction: policy {"routes":[{"pattern":"/beta/","mode":"report"}]}.
    { policy: report, path: "/beta/..%2Fprivate/x", why: "%2F decoded: /private/x" },
    { policy: report, path: "/beta/..;/private/x", why: "parameters dropped: /beta/../private/x" },
    { policy: report, path: "//beta/private/x", why: "network-path reading: /private/x on host beta" },
    { policy: report, path: "/beta/x;y=%2F..%2F..%2F/private/x", why: "servlet reading of an encoded ../" },
    { policy: report, path: "/beta/%2E%2E%2Fprivate/x", why: "encoded dots and slash" },
    { policy: off, path: "/open/..%2Fprivate/x", why: "a route with mode off" },
    { policy: off, path: "//open/private/x", why: "a route with mode off, network path" },
    { policy: allow, path: "/partners/..%2Fprivate/x", agent: PARTNER, why: "an allow rule for the crawler" },
    { policy: allow, path: "/partners/..;/private/x", agent: PARTNER, why: "an allow rule, parameters" },
  ])("$path -> 403, judged as /private/x ($why)", ({ policy, path, agent }) => {
    const action = decided({ pathAndQuery: path, policy, agent: classifyUserAgent(agent ?? BINGBOT) });
    expect(action).toMatchObject({
      action: "block",
      status: 403,
      verdict: { layer: "robots.txt", judgedPath: "/private/x" },
    });
  });

  it.each([
    { policy: report, path: "/beta/x", expected: { action: "pass" } },
    { policy: report, path: "/beta/private/x", expected: { action: "pass" }, why: "/beta/private/ is not /private/" },
    { policy: off, path: "/open/x", expected: { action: "pass", verdict: { layer: "policy" } } },
    { policy: allow, path: "/partners/x", agent: PARTNER, expected: { action: "pass", verdict: { layer: "policy" } } },
    // Another spelling in a route with mode report: forwarded and marked, as that path itself is.
    {
      policy: policyOf('{"routes":[{"pattern":"/private/","mode":"report"}]}'),
      path: "/x/..%2Fprivate/y",
      expected: { action: "report", verdict: { judgedPath: "/private/y" } },
    },
  ])("$path under its route alone -> $expected.action (controls)", ({ policy, path, agent, expected }) => {
    expect(decided({ pathAndQuery: path, policy, agent: classifyUserAgent(agent ?? BINGBOT) })).toMatchObject(expected);
  });

  it("a route's block status is the refusing spelling's route's", () => {
    const policy = policyOf(
      '{"routes":[{"pattern":"/beta/","mode":"report"},{"pattern":"/private/","blockStatus":451}]}',
    );
    expect(decided({ pathAndQuery: "/beta/..%2Fprivate/x", policy })).toMatchObject({ action: "block", status: 451 });
  });

  it("judge() on its own combines the same way (the policy and robots.txt layers)", () => {
    const verdict = judge({
      mode: "enforce",
      failOpen: false,
      state: "ok",
      matcher: PRIVATE,
      tokens: ["OtherBot"],
      obeysGlobalGroup: true,
      pathAndQuery: "/beta/..%2Fprivate/x",
      policy: report,
    });
    expect(verdict).toMatchObject({ action: "block", layer: "robots.txt", judgedPath: "/private/x" });
  });

  it("robots.txt unavailable: a route with mode off on one spelling does not pass the others", () => {
    const unavailable = { state: "unavailable", matcher: undefined, retryAfter: 120 } as const;
    expect(decided({ pathAndQuery: "/open/..%2Fx", policy: off, robots: unavailable })).toMatchObject({
      action: "unavailable",
      status: 503,
      layer: "robots-unavailable",
    });
    expect(decided({ pathAndQuery: "/open/x", policy: off, robots: unavailable })).toMatchObject({ action: "pass" });
  });

  it("a spelling in a route with mode off does not shed the crawl-delay another spelling is held to", () => {
    const paced = compileRobots(parseRobotsTxt("User-agent: bingbot\nCrawl-delay: 5\n"));
    const robots = { state: "ok", matcher: paced, retryAfter: 0 } as const;
    const over = { policy: off, robots, rateLimiter: true, rate: NOT_GATHERED } as const;
    expect(decided({ pathAndQuery: "/open/..%2Fx", ...over })).toMatchObject({ gather: "rate" });
    expect(decided({ pathAndQuery: "/open/x", ...over })).toMatchObject({ action: "pass" });
  });
});

describe("path-scoped usage preferences are resolved on every spelling", () => {
  // The review's reproduction: Content-Usage: /ai-no/ train-ai=n, GPTBot.
  const usage = compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\nContent-Usage: /ai-no/ train-ai=n\n"));
  const robots = { state: "ok", matcher: usage, retryAfter: 0 } as const;
  it.each([
    { path: "/ai-no/x", why: "as written (control)" },
    { path: "/pub/..%2Fai-no/x", why: "%2F decoded" },
    { path: "/pub/..;/ai-no/x", why: "parameters dropped" },
    { path: "//pub/ai-no/x", why: "network-path reading" },
    { path: "/ai-no;x=1/x", why: "a parameter on the segment" },
    { path: "/ai%2Dno/x", why: "an unreserved escape" },
  ])("GPTBot on $path -> 403 by Content-Usage line 3 ($why)", ({ path }) => {
    const action = decided({ pathAndQuery: path, agent: classifyUserAgent(GPTBOT), robots });
    expect(action).toMatchObject({ action: "block", status: 403, usage: { key: "train-ai", line: 3 } });
  });

  it.each([
    { path: "/pub/x", agent: GPTBOT, why: "no line covers it" },
    { path: "/pub/..%2Fai-no/x", agent: BINGBOT, why: "train-ai does not refuse a search engine" },
  ])("$path -> pass ($why)", ({ path, agent }) => {
    expect(decided({ pathAndQuery: path, agent: classifyUserAgent(agent), robots })).toMatchObject({ action: "pass" });
  });
});

describe("reserved-character escapes are judged decoded too (LinkChecker sends every `:` as %3A)", () => {
  const wiki = compileRobots(
    parseRobotsTxt("User-agent: *\nDisallow: /wiki/Special:\nDisallow: /wiki/Talk:O'Brien\nDisallow: /w/a@b\n"),
  );
  const robots = { state: "ok", matcher: wiki, retryAfter: 0 } as const;
  it.each([
    { path: "/wiki/Special%3ARandom", judged: "/wiki/Special:Random" },
    { path: "/wiki/Special%3aRandom", judged: "/wiki/Special:Random" },
    { path: "/wiki/Talk:O%27Brien", judged: "/wiki/Talk:O'Brien" },
    { path: "/wiki/Talk%3AO%27Brien", judged: "/wiki/Talk:O'Brien" },
    { path: "/w/a%40b", judged: "/w/a@b" },
  ])("$path -> 403, judged as $judged", ({ path, judged }) => {
    expect(decided({ pathAndQuery: path, robots })).toMatchObject({ action: "block", verdict: { judgedPath: judged } });
  });

  it("%3F stays escaped: decoded, it would end the path (an origin would serve /a, not /a?x)", () => {
    const query = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /a?\n"));
    const over = { robots: { state: "ok", matcher: query, retryAfter: 0 } as const };
    expect(decided({ pathAndQuery: "/a%3Fx", ...over })).toMatchObject({ action: "pass" });
    expect(decided({ pathAndQuery: "/a?x", ...over })).toMatchObject({ action: "block" });
  });
});

describe("the other way round: a rule that writes a reserved character escaped matches it sent literally", () => {
  // The review's reproduction, from a real file: the origin serves both spellings as one page.
  const file = [
    "User-agent: *",
    "Disallow: /wiki/Wikipedia_talk:Bureaucrats%27_noticeboard",
    "Disallow: /w/%3Aa%40b",
    "Disallow: /star%2A$",
    "Allow: /wiki/Wikipedia_talk:Bureaucrats%27_noticeboard/archive",
    "",
  ].join("\n");
  const robots = { state: "ok", matcher: enforcementMatcher(parseRobotsTxt(file)), retryAfter: 0 } as const;
  it.each([
    { path: "/wiki/Wikipedia_talk:Bureaucrats'_noticeboard", line: 2, why: "' sent literally" },
    { path: "/wiki/Wikipedia_talk%3ABureaucrats'_noticeboard", line: 2, why: "the : escaped, the ' not" },
    { path: "/wiki/Wikipedia_talk:Bureaucrats%27_noticeboard", line: 2, why: "as the rule writes it (control)" },
    { path: "/w/:a@b/x", line: 3, why: "both sent literally" },
    { path: "/w/%3Aa@b", line: 3, why: "one of each" },
    { path: "/star*", line: 4, why: "%2A matches a literal * (RFC 9309 §2.2.3)" },
  ])("$path -> 403 by line $line, the rule as written ($why)", ({ path, line }) => {
    const action = decided({ pathAndQuery: path, robots });
    expect(action).toMatchObject({ action: "block", status: 403, verdict: { decision: { rule: { line } } } });
    const written = file.split("\n")[line - 1]?.split(": ")[1];
    expect(action).toMatchObject({ verdict: { decision: { rule: { pattern: written } } } });
  });

  it.each([
    { path: "/wiki/Wikipedia_talk:Bureaucrats'_noticeboard/archive", why: "the longer allow, sent literally" },
    { path: "/starx", why: "%2A stays a literal *, never a wildcard" },
    { path: "/w/:a", why: "no rule covers it" },
  ])("$path -> pass ($why)", ({ path }) => {
    expect(decided({ pathAndQuery: path, robots })).toMatchObject({ action: "pass" });
  });

  it("an operator's route that writes the escape covers the literal character too", () => {
    const policy = policyOf(
      '{"routes":[{"pattern":"/wiki/O%27Brien","rules":[{"crawlers":["bingbot"],"action":"block"}]}]}',
    );
    expect(decided({ pathAndQuery: "/wiki/O'Brien", policy })).toMatchObject({ action: "block", layer: "policy" });
  });

  it("the engine alone keeps RFC 9309's answer: an escaped reserved character is another URL", () => {
    const engine = compileRobots(parseRobotsTxt(file));
    expect(engine.decide(["bingbot"], "/wiki/Wikipedia_talk:Bureaucrats'_noticeboard")).toMatchObject({
      allowed: true,
      reason: "no-matching-rule",
    });
  });
});
