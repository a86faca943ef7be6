// Session 8 attack review (outside reviewer): HOLES found in today's features. Each test FAILS
// on main as of this review and states the behaviour the project's rules ask for; the lead
// decides the fix. Attacks that hold are in attack-session8.test.ts.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { gatheredFacts } from "./gathered-facts.ts";

const NAGET = "NagetBot/1.0 (+https://naget.example/bot)";

describe("HOLE: a catalogue's category buys an exemption from a required licence", () => {
  // A catalogue (network input, "can only restrict") lists NagetBot as search-engine. terms.ts
  // appliesTo treats category search-engine as the default exemption and standing "catalogued"
  // as "unproven": the crawler gets 503 + Retry-After (our fault, "retry") for ever instead of
  // the 401 it gets without the catalogue. No verification can ever prove a catalogued claim.
  const policy = parsePolicy(
    JSON.stringify({
      licence: { url: "https://www.example.com/license.xml", server: "https://olp.example.com" },
      routes: [{ pattern: "/premium/", licence: { required: true } }],
    }),
  );
  if (!policy.ok) throw new Error(policy.problems.join("; "));
  it.each(["search-engine", "ai-training"] as const)("NagetBot catalogued %s, no token: 401 missing", (category) => {
    const record = decideEdge(
      gatheredFacts({
        pathAndQuery: "/premium/a",
        robots: { state: "ok", matcher: compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\n")), retryAfter: 0 },
        now: 0,
        policy: policy.value,
        agent: classifyUserAgent(NAGET),
        catalogued: { catalogue: "lists", fetchedAt: 0, token: "NagetBot", category },
      }),
    );
    if ("gather" in record) throw new Error(`gather ${record.gather}`);
    expect([record.status, record.layer, record.terms?.licenceCheck]).toEqual([401, "licence", "missing"]);
  });
});

describe("HOLE: a search crawler no check can ever prove gets a licence route's 503 for ever", () => {
  // terms.ts appliesTo: the default exemption needs standing "proven"; anything else with a
  // search-engine category is "unproven" -> 503 + Retry-After. Two claims are never proven by
  // any retry: Googlebot under VERIFY_CRAWLERS=off (standing "as-made": the operator chose to
  // believe claims, and robots.txt does), and a search engine our table lacks that Cloudflare
  // itself verified (cf.verifiedBotCategory, standing "as-made"). A permanent 503 on a route is
  // what makes a search engine drop it from its index: the default must not.
  const policy = parsePolicy(
    JSON.stringify({
      licence: { url: "https://www.example.com/license.xml", server: "https://olp.example.com" },
      routes: [{ pattern: "/premium/", licence: { required: true } }],
    }),
  );
  if (!policy.ok) throw new Error(policy.problems.join("; "));
  const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const MOJEEK = "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)";
  it.each([
    ["Googlebot, VERIFY_CRAWLERS=off", { agent: classifyUserAgent(GOOGLEBOT), verifyCrawlers: "off" as const }],
    [
      "MojeekBot, Cloudflare-verified search engine",
      { agent: classifyUserAgent(MOJEEK), cloudflareCategory: "search-engine" as const },
    ],
  ])("%s on /premium/a: passed, exempt", (_who, facts) => {
    const record = decideEdge(
      gatheredFacts({
        pathAndQuery: "/premium/a",
        robots: { state: "ok", matcher: compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\n")), retryAfter: 0 },
        now: 0,
        policy: policy.value,
        ...facts,
      }),
    );
    if ("gather" in record) throw new Error(`gather ${record.gather}`);
    expect([record.action, record.status, record.terms?.licenceCheck]).toEqual(["pass", null, "exempt"]);
  });
});
