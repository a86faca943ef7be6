/**
 * What the edge knows of one origin's robots.txt, and how a new fetch changes it. Pure:
 * time comes in as `now`, so every rule here is tested without a clock.
 *
 * Fail-open / fail-closed choices (RFC 9309 §2.3.1, Google's status-code table):
 *   - 2xx: the new copy is in force — unless it is not a robots.txt: an HTML page, or a body
 *     with no user-agent line followed by a rule (a soft error such as `Not Found`,
 *     `{"error":"Not Found"}`, a maintenance page, a login page reached through a redirect to
 *     another host, a page echoing the request's headers, an error page with a sitemap link).
 *     Such a body never replaces a copy in force, and after a 4xx it never brings the older
 *     copy back: the state stays what it was.
 *   - 4xx (not 429), or more than 5 redirects: no robots.txt, everything allowed; the last
 *     good copy is kept in the entry (not in force) so nothing is lost. 401 and 403 are read
 *     the same way (RFC 9309 §2.3.1.3) but flagged: a firewall refusing the edge's fetch
 *     would otherwise switch enforcement off without a word (fetchWarning). One that follows
 *     a good copy is flagged too and rechecked RETRY_FAILED_SECONDS later, the interval
 *     doubling while it lasts up to the normal lifetime: a transient 404 (a deploy, a CDN
 *     hiccup) must not switch enforcement off for 24 h without a word.
 *   - 5xx, 429, timeout, network error: the last good copy stays in force (for its first
 *     LAST_GOOD_DAYS as RFC 9309 §2.3.1.4 says; after that because Google's documents say the
 *     last cached copy is then used, and the RFC allows it); with none, the origin is
 *     "unavailable" and crawlers get 503 (unless FAIL_OPEN), retried FIRST_RETRY_SECONDS
 *     after the first failure, doubling up to RETRY_FAILED_SECONDS: a 3-second outage on the
 *     first fetch holds crawlers for about 30 s, not 5 minutes. Unavailable with no copy for
 *     more than LAST_GOOD_DAYS: no restrictions (RFC 9309 §2.3.1.4, Google's "assumes no
 *     crawl restrictions"), flagged; 503 forever would get the site dropped from the index.
 *   - lifetime: the origin's max-age, capped at ROBOTS_MAX_AGE (default 24 h, Google's) and
 *     floored at MIN_LIFETIME_SECONDS (no-cache / max-age=0 would mean a fetch and a KV write
 *     per crawler request); after a failure we retry after RETRY_FAILED_SECONDS while serving
 *     what we have. `expiresAt` is when the edge next tries: 503s quote it in Retry-After.
 */

import { parseRobotsTxt, reviveRobots, serializeRobots, MAX_ROBOTS_BYTES, type RobotsTxt } from "../../core/index.ts";
import type { EntryState } from "../../policy/judge.ts";
import { ROBOTS_FETCH_USER_AGENT, type OriginFetch } from "./origin-fetch.ts";

export const ENTRY_VERSION = 1;
export const LAST_GOOD_DAYS = 30;
export const RETRY_FAILED_SECONDS = 300;
/** First retry after a first fetch that failed (no copy yet); doubles up to RETRY_FAILED_SECONDS. */
export const FIRST_RETRY_SECONDS = 30;
/** Shortest lifetime of a fetched robots.txt, whatever Cache-Control says. */
export const MIN_LIFETIME_SECONDS = 60;
const DAY_MS = 86_400_000;

/** A robots.txt as fetched: the exact bytes (base64) and the parsed model (JSON). */
export interface StoredCopy {
  readonly bodyBase64: string;
  readonly model: string;
  readonly fetchedAt: number;
  readonly status: number;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
}

export interface RobotsEntry {
  readonly version: number;
  readonly authority: string;
  readonly state: EntryState;
  /** The last good copy: in force when state is "ok", kept for the record otherwise. */
  readonly copy: StoredCopy | undefined;
  readonly lastFetchAt: number;
  readonly lastStatus: number | undefined;
  readonly lastError: string | undefined;
  readonly expiresAt: number;
  /**
   * When fetches started failing with no copy in force (absent while one answers, and in
   * entries written before this field existed): after LAST_GOOD_DAYS of it, no restrictions.
   */
  readonly unavailableSince?: number | undefined;
}

export interface EntryOptions {
  readonly now: number;
  readonly maxAgeSeconds: number;
}

