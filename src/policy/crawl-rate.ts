/**
 * Crawl-delay, Request-rate and Visit-time, enforced: what robots.txt can only ask, the edge
 * can hold a crawler to. Pure: time comes in as milliseconds; the state is plain data that
 * the Worker keeps in a Durable Object per (origin, group, crawler).
 *
 * Semantics (server-admin manual in test/fixtures/spec; choices named):
 *   - Crawl-delay d: at least d seconds between two requests of one crawler.
 *   - Request-rate n/s: at most n requests in any s seconds (a sliding window over the
 *     times of the last n allowed requests). A rate with a window applies only inside it;
 *     several rates may apply at once, and all must allow.
 *   - Visit-time HHMM-HHMM (UTC): outside the window, 503 until it opens; a window whose
 *     start is after its end spans midnight.
 *   - Too fast -> 429 with Retry-After: the seconds until the next request would be allowed.
 *
 * Bounded here, in one place, whatever the origin's robots.txt says (it is not ours to
 * trust): the limits in force (rateLimitsAt) are what the limiter enforces and what the
 * RateLimit fields state (rate-limit-headers.ts), so both read the same bounded limits. Every
 * bound is more lenient than the line it bounds, never stricter: refuse only what the crawler
 * itself reads.
 *   - A Crawl-delay or Request-rate window longer than MAX_RATE_WINDOW_SECONDS (a year) is
 *     enforced as a year: a shorter delay, or the same count in a shorter window, refuses
 *     nothing the line allows; it keeps every number an RFC 9651 Integer (at most 15 digits),
 *     a Date and a Durable Object alarm can hold.
 *   - A Request-rate of more than MAX_RATE_REQUESTS (999,999,999,999,999, the largest RFC 9651
 *     Integer) requests is not enforced and not stated: no number the fields can carry is
 *     true of it, and no crawler reaches it (at a million requests a second, 31 years).
 *   - Of the Request-rate lines in force, at most MAX_ENFORCED_RATES are enforced: the
 *     strictest by requests per second, skipping each that a kept line or the Crawl-delay
 *     already implies (dropping those changes nothing). 5,000 lines would cost 5,000 checks a
 *     request and a RateLimit-Policy field of 170 KB; a handful is what real files write.
 *   - The limiter keeps at most MAX_STORED_TIMES request times. A rate of more requests than
 *     that (`Request-rate: 1000000/24h`) is counted, not timed: a token bucket of n tokens
 *     refilled at n per window, which allows whatever the sliding window allows (and at most
 *     n more in any window), in two numbers of state.
 */

import type { AppliedGroup, GroupExtensions, RequestRate, TimeWindow } from "../core/index.ts";
import type { EnforceRates } from "./settings.ts";

const DAY_MINUTES = 24 * 60;
/**
 * Request times one limiter keeps at most: a rate of up to this many requests is held exactly
 * (a sliding window over their times), one of more by a token bucket. 10,000 times are ~90 KB,
 * which the Durable Object copies and writes on every allowed request (bench/bounds.bench.ts).
 */
export const MAX_STORED_TIMES = 10_000;
/** The longest window (Crawl-delay or Request-rate period) enforced: a year. */
export const MAX_RATE_WINDOW_SECONDS = 365 * 24 * 3600;
/** The largest n of `Request-rate: n/…` enforced: the largest RFC 9651 Integer (15 digits). */
export const MAX_RATE_REQUESTS = 999_999_999_999_999;
/** Request-rate lines enforced (and stated) at once. */
export const MAX_ENFORCED_RATES = 4;

/** The limits a group declares that apply at this moment. */
export interface RateLimits {
  readonly minIntervalMs: number;
  readonly rates: readonly { readonly requests: number; readonly ms: number }[];
}

/** One rate's token bucket (a rate of more than MAX_STORED_TIMES requests): tokens left at `at`. */
export interface RateBucket {
  readonly tokens: number;
  readonly at: number;
}

/**
 * What the limiter remembers for one crawler: times of its recent allowed requests (at most
 * MAX_STORED_TIMES), and a bucket per counted rate in force, keyed `requests/ms` (at most
 * MAX_ENFORCED_RATES; absent when no rate is counted).
 */
export interface RateState {
  readonly recent: readonly number[];
  readonly buckets?: Readonly<Record<string, RateBucket>>;
}

type Rate = RateLimits["rates"][number];

export interface RateCheck {
  readonly allowed: boolean;
  /** Whole seconds until a request would be allowed (0 when allowed). */
  readonly retryAfter: number;
  readonly state: RateState;
}

/** Does the group declare anything to enforce at all? (Decides whether to ask the limiter.) */
export function declaresRateLimits(group: AppliedGroup): boolean {
  const { crawlDelay } = group.extensions;
  return (crawlDelay !== undefined && crawlDelay.seconds > 0) || rateLinesOf(group.extensions).declared;
}

