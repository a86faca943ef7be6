/**
 * Crawlers in disguise (issue 24): a request with a browser's User-Agent whose address is in a
 * list its operator publishes for its crawlers ONLY (agents/range-uses.ts) is that operator's
 * crawler. Pure: the Worker looks the address up in the compiled lists (identity/disguised.ts)
 * and hands the decision a DisguiseFact; this file says what the decision does with it.
 *
 * A disguise is not a claim (the User-Agent claims a person): it is evidence, from a loaded,
 * fresh, crawler-only list. Do no harm: no list, a stale list, a mixed list, no address, or
 * DISGUISED_CRAWLERS=off all mean "a person", never "refused".
 *   enforce  judged as that crawler (claim.ts standing "disguised"): its group, policy rules,
 *            usage preferences and pacing, on every spelling of the path
 *   report   judged the same way, but the request passes: a refusal becomes a report (marked
 *            would-block, recorded and logged as what it would have been), nothing is paced or
 *            paused, and no header is added to a pass
 */

import type { AgentInfo } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import type { EdgeAction } from "./edge-facts.ts";
import type { Mode } from "./mode.ts";

/** The crawler-only list holding the request's address, and the crawler it names. */
export interface DisguiseFact {
  /** The range source (agents/verification.ts RANGE_SOURCES name), e.g. "gptbot". */
  readonly source: string;
  /** The crawler the list is for, as its own User-Agent would classify it. */
  readonly agent: AgentInfo;
}

export interface DisguiseFacts {
  readonly agent: AgentInfo;
  readonly isRobotsTxt: boolean;
  /** DISGUISED_CRAWLERS; absent where nothing looks addresses up (replay, the CLI): off. */
  readonly disguisedCrawlers?: Mode | undefined;
  /** undefined: not looked up yet; null: the address is in no fresh crawler-only list. */
  readonly disguise?: DisguiseFact | null | undefined;
}

/**
 * Whether the request is a crawler in disguise: "gather" while the address is not looked up,
 * "person" when it is not (or the check is off, or it is no browser), else the fact.
 */
export function disguiseStep(facts: DisguiseFacts): "gather" | "person" | DisguiseFact {
  if (facts.agent.crawler || facts.isRobotsTxt || (facts.disguisedCrawlers ?? "off") === "off") return "person";
  if (facts.disguise === undefined) return "gather";
  return facts.disguise ?? "person";
}

/** The disguise the decision acted on, if any (what the log, activity and explain mark). */
export function disguiseOf(facts: DisguiseFacts): DisguiseFact | undefined {
  const step = disguiseStep(facts);
  return typeof step === "object" ? step : undefined;
}

/** The evidence, in the one vocabulary of identity (agents/verification.ts VerificationOutcome). */
export function disguiseOutcome(disguise: DisguiseFact): VerificationOutcome {
  const token = disguise.agent.tokens[0] ?? disguise.source;
  return {
    status: "verified",
    method: "ip-list",
    evidence: disguise.source,
    why: null,
    reason: `a browser User-Agent from the ${disguise.source} list, which its operator publishes for its crawlers only: ${token} in disguise`,
  };
}

/**
 * DISGUISED_CRAWLERS=report: what the crawler would get, only recorded. A refusal becomes a
 * report of it (the request goes on, marked would-block); a pass goes on as is, without
 * pacing or a Content-Usage header (nothing a person would not have had).
 */
export function reportedOnly(action: EdgeAction): EdgeAction {
  switch (action.kind) {
    case "gather":
    case "report":
      return action;
    case "pass":
      return { kind: "pass", verdict: action.verdict };
    case "block":
      return { kind: "report", verdict: action.verdict, ...(action.usage && { usage: action.usage }) };
    case "rate-limited":
    case "signature-required":
      return { kind: "report", verdict: action.verdict };
    case "unavailable":
      return action.verdict ? { kind: "report", verdict: action.verdict } : { kind: "forward", why: "human" };
    default:
      // Kinds a path layer never answers: the request goes on as a person's.
      return { kind: "forward", why: "human" };
  }
}
