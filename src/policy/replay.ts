/**
 * "What will this edit break?" answered with real traffic (issue #13): the recent crawler
 * requests, judged again by the one decision (edge-decision.ts) under what is live and under
 * a draft (a robots.txt text, a policy, or both), and the decisions that would change (the
 * action differs; each side's deciding line is shown). Pure.
 *
 * Each request is judged as it was recorded: its product tokens (so the same group applies),
 * its verified state (an impostor stays one, an unverifiable claim too), its method and path. What replay cannot see,
 * it holds equal on both sides: no pause, rate limits not checked, and the path without its
 * query (queries are never recorded), so a rule that only a query matches does not show.
 */

import { agentForTokens } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import type { RobotsMatcher } from "../core/index.ts";
import { outcomeOf, type CrawlerEvent, type Outcome } from "./activity.ts";
import { decideEdge, isRobotsTxtPath, type EdgeFacts } from "./edge-decision.ts";
import type { EntryState } from "./judge.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy } from "./operator-policy.ts";

/** One side of the comparison: a robots.txt and a policy. */
export interface ReplaySide {
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  readonly policy: CompiledPolicy | undefined;
}

/** The settings both sides share (the Worker's config). */
export interface ReplaySettings {
  readonly mode: Mode;
  readonly failOpen: boolean;
  readonly blockStatus: number;
  readonly verifyCrawlers: "off" | "unknown" | "block";
  readonly enforceRates: "honoured" | "all" | "off";
  readonly usageSignals: Mode;
}

export type RecordedRequest = Pick<CrawlerEvent, "time" | "token" | "tokens" | "verified" | "method" | "path">;

export interface ReplayChange {
  readonly time: number;
  readonly token: string;
  readonly method: string;
  readonly path: string;
  readonly live: Outcome;
  readonly draft: Outcome;
}

export interface ReplayResult {
  /** How many recent crawler requests were judged (M). */
  readonly requests: number;
  /** How many would be decided differently (N). */
  readonly changedCount: number;
  /** The changes, newest first, at most `limit`. */
  readonly changed: readonly ReplayChange[];
  /** Per crawler token: requests and changes, most changed first. */
  readonly crawlers: readonly { readonly token: string; readonly requests: number; readonly changed: number }[];
}

export const REPLAY_CHANGES_SHOWN = 200;

/** Judge every request under `live` and `draft`; list those whose action differs. */
export function replay(
  requests: readonly RecordedRequest[],
  sides: { readonly live: ReplaySide; readonly draft: ReplaySide },
  settings: ReplaySettings,
  limit = REPLAY_CHANGES_SHOWN,
): ReplayResult {
  const changed: ReplayChange[] = [];
  const perCrawler = new Map<string, { requests: number; changed: number }>();
  let changedCount = 0;
  for (const request of requests) {
    const live = judgeAgain(request, sides.live, settings);
    const draft = judgeAgain(request, sides.draft, settings);
    const counts = perCrawler.get(request.token) ?? { requests: 0, changed: 0 };
    counts.requests++;
    perCrawler.set(request.token, counts);
    // A change is a different action. The deciding line alone is not: a line added at the top
    // of a draft moves every line number, and nothing a crawler sees would differ.
    if (live.action === draft.action) continue;
    changedCount++;
    counts.changed++;
    if (changed.length < limit) {
      changed.push({
        time: request.time,
        token: request.token,
        method: request.method,
        path: request.path,
        live,
        draft,
      });
    }
  }
  const crawlers = [...perCrawler]
    .map(([token, counts]) => ({ token, ...counts }))
    .toSorted((a, b) => b.changed - a.changed || b.requests - a.requests || a.token.localeCompare(b.token));
  return { requests: requests.length, changedCount, changed, crawlers };
}

const NOT_JUDGED: Outcome = { action: "pass", layer: "none", line: null, rule: null };

/** The recorded claim's truth as the decision's fact: an unverifiable claim stays one. */
function recordedVerification(status: Exclude<RecordedRequest["verified"], "unchecked">): VerificationOutcome {
  const why = status === "verified" ? null : status === "refuted" ? "refuted" : "lookup-failed";
  return { status, method: null, evidence: null, why, reason: `${status} when recorded` };
}

/** One recorded request, decided again with every fact given (nothing left to gather). */
export function judgeAgain(request: RecordedRequest, side: ReplaySide, settings: ReplaySettings): Outcome {
  const checked = request.verified !== "unchecked";
  const facts: EdgeFacts = {
    originUnusable: false,
    selfAddressed: false,
    mode: settings.mode,
    configProblems: false,
    served: true,
    // The edge serves /robots.txt itself to every crawler: a draft never blocks it.
    isRobotsTxt: (request.method === "GET" || request.method === "HEAD") && isRobotsTxtPath(request.path),
    pathAndQuery: request.path,
    agent: agentForTokens(request.tokens),
    signed: false,
    verifyCrawlers: settings.verifyCrawlers,
    needsVerification: checked,
    verification: checked ? recordedVerification(request.verified) : undefined,
    pause: null,
    robots: { state: side.state, matcher: side.matcher, retryAfter: 0 },
    failOpen: settings.failOpen,
    blockStatus: settings.blockStatus,
    policy: side.policy ?? null, // null: no policy (undefined would ask to gather it)
    enforceRates: settings.enforceRates,
    usageSignals: settings.usageSignals,
    usageHeader: false,
    rateLimiter: false,
    rate: "not-checked",
    now: request.time,
  };
  const action = decideEdge(facts);
  return outcomeOf(action) ?? NOT_JUDGED;
}