/** The entry after a fetch; `previous` is the entry before it, if any. */
export function applyFetch(
  previous: RobotsEntry | undefined,
  authority: string,
  fetched: OriginFetch,
  options: EntryOptions,
): RobotsEntry {
  const { now } = options;
  const base = { version: ENTRY_VERSION, authority, lastFetchAt: now, lastStatus: fetched.status };
  const keptCopy = usableCopy(previous, now);
  const retryAt = now + RETRY_FAILED_SECONDS * 1000;
  if (fetched.kind === "ok") {
    const robots = parseRobotsTxt(fetched.body);
    const garbage = garbageReason(fetched.body, robots);
    if (garbage && previous?.state === "ok" && keptCopy) {
      return { ...base, state: "ok", copy: keptCopy, lastError: garbage, expiresAt: retryAt };
    }
    if (garbage && previous?.state === "none") {
      // After "no robots.txt", a soft-error page must not revive the older copy kept for the record.
      return { ...base, state: "none", copy: previous.copy, lastError: garbage, expiresAt: retryAt };
    }
    return {
      ...base,
      state: "ok",
      copy: storedCopy(fetched, robots, now),
      lastError: garbage,
      expiresAt: lifetimeEnd(fetched.maxAge, options),
    };
  }
  if (fetched.kind === "none") {
    const copy = previous?.copy;
    const expiresAt =
      copy && followsGoodCopy(previous) ? recheckAt(previous, options) : now + options.maxAgeSeconds * 1000;
    return { ...base, state: "none", copy, lastError: fetched.reason, expiresAt };
  }
  if (previous?.state === "ok" && previous.copy) {
    // Google: the last cached copy, also past LAST_GOOD_DAYS; RFC 9309 §2.3.1.4 allows it.
    return { ...base, state: "ok", copy: previous.copy, lastError: fetched.reason, expiresAt: retryAt };
  }
  if (previous?.state === "none") {
    // The origin said "no robots.txt" before; a passing outage does not turn that into a 503.
    const { copy, unavailableSince } = previous;
    return { ...base, state: "none", copy, lastError: fetched.reason, expiresAt: retryAt, unavailableSince };
  }
  const unavailableSince =
    previous?.state === "unavailable" ? (previous.unavailableSince ?? previous.lastFetchAt) : now;
  if (now - unavailableSince > LAST_GOOD_DAYS * DAY_MS) {
    // RFC 9309 §2.3.1.4: undefined for a long time, the crawler may read it as unavailable (§2.3.1.3).
    return { ...base, state: "none", copy: undefined, lastError: fetched.reason, expiresAt: retryAt, unavailableSince };
  }
  const expiresAt = now + firstFetchBackOffSeconds(previous) * 1000;
  return { ...base, state: "unavailable", copy: undefined, lastError: fetched.reason, expiresAt, unavailableSince };
}

/** A "no robots.txt" answer right after a copy in force, or after such an answer. */
function followsGoodCopy(previous: RobotsEntry | undefined): previous is RobotsEntry {
  return previous?.state === "ok" || (previous?.state === "none" && previous.copy !== undefined);
}

/** RETRY_FAILED_SECONDS after the good copy, then twice the previous interval, up to the normal lifetime. */
function recheckAt(previous: RobotsEntry, options: EntryOptions): number {
  const before = previous.state === "none" ? previous.expiresAt - previous.lastFetchAt : 0;
  const seconds = Math.min(options.maxAgeSeconds, Math.max(RETRY_FAILED_SECONDS, (2 * before) / 1000));
  return options.now + seconds * 1000;
}

/** FIRST_RETRY_SECONDS after a first failure, then twice the previous wait, up to RETRY_FAILED_SECONDS. */
function firstFetchBackOffSeconds(previous: RobotsEntry | undefined): number {
  if (previous?.state !== "unavailable") return FIRST_RETRY_SECONDS;
  const before = (previous.expiresAt - previous.lastFetchAt) / 1000;
  return Math.min(RETRY_FAILED_SECONDS, Math.max(FIRST_RETRY_SECONDS, 2 * before));
}

/** The origin's max-age within [MIN_LIFETIME_SECONDS, ROBOTS_MAX_AGE]. */
function lifetimeEnd(maxAge: number | undefined, options: EntryOptions): number {
  const seconds = Math.max(MIN_LIFETIME_SECONDS, Math.min(maxAge ?? options.maxAgeSeconds, options.maxAgeSeconds));
  return options.now + seconds * 1000;
}

/** Seconds until the edge next fetches this robots.txt (for Retry-After on its 503s); at least 1. */
export function nextAttemptSeconds(entry: RobotsEntry, now: number): number {
  return Math.max(1, Math.ceil((entry.expiresAt - now) / 1000));
}

/**
 * A warning when a fetch outcome switched enforcement off for a reason the operator may not
 * know of: the origin refused the edge's fetch (401/403, most often a WAF or bot filter); a
 * good copy was followed by "no robots.txt" (a 4xx or too many redirects: often a passing
 * fault, rechecked soon); or robots.txt has been unreachable for more than LAST_GOOD_DAYS
 * with no copy, so nothing is restricted (RFC 9309 §2.3.1.4).
 */
