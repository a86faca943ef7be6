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
 */

import type { AppliedGroup, TimeWindow } from "../core/index.ts";
import type { EnforceRates } from "./settings.ts";

const DAY_MINUTES = 24 * 60;

/** The limits a group declares that apply at this moment. */
export interface RateLimits {
  readonly minIntervalMs: number;
  readonly rates: readonly { readonly requests: number; readonly ms: number }[];
}

/** What the limiter remembers for one crawler: times of its recent allowed requests. */
export interface RateState {
  readonly recent: readonly number[];
}

export interface RateCheck {
  readonly allowed: boolean;
  /** Whole seconds until a request would be allowed (0 when allowed). */
  readonly retryAfter: number;
  readonly state: RateState;
}

/** Does the group declare anything to enforce at all? (Decides whether to ask the limiter.) */
export function declaresRateLimits(group: AppliedGroup): boolean {
  const { crawlDelay, requestRates } = group.extensions;
  return (crawlDelay !== undefined && crawlDelay.seconds > 0) || requestRates.length > 0;
}

/** The group's limits in force at `now`. */
export function rateLimitsAt(group: AppliedGroup, now: number): RateLimits {
  const minute = minuteOfDay(now);
  const rates = group.extensions.requestRates
    .filter((rate) => !rate.window || insideWindow(rate.window, minute))
    .map((rate) => ({ requests: rate.requests, ms: rate.seconds * 1000 }));
  return { minIntervalMs: (group.extensions.crawlDelay?.seconds ?? 0) * 1000, rates };
}

/** Allow or refuse one request at `now`, and the state to keep. */
export function checkRate(state: RateState, limits: RateLimits, now: number): RateCheck {
  const keep = Math.max(1, ...limits.rates.map((rate) => rate.requests));
  const recent = state.recent.filter((time) => time <= now).slice(-keep);
  let waitMs = 0;
  const last = recent.at(-1);
  if (last !== undefined && limits.minIntervalMs > 0) waitMs = Math.max(waitMs, last + limits.minIntervalMs - now);
  for (const rate of limits.rates) {
    const inWindow = recent.filter((time) => time > now - rate.ms);
    const oldest = inWindow[inWindow.length - rate.requests];
    if (inWindow.length >= rate.requests && oldest !== undefined) waitMs = Math.max(waitMs, oldest + rate.ms - now);
  }
  if (waitMs > 0) return { allowed: false, retryAfter: Math.ceil(waitMs / 1000), state: { recent } };
  return { allowed: true, retryAfter: 0, state: { recent: [...recent, now].slice(-keep) } };
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
