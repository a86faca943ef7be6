/**
 * What the operator's activity view records of one decision: pure, no I/O. The
 * Worker turns each request's facts and action into at most one activity event; the recorder
 * (worker/activity-recorder.ts) buckets them per hour and keeps the most recent crawler
 * requests. What is kept, and what is not (docs/operating.md "Activity"):
 *   - crawlers: hour, product token, category, verified state, action, deciding layer, and
 *     for the recent list the method, the path WITHOUT its query, and the deciding line;
 *   - people: one number per hour, nothing else;
 *   - never a query string, an address, a cookie or a header value.
 */

import type { AgentInfo } from "../agents/classify.ts";
import { VERIFICATION_STATUSES } from "../agents/verification.ts";
import { verificationOf } from "./edge-decision.ts";
import type { EdgeAction, EdgeFacts } from "./edge-facts.ts";

/** The actions the activity view counts (the issue's vocabulary: 503 = unavailable, 429 = rateLimited). */
export const RECORDED_ACTIONS = ["pass", "block", "report", "unavailable", "rateLimited"] as const;
export type RecordedAction = (typeof RECORDED_ACTIONS)[number];

/**
 * The claim's truth as the decision used it (agents/verification.ts VERIFICATION_STATUSES),
 * or "unchecked" when the request claimed no crawler that can be verified.
 */
export const VERIFIED_STATES = [...VERIFICATION_STATUSES, "unchecked"] as const;
export type VerifiedState = (typeof VERIFIED_STATES)[number];

/** Names stored before the vocabulary was one: read back as what they meant. */
export const LEGACY_VERIFIED_STATES: Readonly<Record<string, VerifiedState>> = { impostor: "refuted" };

/** What decided: the layers of the decision, and the answers that come before them. */
export const RECORDED_LAYERS = [
  "robots.txt",
  "policy",
  "usage-signal",
  "verification",
  "unproven-claim",
  "pause",
  "visit-time",
  "rate",
  "robots-unavailable",
  "robots.txt-file",
  "none",
] as const;
export type RecordedLayer = (typeof RECORDED_LAYERS)[number];

/** The name recorded for a crawler that gives no product token (an anonymous bot). */
export const UNNAMED = "(unnamed)";

/** Longest path kept (characters); longer ones are cut with a mark, like the decision log. */
export const MAX_RECORDED_PATH = 512;
const MAX_RECORDED_TOKEN = 64;
const MAX_RECORDED_TOKENS = 4;
const MAX_RECORDED_METHOD = 16;

/** How a decision came out, in the activity view's words; also what replay compares. */
export interface Outcome {
  readonly action: RecordedAction;
  readonly layer: RecordedLayer;
  /** The robots.txt line that decided (a rule, or a usage preference), when one did. */
  readonly line: number | null;
  /** The deciding rule in words: `disallow: /private/`, `policy /articles/: block`, `Content-Usage: train-ai`. */
  readonly rule: string | null;
}

/** One crawler request, as recorded. */
export interface CrawlerEvent extends Outcome {
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** The product token it was judged by (first of `tokens`), or UNNAMED. */
  readonly token: string;
  /** Its product tokens, best first (at most 4): what replay judges it by again. */
  readonly tokens: readonly string[];
  readonly category: string | null;
  readonly verified: VerifiedState;
  readonly method: string;
  /** The request's path, without the query. */
  readonly path: string;
  /** A robots.txt violation: robots.txt disallows the path for a crawler that claims to obey it. */
  readonly violation: boolean;
}

export type ActivityEvent =
  | {
      readonly kind: "crawler";
      readonly event: CrawlerEvent;
      /** The operator of a crawler our table knows (agents/crawlers.ts): whose crawls it counts as. */
      readonly operator?: string;
      /** The Content-Length of what the edge forwarded to it, when known (the Worker adds it). */
      readonly bytes?: number;
    }
  | {
      readonly kind: "human";
      readonly time: number;
      /** The operator whose product referred this person (agents/referrers.ts); only its name is kept. */
      readonly referredBy?: string;
    };

/**
 * The activity event of one request, or undefined when nothing is recorded: requests the
 * edge did not judge (MODE=off, hosts it does not protect, no origin).
 */
