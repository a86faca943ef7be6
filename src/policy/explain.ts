/**
 * "What would the edge do with this request, and why?" — one answer for the admin API, the
 * operator page and `robots-edge explain`. It asks the edge's own decision
 * (edge-decision.ts) with the facts it is given, so it cannot disagree with the edge. Pure.
 * Two facts it cannot know are said as such: the rate state ("limited if faster than N s"),
 * and, unless the caller passes it, the verification of the client's address: then the
 * answer names the methods the edge would use and judges the claim as unverifiable, as the
 * edge does when it cannot check (policy/claim.ts). A signature cannot be explained (there is
 * no signed request).
 */

import { classifyUserAgent, type AgentInfo } from "../agents/classify.ts";
import { verificationPlan, type VerificationOutcome } from "../agents/verification.ts";
import { contentSignalUseOf, pathAndQuery, resolveUsage, type RobotsMatcher, type Rule } from "../core/index.ts";
import { decideEdge, isRobotsTxtPath, verificationOf } from "./edge-decision.ts";
import type { EdgeAction, EdgeFacts } from "./edge-facts.ts";
import type { EntryState, Layer, Verdict } from "./judge.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy, PolicyRule } from "./operator-policy.ts";
import { documentedUseOf } from "./usage-vocabulary.ts";

export type ExplainedAction =
  | "pass"
  | "block"
  | "report"
  | "unavailable"
  | "paused"
  | "visit-time"
  | "unproven-claim"
  | "rate-limited"
  | "impostor"
  | "serve-robots-txt"
  | "no-origin"
  | "self-loop";

export interface Explanation {
  readonly path: string;
  readonly crawler: boolean;
  readonly tokens: readonly string[];
  readonly known: { readonly token: string; readonly category: string } | null;
  readonly obeysGlobalGroup: boolean;
  /** The stored robots.txt's state; null when none is stored (a decision that did not need it). */
  readonly robotsState: EntryState | null;
  readonly group: { readonly token: string; readonly lines: readonly number[] } | null;
  readonly rule: Rule | null;
  /**
   * "rule", "no-matching-rule", "no-group", "robots-txt" (robots.txt decided); "policy-rule"
   * or "policy-route-off" (the operator's policy decided); otherwise why nothing was judged:
   * "mode-off", "not-served", "human", "paused", "impostor",
   * "unproven-claim" (only `*` refuses a claim that could not be verified), or the
   * robots.txt state ("none", "unavailable").
   */
  readonly reason: string;
  /** The spelling of the path that decided (see policy/path-spellings.ts). */
  readonly judgedPath: string;
  readonly allowed: boolean;
  readonly action: {
    readonly action: ExplainedAction;
    readonly status: number | null;
    readonly retryAfter: number | null;
    /** For a pass held to rate lines: "would be limited if faster than N s" (the limiter's state is not read). */
    readonly rateLimit: string | null;
  };
  /** Which layer decided: the operator's policy, robots.txt, usage preferences, or none. */
  readonly layer: Layer | "usage-signal";
  /** A refusal by the site's usage preferences (Content-Usage / Content-Signal), with its line. */
  readonly usage: { readonly key: string; readonly line: number; readonly message: string } | null;
  /** `Content-Usage` the edge adds to a passed response (unless the origin sends one). */
  readonly contentUsage: string | null;
  /**
   * The Content-Signal `use=` in force on the path for this crawler, and whether it binds it:
   * only a crawler whose operator documents its use (usage-vocabulary.ts; none does yet).
   */
  readonly contentSignalUse: { readonly use: string; readonly line: number; readonly binds: string } | null;
  /** The policy route covering the path and the rule naming the crawler, if any. */
  readonly policy: { readonly route: string; readonly routeIndex: number; readonly rule: PolicyRule | null } | null;
  /** How the crawler was verified, or why not (edge-decision.ts verificationOf). */
  readonly verification: VerificationOutcome;
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
  /** A pause in force: true, or its Retry-After seconds. */
  readonly paused: boolean | { readonly retryAfter: number };
  readonly policy?: CompiledPolicy | undefined;
  /** The remaining facts the edge gathers; defaults: served, no verification. */
  readonly facts?: Partial<
    Pick<
      EdgeFacts,
      | "served"
      | "verifyCrawlers"
      | "enforceRates"
      | "usageSignals"
      | "usageHeader"
      | "rateLimiter"
      | "now"
      | "originUnusable"
      | "ledger"
    >
  > & {
    /** The address check, when the caller could make one (admin explain's `ip=`, from stored lists). */
    readonly claimCheck?: VerificationOutcome;
    /** Cloudflare's category, as our category (edge-decision.ts cloudflareCategory). */
    readonly cloudflareCategory?: EdgeFacts["cloudflareCategory"];
    readonly robotsRetryAfter?: number;
    readonly method?: string;
  };
}

