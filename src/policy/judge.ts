/**
 * What the edge does with one request from a crawler: pure, no I/O. Two layers: the
 * operator's policy (operator-policy.ts) first — a route's rule naming the crawler decides,
 * and a route's mode and block status apply — then the origin's robots.txt. The path is
 * judged under every spelling an origin might serve as the same resource
 * (path-spellings.ts); it is blocked when any spelling is disallowed.
 */

import type { Decision, RobotsMatcher } from "../core/index.ts";
import { enforcementSpellings } from "./path-spellings.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy, PolicyMatch } from "./operator-policy.ts";
/** What is in force for the origin: a file, no file (allow all), or nothing known. */
export type EntryState = "ok" | "none" | "unavailable";

export type Action = "pass" | "block" | "report" | "unavailable";

/** Which layer decided: the operator's policy, robots.txt, or neither (nothing to judge by). */
export type Layer = "policy" | "robots.txt" | "none";

export interface Verdict {
  readonly action: Action;
  readonly layer: Layer;
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
  readonly category?: string | undefined;
}

export function judge(input: JudgeInput): Verdict {
  const spellings = enforcementSpellings(input.pathAndQuery);
  const subject = { tokens: input.tokens, category: input.category };
  const matches = input.policy ? spellings.map((spelling) => input.policy?.match(spelling, subject)) : [];
  // A block rule under any spelling wins, as for robots.txt; otherwise the canonical spelling's route.
  const policy = matches.find((match) => match?.rule?.action === "block") ?? matches[0];
  const mode = policy?.route.mode ?? input.mode;
  const base = { policy, blockStatus: policy?.route.blockStatus };
  const judgedPath = spellings[0] ?? input.pathAndQuery;
  if (mode === "off") return { ...base, action: "pass", layer: "policy", decision: undefined, judgedPath };
  if (policy?.rule) {
    const action = policy.rule.action === "allow" ? "pass" : mode === "report" ? "report" : "block";
    return { ...base, action, layer: "policy", decision: undefined, judgedPath };
  }
  if (input.state === "unavailable") {
    return { ...base, action: input.failOpen ? "pass" : "unavailable", layer: "none", decision: undefined, judgedPath };
  }
  if (!input.matcher) return { ...base, action: "pass", layer: "none", decision: undefined, judgedPath };
  const decided = decideAnySpelling(input.matcher, input.tokens, spellings, input.obeysGlobalGroup);
  const action = decided.decision.allowed ? "pass" : mode === "report" ? "report" : "block";
  return { ...base, action, layer: "robots.txt", ...decided };
}

/** The first disallowing decision among the spellings (canonical first), else the canonical one's. */
export function decideAnySpelling(
  matcher: RobotsMatcher,
  tokens: readonly string[],
  spellings: readonly string[],
  obeysGlobalGroup: boolean,
): { decision: Decision; judgedPath: string } {
  let first: { decision: Decision; judgedPath: string } | undefined;
  for (const spelling of spellings) {
    const decision = matcher.decide(tokens, spelling, { obeysGlobalGroup });
    if (!decision.allowed) return { decision, judgedPath: spelling };
    first ??= { decision, judgedPath: spelling };
  }
  return first ?? { decision: matcher.decide(tokens, "/", { obeysGlobalGroup }), judgedPath: "/" };
}
