/**
 * Crawl pauses: every crawler request and /robots.txt answer 503 with Retry-After until the
 * pause ends by itself (Google: "to pause crawling temporarily, serve 503 for every URL").
 * A pause comes from the admin API (stored in KV) or from the PAUSE_UNTIL var.
 *
 * The cap (MAX_PAUSE_MINUTES, default 2 days): Google warns that a site answering 5xx for
 * longer than a couple of days may see URLs dropped from its index; longer pauses are
 * refused by the API, and pauses over a day come back with a warning.
 */

import type { Config } from "../config/read-config.ts";
import { invalid, valid, type Validated } from "../policy/validated.ts";
import { IsolateMemory } from "./isolate-memory.ts";
import { readPause, type Pause } from "./store.ts";

export const WARN_PAUSE_MINUTES = 24 * 60;
const MEMORY_RECHECK_MS = 30_000;

/** One value (the stored pause, or null for none), re-read from KV every MEMORY_RECHECK_MS. */
const memory = new IsolateMemory<"pause", Pause | null>({ maxEntries: 1, maxAgeMs: MEMORY_RECHECK_MS });

export function clearPauseMemory(): void {
  memory.clear();
}

/** The pause in force now, if any (KV re-read at most every 30 s per isolate). */
export async function activePause(kv: KVNamespace, config: Config): Promise<Pause | undefined> {
  const now = Date.now();
  if (config.pauseUntil !== undefined && config.pauseUntil > now) {
    return {
      until: config.pauseUntil,
      retryAfter: secondsUntil(config.pauseUntil, now),
      reason: "PAUSE_UNTIL",
      startedAt: 0,
    };
  }
  let pause = memory.get("pause", now);
  if (pause === undefined) {
    pause = (await readPause(kv)) ?? null;
    memory.set("pause", pause, now);
  }
  return pause && pause.until > now ? pause : undefined;
}

/** Tell this isolate about a pause it just stored or deleted, without waiting for KV. */
export function rememberPause(pause: Pause | undefined): void {
  memory.set("pause", pause ?? null, Date.now());
}

/** Retry-After for a pause: the pause's own value, never past its end. */
export function retryAfterOf(pause: Pause, now: number): number {
  return Math.max(1, Math.min(pause.retryAfter, secondsUntil(pause.until, now)));
}

function secondsUntil(time: number, now: number): number {
  return Math.max(1, Math.ceil((time - now) / 1000));
}

export interface PauseRequest {
  readonly minutes: number;
  readonly retryAfter: number | undefined;
  readonly reason: string | undefined;
}

/** Validate an admin pause body; every problem at once. */
export function readPauseRequest(body: unknown, config: Config): Validated<PauseRequest> {
  const problems: string[] = [];
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
  if (!fields) return invalid(['body must be a JSON object such as {"minutes": 30}']);
  const { minutes, retryAfter, reason } = fields;
  if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < 1 || minutes > config.maxPauseMinutes) {
    problems.push(`"minutes" must be a whole number from 1 to ${config.maxPauseMinutes} (MAX_PAUSE_MINUTES)`);
  }
  if (retryAfter !== undefined && (typeof retryAfter !== "number" || !Number.isInteger(retryAfter) || retryAfter < 1)) {
    problems.push('"retryAfter" must be a whole number of seconds, at least 1');
  }
  if (reason !== undefined && (typeof reason !== "string" || reason.length > 500)) {
    problems.push('"reason" must be a string of at most 500 characters');
  }
  if (problems.length > 0) return invalid(problems);
  return valid({
    minutes: minutes as number,
    retryAfter: retryAfter as number | undefined,
    reason: reason as string | undefined,
  });
}
