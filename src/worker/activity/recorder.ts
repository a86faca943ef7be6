/**
 * Records activity without slowing a request. A request only adds its event to
 * this isolate's buffer (policy/activity-batch.ts: a few map updates, no I/O); the buffer
 * goes to each origin's ActivityLog Durable Object in one call per origin, from
 * `ctx.waitUntil`, after the response:
 *   - at flush ticks, `flushSettings.delayMs` after the first event of a batch and then every
 *     delayMs while something stays buffered (so decisions are visible in `GET activity` within
 *     seconds, ~22 s at most for a quiet host on an isolate serving many: flushSettings), or
 *   - at once when an origin's batch holds `flushSettings.maxEvents` events (so a busy isolate
 *     sends a call per few hundred requests, not per request), or when the buffer reaches its
 *     memory bound.
 * A failed call (the object failing or reset) puts its batch back in the buffer, to go with
 * the next flush (ActivityBuffer.restore, bounded), and logs it: the activity view is an
 * account, never a reason to fail or slow a request.
 */

import { ActivityBuffer, type ActivityBatch, type ActivitySlot } from "../../policy/activity-batch.ts";
import type { ActivityEvent } from "../../policy/activity.ts";
import type { ActivityLog } from "./object.ts";
import type { EdgeContext } from "../edge/context.ts";
import { logError } from "../log.ts";
import { noteObjectProblems } from "../object-problems.ts";

/**
 * Batch limits. Tests set delayMs to 0, so a call's waitUntil work includes its flush.
 *  - delayMs: a flush tick comes this long after a batch's first event, then every delayMs
 *    while something stays buffered;
 *  - maxEvents: an origin whose batch holds this many events is sent at once;
 *  - minEventsPerCall, maxWaitMs, allUpToOrigins: which origins a tick sends (DueRule);
 *  - maxHeldEvents: the memory bound (events' recent entries are kept per origin, ≤ 512-character
 *    paths): past it the largest origins go at once, until half of it is left.
 * Why: each origin's batch is one ActivityLog call, a Durable Object request billed as one. An
 * isolate serving one host sends one call per 500 events; one serving 1,000 hosts in turn sent
 * one call per request when every flush took everything (issue 33). Now, when a buffer holds
 * more than a few origins, a tick sends only the origins worth a call (50 events) or whose
 * events have waited 20 s; the rest wait for the next tick. A deployment of up to 10 hosts
 * behaves as before: every tick sends everything.
 *  - maxCallsPerChain: the object calls one flush chain makes in all its ticks, and one
 *    request's own flush at 500 events. Each call is a subrequest of the request whose
 *    waitUntil makes it, and Workers allow 50 a request on the Free plan (10,000 on Paid): a
 *    request's chain (20) and its own flush (20) leave 10 for the request itself. Batches past
 *    the budget stay buffered (counted in the held bound) for the next chain, which the next
 *    request starts. The memory bound's flush (takeLargest) is not capped: the bound comes
 *    first; on the Free plan its calls past the limit fail and are put back within half the bound.
 */
export const flushSettings = {
  delayMs: 2_000,
  maxEvents: 500,
  minEventsPerCall: 50,
  maxWaitMs: 20_000,
  allUpToOrigins: 10,
  maxHeldEvents: 5_000,
  maxCallsPerChain: 20,
};

/** A chain whose next tick has not come this long after it was due was lost with its request: start anew. */
const LOST_FLUSH_MS = 30_000;

/**
 * The running flush chain: when its next tick is due and how many events came since its last
 * tick (none: the isolate is quiet). Per chain, so a chain started in place of a lost one never
 * shares (or resets) another's counter; a chain that is no longer `chain` stops at its next tick.
 */
interface FlushChain {
  dueAt: number;
  addedSinceTick: number;
}

const buffer = new ActivityBuffer();
/** The running chain; undefined when none runs. */
let chain: FlushChain | undefined;

