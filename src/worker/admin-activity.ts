/**
 * The admin API's activity routes (issue #13), for an origin admin.ts has already checked:
 *
 *   GET  activity[?origin=…&hours=…&recent=…]  counts per crawler token (per action, verified
 *        state, layer; per hour and in total), people as one count, the top blocked paths,
 *        robots.txt violations and the newest crawler requests
 *   POST replay[?origin=…] {"draft"?: "<robots.txt>", "policy"?: {…}}  the recent crawler
 *        requests judged under what is live and under the draft; the decisions that change
 */

import { compileRobots, parseRobotsTxt } from "../core/index.ts";
import { hourOf } from "../policy/activity.ts";
import { summarizeActivity } from "../policy/activity-summary.ts";
import { parsePolicy, type CompiledPolicy } from "../policy/operator-policy.ts";
import { replay, type ReplaySide } from "../policy/replay.ts";
import { invalid, valid, type Validated } from "../policy/validated.ts";
import { KEEP_HOURS, KEEP_RECENT } from "./activity-object.ts";
import type { AdminContext } from "./admin.ts";
import { readBodyJson } from "./admin-body.ts";
import { jsonResponse } from "./responses.ts";
import { storedRobots } from "./robots-cache.ts";

const DEFAULT_HOURS = 24;
const DEFAULT_RECENT = 100;
const MAX_RECENT_SHOWN = 1_000;
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
  const read = namespace ? await namespace.get(namespace.idFromName(origin)).read(fromHour, recent.value) : undefined;
  const summary = summarizeActivity(read?.hourly ?? [], read?.humans ?? [], { fromHour, toHour });
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
    ...summary,
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
    const parsed = typeof policy === "object" ? parsePolicy(JSON.stringify(policy)) : invalid(["must be an object"]);
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
 * Judge the last KEEP_RECENT crawler requests again under the live robots.txt and policy and
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
  const robots = await storedRobots(origin, admin.kv);
  const live: ReplaySide = {
    state: robots?.entry.state ?? "none",
    matcher: robots?.matcher(),
    policy: livePolicy,
  };
  const draft: ReplaySide = {
    state: body.value.robots === undefined ? live.state : "ok",
    matcher: body.value.robots === undefined ? live.matcher : compileRobots(parseRobotsTxt(body.value.robots)),
    policy: body.value.policyGiven ? body.value.policy : livePolicy,
  };
  const namespace = admin.env.ACTIVITY;
  const requests = namespace ? await namespace.get(namespace.idFromName(origin)).recentRequests(KEEP_RECENT) : [];
  const { config } = admin;
  const result = replay(
    requests,
    { live, draft },
    {
      mode: config.mode,
      failOpen: config.failOpen,
      blockStatus: config.blockStatus,
      verifyCrawlers: config.verifyCrawlers,
      enforceRates: config.enforceRates,
      usageSignals: config.usageSignals,
    },
  );
  return jsonResponse({
    origin,
    ...result,
    changed: result.changed.map((change) => ({ ...change, time: new Date(change.time).toISOString() })),
  });
}