export function explainRequest(input: ExplainInput): Explanation {
  const explanation = explainWith(input, { state: input.state, matcher: input.matcher });
  if (!explanation) throw new TypeError("explain was given robots.txt yet the decision asks for it");
  return explanation;
}

/**
 * The same, when no copy of robots.txt may be stored (`robots` undefined): the answer for
 * every request the edge decides without one (MODE=off, a person, a host it does not
 * protect, a pause), or undefined when the decision needs the copy.
 */
export function explainIfDecidable(
  input: Omit<ExplainInput, "state" | "matcher">,
  robots: Pick<ExplainInput, "state" | "matcher"> | undefined,
): Explanation | undefined {
  return explainWith(input, robots);
}

function explainWith(
  input: Omit<ExplainInput, "state" | "matcher">,
  robots: Pick<ExplainInput, "state" | "matcher"> | undefined,
): Explanation | undefined {
  const agent = classifyUserAgent(input.userAgent);
  const path = pathAndQuery(input.url);
  const facts = input.facts ?? {};
  const method = facts.method ?? "GET";
  const pause = input.paused === false ? null : { retryAfter: input.paused === true ? 0 : input.paused.retryAfter };
  const verifyCrawlers = facts.verifyCrawlers ?? "off";
  const claim = claimFacts(agent, verifyCrawlers, facts);
  const decided: EdgeFacts = {
    originUnusable: facts.originUnusable ?? false,
    selfAddressed: false,
    mode: input.mode,
    served: facts.served ?? true,
    isRobotsTxt: (method === "GET" || method === "HEAD") && isRobotsTxtPath(path.split("?")[0] ?? path),
    pathAndQuery: path,
    agent,
    signed: false,
    verifyCrawlers,
    ...claim,
    cloudflareCategory: facts.cloudflareCategory,
    pause,
    robots: robots && { state: robots.state, matcher: robots.matcher, retryAfter: facts.robotsRetryAfter ?? 0 },
    failOpen: input.failOpen,
    blockStatus: input.blockStatus,
    policy: input.policy ?? null,
    ledger: facts.ledger,
    enforceRates: facts.enforceRates ?? "honoured",
    usageSignals: facts.usageSignals ?? "enforce",
    usageHeader: facts.usageHeader ?? true,
    rateLimiter: facts.rateLimiter ?? true,
    rate: "not-checked",
    now: facts.now ?? Date.now(),
  };
  const action = decideEdge(decided);
  if (action.kind === "gather" && action.fact === "robots") return undefined;
  const verdict = "verdict" in action ? action.verdict : undefined;
  const decision = verdict?.decision;
  const policy = verdict?.policy;
  return {
    path,
    crawler: agent.crawler,
    tokens: agent.tokens,
    known: agent.known ? { token: agent.known.token, category: agent.known.category } : null,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    robotsState: robots?.state ?? null,
    group: decision?.group ? { token: decision.group.token, lines: decision.group.agentLines } : null,
    rule: decision?.rule ?? null,
    reason: reasonOf(action, verdict, robots?.state ?? "not-stored"),
    judgedPath: verdict?.judgedPath ?? path,
    allowed: allowedBy(action, verdict),
    action: explainedAction(action),
    layer: usageOf(action) ? "usage-signal" : (verdict?.layer ?? "none"),
    usage: usageOf(action) ?? null,
    contentUsage: action.kind === "pass" ? (action.contentUsage ?? null) : null,
    contentSignalUse: contentSignalUseFor(verdict, agent),
    policy: policy ? { route: policy.route.pattern, routeIndex: policy.routeIndex, rule: policy.rule ?? null } : null,
    verification: verificationOf(decided),
  };
}

/**
 * The verification facts explain can state: the caller's address check; else, for a claim the
 * edge would check, that no address was given: unverifiable, judged as the edge judges a claim
 * it cannot check (policy/claim.ts), naming the methods the edge would use.
 */
