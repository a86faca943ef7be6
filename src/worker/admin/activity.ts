/**
 * The admin API's activity routes, for an origin admin/router.ts has already checked:
 *
 *   GET  activity[?origin=…&hours=…&recent=…]  counts per crawler token (per action, verified
 *        state, layer; per hour and in total), people as one count, the top blocked paths,
 *        robots.txt violations and the newest crawler requests; per operator, its crawls,
 *        bytes passed and the people its products referred (`operators`)
 *   POST replay[?origin=…] {"draft"?: "<robots.txt>", "policy"?: {…}}  the recent crawler
 *        requests judged under what is live and under the draft; the decisions that change.
 *        The draft policy is held to PUT policy's 64 KiB cap; replay judges the newest requests
 *        first within a work budget and says `partial` (with a `note`) when it stopped early.
 */

import { settingsOf } from "../../config/edge-settings.ts";
import { hourOf } from "../../policy/activity.ts";
import { summarizeActivity } from "../../policy/activity-summary.ts";
import { summarizeOperators } from "../../policy/operator-summary.ts";
import { ledgerOf } from "../../policy/referral-ledger.ts";
import { parsePolicy, type CompiledPolicy } from "../../policy/operator-policy.ts";
import { replay, type ReplaySide } from "../../policy/replay.ts";
import { invalid, valid, type Validated } from "../../policy/validated.ts";
import { bucketMsFor, KEEP_HOURS, OTHER_TOKEN } from "../activity/store.ts";
import type { AdminContext } from "./context.ts";
import { readBodyJson } from "./body.ts";
import { MAX_POLICY_BYTES } from "./policy.ts";
import { readAskedRequests } from "./replay-asked.ts";
import { jsonResponse } from "../responses.ts";
import { judgedRobots, storedRobots, type LoadedRobots } from "../robots/cache.ts";
import { compileServed, draftLoaded, servedRobots } from "../robots/purposes-served.ts";

const DEFAULT_HOURS = 24;
const DEFAULT_RECENT = 100;
const MAX_RECENT_SHOWN = 1_000;
/** The kept requests replay judges again, newest first (every history's, merged by time). */
const MAX_REPLAYED = 10_000;
/** A draft is a robots.txt (Google reads 500 KiB) and a policy: more than this is not a draft. */
const MAX_REPLAY_BODY = 1_048_576;

type Answer = Response;

function problem(status: number, error: string, problems?: readonly string[]): Answer {
  return jsonResponse(problems && problems.length > 0 ? { error, problems } : { error }, status);
}

/** A whole number from a query parameter, within bounds, or a problem naming it. */
function wholeParam(url: URL, name: string, fallback: number, max: number, min = 1): Validated<number> {
  const text = url.searchParams.get(name);
  if (text === null) return valid(fallback);
  const value = Number(text);
  if (!/^\d{1,7}$/.test(text) || value < min || value > max) {
    return invalid([`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`]);
  }
  return valid(value);
}

export async function activityView(admin: AdminContext, origin: string): Promise<Answer> {
  const hours = wholeParam(admin.url, "hours", DEFAULT_HOURS, KEEP_HOURS);
  const recent = wholeParam(admin.url, "recent", DEFAULT_RECENT, MAX_RECENT_SHOWN, 0);
  if (!hours.ok || !recent.ok) {
    const problems = [...(hours.ok ? [] : hours.problems), ...(recent.ok ? [] : recent.problems)];
    return problem(400, problems.join("; "), problems);
  }
  const now = Date.now();
  const toHour = hourOf(now);
  const fromHour = toHour - (hours.value - 1) * 3_600_000;
  const namespace = admin.env.ACTIVITY;
  const recording = admin.config.recordActivity && Boolean(namespace);
  const window = { fromHour, toHour };
  const read = namespace
    ? await namespace.get(namespace.idFromName(origin)).read(window, recent.value, now)
    : undefined;
  const empty = { bucketMs: bucketMsFor(window), counts: [], otherNames: 0, series: [], humans: [] };
  const summary = summarizeActivity(read ?? empty, window, OTHER_TOKEN);
  const operators = summarizeOperators(read?.operators ?? [], window, empty.bucketMs);
  return jsonResponse({
    origin,
    recording,
    ...(!recording && {
      warning: namespace
        ? "RECORD_ACTIVITY is false: nothing new is recorded"
        : "no Durable Object is bound as ACTIVITY (wrangler.toml): nothing is recorded",
    }),
    from: new Date(fromHour).toISOString(),
    to: new Date(now).toISOString(),
    // Stored values this version does not know: shown, never read as another value.
    problems: read?.problems ?? [],
    ...summary,
    operators,
    topBlockedPaths: read?.topBlockedPaths ?? [],
    violations: (read?.violations ?? []).map((row) => ({ ...row, lastTime: new Date(row.lastTime).toISOString() })),
    recent: (read?.recent ?? []).map((event) => ({ ...event, time: new Date(event.time).toISOString() })),
  });
}

interface ReplayDraft {
  readonly robots: string | undefined;
  readonly policy: CompiledPolicy | undefined;
  readonly policyGiven: boolean;
}

