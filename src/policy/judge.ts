/**
 * What the edge does with one request from a crawler: pure, no I/O. Two layers: the
 * operator's policy (operator-policy.ts) first — a route's rule naming the crawler decides,
 * and a route's mode and block status apply — then the origin's robots.txt. Each spelling an
 * origin might serve as the same resource (path-spellings.ts) is judged on its own, with its
 * own route, and the strictest verdict stands: a route's `off`, `report` or `allow` chosen by
 * one spelling never lifts a refusal of another.
 */

import type { Decision, RobotsMatcher } from "../core/index.ts";
import { judgeEverySpelling } from "./path-spellings.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy, PolicyMatch } from "./operator-policy.ts";
import type { Action, CrawlerCategory, Layer } from "../vocabulary.ts";
import type { ReferralLedger } from "./referral-ledger.ts";

/** What is in force for the origin: a file, no file (allow all), or nothing known. */
export type EntryState = "ok" | "none" | "unavailable";

/**
 * What the two path layers can answer (src/vocabulary.ts ACTIONS); `rate-limited` only from a
 * policy rule's `pace` (operator-policy.ts), a 429 with the rule's Retry-After.
 */
export type VerdictAction = Extract<Action, "pass" | "block" | "report" | "unavailable" | "rate-limited">;

/** Which of them decided: the operator's policy, robots.txt, or neither (nothing to judge by). */
export type VerdictLayer = Extract<Layer, "policy" | "robots.txt" | "none">;

export interface Verdict {
  readonly action: VerdictAction;
  readonly layer: VerdictLayer;
  /** The policy route covering the path (and its rule for this crawler), if any. */
  readonly policy: PolicyMatch | undefined;
  /** The block status for this path: the route's, when it sets one. */
  readonly blockStatus: number | undefined;
  /** Undefined when no robots.txt decision was made (none at origin, unavailable). */
  readonly decision: Decision | undefined;
  /** The spelling of the path that decided (differs from the request's when re-spelled). */
  readonly judgedPath: string;
}

export interface JudgeInput {
  readonly mode: Mode;
  readonly failOpen: boolean;
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  readonly tokens: readonly string[];
  readonly obeysGlobalGroup: boolean;
  /** Path and query of the request URL. */
  readonly pathAndQuery: string;
  readonly policy?: CompiledPolicy | undefined;
  /** The crawler's category from the known-crawler table, for `category:` policy rules. */
  readonly category?: CrawlerCategory | undefined;
  /** The crawler's operator and the isolate's recorded counts, for a rule's condition (referral-ledger.ts). */
  readonly operator?: string | undefined;
  readonly ledger?: ReferralLedger | undefined;
}

/** Policy, then robots.txt, on every spelling of the path; the strictest verdict (path-spellings.ts). */
export function judge(input: JudgeInput): Verdict {
  return judgeEverySpelling(input.pathAndQuery, (spelling) => judgeSpelling(input, spelling), verdictStrictness);
}

/** How strict a verdict is, for combining spellings: a block, then 503, then a 429, then a report, then a pass. */
export function verdictStrictness(verdict: Verdict): number {
  return STRICTNESS[verdict.action];
}

const STRICTNESS: Readonly<Record<VerdictAction, number>> = {
  pass: 0,
  report: 1,
  "rate-limited": 2,
  unavailable: 3,
  block: 4,
};

/**
 * The policy layer, then robots.txt, on ONE spelling (a canonical one from path-spellings.ts,
 * so neither layer canonicalises it again per route). Callers that judge a request go through
 * judgeEverySpelling: `judge` here, edge-decision.ts for every layer after this one.
 */
export function judgeSpelling(input: JudgeInput, spelling: string): Verdict {
  if (!input.policy) return judgeUnder(input, spelling, undefined);
  const subject = { tokens: input.tokens, category: input.category, operator: input.operator, ledger: input.ledger };
  // A route's other spelling (ruleSpelling) may choose another route than the patterns as
  // written: both are judged and the stricter stands (the earlier on a tie), so it adds
  // refusals and lifts none — as robots.txt rules do inside the matcher (match.ts buildTrees).
  const matches = input.policy.matchEachReading(spelling, subject);
  const verdict = judgeUnder(input, spelling, matches[0]);
  if (matches.length < 2) return verdict;
  const written = judgeUnder(input, spelling, matches[1]);
  return verdictStrictness(written) > verdictStrictness(verdict) ? written : verdict;
}

function judgeUnder(input: JudgeInput, spelling: string, policy: PolicyMatch | undefined): Verdict {
  const mode = policy?.route.mode ?? input.mode;
  const base = { policy, blockStatus: policy?.route.blockStatus, judgedPath: spelling };
  if (mode === "off") return { ...base, action: "pass", layer: "policy", decision: undefined };
  if (policy?.rule) {
    const action =
      policy.rule.action === "allow"
        ? "pass"
        : mode === "report"
          ? "report"
          : policy.rule.action === "pace"
            ? "rate-limited"
            : "block";
    return { ...base, action, layer: "policy", decision: undefined };
  }
  if (input.state === "unavailable") {
    return { ...base, action: input.failOpen ? "pass" : "unavailable", layer: "none", decision: undefined };
  }
  if (!input.matcher) return { ...base, action: "pass", layer: "none", decision: undefined };
  const decision = input.matcher.decide(input.tokens, spelling, { obeysGlobalGroup: input.obeysGlobalGroup });
  const action = decision.allowed ? "pass" : mode === "report" ? "report" : "block";
  return { ...base, action, layer: "robots.txt", decision };
}