export function activityOf(facts: EdgeFacts, action: EdgeAction, method: string): ActivityEvent | undefined {
  if (action.kind === "forward") return action.why === "human" ? { kind: "human", time: facts.now } : undefined;
  const claimant = claimantOf(facts);
  if (action.kind === "serve-robots-txt" && !claimant.crawler) return { kind: "human", time: facts.now };
  const outcome = outcomeOf(action);
  if (!outcome) return undefined;
  const tokens = claimant.tokens.slice(0, MAX_RECORDED_TOKENS).map((token) => token.slice(0, MAX_RECORDED_TOKEN));
  return {
    kind: "crawler",
    ...(claimant.known && { operator: claimant.known.operator }),
    event: {
      ...outcome,
      time: facts.now,
      token: tokens[0] ?? UNNAMED,
      tokens,
      category: claimant.known?.category ?? null,
      verified: verifiedStateOf(facts),
      method: method.slice(0, MAX_RECORDED_METHOD),
      path: recordedPath(facts.pathAndQuery),
      // A known crawler's operator documents that it obeys robots.txt; an unknown bot claims nothing.
      violation:
        outcome.layer === "robots.txt" &&
        (outcome.action === "block" || outcome.action === "report") &&
        claimant.known !== undefined,
    },
  };
}

/** Who the request said it was: the trusted signer's crawler, else the User-Agent's claim. */
function claimantOf(facts: EdgeFacts): AgentInfo {
  return facts.signature?.status === "verified" ? facts.signature.agent : facts.agent;
}

/** What the decision used (edge-decision.ts verificationOf): an unverifiable claim is never "verified". */
function verifiedStateOf(facts: EdgeFacts): VerifiedState {
  const outcome = verificationOf(facts);
  return outcome.why === "not-claimed" ? "unchecked" : outcome.status;
}

/** The path of a path-and-query, bounded; the query may hold personal data and is never kept. */
export function recordedPath(pathAndQuery: string): string {
  const queryAt = pathAndQuery.indexOf("?");
  const path = queryAt < 0 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
  return path.length <= MAX_RECORDED_PATH ? path : `${path.slice(0, MAX_RECORDED_PATH)}…`;
}

/** An action in the activity view's words; undefined for actions that are not a crawler decision. */
export function outcomeOf(action: EdgeAction): Outcome | undefined {
  switch (action.kind) {
    case "pass":
    case "block":
    case "report": {
      if (action.kind === "report" && action.unproven) {
        return { action: "report", layer: "unproven-claim", ...lineOf(action.verdict) };
      }
      if ("usage" in action && action.usage) {
        const { usage } = action;
        return { action: action.kind, layer: "usage-signal", line: usage.line, rule: `${usage.format}: ${usage.key}` };
      }
      return { action: action.kind, ...decidingRule(action.verdict) };
    }
    case "rate-limited":
      // A policy rule's pace names its route and rule; else a robots.txt rate line decided.
      if (action.verdict.layer === "policy") return { action: "rateLimited", ...decidingRule(action.verdict) };
      return { action: "rateLimited", layer: "rate", ...lineOf(action.verdict) };
    case "unavailable": {
      const layer = UNAVAILABLE_LAYERS[action.why];
      return {
        action: "unavailable",
        layer,
        ...(action.verdict ? lineOf(action.verdict) : { line: null, rule: null }),
      };
    }
    case "impostor":
      return { action: "block", layer: "verification", line: null, rule: null };
    case "signature-reused":
      return { action: "rateLimited", layer: "verification", line: null, rule: null };
    case "signature-required":
      return { action: "block", ...decidingRule(action.verdict) };
    case "serve-robots-txt":
      return { action: "pass", layer: "robots.txt-file", line: null, rule: null };
    default:
      return undefined;
  }
}

const UNAVAILABLE_LAYERS = {
  paused: "pause",
  "visit-time": "visit-time",
  "robots-unavailable": "robots-unavailable",
  "unproven-claim": "unproven-claim",
} as const satisfies Record<Extract<EdgeAction, { kind: "unavailable" }>["why"], RecordedLayer>;

type DecidingVerdict = Extract<EdgeAction, { kind: "pass" }>["verdict"];

function decidingRule(verdict: DecidingVerdict): Pick<Outcome, "layer" | "line" | "rule"> {
  if (verdict.layer === "policy") {
    const route = verdict.policy?.route;
    const rule = verdict.policy?.rule;
    const text = route ? `policy ${route.pattern}: ${rule ? rule.action : `mode ${route.mode ?? "off"}`}` : null;
    return { layer: "policy", line: null, rule: text };
  }
  return { layer: verdict.layer, ...lineOf(verdict) };
}

function lineOf(verdict: DecidingVerdict): Pick<Outcome, "line" | "rule"> {
  const rule = verdict.decision?.rule;
  return rule
    ? { line: rule.line, rule: `${rule.kind}: ${rule.pattern}`.slice(0, MAX_RECORDED_PATH) }
    : { line: null, rule: null };
}

/** The start of the hour a time falls in (ms): the aggregates' bucket. */
export function hourOf(time: number): number {
  return time - (time % 3_600_000);
}
