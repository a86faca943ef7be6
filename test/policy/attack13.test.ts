// Attack 13 (outside review of 8d048ab..f607158): the matching budget is one decide call's, and
// one request makes many. FAILS on f607158; the expectation is the bound the fix names (one
// budget for a request's robots.txt matching), not the current behaviour.
import { describe, expect, it, vi } from "vitest";
import type { AgentInfo } from "../../src/agents/classify.ts";
import { parseRobotsTxt } from "../../src/core/index.ts";
import { MatchingTooCostly, StepBudget, withinOneRequestBudget } from "../../src/core/match-budget.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { acrossGroupsFile } from "../core/attack-files.ts";
import { gatheredFacts } from "./gathered-facts.ts";
import { judgeSpelling } from "../../src/policy/judge.ts";
import { enforcementMatcher, enforcementSpellings } from "../../src/policy/path-spellings.ts";
import { disputedReading } from "../../src/policy/readings.ts";

const LIMIT = 500 * 1024;

/** What `run` answers (or the name of what it threw), and the steps it spent before. */
function measured(run: () => unknown): { answer: unknown; steps: number } {
  let steps = 0;
  const spend = StepBudget.prototype.spend;
  const spent = vi.spyOn(StepBudget.prototype, "spend").mockImplementation(function (this: StepBudget, n: number) {
    spend.call(this, n);
    steps += n; // counted once granted: the spend that throws is not made
  });
  try {
    return { answer: run(), steps };
  } catch (error) {
    if (!(error instanceof MatchingTooCostly)) throw error;
    return { answer: error.name, steps };
  } finally {
    spent.mockRestore();
  }
}

describe("A13-2 CPU: the budget bounds one decide call; a request makes 20 of them, each just under it", () => {
  // The tenant's file: attack 12's A12-1 shape (3,764 groups naming `a`, two of b, c, d each,
  // 6 × `disallow:/*ab`) plus one `disallow: /sp ace` (a raw space: the record reading differs,
  // so policy/readings.ts asks a second matcher, with its own budget, on every spelling). b and
  // c asked first fill the merged-tree bound; `a` is then answered across 3,764 trees, ~79
  // steps each on 1-character segments: ~297,000 steps, just under MATCH_STEP_BUDGET, so
  // nothing throws. The client's path `//a;x%2Fa%3Aa/a;y=%2F..%2Fa%40a` has 10 spellings
  // (path-spellings.ts): edge-decision.ts judgedSpelling decides each, and asks the record
  // reading on each (20 decide calls). Measured on f607158 (Node 24, shared 2 cores): 2,410,508
  // steps a request (8 budgets), 5.2 ms (2,585,060 steps, 7.2 ms, with 2-character segments, two of which throw); with 2,700 `/*a<n>` rules (automaton passes) on
  // 1,300-character segments 5,622,600 steps, 6.5-12.1 ms (/tmp/s11-attack13-cpu/*.ts). A
  // disguised claim (edge-decision.ts asListed) judges every spelling again, and an operator's
  // escaped route doubles judgeUnder: up to 80 budgets. docs/security.md's A12-1 row states
  // "a request over 3-5 spellings 5-9 ms (the first refusal ends it)": only a refusal ends it.
  const text = acrossGroupsFile("user-agent: a\ndisallow: /sp ace\n");
  const agent: AgentInfo = {
    crawler: true,
    tokens: ["a"],
    known: undefined,
    obeysGlobalGroup: true,
    honoursRateLimits: false,
  };

  // Fixed (s11-fix13-core): decideEdge runs in one request's budget (core/match-budget.ts
  // withinOneRequestBudget): every decide it makes spends from it, so this request is answered
  // MatchingTooCostly (the edge's fail-safe: 503 + Retry-After for the crawler) after at most
  // REQUEST_STEP_BUDGET, 1,200,000 steps (four decisions' worth: a real file's costliest decision
  // on two spellings must fit). Outside a request's scope (CLI, a matcher on its own) each decide keeps its own.
  const matcher = enforcementMatcher(parseRobotsTxt(new TextEncoder().encode(text)));
  for (const token of ["b", "c", "a", "d"]) matcher.decide([token], "/");
  const path = "//a;x%2Fa%3Aa/a;y=%2F..%2Fa%40a";

  /** Each spelling judged and its record reading asked, as edge-decision.ts does. */
  function judgeEverySpellingAndReading(): void {
    const spellings = enforcementSpellings(path);
    expect(spellings).toHaveLength(10);
    for (const spelling of spellings) {
      const verdict = judgeSpelling(
        {
          mode: "enforce",
          failOpen: false,
          state: "ok",
          matcher,
          tokens: ["a"],
          obeysGlobalGroup: true,
          pathAndQuery: path,
        },
        spelling,
      );
      if (verdict.decision) disputedReading(matcher, verdict.decision, agent, spelling);
    }
  }

  const now = Date.UTC(2026, 10, 27, 12);
  it.each([
    {
      what: "every spelling and reading in one request's scope",
      run: () => withinOneRequestBudget(judgeEverySpellingAndReading),
    },
    {
      what: "the edge's decision (decideEdge)",
      run: () =>
        decideEdge(gatheredFacts({ agent, pathAndQuery: path, robots: { state: "ok", matcher, retryAfter: 0 }, now })),
    },
  ])("one request's robots.txt matching ($what) spends at most 1,200,000 steps, then stops", ({ run }) => {
    const { answer, steps } = measured(run);
    expect(answer).toBe("MatchingTooCostly");
    expect(steps).toBeLessThanOrEqual(1_200_000);
  });

  it("in one request, two decisions just under one decision's budget are both answered (a real file on two spellings)", () => {
    const [first] = enforcementSpellings(path);
    const twice = () =>
      withinOneRequestBudget(() => {
        matcher.decide(["a"], first ?? "/");
        return matcher.decide(["a"], first ?? "/").allowed;
      });
    expect(typeof measured(twice).answer).toBe("boolean");
  });

  it("outside a request's scope each decide has its own budget: the 20 are answered", () => {
    const { answer, steps } = measured(judgeEverySpellingAndReading);
    expect(answer).toBeUndefined();
    expect(steps).toBeGreaterThan(1_200_000);
  });
});

