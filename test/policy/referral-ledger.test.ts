// What each operator gives back (issue 24, part 2), in the pure layers: the activity buffer's
// per-operator counts, the ledger the isolate keeps, the policy's `crawlsPerReferral`
// condition (its JSON, its problems on their lines, and what the one decision does with it),
// and replay of a draft that adds one. Expectations are literal.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { ActivityBuffer } from "../../src/policy/activity-batch.ts";
import type { CrawlerEvent } from "../../src/policy/activity.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import type { EdgeAnswer } from "../../src/policy/edge-decision.ts";
import type { EdgeFacts } from "../../src/policy/edge-facts.ts";
import { parsePolicy, type CompiledPolicy } from "../../src/policy/operator-policy.ts";
import { locateProblems } from "../../src/policy/policy-lines.ts";
import {
  crawlsPerReferral,
  ledgerOf,
  totalsOver,
  type LedgerDayRow,
  type ReferralLedger,
} from "../../src/policy/referral-ledger.ts";
import { replay, type RecordedRequest } from "../../src/policy/replay.ts";
import { gatheredFacts, UNVERIFIABLE, VERIFIED } from "./gathered-facts.ts";

const NOW = Date.UTC(2026, 0, 15, 12, 30);
const HOUR0 = NOW - (NOW % 3_600_000);
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const UNKNOWN_BOT = "FooCrawler/1.0 (+https://foo.example/bot)";

/** A day's row: the crawls of the operator's crawler of that category (GPTBot's, Googlebot's) and its referrals. */
const day = (operator: string, daysAgo: number, verified: number, referrals: number): LedgerDayRow => ({
  operator,
  category: operator === "Google" ? "search-engine" : "ai-training",
  daysAgo,
  crawls: verified,
  verified,
  bytes: 0,
  referrals,
});

describe("the ledger: per operator, per day back", () => {
  const ledger = ledgerOf(
    [day("OpenAI", 0, 300, 1), day("OpenAI", 6, 500, 1), day("OpenAI", 7, 10_000, 0), day("OpenAI", 30, 9, 9)],
    NOW,
  );
  it.each([
    { days: 1, want: { crawls: 300, verified: 300, bytes: 0, referrals: 1 }, why: "today only" },
    { days: 7, want: { crawls: 800, verified: 800, bytes: 0, referrals: 2 }, why: "days 0 to 6" },
    { days: 8, want: { crawls: 10_800, verified: 10_800, bytes: 0, referrals: 2 }, why: "day 7 too" },
    { days: 30, want: { crawls: 10_800, verified: 10_800, bytes: 0, referrals: 2 }, why: "day 30 is past the store" },
  ])("$days days: $why", ({ days, want }) => {
    expect(totalsOver(ledger, "OpenAI", days)).toEqual(want);
  });

  it("an operator with nothing recorded has zero counts; the ratio of none referred is null", () => {
    expect(totalsOver(ledger, "Google", 7)).toEqual({ crawls: 0, verified: 0, bytes: 0, referrals: 0 });
    expect(crawlsPerReferral({ crawls: 800, referrals: 2 })).toBe(400);
    expect(crawlsPerReferral({ crawls: 5, referrals: 3 })).toBe(1.7);
    expect(crawlsPerReferral({ crawls: 5, referrals: 0 })).toBeNull();
  });
});

const event = (token: string, verified: CrawlerEvent["verified"]): CrawlerEvent => ({
  time: NOW,
  token,
  tokens: [token],
  category: "ai-training",
  verified,
  method: "GET",
  path: "/a",
  action: "pass",
  layer: "robots.txt",
  line: null,
  rule: null,
  violation: false,
});

