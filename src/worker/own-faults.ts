/**
 * The edge's own faults, as the operator is shown them (GET status `ownFaults`, and the banner
 * through `edge.problems`): a stored record it could not read or use (store.ts's validated
 * readers, live-policy.ts's versions), and an exception its request handler caught
 * (edge/own-fault.ts). Each names the key or the place, the cause, and the repair.
 *
 * Per isolate, like every other health figure status shows: GET status reads every record it
 * lists (pause, policy, crawler-ranges, the robots: entries of its page) itself, so a bad value
 * is named there whichever isolate answers. A fault is forgotten when the same key reads well
 * again (or is deleted). Bounded: MAX_FAULTS keys at most (one per stored robots: entry could
 * otherwise grow it without end); the oldest goes first.
 */

import { logError } from "./log.ts";

export interface OwnFault {
  /** The KV key, or "request handler" for an exception caught there. */
  readonly key: string;
  readonly cause: string;
  readonly repair: string;
  readonly since: string;
  readonly lastAt: string;
  readonly count: number;
}

const MAX_FAULTS = 100;
const LOG_INTERVAL_MS = 60_000;
const faults = new Map<string, OwnFault>();
/** When each key's cause was last logged: a fault read again and again is logged once a minute. */
const logged = new Map<string, { readonly cause: string; readonly at: number }>();

/** Forget every fault (tests: each starts as a new isolate would). */
export function clearOwnFaults(): void {
  faults.clear();
  logged.clear();
}

/** Note a fault; logged when it is new, its cause changed, or a minute passed: never once per request. */
export function noteOwnFault(key: string, cause: string, repair: string, now = Date.now()): void {
  const known = faults.get(key);
  const at = new Date(now).toISOString();
  const last = logged.get(key);
  if (last?.cause !== cause || now - last.at >= LOG_INTERVAL_MS) {
    logError("own-fault", `${key}: ${cause}. Repair: ${repair}`);
    logged.delete(key);
    logged.set(key, { cause, at: now });
    if (logged.size > MAX_FAULTS) logged.delete(logged.keys().next().value as string);
  }
  faults.delete(key);
  faults.set(key, {
    key,
    cause,
    repair,
    since: known?.cause === cause ? known.since : at,
    lastAt: at,
    count: known?.cause === cause ? known.count + 1 : 1,
  });
  for (const oldest of faults.keys()) {
    if (faults.size <= MAX_FAULTS) break;
    faults.delete(oldest);
  }
}

/** The key reads well again (or is gone): its fault is over. */
export function clearOwnFault(key: string): void {
  faults.delete(key);
}

/** The faults this isolate knows of, oldest first. */
export function ownFaults(): readonly OwnFault[] {
  return [...faults.values()];
}

/** One line per fault, for the banner's list of problems. */
export function ownFaultLines(): string[] {
  return ownFaults().map((fault) => `${fault.key}: ${fault.cause}. Repair: ${fault.repair}`);
}
