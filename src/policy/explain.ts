/**
 * "What would the edge do with this request, and why?" — one answer for the admin API, the
 * operator page and `robots-edge explain`, so the three can never disagree. Pure.
 */

import { classifyUserAgent } from "../agents/classify.ts";
import { pathAndQuery, type RobotsMatcher, type Rule } from "../core/index.ts";
import { judge, type EntryState, type Layer, type Verdict } from "./judge.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy, PolicyRule } from "./operator-policy.ts";

export type EdgeAction = "pass" | "block" | "report" | "unavailable" | "paused";

export interface Explanation {
  readonly path: string;
  readonly crawler: boolean;
  readonly tokens: readonly string[];
  readonly known: { readonly token: string; readonly category: string } | null;
  readonly obeysGlobalGroup: boolean;
  readonly robotsState: EntryState;
  readonly group: { readonly token: string; readonly lines: readonly number[] } | null;
  readonly rule: Rule | null;
  /** "rule", "no-matching-rule", "no-group", "robots-txt", or the state when nothing was matched. */
  readonly reason: string;
  /** The spelling of the path that decided (see policy/path-spellings.ts). */
  readonly judgedPath: string;
  readonly allowed: boolean;
  readonly action: { readonly action: EdgeAction; readonly status: number | null };
  /** Which layer decided: the operator's policy, robots.txt, or none. */
  readonly layer: Layer;
  /** The policy route covering the path and the rule naming the crawler, if any. */
  readonly policy: { readonly route: string; readonly routeIndex: number; readonly rule: PolicyRule | null } | null;
}

export interface ExplainInput {
  readonly userAgent: string;
  /** Absolute URL or path with query. */
  readonly url: string;
  readonly mode: Mode;
  readonly failOpen: boolean;
  readonly blockStatus: number;
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  readonly paused: boolean;
  readonly policy?: CompiledPolicy | undefined;
}

export function explainRequest(input: ExplainInput): Explanation {
  const agent = classifyUserAgent(input.userAgent);
  const path = pathAndQuery(input.url);
  const verdict = judge({
    mode: input.mode,
    failOpen: input.failOpen,
    state: input.state,
    matcher: input.matcher,
    tokens: agent.tokens,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    pathAndQuery: path,
    policy: input.policy,
    category: agent.known?.category,
  });
  const decision = verdict.decision;
  const policy = verdict.policy;
  return {
    path,
    crawler: agent.crawler,
    tokens: agent.tokens,
    known: agent.known ? { token: agent.known.token, category: agent.known.category } : null,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    robotsState: input.state,
    group: decision?.group ? { token: decision.group.token, lines: decision.group.agentLines } : null,
    rule: decision?.rule ?? null,
    reason: decision?.reason ?? input.state,
    judgedPath: verdict.judgedPath,
    allowed:
      verdict.layer === "policy"
        ? verdict.action !== "block" && verdict.action !== "report"
        : decision
          ? decision.allowed
          : verdict.action !== "unavailable",
    action: edgeAction(input, agent.crawler, verdict),
    layer: agent.crawler ? verdict.layer : "none",
    policy: policy ? { route: policy.route.pattern, routeIndex: policy.routeIndex, rule: policy.rule ?? null } : null,
  };
}

/** The action the edge takes, in the words of the README: pass, block, report, 503. */
function edgeAction(input: ExplainInput, crawler: boolean, verdict: Verdict): Explanation["action"] {
  const { action } = verdict;
  if (input.mode === "off" || !crawler) return { action: "pass", status: null };
  if (input.paused) return { action: "paused", status: 503 };
  if (action === "block") return { action: "block", status: verdict.blockStatus ?? input.blockStatus };
  if (action === "unavailable") return { action: "unavailable", status: 503 };
  return { action: action === "report" ? "report" : "pass", status: null };
}