describe("A13-8 CPU: USAGE_SIGNALS=off was read after the usage lines were matched", () => {
  // The tenant's 15,554 `content-usage: /*a<n> train-ai=n` lines (test/core/attack13.test.ts):
  // too costly to match on any path. Off with no header to send, the lines are not matched at all
  // (edge-decision.ts usage); else they spend the request's budget and the fail-safe answers.
  let text = "user-agent: *\nallow: /\n";
  for (let n = 0; text.length < LIMIT - 40; n++) text += `content-usage: /*a${n.toString(36)} train-ai=n\n`;
  const matcher = enforcementMatcher(parseRobotsTxt(new TextEncoder().encode(text)));
  const agent: AgentInfo = {
    crawler: true,
    tokens: ["somebot"],
    known: undefined,
    obeysGlobalGroup: true,
    honoursRateLimits: false,
  };

  it.each([
    { usageSignals: "off", usageHeader: false, expected: "pass" },
    { usageSignals: "off", usageHeader: true, expected: "MatchingTooCostly" },
    { usageSignals: "enforce", usageHeader: false, expected: "MatchingTooCostly" },
  ] as const)(
    "USAGE_SIGNALS=$usageSignals, header $usageHeader: $expected",
    ({ usageSignals, usageHeader, expected }) => {
      const facts = gatheredFacts({
        agent,
        pathAndQuery: `/${"a".repeat(2_000)}`,
        robots: { state: "ok", matcher, retryAfter: 0 },
        now: Date.UTC(2026, 10, 27, 12),
        usageSignals,
        usageHeader,
      });
      let answer: unknown;
      try {
        const decided = decideEdge(facts);
        answer = "action" in decided ? decided.action : decided;
      } catch (error) {
        if (!(error instanceof MatchingTooCostly)) throw error;
        answer = error.name;
      }
      expect(answer).toBe(expected);
    },
  );
});