describe("the activity buffer counts operators, not people", () => {
  it("answered crawls of known operators (not refuted) per category, verified ones, bytes, and referred people per hour", () => {
    const buffer = new ActivityBuffer();
    const answered = { kind: "crawler", operator: "OpenAI", answered: true } as const;
    buffer.add("o", { ...answered, bytes: 1_000, event: event("GPTBot", "verified") });
    buffer.add("o", { ...answered, bytes: 500, event: event("GPTBot", "unverifiable") });
    buffer.add("o", { ...answered, bytes: 9_999, event: event("GPTBot", "refuted") });
    buffer.add("o", { ...answered, event: { ...event("OAI-SearchBot", "verified"), category: "ai-search" } });
    // Not answered with content (a 429, a 403, a robots.txt fetch): no crawl.
    buffer.add("o", {
      kind: "crawler",
      operator: "OpenAI",
      event: { ...event("GPTBot", "verified"), action: "block" },
    });
    buffer.add("o", { kind: "crawler", event: event("FooBot", "unchecked") });
    buffer.add("o", { kind: "human", time: NOW, referredBy: "OpenAI" });
    buffer.add("o", { kind: "human", time: NOW, referredBy: "Google" });
    buffer.add("o", { kind: "human", time: NOW });
    const [[, batch] = ["", undefined]] = buffer.take();
    expect(batch?.humans).toEqual([{ hour: HOUR0, count: 3 }]);
    expect(batch?.operators).toEqual([
      { hour: HOUR0, operator: "OpenAI", category: "ai-training", crawls: 2, verified: 1, bytes: 1_500, referrals: 0 },
      { hour: HOUR0, operator: "OpenAI", category: "ai-search", crawls: 1, verified: 1, bytes: 0, referrals: 0 },
      { hour: HOUR0, operator: "OpenAI", crawls: 0, verified: 0, bytes: 0, referrals: 1 },
      { hour: HOUR0, operator: "Google", crawls: 0, verified: 0, bytes: 0, referrals: 1 },
    ]);
  });

  it("a condition counts the crawls of the category of the crawler it names, beside all the operator's referrals", () => {
    const ledger = ledgerOf(
      [
        { operator: "OpenAI", category: "ai-training", daysAgo: 0, crawls: 900, verified: 900, bytes: 0, referrals: 0 },
        { operator: "OpenAI", category: "ai-search", daysAgo: 0, crawls: 30, verified: 20, bytes: 0, referrals: 0 },
        // Stored by the release before categories: shown, never a condition's count.
        { operator: "OpenAI", daysAgo: 0, crawls: 5_000, verified: 5_000, bytes: 0, referrals: 2 },
      ],
      NOW,
    );
    expect(totalsOver(ledger, "OpenAI", 7, "ai-search")).toEqual({ crawls: 30, verified: 20, bytes: 0, referrals: 2 });
    expect(totalsOver(ledger, "OpenAI", 7, "ai-training")).toEqual({
      crawls: 900,
      verified: 900,
      bytes: 0,
      referrals: 2,
    });
    expect(totalsOver(ledger, "OpenAI", 7)).toEqual({ crawls: 5_930, verified: 5_920, bytes: 0, referrals: 2 });
  });

  it("a batch without operators carries no operators field (what older objects read)", () => {
    const buffer = new ActivityBuffer();
    buffer.add("o", { kind: "human", time: NOW });
    expect(buffer.take()[0]?.[1]).not.toHaveProperty("operators");
  });
});

function policyOf(value: unknown): CompiledPolicy {
  const parsed = parsePolicy(JSON.stringify(value));
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.value;
}

const PACE_AI = policyOf({
  routes: [
    {
      pattern: "/articles/",
      rules: [
        {
          crawlers: ["category:ai-training", "Googlebot"],
          action: "pace",
          retryAfter: 600,
          when: { crawlsPerReferral: { above: 100, days: 7 } },
        },
      ],
    },
    {
      pattern: "/news/",
      rules: [{ crawlers: ["GPTBot"], action: "block", when: { crawlsPerReferral: { above: 100 } } }],
    },
  ],
});