function claimFacts(
  agent: AgentInfo,
  verifyCrawlers: EdgeFacts["verifyCrawlers"],
  facts: NonNullable<ExplainInput["facts"]>,
): Pick<EdgeFacts, "needsVerification" | "verification"> {
  const { claimCheck } = facts;
  if (claimCheck) return { needsVerification: true, verification: claimCheck };
  const methods = verificationPlan(agent).methods;
  if (verifyCrawlers === "off" || !agent.crawler || methods.length === 0) {
    return { needsVerification: false, verification: undefined };
  }
  const reason = `no client address given; the edge would check by ${methods.join(", ")}`;
  return {
    needsVerification: true,
    verification: { status: "unverifiable", method: null, evidence: null, why: "no-address", reason },
  };
}

/** The `use=` of the Content-Signal line that applies to the judged path, with who it binds. */
function contentSignalUseFor(verdict: Verdict | undefined, agent: AgentInfo): Explanation["contentSignalUse"] {
  const decision = verdict?.decision;
  if (!verdict || !decision?.group) return null;
  const resolution = resolveUsage(decision.group, verdict.judgedPath, { allowed: decision.allowed });
  const line = resolution.lines.find((usage) => contentSignalUseOf(usage) !== undefined);
  const use = line && contentSignalUseOf(line);
  if (!line || !use) return null;
  const documented = documentedUseOf(agent.tokens);
  const binds = documented
    ? `binds ${documented.token}: its operator documents use=${documented.use} (${documented.source})`
    : "binds nobody here: this crawler's operator documents no use (usage-vocabulary.ts)";
  return { use, line: line.line, binds };
}

function usageOf(action: EdgeAction): { key: string; line: number; message: string } | undefined {
  if ((action.kind !== "block" && action.kind !== "report") || !action.usage) return undefined;
  const { key, line, message } = action.usage;
  return { key, line, message };
}

/** Whether the rules allow the path (a pause or a rate limit is not a disallow). */
function allowedBy(action: EdgeAction, verdict: Verdict | undefined): boolean {
  if (!verdict) return action.kind !== "impostor" && !(action.kind === "unavailable" && action.why !== "paused");
  if (verdict.layer === "policy") return verdict.action !== "block" && verdict.action !== "report";
  if (verdict.decision) return verdict.decision.allowed;
  return verdict.action !== "unavailable";
}

function reasonOf(action: EdgeAction, verdict: Verdict | undefined, state: EntryState | "not-stored"): string {
  if (action.kind === "forward") return action.why;
  if (action.kind === "impostor") return "impostor";
  if (action.kind === "unavailable" && action.why === "paused") return "paused";
  // Refused by `*` only because the claim could not be verified (policy/claim.ts).
  if (
    (action.kind === "unavailable" && action.why === "unproven-claim") ||
    (action.kind === "report" && action.unproven)
  ) {
    return "unproven-claim";
  }
  if (usageOf(action)) return "usage-signal";
  if (verdict?.layer === "policy") return verdict.policy?.rule ? "policy-rule" : "policy-route-off";
  return verdict?.decision?.reason ?? state;
}

function explainedAction(action: EdgeAction): Explanation["action"] {
  const none = { status: null, retryAfter: null, rateLimit: null };
  switch (action.kind) {
    case "forward":
      return { ...none, action: "pass" };
    case "pass":
      return { ...none, action: "pass", rateLimit: action.pacing ? rateLimitText(action.pacing.limits) : null };
    case "report":
      return { ...none, action: "report" };
    case "block":
    case "signature-required":
      return { ...none, action: "block", status: action.status };
    case "impostor":
      return { ...none, action: "impostor", status: 403 };
    case "unavailable": {
      const name = action.why === "robots-unavailable" ? "unavailable" : action.why;
      return { ...none, action: name, status: 503, retryAfter: action.retryAfter };
    }
    case "rate-limited":
    case "signature-reused":
      return { ...none, action: "rate-limited", status: 429, retryAfter: action.retryAfter };
    case "serve-robots-txt":
      return { ...none, action: "serve-robots-txt" };
    case "no-origin":
      return { ...none, action: "no-origin", status: 502 };
    case "self-loop":
      return { ...none, action: "self-loop", status: 508 };
    case "gather":
      throw new TypeError(`explain lacks the fact ${action.fact}`);
  }
}

function rateLimitText(limits: { minIntervalMs: number; rates: readonly { requests: number; ms: number }[] }): string {
  const parts: string[] = [];
  if (limits.minIntervalMs > 0) parts.push(`faster than one request every ${limits.minIntervalMs / 1000} s`);
  for (const rate of limits.rates) parts.push(`more than ${rate.requests} requests in ${rate.ms / 1000} s`);
  return `would be limited (429) if ${parts.join(" or ")}`;
}
