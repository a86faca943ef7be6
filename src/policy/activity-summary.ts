/**
 * The activity view's numbers (GET activity, the operator page), from counts the ActivityLog
 * object aggregated in SQL (worker/activity/store.ts): per shown crawler, per action,
 * verified state and layer, in total and per bucket (an hour up to 48 hours, a day beyond).
 * Pure; it allocates per bucket and shown crawler only, never per stored name.
 */

import { COUNTED_ACTIONS, type CountedAction, type CrawlerCategory, type Layer } from "../vocabulary.ts";
import { VERIFIED_STATES, type VerifiedState } from "./activity.ts";

/** Aggregated counts of one shown crawler (or of all other names, as one), per verified state, action and layer. */
export interface CountRow {
  readonly token: string;
  readonly category: CrawlerCategory | null;
  readonly verified: VerifiedState;
  readonly action: CountedAction;
  readonly layer: Layer;
  readonly count: number;
  readonly violations: number;
}

/** One bucket's count of one action, for one crawler or (token null) all together. */
export interface SeriesRow {
  readonly token: string | null;
  /** The bucket's start (ms). */
  readonly bucket: number;
  readonly action: CountedAction;
  readonly count: number;
}

export interface AggregatedActivity {
  readonly bucketMs: number;
  readonly counts: readonly CountRow[];
  /** How many names the other-names entry gathers. */
  readonly otherNames: number;
  readonly series: readonly SeriesRow[];
  readonly humans: readonly { readonly bucket: number; readonly count: number }[];
}

export type ActionCounts = Record<CountedAction, number>;
export type VerifiedCounts = Record<VerifiedState, number>;
export type Bucketed<T> = { readonly start: string } & T;

export interface CrawlerActivity {
  readonly token: string;
  readonly category: CrawlerCategory | null;
  readonly requests: number;
  readonly total: ActionCounts;
  /** Claimed vs verified: how many of these requests were genuine, impostors, or not checkable. */
  readonly verified: VerifiedCounts;
  readonly layers: Partial<Record<Layer, number>>;
  /** Requests for paths robots.txt disallows this crawler (it claims to obey robots.txt). */
  readonly violations: number;
  /** For the entry of all other names: how many names it gathers. */
  readonly names?: number;
  /** One entry per bucket of the window (zeros included), for the busiest crawlers only (else empty). */
  readonly series: readonly Bucketed<ActionCounts>[];
}

export interface ActivitySummary {
  readonly bucket: "hour" | "day";
  /** The buckets' starts, oldest first. */
  readonly buckets: readonly string[];
  /** All crawlers together, per bucket (what the page charts for "all crawlers"). */
  readonly series: readonly Bucketed<ActionCounts>[];
  readonly totals: { readonly crawlerRequests: number; readonly humanRequests: number } & ActionCounts;
  /** Most requests first; all other names last, as one entry. */
  readonly crawlers: readonly CrawlerActivity[];
  readonly humans: { readonly total: number; readonly series: readonly Bucketed<{ count: number }>[] };
}

export function zeroActions(): ActionCounts {
  return Object.fromEntries(COUNTED_ACTIONS.map((action) => [action, 0])) as ActionCounts;
}

function zeroVerified(): VerifiedCounts {
  return Object.fromEntries(VERIFIED_STATES.map((state) => [state, 0])) as VerifiedCounts;
}

/** The starts of the buckets covering [fromHour, toHour] (hour starts, ms). */
export function bucketStarts(fromHour: number, toHour: number, bucketMs: number): number[] {
  const starts: number[] = [];
  for (let start = fromHour - (fromHour % bucketMs); start <= toHour; start += bucketMs) starts.push(start);
  return starts;
}

/** The view's shape for the window [fromHour, toHour]; `otherToken` names the entry of all other names. */
export function summarizeActivity(
  read: AggregatedActivity,
  window: { readonly fromHour: number; readonly toHour: number },
  otherToken: string,
): ActivitySummary {
  const starts = bucketStarts(window.fromHour, window.toHour, read.bucketMs);
  const iso = starts.map((start) => new Date(start).toISOString());
  const at = new Map(starts.map((start, i) => [start, i]));
  const crawlers = new Map<string, Mutable>();
  const totals = zeroActions();
  let crawlerRequests = 0;
  for (const row of read.counts) {
    const crawler = crawlers.get(row.token) ?? newCrawler(row.token, row.category);
    crawlers.set(row.token, crawler);
    crawler.requests += row.count;
    crawler.total[row.action] += row.count;
    crawler.verified[row.verified] += row.count;
    crawler.layers[row.layer] = (crawler.layers[row.layer] ?? 0) + row.count;
    crawler.violations += row.violations;
    totals[row.action] += row.count;
    crawlerRequests += row.count;
  }
  const all = starts.map(zeroActions);
  const perCrawler = new Map<string, ActionCounts[]>();
  for (const row of read.series) {
    const i = at.get(row.bucket);
    if (i === undefined) continue;
    let slots = all;
    if (row.token !== null) {
      slots = perCrawler.get(row.token) ?? starts.map(zeroActions);
      perCrawler.set(row.token, slots);
    }
    const slot = slots[i];
    if (slot) slot[row.action] += row.count;
  }
  const humanSeries = starts.map(() => 0);
  for (const row of read.humans) {
    const i = at.get(row.bucket);
    if (i !== undefined) humanSeries[i] = (humanSeries[i] ?? 0) + row.count;
  }
  const bucketed = (slots: readonly ActionCounts[]) => slots.map((counts, i) => ({ start: iso[i] ?? "", ...counts }));
  const ranked = [...crawlers.values()].toSorted(
    (a, b) =>
      Number(a.token === otherToken) - Number(b.token === otherToken) ||
      b.requests - a.requests ||
      a.token.localeCompare(b.token),
  );
  return {
    bucket: read.bucketMs === 3_600_000 ? "hour" : "day",
    buckets: iso,
    series: bucketed(all),
    totals: { crawlerRequests, humanRequests: humanSeries.reduce((sum, count) => sum + count, 0), ...totals },
    crawlers: ranked.map((crawler) => {
      const slots = perCrawler.get(crawler.token);
      return {
        ...crawler,
        ...(crawler.token === otherToken && read.otherNames > 0 && { names: read.otherNames }),
        series: slots ? bucketed(slots) : [],
      };
    }),
    humans: {
      total: humanSeries.reduce((sum, count) => sum + count, 0),
      series: humanSeries.map((count, i) => ({ start: iso[i] ?? "", count })),
    },
  };
}

interface Mutable {
  token: string;
  category: CrawlerCategory | null;
  requests: number;
  total: ActionCounts;
  verified: VerifiedCounts;
  layers: Partial<Record<Layer, number>>;
  violations: number;
}

function newCrawler(token: string, category: CrawlerCategory | null): Mutable {
  return { token, category, requests: 0, total: zeroActions(), verified: zeroVerified(), layers: {}, violations: 0 };
}
