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

/**
 * The isolate's bound on what its buffer holds (`held`): new events plus the rows of restored
 * batches (their recent requests and count rows). The recorder passes its own setting; this is
 * the default a restore keeps within.
 */
export const MAX_HELD_EVENTS = 5_000;

/** What a restore kept of a batch: its counts (all or none) and how many of its recent requests it dropped. */
export interface RestoreOutcome {
  readonly kept: boolean;
  readonly recentDropped: number;
}

/**
 * A caller's own place for one origin's pending entry (the Worker's request path keeps one per
 * authority, worker/edge/host-memo.ts), always given with the same authority: `add` reads it
 * before the buffer's Map, so an event is counted without a Map read (with 1,000 hosts in turn
 * the Map's table and key strings are cache lines of that origin's the CPU no longer holds).
 * What it holds is used only while it is this buffer's pending entry for that origin.
 */
export interface ActivitySlot {
  activity: object | undefined;
}

interface PendingActivity {
  /** The buffer and origin it is pending in (ActivitySlot). */
  readonly owner: ActivityBuffer;
  readonly authority: string;
  /** Taken out of the buffer (sent, or in a batch on its way): a slot holding it reads the Map again. */
  taken: boolean;
  /** Events added since the origin's last batch left (restore adds none). */
  events: number;
  /** When its oldest waiting event came (ms since the epoch); -Infinity after a restore: due at the next tick. */
  firstAt: number;
  readonly hourly: Map<string, MutableHourlyCount>;
  readonly humans: Map<number, number>;
  readonly operators: Map<string, MutableOperatorCount>;
  recent: CrawlerEvent[];
  /** Of `recent`, how many (at its front) came from restored batches. */
  restoredRecent: number;
  /** Count rows (hourly, humans, operators) restored batches brought: an upper estimate, merged keys count once each time. */
  restoredCounts: number;
  /**
   * The hourly and operator counts the origin's last crawler event went to (the same objects
   * as in the Maps). An origin's next event is nearly always of the same kind: it is counted
   * there without building a key and reading the Map, whose table and key strings are each one
   * more cache line of this origin's (with 1,000 hosts in turn, lines no longer in the CPU's
   * caches when the host comes round again: docs/operating.md "What it costs (per host)").
   */
  lastHourly: MutableHourlyCount | undefined;
  lastOperator: MutableOperatorCount | undefined;
}

type MutableHourlyCount = { -readonly [K in keyof HourlyCount]: HourlyCount[K] };
type MutableOperatorCount = { -readonly [K in keyof OperatorCount]: OperatorCount[K] };

export class ActivityBuffer {
  private readonly pending = new Map<string, PendingActivity>();
  /** Events added since the last take(). */
  size = 0;
  /** Rows restored batches hold (recent requests and count rows): memory that `size` does not see. */
  private restoredRows = 0;

  /**
   * What the buffer holds, weighed for the memory bound: new events plus restored rows. A
   * restored batch counts here, or a failing object would let the buffer grow past any bound
   * (attack session 10: 200,000 recent requests, 215 MB, with every call failing).
   */
  get held(): number {
    return this.size + this.restoredRows;
  }

  /** The origins with something buffered. */
  get origins(): number {
    return this.pending.size;
  }

  /** Count one request's event in its origin's entry; answers how many events that entry now holds. */
  add(authority: string, activity: ActivityEvent, slot?: ActivitySlot): number {
    this.size++;
    const time = activity.kind === "human" ? activity.time : activity.event.time;
    const slotted = slot?.activity as PendingActivity | undefined;
    let entry: PendingActivity;
    if (slotted?.owner === this && !slotted.taken && slotted.authority === authority) entry = slotted;
    else {
      entry = this.entryFor(authority, time);
      if (slot) slot.activity = entry;
    }
    entry.events++;
    this.count(entry, activity);
    return entry.events;
  }

