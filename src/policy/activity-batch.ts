/**
 * An isolate's activity between two flushes: per origin, exact hourly counts
 * (token × category × verified state × action × layer), people as a count per hour, and the
 * newest crawler requests. Pure data: the Worker's recorder (worker/activity/recorder.ts)
 * holds one, adds each request's event, and sends `take()`'s batches to the origins'
 * ActivityLog objects.
 */

import type { CountedAction, CrawlerCategory, Layer } from "../vocabulary.ts";
import { hourOf, type ActivityEvent, type CrawlerEvent, type VerifiedState } from "./activity.ts";
import type { OperatorCount } from "./referral-ledger.ts";

/** One hourly count, as sent to the ActivityLog object and as read back. */
export interface HourlyCount {
  readonly hour: number;
  readonly token: string;
  readonly category: CrawlerCategory | null;
  readonly verified: VerifiedState;
  readonly action: CountedAction;
  readonly layer: Layer;
  readonly count: number;
  readonly violations: number;
}

/** One origin's batch. */
export interface ActivityBatch {
  readonly hourly: readonly HourlyCount[];
  readonly humans: readonly { readonly hour: number; readonly count: number }[];
  /** The batch's crawler requests, oldest first. */
  readonly recent: readonly CrawlerEvent[];
  /** Per operator and hour: crawls, bytes, referrals (referral-ledger.ts); absent from older senders. */
  readonly operators?: readonly OperatorCount[];
}

/**
 * The newest requests one batch carries. Counts stay exact; the recent list is a sample
 * when one isolate sees more than this between two flushes (a busy site: the object's 500
 * per crawler then span seconds anyway), which keeps each batch small.
 */
export const MAX_RECENT_PER_BATCH = 200;

/** Distinct hourly counts an origin's buffer holds while its object fails (restore). */
export const MAX_HELD_COUNTS = 5_000;

interface PendingActivity {
  readonly hourly: Map<string, { -readonly [K in keyof HourlyCount]: HourlyCount[K] }>;
  readonly humans: Map<number, number>;
  readonly operators: Map<string, { -readonly [K in keyof OperatorCount]: OperatorCount[K] }>;
  recent: CrawlerEvent[];
}

export class ActivityBuffer {
  private readonly pending = new Map<string, PendingActivity>();
  /** Events added since the last take(). */
  size = 0;

  add(authority: string, activity: ActivityEvent): void {
    this.size++;
    const entry = this.entryFor(authority);
    if (activity.kind === "human") {
      const hour = hourOf(activity.time);
      entry.humans.set(hour, (entry.humans.get(hour) ?? 0) + 1);
      if (activity.referredBy !== undefined) operatorCounts(entry, hour, activity.referredBy, undefined).referrals++;
      return;
    }
    const { event } = activity;
    const hour = hourOf(event.time);
    // Only what the condition says is a crawl (referral-ledger.ts): one the origin answered
    // with content, of a crawler product (activityOf sets no operator for a user-triggered
    // fetcher). A refuted claim is not the operator's crawl: an impostor takes nothing in its name.
    if (activity.operator !== undefined && activity.answered === true && event.verified !== "refuted") {
      const counts = operatorCounts(entry, hour, activity.operator, event.category ?? undefined);
      counts.crawls++;
      if (event.verified === "verified") counts.verified++;
      counts.bytes += activity.bytes ?? 0;
    }
    const key = `${hour}\n${event.token}\n${event.category}\n${event.verified}\n${event.action}\n${event.layer}`;
    const violation = event.violation ? 1 : 0;
    const counts = entry.hourly.get(key);
    if (counts) {
      counts.count++;
      counts.violations += violation;
    } else {
      const { token, category, verified, action, layer } = event;
      entry.hourly.set(key, { hour, token, category, verified, action, layer, count: 1, violations: violation });
    }
    entry.recent.push(event);
    // Cut now and then rather than on every push: amortised, and bounded at twice the cap.
    if (entry.recent.length > 2 * MAX_RECENT_PER_BATCH) entry.recent = entry.recent.slice(-MAX_RECENT_PER_BATCH);
  }

  /**
   * Put back a batch its object did not take (a failed call, an object reset), to go with the
   * next flush: counts merge with what came since, so a failing object costs memory only up to
   * MAX_HELD_COUNTS distinct counts per origin. Past that the batch is dropped: false. Not
   * added to `size`: the batch waits for the next scheduled flush, never makes one at once (a
   * failing object is not called once per request).
   */
  restore(authority: string, batch: ActivityBatch): boolean {
    const entry = this.entryFor(authority);
    if (entry.hourly.size + batch.hourly.length > MAX_HELD_COUNTS) return false;
    for (const row of batch.hourly) {
      const key = `${row.hour}\n${row.token}\n${row.category}\n${row.verified}\n${row.action}\n${row.layer}`;
      const counts = entry.hourly.get(key);
      if (counts) {
        counts.count += row.count;
        counts.violations += row.violations;
      } else entry.hourly.set(key, { ...row });
    }
    for (const { hour, count } of batch.humans) entry.humans.set(hour, (entry.humans.get(hour) ?? 0) + count);
    for (const row of batch.operators ?? []) {
      const counts = operatorCounts(entry, row.hour, row.operator, row.category);
      counts.crawls += row.crawls;
      counts.verified += row.verified;
      counts.bytes += row.bytes;
      counts.referrals += row.referrals;
    }
    entry.recent = [...batch.recent, ...entry.recent].slice(-MAX_RECENT_PER_BATCH);
    return true;
  }

  /** Everything buffered, as one batch per origin; the buffer is empty afterwards. */
  take(): [authority: string, batch: ActivityBatch][] {
    const batches = [...this.pending].map(([authority, entry]): [string, ActivityBatch] => [
      authority,
      {
        hourly: [...entry.hourly.values()],
        humans: [...entry.humans].map(([hour, count]) => ({ hour, count })),
        recent: entry.recent.slice(-MAX_RECENT_PER_BATCH),
        ...(entry.operators.size > 0 && { operators: [...entry.operators.values()] }),
      },
    ]);
    this.pending.clear();
    this.size = 0;
    return batches;
  }

  private entryFor(authority: string): PendingActivity {
    let entry = this.pending.get(authority);
    if (!entry) {
      entry = { hourly: new Map(), humans: new Map(), operators: new Map(), recent: [] };
      this.pending.set(authority, entry);
    }
    return entry;
  }
}

/**
 * An operator's counts for an hour (and a crawler category, none for referrals) in the pending
 * entry. Operator names come from our tables only (agents/operators/) and categories
 * from the vocabulary, so the map holds at most their product per hour.
 */
function operatorCounts(
  entry: PendingActivity,
  hour: number,
  operator: string,
  category: CrawlerCategory | undefined,
): { -readonly [K in keyof OperatorCount]: OperatorCount[K] } {
  const key = `${hour}\n${operator}\n${category ?? ""}`;
  let counts = entry.operators.get(key);
  if (!counts) {
    counts = {
      hour,
      operator,
      ...(category !== undefined && { category }),
      crawls: 0,
      verified: 0,
      bytes: 0,
      referrals: 0,
    };
    entry.operators.set(key, counts);
  }
  return counts;
}
