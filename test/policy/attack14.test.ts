// Attack 14 (outside review of f607158..a1f9b21): "one matching budget per request" is one per
// decideEdge CALL. The Worker calls decideEdge again after each fact it gathers
// (request-path.ts handleRequest's loop), and the rate and the licence are asked for only after
// every spelling was judged: each new call judges them all again with a fresh 1,200,000 steps.
// Failed on a1f9b21; the expectation is the bound match-budget.ts names (REQUEST_STEP_BUDGET),
// with the facts carrying the request's one account as request-path.ts makes them.
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import type { AgentInfo } from "../../src/agents/classify.ts";
import { parseRobotsTxt } from "../../src/core/index.ts";
import { MatchingTooCostly, newRequestAccount, StepBudget } from "../../src/core/match-budget.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { NOT_GATHERED, type EdgeFacts } from "../../src/policy/edge-facts.ts";
import { enforcementMatcher } from "../../src/policy/path-spellings.ts";
import { gatheredFacts } from "./gathered-facts.ts";

/** What one request's decideEdge calls answer and spend, the Worker's loop answering each rate gather. */
function oneRequest(facts: EdgeFacts): { answer: string; calls: number; steps: number } {
  let steps = 0;
  const spend = StepBudget.prototype.spend;
  const spent = vi.spyOn(StepBudget.prototype, "spend").mockImplementation(function (this: StepBudget, n: number) {
    spend.call(this, n);
    steps += n;
  });
  let calls = 0;
  try {
    for (let asked = facts; ;) {
      calls += 1;
      const answer = decideEdge(asked);
      if (!("gather" in answer)) return { answer: answer.action, calls, steps };
      if (answer.gather !== "rate") return { answer: `gather ${answer.gather}`, calls, steps };
      asked = { ...asked, rate: { allowed: true } };
    }
  } catch (error) {
    if (!(error instanceof MatchingTooCostly)) throw error;
    return { answer: error.name, calls, steps };
  } finally {
    spent.mockRestore();
  }
}

describe("A14-3 CPU: a request's second decideEdge call (after the rate is gathered) spends a second 1,200,000 steps", () => {
  // 0221.txt: a real file of the corpus with `Crawl-delay: 30` under `User-agent: *`. Bingbot
  // honours Crawl-delay, so under ENFORCE_RATES' default the pass asks for the rate after every
  // spelling passed; the Worker gathers it and calls decideEdge again, which judges the ten
  // spellings of this 16,000-character path again. Measured: 2 calls, 2,177,504 steps, answered
  // `pass` (/tmp/s11-attack14-probe/gathers.ts); a route requiring a licence adds a third call.
  const text = readFileSync(new URL("../fixtures/corpus/robots/0221.txt", import.meta.url));
  const matcher = enforcementMatcher(parseRobotsTxt(new Uint8Array(text)));
  const bingbot: AgentInfo = {
    crawler: true,
    tokens: ["bingbot"],
    known: undefined,
    obeysGlobalGroup: true,
    honoursRateLimits: true,
  };
  const head = "//a;x%2Fa%3Aa/a;y=%2F..%2Fa%40a/";
  const path = head + "a".repeat(16_000 - head.length);

  it("Bingbot, a 16,000-character path of ten spellings, Crawl-delay in its group: at most 1,200,000 steps for the request", () => {
    const facts = gatheredFacts({
      agent: bingbot,
      pathAndQuery: path,
      robots: { state: "ok", matcher, retryAfter: 0 },
      now: Date.UTC(2026, 10, 27, 12),
      rate: NOT_GATHERED,
      // As the Worker makes them (request-path.ts): one account for the request's every call.
      matchingAccount: newRequestAccount(),
    });
    expect(oneRequest(facts).steps).toBeLessThanOrEqual(1_200_000);
  });
});