/** Count one request's event in its origin's buffer (`slot`: the request path's place for its entry); flush later (or now, when a batch is full). */
export function recordActivity(edge: EdgeContext, event: ActivityEvent, slot?: ActivitySlot): void {
  const namespace = edge.env.ACTIVITY;
  if (!edge.config.recordActivity || !namespace) return;
  const originEvents = buffer.add(edge.authority, event, slot);
  const now = Date.now();
  const { maxHeldEvents } = flushSettings;
  if (buffer.held >= maxHeldEvents) {
    // What fails of these is put back only within half the bound: their objects just failed or
    // are slow, and filling the buffer to the bound again would send them again at the next
    // request (a call per request to failing objects). Restored rows count in `held`.
    const half = maxHeldEvents / 2;
    edge.ctx.waitUntil(send(namespace, buffer.takeLargest(half), now, half));
  } else if (originEvents >= flushSettings.maxEvents) {
    const batches = buffer.takeDue(now, dueRule(), flushSettings.maxCallsPerChain);
    edge.ctx.waitUntil(send(namespace, batches, now, maxHeldEvents));
  }
  if (chain === undefined || now > chain.dueAt + LOST_FLUSH_MS) {
    chain = { dueAt: now + flushSettings.delayMs, addedSinceTick: 0 };
    edge.ctx.waitUntil(flushChain(namespace, chain, now));
  } else chain.addedSinceTick++;
}

const dueRule = () => ({
  minEvents: Math.min(flushSettings.minEventsPerCall, flushSettings.maxEvents),
  maxWaitMs: flushSettings.maxWaitMs,
  allUpToOrigins: flushSettings.allUpToOrigins,
});

/**
 * A tick every delayMs, inside the waitUntil of the request that started it (one chain at a
 * time): each sends the due origins, and keeps ticking while something stays buffered. It sends
 * everything, and ends, when the isolate was quiet since the last tick (no request: nothing
 * would make the rest due) or at maxWaitMs after its start: a waitUntil lives at most 30 s
 * after its response, so nothing is left in the buffer of an isolate that is no longer called.
 * The ticks never wait for their calls (all are awaited once the last tick has sent): one slow
 * ActivityLog object must not push the last tick, which carries every other origin's batch,
 * past the 30 s (attack session 10). So an origin's events wait at most maxWaitMs plus a call,
 * unless more origins are due than the chain's calls (maxCallsPerChain): the rest wait for the
 * next request's chain.
 */
async function flushChain(
  namespace: DurableObjectNamespace<ActivityLog>,
  me: FlushChain,
  startedAt: number,
): Promise<void> {
  const lastTickAt = startedAt + flushSettings.maxWaitMs;
  const sending: Promise<void>[] = [];
  let calls = flushSettings.maxCallsPerChain;
  for (;;) {
    const wait = Math.max(0, Math.min(flushSettings.delayMs, lastTickAt - Date.now()));
    await new Promise((resolve) => setTimeout(resolve, wait));
    // Taken over by a chain started in place of this one (thought lost): that one flushes now.
    if (chain !== me) break;
    const now = Date.now();
    const last = me.addedSinceTick === 0 || now >= lastTickAt;
    me.addedSinceTick = 0;
    if (last) {
      // Ended before the batches go: an event that comes during the calls starts a new chain.
      chain = undefined;
      sending.push(send(namespace, buffer.takeUpTo(calls), now, flushSettings.maxHeldEvents));
      break;
    }
    const batches = buffer.takeDue(now, dueRule(), calls);
    calls -= batches.length;
    // Decided now, not after the calls: an event during them may start another chain. A chain
    // out of calls ends: what stays waits for the next request's chain.
    const more = buffer.origins > 0 && calls > 0;
    if (more) me.dueAt = now + flushSettings.delayMs;
    else chain = undefined;
    sending.push(send(namespace, batches, now, flushSettings.maxHeldEvents));
    if (!more) break;
  }
  await Promise.all(sending);
}

/** Send each batch to its origin's object; a failed batch is put back within `restoreUpTo` held. Never throws. */
async function send(
  namespace: DurableObjectNamespace<ActivityLog>,
  batches: readonly [authority: string, batch: ActivityBatch][],
  now: number,
  restoreUpTo: number,
): Promise<void> {
  await Promise.all(
    batches.map(async ([authority, batch]) => {
      try {
        const answer = await namespace.get(namespace.idFromName(authority)).record(batch, now);
        noteObjectProblems(`activity of ${authority}`, answer?.problems ?? []);
      } catch (error) {
        const { kept, recentDropped } = buffer.restore(authority, batch, restoreUpTo);
        const what = !kept
          ? "dropped: the buffer is at its bound (held events, restored rows, or counts per origin)"
          : recentDropped > 0
            ? `counts kept for the next flush, ${recentDropped} of its recent requests dropped (the buffer's bound)`
            : "kept for the next flush";
        logError("activity", `a batch for ${authority} was not recorded (${what}): ${String(error)}`);
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
  chain = undefined;
}