/**
 * The group's limits in force at `now`, bounded (see the top of this file). Which rates are in
 * force changes only where a window opens or closes: each span between those minutes is worked
 * out once per group, so a paced request costs a search of the spans, not a walk of every
 * line (25,836 Request-rate lines: 0.8-9 ms a request).
 */
export function rateLimitsAt(group: AppliedGroup, now: number): RateLimits {
  const minute = minuteOfDay(now);
  const delaySeconds = Math.min(group.extensions.crawlDelay?.seconds ?? 0, MAX_RATE_WINDOW_SECONDS);
  const minIntervalMs = delaySeconds * 1000;
  const lines = rateLinesOf(group.extensions);
  const span = spanOf(lines.edges, minute);
  let rates = lines.bySpan.get(span);
  if (!rates) {
    rates = ratesInForce(lines.strictestFirst, minute, minIntervalMs);
    lines.bySpan.set(span, rates);
  }
  return { minIntervalMs, rates };
}

/** The rates enforced at `minute`: the strictest in force, skipping each already implied; in file order. */
function ratesInForce(strictestFirst: readonly RateLine[], minute: number, minIntervalMs: number): readonly Rate[] {
  const rates: { rate: Rate; order: number }[] = [];
  for (const { rate, order, window } of strictestFirst) {
    if (rates.length === MAX_ENFORCED_RATES) break;
    if (window && !insideWindow(window, minute)) continue;
    if (impliedByDelay(rate, minIntervalMs) || rates.some((kept) => implies(kept.rate, rate))) continue;
    rates.push({ rate, order });
  }
  return rates.toSorted((a, b) => a.order - b.order).map(({ rate }) => rate);
}

interface RateLine {
  readonly rate: Rate;
  /** Its place in the group's lines: the enforced rates keep file order (their names in the fields). */
  readonly order: number;
  readonly window: TimeWindow | undefined;
}

/** What a group's Request-rate lines come to, worked out once per group. */
interface RateLines {
  /** Whether it has any Request-rate line (enforceable or not). */
  readonly declared: boolean;
  /** Its enforceable lines, strictest (fewest requests a second) first. */
  readonly strictestFirst: readonly RateLine[];
  /** The minutes of the day where a line's window opens or closes, ascending, once each. */
  readonly edges: readonly number[];
  /** The rates in force in each span between edges (spanOf), made when first asked. */
  readonly bySpan: Map<number, readonly Rate[]>;
}

/**
 * Keyed on the extensions, not their list: a set of several groups makes its merged list on each
 * read past the matcher's bound (core/merged-group.ts), its extensions object stays. The spans
 * are at most twice the lines, each at most MAX_ENFORCED_RATES rates: the file's own size.
 */
const rateLinesByGroup = new WeakMap<GroupExtensions, RateLines>();
function rateLinesOf(extensions: GroupExtensions): RateLines {
  let lines = rateLinesByGroup.get(extensions);
  if (lines) return lines;
  const { requestRates } = extensions;
  const strictestFirst = requestRates
    .filter((rate: RequestRate) => rate.requests <= MAX_RATE_REQUESTS)
    .map((rate, index) => ({
      rate: { requests: rate.requests, ms: Math.min(rate.seconds, MAX_RATE_WINDOW_SECONDS) * 1000 },
      order: index,
      window: rate.window,
    }))
    .toSorted((a, b) => a.rate.requests / a.rate.ms - b.rate.requests / b.rate.ms || a.rate.ms - b.rate.ms);
  const edges = new Set<number>();
  for (const { window } of strictestFirst) if (window) edges.add(window.start).add(window.end);
  lines = {
    declared: requestRates.length > 0,
    strictestFirst,
    edges: [...edges].toSorted((a, b) => a - b),
    bySpan: new Map(),
  };
  rateLinesByGroup.set(extensions, lines);
  return lines;
}

