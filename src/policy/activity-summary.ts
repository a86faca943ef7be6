/**
 * The activity view's numbers (GET activity, the operator page): hourly counts folded per
 * crawler token, per action, per verified state and per layer, hour by hour and in total.
 * Pure: the Worker reads the rows from the origin's ActivityLog object and answers this.
 */

import {
  RECORDED_ACTIONS,
  VERIFIED_STATES,
  type RecordedAction,
  type RecordedLayer,
  type VerifiedState,
} from "./activity.ts";

export interface CountRow {
  readonly hour: number;
  readonly token: string;
  readonly category: string | null;
  readonly verified: VerifiedState;
  readonly action: RecordedAction;
  readonly layer: RecordedLayer;
  readonly count: number;
  readonly violations: number;
}

export type ActionCounts = Record<RecordedAction, number>;
export type VerifiedCounts = Record<VerifiedState, number>;

export interface CrawlerActivity {
  readonly token: string;
  readonly category: string | null;
  readonly requests: number;
  readonly total: ActionCounts;
  /** Claimed vs verified: how many of these requests were genuine, impostors, or not checkable. */
  readonly verified: VerifiedCounts;
  readonly layers: Partial<Record<RecordedLayer, number>>;
  /** Requests for paths robots.txt disallows this crawler (it claims to obey robots.txt). */
  readonly violations: number;
  /**
   * One entry per hour of the window, oldest first (hours without requests count zero); for
   * the HOURLY_CRAWLERS crawlers with most requests only (else empty), which bounds the answer.
   */
  readonly hourly: readonly ({ readonly hour: string } & ActionCounts)[];
}

/** Crawlers whose hour-by-hour counts the answer carries (30 days x 5 actions each). */
export const HOURLY_CRAWLERS = 25;

export interface ActivitySummary {
  readonly hours: readonly string[];
  /** All crawlers together, per hour of the window (what the page charts for "all crawlers"). */
  readonly hourly: readonly ({ readonly hour: string } & ActionCounts)[];
  readonly totals: { readonly crawlerRequests: number; readonly humanRequests: number } & ActionCounts;
  /** Most requests first. */
  readonly crawlers: readonly CrawlerActivity[];
  readonly humans: { readonly total: number; readonly hourly: readonly { hour: string; count: number }[] };
}

const HOUR_MS = 3_600_000;

/** The hours from `fromHour` to `toHour` (both hour starts, ms), as ISO strings. */
export function hourRange(fromHour: number, toHour: number): number[] {
  const hours: number[] = [];
  for (let hour = fromHour; hour <= toHour; hour += HOUR_MS) hours.push(hour);
  return hours;
}

export function zeroActions(): ActionCounts {
  return Object.fromEntries(RECORDED_ACTIONS.map((action) => [action, 0])) as ActionCounts;
}

function zeroVerified(): VerifiedCounts {
  return Object.fromEntries(VERIFIED_STATES.map((state) => [state, 0])) as VerifiedCounts;
}

/** Fold the rows of the window [fromHour, toHour] into the view's shape. */
export function summarizeActivity(
  rows: readonly CountRow[],
  humanRows: readonly { readonly hour: number; readonly count: number }[],
  window: { readonly fromHour: number; readonly toHour: number },
): ActivitySummary {
  const hours = hourRange(window.fromHour, window.toHour);
  const indexOf = new Map(hours.map((hour, i) => [hour, i]));
  const crawlers = new Map<string, Mutable>();
  const totals = zeroActions();
  const allHourly = hours.map(zeroActions);
  let crawlerRequests = 0;
  for (const row of rows) {
    const at = indexOf.get(row.hour);
    if (at === undefined) continue;
    const crawler = crawlers.get(row.token) ?? newCrawler(row.token, hours.length);
    crawlers.set(row.token, crawler);
    crawler.category ??= row.category;
    crawler.requests += row.count;
    crawler.total[row.action] += row.count;
    crawler.verified[row.verified] += row.count;
    crawler.layers[row.layer] = (crawler.layers[row.layer] ?? 0) + row.count;
    crawler.violations += row.violations;
    const slot = crawler.hourly[at];
    if (slot) slot[row.action] += row.count;
    const all = allHourly[at];
    if (all) all[row.action] += row.count;
    totals[row.action] += row.count;
    crawlerRequests += row.count;
  }
  const humanHourly = hours.map((hour) => ({ hour: new Date(hour).toISOString(), count: 0 }));
  let humanTotal = 0;
  for (const row of humanRows) {
    const at = indexOf.get(row.hour);
    const slot = at === undefined ? undefined : humanHourly[at];
    if (!slot) continue;
    slot.count += row.count;
    humanTotal += row.count;
  }
  const iso = (i: number) => new Date(hours[i] ?? 0).toISOString();
  return {
    hours: hours.map((hour) => new Date(hour).toISOString()),
    hourly: allHourly.map((counts, i) => ({ hour: iso(i), ...counts })),
    totals: { crawlerRequests, humanRequests: humanTotal, ...totals },
    crawlers: [...crawlers.values()]
      .toSorted((a, b) => b.requests - a.requests || a.token.localeCompare(b.token))
      .map((crawler, rank) => ({
        ...crawler,
        hourly: rank < HOURLY_CRAWLERS ? crawler.hourly.map((counts, i) => ({ hour: iso(i), ...counts })) : [],
      })),
    humans: { total: humanTotal, hourly: humanHourly },
  };
}

interface Mutable {
  token: string;
  category: string | null;
  requests: number;
  total: ActionCounts;
  verified: VerifiedCounts;
  layers: Partial<Record<RecordedLayer, number>>;
  violations: number;
  hourly: ActionCounts[];
}

function newCrawler(token: string, hours: number): Mutable {
  return {
    token,
    category: null,
    requests: 0,
    total: zeroActions(),
    verified: zeroVerified(),
    layers: {},
    violations: 0,
    hourly: Array.from({ length: hours }, zeroActions),
  };
}