export function fetchWarning(entry: RobotsEntry): string | undefined {
  if (entry.lastStatus === 401 || entry.lastStatus === 403) {
    return `the origin answered ${entry.lastStatus} to the edge's robots.txt fetch, which counts as "no robots.txt": every URL is allowed. If a firewall or bot filter refused it, allow the User-Agent ${ROBOTS_FETCH_USER_AGENT} for /robots.txt`;
  }
  if (entry.state === "none" && entry.copy) {
    const since = new Date(entry.copy.fetchedAt).toISOString();
    return `robots.txt was good at ${since}, then the edge's fetch got ${entry.lastError ?? "no robots.txt"}: read as "no robots.txt", every URL is allowed. The edge checks again from 5 minutes on (expiresAt); if the file was removed on purpose, DELETE origin clears this`;
  }
  if (entry.state === "none" && entry.unavailableSince !== undefined) {
    const since = new Date(entry.unavailableSince).toISOString();
    return `robots.txt has been unreachable since ${since} (${entry.lastError ?? "fetch failed"}) with no copy ever fetched: after ${LAST_GOOD_DAYS} days RFC 9309 §2.3.1.4 reads it as "no robots.txt", every URL is allowed until it answers`;
  }
  return undefined;
}

/**
 * Same state, bytes, status, error and recheck interval: storing it again would change nothing
 * a reader uses but the times. A changed interval (a back-off growing) is written, so the next
 * fetch doubles from it.
 */
export function sameOutcome(a: RobotsEntry | undefined, b: RobotsEntry): boolean {
  return (
    a !== undefined &&
    a.state === b.state &&
    a.lastStatus === b.lastStatus &&
    a.lastError === b.lastError &&
    a.copy?.bodyBase64 === b.copy?.bodyBase64 &&
    a.unavailableSince === b.unavailableSince &&
    a.expiresAt - a.lastFetchAt === b.expiresAt - b.lastFetchAt
  );
}

/** The previous good copy while it is younger than LAST_GOOD_DAYS. */
function usableCopy(previous: RobotsEntry | undefined, now: number): StoredCopy | undefined {
  const copy = previous?.copy;
  return copy && now - copy.fetchedAt <= LAST_GOOD_DAYS * DAY_MS ? copy : undefined;
}

/** Why a 2xx body is not a robots.txt worth replacing a good copy with, or undefined. */
function garbageReason(body: Uint8Array, robots: RobotsTxt): string | undefined {
  if (robots.diagnostics.some((diagnostic) => diagnostic.code === "html-content"))
    return "origin served an HTML page as robots.txt";
  if (!hasGroupStructure(robots)) {
    return "origin served no user-agent line followed by a rule (allow, disallow, crawl-delay, request-rate, visit-time, content-usage): not a robots.txt";
  }
  return undefined;
}

/**
 * Whether some group has a line of its own after its user-agent lines: what a robots.txt is
 * made of. One `User-Agent:` line alone (a page echoing the request's headers), a `Sitemap:`
 * line alone (an error page linking the sitemap), or unknown fields (`Error: upstream request
 * timeout`) are not. `Disallow:` with no path counts: `User-agent: *` then `Disallow:` is the
 * most common way to allow everything. The cost: a real file of only Sitemap lines does not
 * replace a good copy either; it is what the origin has when there is no copy before it.
 */
function hasGroupStructure(robots: RobotsTxt): boolean {
  const hasMember = robots.groups.some(({ rules, extensions }) => {
    const { crawlDelay, requestRates, visitTime, usage } = extensions;
    return rules.length > 0 || crawlDelay || requestRates.length > 0 || visitTime || usage.length > 0;
  });
  const emptyRuleInGroup =
    robots.groups.length > 0 && robots.diagnostics.some((diagnostic) => diagnostic.code === "empty-rule");
  return hasMember || emptyRuleInGroup;
}

function storedCopy(fetched: Extract<OriginFetch, { kind: "ok" }>, robots: RobotsTxt, now: number): StoredCopy {
  return {
    bodyBase64: toBase64(fetched.body.subarray(0, MAX_ROBOTS_BYTES)),
    model: serializeRobots(robots),
    fetchedAt: now,
    status: fetched.status,
    etag: fetched.etag,
    lastModified: fetched.lastModified,
  };
}

/** The stored model; one of another schema version is re-parsed from the stored bytes. */
export function modelOf(copy: StoredCopy): RobotsTxt {
  try {
    return reviveRobots(copy.model);
  } catch {
    return parseRobotsTxt(fromBase64(copy.bodyBase64));
  }
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
