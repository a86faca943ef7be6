/**
 * What the edge does with one request from a crawler: pure, no I/O. The request path is
 * judged under every spelling an origin might serve as the same resource
 * (core/normalize.ts); it is blocked when any spelling is disallowed.
 */

import { enforcementSpellings, type Decision, type RobotsMatcher } from "../core/index.ts";
import type { Mode } from "./mode.ts";
/** What is in force for the origin: a file, no file (allow all), or nothing known. */
export type EntryState = "ok" | "none" | "unavailable";

export type Action = "pass" | "block" | "report" | "unavailable";

export interface Verdict {
  readonly action: Action;
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
}

export function judge(input: JudgeInput): Verdict {
  const { pathAndQuery } = input;
  if (input.state === "unavailable") {
    return { action: input.failOpen ? "pass" : "unavailable", decision: undefined, judgedPath: pathAndQuery };
  }
  if (!input.matcher) return { action: "pass", decision: undefined, judgedPath: pathAndQuery };
  const { decision, judgedPath } = decideAnySpelling(input.matcher, input.tokens, pathAndQuery, input.obeysGlobalGroup);
  if (decision.allowed) return { action: "pass", decision, judgedPath };
  return { action: input.mode === "report" ? "report" : "block", decision, judgedPath };
}

/** The first disallowing decision among the spellings, else the canonical spelling's. */
export function decideAnySpelling(
  matcher: RobotsMatcher,
  tokens: readonly string[],
  pathAndQuery: string,
  obeysGlobalGroup: boolean,
): { decision: Decision; judgedPath: string } {
  const spellings = enforcementSpellings(pathAndQuery);
  let first: { decision: Decision; judgedPath: string } | undefined;
  for (const spelling of spellings) {
    const decision = matcher.decide(tokens, spelling, { obeysGlobalGroup });
    if (!decision.allowed) return { decision, judgedPath: spelling };
    first ??= { decision, judgedPath: spelling };
  }
  return first ?? { decision: matcher.decide(tokens, pathAndQuery, { obeysGlobalGroup }), judgedPath: pathAndQuery };
}
