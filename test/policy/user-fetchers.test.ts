// Issue #10 "do no harm": fetchers acting for a person, documented by their operators as not
// bound by robots.txt, are not held to `User-agent: *` — but only as who they claim to be (an
// impostor refuted by the operator's list is an anonymous bot under `*`), a group naming them
// still applies, and a usage preference stated under `*` (how content may be USED) still binds them.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { NOT_GATHERED, type EdgeFacts } from "../../src/policy/edge-facts.ts";
import { gatheredFacts, REFUTED, UNVERIFIABLE, VERIFIED } from "./gathered-facts.ts";

const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const PERPLEXITY_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)";
const FEEDFETCHER = "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)";
const FACEBOOK = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
// test/fixtures/corpus/agents/crawlers.jsonl (monperrus/crawler-user-agents).
const GOOGLE_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent)";
const AMAZON_Q = "amazon-QBusiness";

function facts(robots: string, ua: string, overrides: Partial<EdgeFacts> = {}): EdgeFacts {
  return gatheredFacts({
    pathAndQuery: "/article",
    agent: classifyUserAgent(ua),
    robots: { state: "ok", matcher: compileRobots(parseRobotsTxt(robots)), retryAfter: 0 },
    now: Date.UTC(2026, 10, 23),
    needsVerification: true,
    verification: VERIFIED,
    rateLimiter: false,
    ...overrides,
  });
}

const summary = (input: EdgeFacts): string => {
  const record = decideEdge(input);
  if ("gather" in record) return `gather ${record.gather}`;
  return record.action === "block" ? `block ${record.layer}` : record.action;
};

const ALL_OUT = "User-agent: *\nDisallow: /\n";

describe("user-triggered fetchers and `*` at the edge", () => {
  it.each([
    {
      why: "verified ChatGPT-User: `*` is not held against it",
      robots: ALL_OUT,
      ua: CHATGPT_USER,
      o: {},
      expected: "pass",
    },
    { why: "verified Perplexity-User: the same", robots: ALL_OUT, ua: PERPLEXITY_USER, o: {}, expected: "pass" },
    { why: "FeedFetcher-Google (Google documents it)", robots: ALL_OUT, ua: FEEDFETCHER, o: {}, expected: "pass" },
    {
      why: "a ChatGPT-User claim refuted by OpenAI's list: an anonymous bot under `*`",
      robots: ALL_OUT,
      ua: CHATGPT_USER,
      o: { verification: REFUTED },
      expected: "block robots.txt",
    },
    {
      why: "a group naming ChatGPT-User applies",
      robots: `${ALL_OUT}\nUser-agent: ChatGPT-User\nDisallow: /article\n`,
      ua: CHATGPT_USER,
      o: {},
      expected: "block robots.txt",
    },
    {
      why: "Content-Signal ai-input=no under `*` still refuses ChatGPT-User (a preference about use)",
      robots: "User-agent: *\nContent-Signal: ai-input=no\nAllow: /\n",
      ua: CHATGPT_USER,
      o: {},
      expected: "block usage-signal",
    },
    {
      why: "…and under `*` with Disallow: / too: access rules lifted, the preference not",
      robots: "User-agent: *\nContent-Signal: ai-input=no\nDisallow: /\n",
      ua: CHATGPT_USER,
      o: {},
      expected: "block usage-signal",
    },
    // A claim that cannot be checked grants no exemption from `*` (policy/claim.ts): the
    // fetcher's own group would pass it, so the refusal is a 503, not a 403.
    {
      why: "an unverifiable ChatGPT-User claim (OpenAI's list not loaded): held to `*`, 503",
      robots: ALL_OUT,
      ua: CHATGPT_USER,
      o: { verification: UNVERIFIABLE },
      expected: "unavailable",
    },
    {
      why: "an unverifiable FeedFetcher-Google claim: held to `*`, 503",
      robots: ALL_OUT,
      ua: FEEDFETCHER,
      o: { verification: UNVERIFIABLE },
      expected: "unavailable",
    },
    {
      why: "VERIFY_CRAWLERS=off: the claim is taken for groups, never for an exemption from `*`",
      robots: ALL_OUT,
      ua: PERPLEXITY_USER,
      o: { verifyCrawlers: "off" as const, needsVerification: false, verification: NOT_GATHERED } as const,
      expected: "block robots.txt",
    },
    {
      why: "an unverifiable claim where `*` allows: passed",
      robots: "User-agent: *\nDisallow: /private/\n",
      ua: CHATGPT_USER,
      o: { verification: UNVERIFIABLE },
      expected: "pass",
    },
    // Google-Agent: on Google's user-triggered fetchers list, with user-triggered-agents.json.
    {
      why: "verified Google-Agent: `*` is not held against it",
      robots: ALL_OUT,
      ua: GOOGLE_AGENT,
      o: {},
      expected: "pass",
    },
    {
      why: "a Google-Agent claim refuted by Google's list: an anonymous bot under `*`",
      robots: ALL_OUT,
      ua: GOOGLE_AGENT,
      o: { verification: REFUTED },
      expected: "block robots.txt",
    },
    {
      why: "an unverifiable Google-Agent claim: held to `*`, 503",
      robots: ALL_OUT,
      ua: GOOGLE_AGENT,
      o: { verification: UNVERIFIABLE },
      expected: "unavailable",
    },
    {
      why: "a group naming Google-Agent applies",
      robots: `${ALL_OUT}\nUser-agent: Google-Agent\nDisallow: /article\n`,
      ua: GOOGLE_AGENT,
      o: {},
      expected: "block robots.txt",
    },
    {
      why: "Content-Usage ai-use=n under `*` still refuses Google-Agent (an assistant: a preference about use)",
      robots: "User-agent: *\nContent-Usage: ai-use=n\nDisallow: /\n",
      ua: GOOGLE_AGENT,
      o: {},
      expected: "block usage-signal",
    },
    // amazon-QBusiness: AWS documents that it obeys Allow/Disallow, so it stays under `*`.
    {
      why: "amazon-QBusiness obeys `*` (AWS documents Allow and Disallow)",
      robots: ALL_OUT,
      ua: AMAZON_Q,
      o: { needsVerification: false, verification: undefined },
      expected: "block robots.txt",
    },
    {
      why: "facebookexternalhit: no list to verify it by, held to `*`",
      robots: ALL_OUT,
      ua: FACEBOOK,
      o: { needsVerification: false, verification: NOT_GATHERED } as const,
      expected: "block robots.txt",
    },
  ])("$why", ({ robots, ua, o, expected }) => {
    expect(summary(facts(robots, ua, o))).toBe(expected);
  });
});