describe("policy JSON: the crawlsPerReferral condition and the pace action", () => {
  it("parses with its defaults: days 7, pace Retry-After 3600", () => {
    const policy = policyOf({
      routes: [
        {
          pattern: "/a/",
          rules: [{ crawlers: ["GPTBot"], action: "pace", when: { crawlsPerReferral: { above: 50 } } }],
        },
      ],
    });
    expect(policy.policy.routes[0]?.rules[0]).toEqual({
      crawlers: ["GPTBot"],
      action: "pace",
      retryAfter: 3600,
      when: { crawlsPerReferral: { above: 50, days: 7 } },
    });
  });

  const TEXT = `{
  "routes": [
    {
      "pattern": "/articles/",
      "rules": [
        {
          "crawlers": ["GPTBot"],
          "action": "allow",
          "when": { "crawlsPerReferral": { "above": 100 } }
        },
        {
          "crawlers": ["ClaudeBot"],
          "action": "block",
          "retryAfter": 60,
          "when": { "crawlsPerReferral": { "above": 0, "days": 31, "hours": 2 }, "sunny": true }
        },
        { "crawlers": ["CCBot"], "action": "pace", "retryAfter": 90000 },
        { "crawlers": ["Bytespider"], "action": "pace", "when": "often" }
      ]
    }
  ]
}`;

  it("reports every problem at once, each on its line", () => {
    const parsed = parsePolicy(TEXT);
    expect(parsed.ok).toBe(false);
    const located = parsed.ok ? [] : locateProblems(TEXT, parsed.problems);
    expect(located).toEqual([
      {
        line: 9,
        problem:
          'routes[0].rules[0].when cannot make an "allow": a condition counts referrals, which any client can claim, and a claim grants nothing',
      },
      { line: 14, problem: 'routes[0].rules[1].retryAfter belongs to a "pace" rule only' },
      {
        line: 15,
        problem: "routes[0].rules[1].when.sunny is not a condition this version knows (crawlsPerReferral)",
      },
      { line: 15, problem: "routes[0].rules[1].when.crawlsPerReferral.hours is not known (above, days)" },
      {
        line: 15,
        problem:
          "routes[0].rules[1].when.crawlsPerReferral.above must be a number of crawls per referral greater than 0, got 0",
      },
      {
        line: 15,
        problem: "routes[0].rules[1].when.crawlsPerReferral.days must be a whole number from 1 to 30, got 31",
      },
      {
        line: 17,
        problem: "routes[0].rules[2].retryAfter must be a whole number of seconds from 1 to 86400, got 90000",
      },
      {
        line: 18,
        problem: 'routes[0].rules[3].when must be an object such as {"crawlsPerReferral": {"above": 100, "days": 7}}',
      },
    ]);
  });
});

const robots = {
  state: "ok",
  matcher: compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\n")),
  retryAfter: 300,
} as const;
/** OpenAI: 800 verified crawls and 2 referrals in the last 7 days (400:1); Google 500 and 50 (10:1). */
const LEDGER: ReferralLedger = ledgerOf(
  [day("OpenAI", 0, 300, 1), day("OpenAI", 6, 500, 1), day("Google", 0, 500, 50)],
  NOW,
);

function decided(overrides: Partial<EdgeFacts> & Pick<EdgeFacts, "agent">): EdgeAnswer {
  return decideEdge(
    gatheredFacts({ pathAndQuery: "/articles/1", robots, now: NOW, policy: PACE_AI, ledger: LEDGER, ...overrides }),
  );
}

function said(answer: EdgeAnswer): string {
  if ("gather" in answer) return `gather ${answer.gather}`;
  if (answer.action === "rate-limited") return `429 Retry-After ${answer.retryAfter}`;
  if (answer.action === "block") return `${answer.status}`;
  return answer.action;
}

