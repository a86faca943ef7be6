/**
 * "What will this edit break?" answered with real traffic: the recent crawler
 * requests, judged again by the one decision (edge-decision.ts) under what is live and under
 * a draft (a robots.txt text, a policy, or both), and the decisions that would change (the
 * action differs; each side's deciding line is shown). Each side is the record rendered as
 * activity renders it (activity.ts recordedOutcomeOf), so a change reads as the activity view does. Pure.
 *
 * Each request is judged as it was recorded: its product tokens (so the same group applies),
 * its verified state (an impostor stays one, an unverifiable claim too), its method and path. What replay cannot see,
 * it holds equal on both sides: no pause, rate limits not checked, and the path without its
 * query (queries are never recorded), so a rule that only a query matches does not show.
 * A rule's `crawlsPerReferral` condition is judged on both sides with the ledger as it stands
 * now (the counts recorded over its window up to the replay), not as it stood when each
 * request came: replay answers "what would this rule do to this traffic today".
 *
 * Bounded (no client can buy our CPU): the requests are recorded from any client, the draft
 * is the operator's, and Workers Free allows 10 ms of CPU. Replay judges the newest requests
 * first and stops at REPLAY_WORK_BUDGET; the answer then says `partial` and how many of the
 * recorded requests it judged. Work is counted, not timed (a Worker's clock does not move
 * while it computes): a judgment costs, per spelling of its path, the spelling's length plus
 * the routes, rules and usage lines the path may be tried against on each side (route and
 * rule lookups are indexed, so that is their worst case), plus 100 for the two decisions
 * themselves; a request judged before (same tokens, claim, method, path) is answered again
 * for one unit. bench/request.bench.ts shows
 * a full budget's time for a 64 KiB draft of wildcard routes: of the recorded requests, of a
 * plan's URL list (`requests`), and of POST test's URLs, which spends the same budget by the same
 * measure (judgmentWork, pathsWithinBudget).
 */

import { agentForTokens } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import type { AppliedGroup, RobotsMatcher } from "../core/index.ts";
import { recordedOutcomeOf, type CrawlerEvent, type RecordedOutcome } from "./activity.ts";
import { decideEdge, isRobotsTxtPath } from "./edge-decision.ts";
import { NOTHING_GATHERED, type EdgeFacts, type EdgeSettings } from "./edge-facts.ts";
import { enforcementSpellings } from "./path-spellings.ts";
import type { EntryState } from "./judge.ts";
import type { CompiledPolicy } from "./operator-policy.ts";
import type { ReferralLedger } from "./referral-ledger.ts";

/** One side of the comparison: a robots.txt and a policy. */
export interface ReplaySide {
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  readonly policy: CompiledPolicy | undefined;
}

/**
 * The settings both sides share: the Worker's (config/edge-settings.ts settingsOf), those replay
 * can judge by. The rest is held equal on both sides by replay itself (judgeAgain).
 */
export type ReplaySettings = Pick<
  EdgeSettings,
  "mode" | "failOpen" | "blockStatus" | "verifyCrawlers" | "enforceRates" | "usageSignals"
> & {
  /** The origin's recorded crawls and referrals now, for rules with a condition (none: no condition holds). */
  readonly ledger?: ReferralLedger | undefined;
};

export type RecordedRequest = Pick<CrawlerEvent, "time" | "token" | "tokens" | "verified" | "method" | "path">;

export interface ReplayChange {
  readonly time: number;
  readonly token: string;
  readonly method: string;
  readonly path: string;
  readonly live: RecordedOutcome;
  readonly draft: RecordedOutcome;
}

export interface ReplayResult {
  /** How many recorded crawler requests were judged (N): the newest ones. */
  readonly requests: number;
  /** How many were recorded (M); more than N when the work budget ran out. */
  readonly recorded: number;
  /** The work budget ran out: only the newest N of the M recorded requests were judged. */
  readonly partial: boolean;
  /** How many would be decided differently. */
  readonly changedCount: number;
  /** The changes, newest first, at most `limit`. */
  readonly changed: readonly ReplayChange[];
  /** Per crawler token: requests and changes, most changed first. */
  readonly crawlers: readonly { readonly token: string; readonly requests: number; readonly changed: number }[];
}

export const REPLAY_CHANGES_SHOWN = 200;

/**
 * Work units one replay may spend (see the file comment for what a unit is). Sized with
 * bench/request.bench.ts so that a full budget of the costliest kind (a 64 KiB draft of
 * wildcard routes, 512-character re-spelled paths) or of the cheapest (short distinct paths)
 * is at most about 50 ms of CPU: some 2,300 distinct ordinary requests, or ~120 costly ones.
 */
export const REPLAY_WORK_BUDGET = 300_000;