/** The body: a draft robots.txt, a draft policy (an object, or null for "no policy"), or both. */
function readReplayBody(body: unknown): Validated<ReplayDraft> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return invalid(['the body must be a JSON object {"draft"?: "<robots.txt text>", "policy"?: {…}}']);
  }
  const { draft, policy } = body as Record<string, unknown>;
  const problems: string[] = [];
  if (draft !== undefined && typeof draft !== "string") problems.push('"draft" must be robots.txt text');
  if (draft === undefined && policy === undefined) problems.push('give "draft" (robots.txt text), "policy", or both');
  let compiled: CompiledPolicy | undefined;
  if (policy !== undefined && policy !== null) {
    const parsed = typeof policy === "object" ? draftPolicy(policy) : invalid(["must be an object"]);
    if (parsed.ok) compiled = parsed.value;
    else problems.push(...parsed.problems.map((text) => `policy: ${text}`));
  }
  if (problems.length > 0) return invalid(problems);
  return valid({
    robots: typeof draft === "string" ? draft : undefined,
    policy: compiled,
    policyGiven: policy !== undefined,
  });
}

/**
 * A draft policy, held to the live policy's size cap: a draft that could never be saved is
 * not one, and its routes are what replay's work grows with.
 */
function draftPolicy(policy: object): Validated<CompiledPolicy> {
  const json = JSON.stringify(policy);
  const bytes = new TextEncoder().encode(json).byteLength;
  if (bytes > MAX_POLICY_BYTES) {
    return invalid([`is ${bytes} bytes as JSON; a policy may be at most ${MAX_POLICY_BYTES} (PUT policy's cap)`]);
  }
  return parsePolicy(json);
}

/**
 * Judge the last MAX_REPLAYED kept crawler requests again under the live robots.txt and policy and
 * under the draft. `livePolicy` is the policy in force (the caller knows where it lives).
 */
export async function replayDraft(
  admin: AdminContext,
  origin: string,
  livePolicy: CompiledPolicy | undefined,
): Promise<Answer> {
  const json = await readBodyJson(admin.request, MAX_REPLAY_BODY);
  if (!json.ok) return problem(json.status, json.error, [json.error]);
  if (json.value === undefined) return problem(400, "the body must be JSON", ["the body must be JSON"]);
  const body = readReplayBody(json.value);
  if (!body.ok) return problem(400, body.problems.join("; "), body.problems);
  // Requests the caller asks about besides the recorded ones (a plan's URL list): replay-asked.ts.
  const asked = readAskedRequests((json.value as Record<string, unknown>)["requests"], Date.now());
  if (!asked.ok) return problem(400, asked.problems.join("; "), asked.problems);
  const stored = await storedRobots(origin, admin.kv);
  // Each side's robots.txt is the one it would serve and enforce: its origin file with its purposes.
  const robots = stored && servedRobots(stored, livePolicy);
  // Judged as the edge judges it (judgedRobots): a file over the cap is "unavailable" (a crawler
  // 503), not a file with no matcher (a pass): attack 13, A13-4.
  const live: ReplaySide = { ...judgedSide(robots), policy: livePolicy };
  const draftSidePolicy = body.value.policyGiven ? body.value.policy : livePolicy;
  const draftOrigin = body.value.robots === undefined ? stored : draftLoaded(stored, body.value.robots, Date.now());
  const draftRobots = draftOrigin && compileServed(draftOrigin, draftSidePolicy);
  const draft: ReplaySide = { ...judgedSide(draftRobots), policy: draftSidePolicy };
  const namespace = admin.env.ACTIVITY;
  const object = namespace?.get(namespace.idFromName(origin));
  const requests = object ? await object.recentRequests(MAX_REPLAYED, Date.now()) : [];
  // A rule's crawlsPerReferral condition is judged with the counts as they stand now.
  const now = Date.now();
  const ledger = object ? ledgerOf(await object.ledgerDays(now), now) : undefined;
  const { config } = admin;
  const settings = { ...settingsOf(config, { rateLimiter: false }), ledger };
  const result = replay(requests, { live, draft }, settings);
  // Every change of the asked is listed (at most MAX_ASKED_REQUESTS): a plan checks each one.
  const askedResult = asked.value && replay(asked.value, { live, draft }, settings, asked.value.length);
  return jsonResponse({
    origin,
    ...result,
    ...(result.partial && {
      note: `judged the newest ${result.requests} of ${result.recorded} recorded requests: replay stops at its work budget (docs/operating.md, "Limits")`,
    }),
    changed: result.changed.map((change) => ({ ...change, time: new Date(change.time).toISOString() })),
    // The asked requests, judged last first: `requests` of `recorded` were judged (the last ones).
    ...(askedResult && {
      asked: { ...askedResult, changed: askedResult.changed.map(({ time: _time, ...change }) => change) },
    }),
  });
}

/** A side's robots.txt as the edge judges it; "none" where there is no entry. */
function judgedSide(robots: LoadedRobots | undefined): Pick<ReplaySide, "state" | "matcher"> {
  return robots ? judgedRobots(robots) : { state: "none", matcher: undefined };
}