  private count(entry: PendingActivity, activity: ActivityEvent): void {
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
      const category = event.category ?? undefined;
      const last = entry.lastOperator;
      const counts =
        last !== undefined && last.hour === hour && last.operator === activity.operator && last.category === category
          ? last
          : operatorCounts(entry, hour, activity.operator, category);
      entry.lastOperator = counts;
      counts.crawls++;
      if (event.verified === "verified") counts.verified++;
      counts.bytes += activity.bytes ?? 0;
    }
    const violation = event.violation ? 1 : 0;
    const last = entry.lastHourly;
    if (
      last !== undefined &&
      last.hour === hour &&
      last.token === event.token &&
      last.category === event.category &&
      last.verified === event.verified &&
      last.action === event.action &&
      last.layer === event.layer
    ) {
      last.count++;
      last.violations += violation;
    } else {
      const key = `${hour}\n${event.token}\n${event.category}\n${event.verified}\n${event.action}\n${event.layer}`;
      let counts = entry.hourly.get(key);
      if (counts) {
        counts.count++;
        counts.violations += violation;
      } else {
        const { token, category, verified, action, layer } = event;
        counts = { hour, token, category, verified, action, layer, count: 1, violations: violation };
        entry.hourly.set(key, counts);
      }
      entry.lastHourly = counts;
    }
    entry.recent.push(event);
    // Cut now and then rather than on every push: amortised, and bounded at twice the cap.
    if (entry.recent.length > 2 * MAX_RECENT_PER_BATCH) {
      const cut = entry.recent.length - MAX_RECENT_PER_BATCH;
      entry.recent = entry.recent.slice(cut);
      this.forgetRestoredRecent(entry, cut);
    }
  }

  /** `cut` entries left the front of an entry's recent list: the restored ones are there first. */
  private forgetRestoredRecent(entry: PendingActivity, cut: number): void {
    const gone = Math.min(cut, entry.restoredRecent);
    entry.restoredRecent -= gone;
    this.restoredRows -= gone;
  }

  /**
   * Put back a batch its object did not take (a failed call, an object reset), to go with the
   * next flush: counts merge with what came since. Restored rows count in `held`, within
   * `maxHeld` (and MAX_HELD_COUNTS distinct counts per origin): past it the batch's recent
   * requests go first (oldest first), then the whole batch. Not added to `size`: the batch waits
   * for the next scheduled flush, never makes one at once (a failing object is not called once
   * per request).
   */
  restore(authority: string, batch: ActivityBatch, maxHeld = MAX_HELD_EVENTS): RestoreOutcome {
    const countRows = batch.hourly.length + batch.humans.length + (batch.operators?.length ?? 0);
    const heldCounts = this.pending.get(authority)?.hourly.size ?? 0;
    if (heldCounts + batch.hourly.length > MAX_HELD_COUNTS || this.held + countRows > maxHeld)
      return { kept: false, recentDropped: batch.recent.length };
    const entry = this.entryFor(authority, -Infinity);
    entry.firstAt = -Infinity;
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
    entry.restoredCounts += countRows;
    this.restoredRows += countRows;
    const room = Math.min(maxHeld - this.held, MAX_RECENT_PER_BATCH, batch.recent.length);
    const kept = batch.recent.slice(batch.recent.length - room);
    entry.recent = [...kept, ...entry.recent];
    entry.restoredRecent += kept.length;
    this.restoredRows += kept.length;
    const cut = Math.max(0, entry.recent.length - MAX_RECENT_PER_BATCH);
    entry.recent = entry.recent.slice(cut);
    this.forgetRestoredRecent(entry, cut);
    return { kept: true, recentDropped: batch.recent.length - kept.length };
  }

  /** Everything buffered, as one batch per origin; the buffer is empty afterwards. */
  take(): [authority: string, batch: ActivityBatch][] {
    const batches = [...this.pending].map(([authority, entry]): [string, ActivityBatch] => [authority, batchOf(entry)]);
    for (const entry of this.pending.values()) retire(entry);
    this.pending.clear();
    this.size = 0;
    this.restoredRows = 0;
    return batches;
  }

  /**
   * The batches of the origins that are due (see DueRule), at most `maxOrigins` of them (the
   * heaviest first: a call's budget goes where it carries the most); the others stay buffered.
   * When the buffer holds at most `rule.allUpToOrigins` origins, every one is due.
   */
  takeDue(now: number, rule: DueRule, maxOrigins = Infinity): [authority: string, batch: ActivityBatch][] {
    const all = this.pending.size <= rule.allUpToOrigins;
    if (all && this.pending.size <= maxOrigins) return this.take();
    return this.takeHeaviest(
      maxOrigins,
      ([, entry]) => all || entry.events >= rule.minEvents || now - entry.firstAt >= rule.maxWaitMs,
    );
  }

  /** Everything buffered, but at most `maxOrigins` batches, the heaviest first; the rest stays. */
  takeUpTo(maxOrigins: number): [authority: string, batch: ActivityBatch][] {
    if (this.pending.size <= maxOrigins) return this.take();
    return this.takeHeaviest(maxOrigins, () => true);
  }

  private takeHeaviest(
    maxOrigins: number,
    chosen: (origin: [authority: string, entry: PendingActivity]) => boolean,
  ): [authority: string, batch: ActivityBatch][] {
    let picked = [...this.pending].filter((origin) => chosen(origin));
    if (picked.length > maxOrigins)
      picked = picked.toSorted(([, x], [, y]) => weightOf(y) - weightOf(x)).slice(0, maxOrigins);
    const names = new Set(picked.map(([authority]) => authority));
    return this.takeWhere(([authority]) => names.has(authority));
  }

  /**
   * The memory bound: the largest origins' batches (most held first: events and restored rows)
   * until at most `events` stay `held`. Largest first, because those calls carry the most events
   * each; the small ones stay to grow or age.
   */
  takeLargest(events: number): [authority: string, batch: ActivityBatch][] {
    const bySize = [...this.pending].toSorted(([, x], [, y]) => weightOf(y) - weightOf(x));
    const chosen = new Set<string>();
    let left = this.held;
    for (const [authority, entry] of bySize) {
      if (left <= events) break;
      chosen.add(authority);
      left -= weightOf(entry);
    }
    return this.takeWhere(([authority]) => chosen.has(authority));
  }

  private takeWhere(
    chosen: (origin: [authority: string, entry: PendingActivity]) => boolean,
  ): [authority: string, batch: ActivityBatch][] {
    const batches: [string, ActivityBatch][] = [];
    for (const origin of this.pending) {
      if (!chosen(origin)) continue;
      const [authority, entry] = origin;
      batches.push([authority, batchOf(entry)]);
      this.size -= entry.events;
      this.restoredRows -= entry.restoredRecent + entry.restoredCounts;
      retire(entry);
      this.pending.delete(authority);
    }
    return batches;
  }

  private entryFor(authority: string, time: number): PendingActivity {
    let entry = this.pending.get(authority);
    if (!entry) {
      entry = {
        owner: this,
        authority,
        taken: false,
        events: 0,
        firstAt: time,
        hourly: new Map(),
        humans: new Map(),
        operators: new Map(),
        recent: [],
        restoredRecent: 0,
        restoredCounts: 0,
        lastHourly: undefined,
        lastOperator: undefined,
      };
      this.pending.set(authority, entry);
    }
    return entry;
  }
}