describe("the one decision with a crawlsPerReferral rule", () => {
  const gptbot = classifyUserAgent(GPTBOT);
  const verified = { needsVerification: true, verification: VERIFIED };
  it.each([
    {
      why: "OpenAI took 400:1 (> 100) on /articles/: paced",
      facts: { agent: gptbot, ...verified },
      want: "429 Retry-After 600",
    },
    {
      why: "an unverifiable GPTBot claim is held to the same rule (it names OpenAI's crawler)",
      facts: { agent: gptbot, needsVerification: true, verification: UNVERIFIABLE },
      want: "429 Retry-After 600",
    },
    {
      why: "Google gave back 10:1 (not > 100): robots.txt decides",
      facts: { agent: classifyUserAgent(GOOGLEBOT), ...verified },
      want: "pass",
    },
    {
      why: "no ledger loaded yet: the condition does not hold (do no harm)",
      facts: { agent: gptbot, ...verified, ledger: undefined },
      want: "pass",
    },
    {
      why: "the condition's path only",
      facts: { agent: gptbot, ...verified, pathAndQuery: "/about" },
      want: "pass",
    },
    {
      why: "a block rule with the condition refuses",
      facts: { agent: gptbot, ...verified, pathAndQuery: "/news/1" },
      want: "403",
    },
    {
      why: "a bot of no known operator: no ratio, no condition",
      facts: { agent: classifyUserAgent(UNKNOWN_BOT) },
      want: "pass",
    },
    {
      why: "MODE=report only marks it",
      facts: { agent: gptbot, ...verified, mode: "report" as const },
      want: "report",
    },
    {
      why: "a re-spelled path is judged on every spelling",
      facts: { agent: gptbot, ...verified, pathAndQuery: "/x/..%2Farticles/1" },
      want: "429 Retry-After 600",
    },
  ])("$why", ({ facts, want }) => {
    expect(said(decided(facts))).toBe(want);
  });

  it("OpenAI under the ratio: 800 verified crawls, 8 referrals (100:1, not above) passes", () => {
    const ledger = ledgerOf([day("OpenAI", 0, 800, 8)], NOW);
    expect(said(decided({ agent: gptbot, ...verified, ledger }))).toBe("pass");
  });
});

describe("replay shows what such a rule would have done", () => {
  const requests: RecordedRequest[] = [
    { time: NOW - 3, token: "GPTBot", tokens: ["GPTBot"], verified: "verified", method: "GET", path: "/articles/1" },
    {
      time: NOW - 2,
      token: "Googlebot",
      tokens: ["Googlebot"],
      verified: "verified",
      method: "GET",
      path: "/articles/2",
    },
    { time: NOW - 1, token: "GPTBot", tokens: ["GPTBot"], verified: "verified", method: "GET", path: "/about" },
  ];
  const side = { state: "ok", matcher: robots.matcher, policy: undefined } as const;
  const settings = {
    mode: "enforce",
    failOpen: false,
    blockStatus: 403,
    verifyCrawlers: "unknown",
    enforceRates: "honoured",
    usageSignals: "enforce",
    ledger: LEDGER,
  } as const;

  it("the GPTBot article request would have been paced by the policy rule", () => {
    const result = replay(requests, { live: side, draft: { ...side, policy: PACE_AI } }, settings);
    expect(result.changedCount).toBe(1);
    expect(result.changed).toEqual([
      {
        time: NOW - 3,
        token: "GPTBot",
        method: "GET",
        path: "/articles/1",
        live: { action: "pass", layer: "robots.txt", line: 2, rule: "allow: /" },
        draft: { action: "rate-limited", layer: "policy", line: null, rule: "policy /articles/: pace" },
      },
    ]);
  });

  it("with no ledger, the rule changes nothing", () => {
    const result = replay(
      requests,
      { live: side, draft: { ...side, policy: PACE_AI } },
      { ...settings, ledger: undefined },
    );
    expect(result.changedCount).toBe(0);
  });
});
