/**
 * Records activity without slowing a request. A request only adds its event to
 * this isolate's buffer (policy/activity-batch.ts: a few map updates, no I/O); the buffer
 * goes to each origin's ActivityLog Durable Object in one call per origin, from
 * `ctx.waitUntil`, after the response:
 *   - `flushSettings.delayMs` after the first event of a batch (so decisions are visible in
 *     `GET activity` within seconds even when traffic stops), or
 *   - at once when the batch holds `flushSettings.maxEvents` events (so a busy isolate sends
 *     a call per few hundred requests, not per request).
 * A failed call (the object failing or reset) puts its batch back in the buffer, to go with
 * the next flush (ActivityBuffer.restore, bounded), and logs it: the activity view is an
 * account, never a reason to fail or slow a request.
 */

import { ActivityBuffer } from "../../policy/activity-batch.ts";
import type { ActivityEvent } from "../../policy/activity.ts";
import type { ActivityLog } from "./object.ts";
import type { EdgeContext } from "../edge/context.ts";
import { logError } from "../log.ts";
import { noteObjectProblems } from "../object-problems.ts";

/** Batch limits. Tests set delayMs to 0, so a call's waitUntil work includes its flush. */
export const flushSettings = { delayMs: 2_000, maxEvents: 500 };

/** A scheduled flush that has not run this long after it was due was lost with its request: schedule anew. */
const LOST_FLUSH_MS = 30_000;

const buffer = new ActivityBuffer();
let flushDueAt: number | undefined;

/** Count one request's event in its origin's buffer; flush later (or now, when the batch is full). */
export function recordActivity(edge: EdgeContext, event: ActivityEvent): void {
  const namespace = edge.env.ACTIVITY;
  if (!edge.config.recordActivity || !namespace) return;
  buffer.add(edge.authority, event);
  const now = Date.now();
  if (buffer.size >= flushSettings.maxEvents) {
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

/** Send every origin's buffered activity to its object. Never throws. */
async function flushActivity(namespace: DurableObjectNamespace<ActivityLog>, now: number): Promise<void> {
  flushDueAt = undefined;
  const events = buffer.size;
  await Promise.all(
    buffer.take().map(async ([authority, batch]) => {
      try {
        const answer = await namespace.get(namespace.idFromName(authority)).record(batch, now);
        noteObjectProblems(`activity of ${authority}`, answer?.problems ?? []);
      } catch (error) {
        const kept = buffer.restore(authority, batch);
        const what = kept ? "kept for the next flush" : "dropped: the buffer holds too many counts already";
        logError(
          "activity",
          `a batch of ${events} events for ${authority} was not recorded (${what}): ${String(error)}`,
        );
        noteObjectProblems(`activity of ${authority}`, [
          `the ActivityLog object did not take a batch (${String(error)}): ${what}`,
        ]);
      }
    }),
  );
}

/** Forget what is buffered (tests: a clean slate). */
export function clearActivityMemory(): void {
  buffer.take();
  flushDueAt = undefined;
}