/**
 * When an origin's batch is due at a flush tick: it holds `minEvents` events, or its oldest
 * event has waited `maxWaitMs`; or the buffer holds at most `allUpToOrigins` origins (then
 * all are: a deployment of a few hosts sends each tick's batches as it always did).
 */
export interface DueRule {
  readonly minEvents: number;
  readonly maxWaitMs: number;
  readonly allUpToOrigins: number;
}

/**
 * An entry out of the buffer, its batch made: marked, and emptied of what the batch now carries,
 * so a caller's slot still holding it keeps nothing alive.
 */
function retire(entry: PendingActivity): void {
  entry.taken = true;
  entry.recent = [];
  entry.hourly.clear();
  entry.humans.clear();
  entry.operators.clear();
  entry.lastHourly = undefined;
  entry.lastOperator = undefined;
}

/** What an origin's entry weighs against the bound: its new events and its restored rows. */
function weightOf(entry: PendingActivity): number {
  return entry.events + entry.restoredRecent + entry.restoredCounts;
}

function batchOf(entry: PendingActivity): ActivityBatch {
  return {
    hourly: [...entry.hourly.values()],
    humans: [...entry.humans].map(([hour, count]) => ({ hour, count })),
    recent: entry.recent.slice(-MAX_RECENT_PER_BATCH),
    ...(entry.operators.size > 0 && { operators: [...entry.operators.values()] }),
  };
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
): MutableOperatorCount {
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