/** How many edges are at or before `minute`: windows open and close at the same spans' edges. */
function spanOf(edges: readonly number[], minute: number): number {
  let low = 0;
  let high = edges.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((edges[middle] ?? 0) <= minute) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Does `stricter` (at most n in any window) imply `rate`? A window of `rate` is covered by
 * ceil(its length / stricter's) windows of `stricter`, each holding at most its n.
 */
function implies(stricter: Rate, rate: Rate): boolean {
  return Math.ceil(rate.ms / stricter.ms) * stricter.requests <= rate.requests;
}

/** Does a Crawl-delay imply `rate`? Requests at least the delay apart: at most ceil(window / delay) in a window. */
function impliedByDelay(rate: Rate, minIntervalMs: number): boolean {
  return minIntervalMs > 0 && Math.ceil(rate.ms / minIntervalMs) <= rate.requests;
}

/** Allow or refuse one request at `now`, and the state to keep. */
export function checkRate(state: RateState, limits: RateLimits, now: number): RateCheck {
  const timed = limits.rates.filter((rate) => rate.requests <= MAX_STORED_TIMES);
  const counted = limits.rates.filter((rate) => rate.requests > MAX_STORED_TIMES);
  const keep = Math.max(1, ...timed.map((rate) => rate.requests));
  const recent = state.recent.filter((time) => time <= now).slice(-keep);
  const buckets = counted.map((rate) => refilled(state.buckets?.[bucketKey(rate)], rate, now));
  let waitMs = 0;
  const last = recent.at(-1);
  if (last !== undefined && limits.minIntervalMs > 0) waitMs = Math.max(waitMs, last + limits.minIntervalMs - now);
  for (const rate of timed) {
    const inWindow = recent.filter((time) => time > now - rate.ms);
    const oldest = inWindow[inWindow.length - rate.requests];
    if (inWindow.length >= rate.requests && oldest !== undefined) waitMs = Math.max(waitMs, oldest + rate.ms - now);
  }
  counted.forEach((rate, index) => {
    const tokens = buckets[index]?.tokens ?? rate.requests;
    // A hair of float error must not refuse what exact arithmetic allows.
    if (tokens < 1 - 1e-9) waitMs = Math.max(waitMs, ((1 - tokens) * rate.ms) / rate.requests);
  });
  if (waitMs > 0) {
    return { allowed: false, retryAfter: Math.ceil(waitMs / 1000), state: withBuckets({ recent }, counted, buckets) };
  }
  const spent = buckets.map((bucket) => ({ tokens: Math.max(0, bucket.tokens - 1), at: now }));
  return {
    allowed: true,
    retryAfter: 0,
    state: withBuckets({ recent: [...recent, now].slice(-keep) }, counted, spent),
  };
}

function bucketKey(rate: Rate): string {
  return `${rate.requests}/${rate.ms}`;
}

/** A counted rate's bucket at `now`: full when new, refilled at n tokens per window, never past n. */
function refilled(bucket: RateBucket | undefined, rate: Rate, now: number): RateBucket {
  if (!bucket || bucket.at > now) return { tokens: rate.requests, at: now };
  const tokens = Math.min(rate.requests, bucket.tokens + ((now - bucket.at) * rate.requests) / rate.ms);
  return { tokens, at: now };
}

/** The state with the buckets of the counted rates in force (those of rates no longer in force go). */
function withBuckets(state: RateState, counted: readonly Rate[], buckets: readonly RateBucket[]): RateState {
  if (counted.length === 0) return state;
  const kept: Record<string, RateBucket> = {};
  counted.forEach((rate, index) => {
    const bucket = buckets[index];
    if (bucket) kept[bucketKey(rate)] = bucket;
  });
  return { ...state, buckets: kept };
}

/** Is `now` inside the Visit-time window? If not, the seconds until it opens. */
export function visitWindow(window: TimeWindow, now: number): { open: boolean; retryAfter: number } {
  const minute = minuteOfDay(now);
  if (insideWindow(window, minute)) return { open: true, retryAfter: 0 };
  const minutesUntil = (window.start - minute + DAY_MINUTES) % DAY_MINUTES;
  const secondsIntoMinute = Math.floor((now % 60_000) / 1000);
  return { open: false, retryAfter: Math.max(1, minutesUntil * 60 - secondsIntoMinute) };
}

function minuteOfDay(now: number): number {
  return Math.floor(now / 60_000) % DAY_MINUTES;
}

/** [start, end) in minutes of the day; start > end spans midnight; start = end is all day. */
function insideWindow(window: TimeWindow, minute: number): boolean {
  if (window.start === window.end) return true;
  if (window.start < window.end) return minute >= window.start && minute < window.end;
  return minute >= window.start || minute < window.end;
}

/**
 * Whether a group's Crawl-delay, Request-rate and Visit-time lines bind this crawler. By
 * default ("honoured") only crawlers that honour such lines anyway: those the group names by
 * their own token, and those whose operator documents support (the crawler table). Google
 * documents that Googlebot ignores Crawl-delay and reads sustained 429/503 answers as
 * overload, dropping URLs from its index: holding it to a `*` group's Crawl-delay could get
 * a site de-indexed, so that takes the operator's explicit "all".
 */
export function bindsRateLines(
  setting: EnforceRates,
  groupToken: string,
  crawler: { readonly honoursRateLimits?: boolean | undefined },
): boolean {
  if (setting === "off") return false;
  if (setting === "all") return true;
  return groupToken !== "*" || crawler.honoursRateLimits === true;
}
