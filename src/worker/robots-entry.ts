/**
 * What the edge knows of one origin's robots.txt, and how a new fetch changes it. Pure:
 * time comes in as `now`, so every rule here is tested without a clock.
 *
 * Fail-open / fail-closed choices (RFC 9309 §2.3.1, Google's status-code table):
 *   - 2xx: the new copy is in force — unless it is garbage (an HTML page, or bytes with
 *     not one robots.txt line) while a good copy exists: then the good copy stays.
 *   - 4xx (not 429), or more than 5 redirects: no robots.txt, everything allowed; the last
 *     good copy is kept in the entry (not in force) so nothing is lost.
 *   - 5xx, 429, timeout, network error: the last good copy stays in force for up to
 *     LAST_GOOD_DAYS after it was fetched; with none, the origin is "unavailable" and
 *     crawlers get 503 (unless FAIL_OPEN).
 *   - lifetime: the origin's max-age, capped at ROBOTS_MAX_AGE (default 24 h, Google's);
 *     after a failure we retry after RETRY_FAILED_SECONDS while serving what we have.
 */

import { parseRobotsTxt, reviveRobots, serializeRobots, MAX_ROBOTS_BYTES, type RobotsTxt } from "../core/index.ts";
import type { EntryState } from "../policy/judge.ts";
import type { OriginFetch } from "./origin-fetch.ts";

export const ENTRY_VERSION = 1;
export const LAST_GOOD_DAYS = 30;
export const RETRY_FAILED_SECONDS = 300;
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

export type { EntryState };

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
  if (fetched.kind === "ok") {
    const robots = parseRobotsTxt(fetched.body);
    const expiresAt = now + Math.min(fetched.maxAge ?? options.maxAgeSeconds, options.maxAgeSeconds) * 1000;
    const garbage = garbageReason(fetched.body, robots);
    if (garbage && keptCopy) {
      return { ...base, state: "ok", copy: keptCopy, lastError: garbage, expiresAt: now + RETRY_FAILED_SECONDS * 1000 };
    }
    return { ...base, state: "ok", copy: storedCopy(fetched, robots, now), lastError: garbage, expiresAt };
  }
  if (fetched.kind === "none") {
    const expiresAt = now + options.maxAgeSeconds * 1000;
    return { ...base, state: "none", copy: previous?.copy, lastError: fetched.reason, expiresAt };
  }
  const retryAt = now + RETRY_FAILED_SECONDS * 1000;
  if (keptCopy && previous?.state === "ok") {
    return { ...base, state: "ok", copy: keptCopy, lastError: fetched.reason, expiresAt: retryAt };
  }
  if (previous?.state === "none") {
    // The origin said "no robots.txt" before; a passing outage does not turn that into a 503.
    return { ...base, state: "none", copy: previous.copy, lastError: fetched.reason, expiresAt: retryAt };
  }
  return { ...base, state: "unavailable", copy: keptCopy, lastError: fetched.reason, expiresAt: retryAt };
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
  const hasContent = robots.groups.length + robots.sitemaps.length + robots.others.length > 0;
  if (body.length > 0 && !hasContent) return "origin served no robots.txt line at all";
  return undefined;
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