/** Judge the requests (oldest first, as recorded) under `live` and `draft`, newest first, within the budget. */
export function replay(
  requests: readonly RecordedRequest[],
  sides: { readonly live: ReplaySide; readonly draft: ReplaySide },
  settings: ReplaySettings,
  limit = REPLAY_CHANGES_SHOWN,
  budget = REPLAY_WORK_BUDGET,
): ReplayResult {
  const changed: ReplayChange[] = [];
  const perCrawler = new Map<string, { requests: number; changed: number }>();
  const judgedBefore = new Map<string, { live: RecordedOutcome; draft: RecordedOutcome }>();
  const both = [sides.live, sides.draft];
  let changedCount = 0;
  let work = 0;
  let judged = 0;
  for (let at = requests.length - 1; at >= 0; at--) {
    const request = requests[at];
    if (!request) continue;
    const key = `${request.tokens.join(" ")}\n${request.verified}\n${request.method}\n${request.path}`;
    let outcomes = judgedBefore.get(key);
    const cost = outcomes ? 1 : judgmentWork(request.path, request.tokens, both);
    if (work + cost > budget) break;
    work += cost;
    judged++;
    if (!outcomes) {
      outcomes = { live: judgeAgain(request, sides.live, settings), draft: judgeAgain(request, sides.draft, settings) };
      judgedBefore.set(key, outcomes);
    }
    const { live, draft } = outcomes;
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
  const partial = judged < requests.length;
  return { requests: judged, recorded: requests.length, partial, changedCount, changed, crawlers };
}

/** What two decisions cost whatever the path (facts, agent, outcome), in units: measured, ~100 characters' worth. */
const PER_REQUEST = 100;

/**
 * The work units judging one path costs on the given sides (replay: live and draft; POST test:
 * live, and the draft when given): PER_REQUEST, and per spelling of its path (computed here once;
 * the decision asks path-spellings.ts for the same path and gets them again), its length on each
 * side, plus every candidate that is tried one by one: wildcard routes and wildcard rules (plain
 * ones are found by walking the path, already counted) and usage lines. The one measure of work
 * both admin calls that judge in bulk spend within REPLAY_WORK_BUDGET.
 */
export function judgmentWork(
  path: string,
  tokens: readonly string[],
  sides: readonly Pick<ReplaySide, "matcher" | "policy">[],
): number {
  let candidates = 0;
  for (const side of sides) candidates += wildcardRoutes(side.policy) + triedLines(side.matcher, tokens);
  let work = PER_REQUEST;
  for (const spelling of enforcementSpellings(path)) work += sides.length * spelling.length + candidates;
  return work;
}

/**
 * How many of the paths, taken in order, fit the work budget when each is judged on `sides`
 * (POST test's URLs; replay counts as it judges, newest first, with its repeats at one unit).
 */
export function pathsWithinBudget(
  paths: readonly string[],
  tokens: readonly string[],
  sides: readonly Pick<ReplaySide, "matcher" | "policy">[],
  budget = REPLAY_WORK_BUDGET,
): number {
  let work = 0;
  for (const [at, path] of paths.entries()) {
    work += judgmentWork(path, tokens, sides);
    if (work > budget) return at;
  }
  return paths.length;
}

/** Wildcard rules and usage lines of the group the tokens name, or of `*` if more (an unproven claim is judged under both). */
function triedLines(matcher: RobotsMatcher | undefined, tokens: readonly string[]): number {
  if (!matcher) return 0;
  return Math.max(linesOf(matcher.groupFor(tokens)), linesOf(matcher.groupFor([])));
}

const WILDCARD_ROUTES = new WeakMap<CompiledPolicy, number>();

function wildcardRoutes(policy: CompiledPolicy | undefined): number {
  if (!policy) return 0;
  let routes = WILDCARD_ROUTES.get(policy);
  if (routes === undefined) {
    routes = policy.policy.routes.filter((route) => route.pattern.includes("*")).length;
    WILDCARD_ROUTES.set(policy, routes);
  }
  return routes;
}

const LINES = new WeakMap<AppliedGroup, number>();

function linesOf(group: AppliedGroup | undefined): number {
  if (!group) return 0;
  let lines = LINES.get(group);
  if (lines === undefined) {
    lines = group.rules.filter((rule) => rule.pattern.includes("*")).length + group.extensions.usage.length;
    LINES.set(group, lines);
  }
  return lines;
}

const NOT_JUDGED: RecordedOutcome = { action: "pass", layer: "none", line: null, rule: null };

/**
 * The recorded claim's truth as the decision's fact: an unverifiable claim stays one. A crawler
 * in disguise was recorded under its crawler's tokens on a crawler-only list's evidence: it is
 * replayed as that crawler, proven (as DISGUISED_CRAWLERS=enforce would judge it).
 */
function recordedVerification(recorded: Exclude<RecordedRequest["verified"], "unchecked">): VerificationOutcome {
  if (recorded === "disguised") {
    return { status: "verified", method: "ip-list", evidence: null, why: null, reason: "in disguise when recorded" };
  }
  const status = recorded;
  const why = status === "verified" ? null : status === "refuted" ? "refuted" : "lookup-failed";
  return { status, method: null, evidence: null, why, reason: `${status} when recorded` };
}

/** One recorded request, decided again with every fact given (nothing left to gather). */
export function judgeAgain(request: RecordedRequest, side: ReplaySide, settings: ReplaySettings): RecordedOutcome {
  const checked = request.verified !== "unchecked";
  const facts: EdgeFacts = {
    ...settings,
    // What replay holds equal on both sides: a usable origin; no header, no limiter (it shows
    // no pacing); no crawler in disguise (no address is recorded, and none is looked up).
    originUnusable: false,
    usageHeader: false,
    rateLimiter: false,
    disguisedCrawlers: "off",
    selfAddressed: false,
    served: true,
    // The edge serves /robots.txt itself to every crawler: a draft never blocks it.
    isRobotsTxt: (request.method === "GET" || request.method === "HEAD") && isRobotsTxtPath(request.path),
    pathAndQuery: request.path,
    agent: agentForTokens(request.tokens),
    signed: false,
    needsVerification: checked,
    cloudflareCategory: undefined,
    ...NOTHING_GATHERED,
    verification: checked ? recordedVerification(request.verified) : NOTHING_GATHERED.verification,
    pause: "none",
    robots: { state: side.state, matcher: side.matcher, retryAfter: 0 },
    policy: side.policy ?? "none",
    rate: "not-checked",
    now: request.time,
  };
  const record = decideEdge(facts);
  // Every fact is given, so the decision never asks for one; were it to, nothing was judged.
  return "gather" in record ? NOT_JUDGED : recordedOutcomeOf(record);
}
