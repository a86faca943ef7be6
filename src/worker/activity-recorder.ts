/**
 * Records activity without slowing a request (issue #13). A request only adds its event to
 * this isolate's buffer (a few map updates, no I/O); the buffer goes to each origin's
 * ActivityLog Durable Object in one call, from `ctx.waitUntil`, after the response:
 *   - `flushSettings.delayMs` after the first event of a batch (so decisions are visible in
 *     `GET activity` within seconds even when traffic stops), or
 *   - at once when the batch holds `flushSettings.maxEvents` events (so a busy isolate sends
 *     a call per few hundred requests, not per request).
 * Counts are exact; the recent-request list of one batch is cut to the newest
 * MAX_RECENT_PER_BATCH (the object keeps the newest 10,000 anyway). A failed flush loses that
 * batch and logs it: the activity view is an account, never a reason to fail a request.
 */

import type { ActivityEvent, CrawlerEvent } from "../policy/activity.ts";
import { hourOf } from "../policy/activity.ts";
import type { ActivityBatch, ActivityLog, HourlyCount } from "./activity-object.ts";
import type { EdgeContext } from "./edge-context.ts";
import { logError } from "./log.ts";

/** Batch limits. Tests set delayMs to 0, so a call's waitUntil work includes its flush. */
export const flushSettings = { delayMs: 2_000, maxEvents: 500 };

const MAX_RECENT_PER_BATCH = 1_000;
/** A scheduled flush that has not run this long after it was due was lost with its request: schedule anew. */
const LOST_FLUSH_MS = 30_000;

interface PendingActivity {
  readonly hourly: Map<string, { -readonly [K in keyof HourlyCount]: HourlyCount[K] }>;
  readonly humans: Map<number, number>;
  recent: CrawlerEvent[];
  events: number;
}

const pending = new Map<string, PendingActivity>();
let pendingEvents = 0;
let flushDueAt: number | undefined;

/** Add one request's event to the buffer of its origin; flush later (or now, when the batch is full). */
export function recordActivity(edge: EdgeContext, event: ActivityEvent): void {
  const namespace = edge.env.ACTIVITY;
  if (!edge.config.recordActivity || !namespace) return;
  add(pendingFor(edge.authority), event);
  pendingEvents++;
  const now = Date.now();
  if (pendingEvents >= flushSettings.maxEvents) {
    edge.ctx.waitUntil(flushActivity(namespace, now));
  } else if (flushDueAt === undefined || now > flushDueAt + LOST_FLUSH_MS) {
    flushDueAt = now + flushSettings.delayMs;
    edge.ctx.waitUntil(
      new Promise((resolve) => setTimeout(resolve, flushSettings.delayMs)).then(() =>
        flushActivity(namespace, Date.now()),
      ),
    );
  }
}

function pendingFor(authority: string): PendingActivity {
  let entry = pending.get(authority);
  if (!entry) {
    entry = { hourly: new Map(), humans: new Map(), recent: [], events: 0 };
    pending.set(authority, entry);
  }
  return entry;
}

function add(entry: PendingActivity, activity: ActivityEvent): void {
  entry.events++;
  if (activity.kind === "human") {
    const hour = hourOf(activity.time);
    entry.humans.set(hour, (entry.humans.get(hour) ?? 0) + 1);
    return;
  }
  const { event } = activity;
  const hour = hourOf(event.time);
  const key = [hour, event.token, event.category, event.verified, event.action, event.layer].join("\n");
  const counts = entry.hourly.get(key);
  const violation = event.violation ? 1 : 0;
  if (counts) {
    counts.count++;
    counts.violations += violation;
  } else {
    const { token, category, verified, action, layer } = event;
    entry.hourly.set(key, { hour, token, category, verified, action, layer, count: 1, violations: violation });
  }
  entry.recent.push(event);
  if (entry.recent.length > 2 * MAX_RECENT_PER_BATCH) entry.recent = entry.recent.slice(-MAX_RECENT_PER_BATCH);
}

/** Send every origin's buffered activity to its object. Never throws. */
async function flushActivity(namespace: DurableObjectNamespace<ActivityLog>, now: number) {
  flushDueAt = undefined;
  pendingEvents = 0;
  const batches = [...pending];
  pending.clear();
  await Promise.all(
    batches.map(async ([authority, entry]) => {
      const batch: ActivityBatch = {
        hourly: [...entry.hourly.values()],
        humans: [...entry.humans].map(([hour, count]) => ({ hour, count })),
        recent: entry.recent.slice(-MAX_RECENT_PER_BATCH),
      };
      try {
        await namespace.get(namespace.idFromName(authority)).record(batch, now);
      } catch (error) {
        logError("activity", `${entry.events} events for ${authority} not recorded: ${String(error)}`);
      }
    }),
  );
}

/** Forget what is buffered (tests: a clean slate). */
export function clearActivityMemory(): void {
  pending.clear();
  pendingEvents = 0;
  flushDueAt = undefined;
}
