/**
 * The recorded crawls and referrals of each origin (policy/referral-ledger.ts) as this isolate
 * holds them, for the policy's `crawlsPerReferral` condition. A request never waits for them:
 * it takes what the isolate holds, and when that was last asked for over LEDGER_REFRESH_MS ago
 * the isolate asks the origin's ActivityLog object again from `ctx.waitUntil`, after the
 * response. So: no I/O on a request's path, at most one read per origin and isolate a minute.
 *
 * Do no harm: until a read has answered (a new isolate, a failing object), and once the last
 * answer is older than LEDGER_MAX_AGE_MS, the request sees no ledger and no condition holds.
 */

import { ledgerOf, type ReferralLedger } from "../../policy/referral-ledger.ts";
import type { EdgeContext } from "../edge/context.ts";
import { IsolateMemory } from "../isolate-memory.ts";
import { logError } from "../log.ts";
import type { ActivityLog } from "./object.ts";

/** At most one read per origin and isolate this often. */
export const LEDGER_REFRESH_MS = 60_000;
/** A ledger older than this (its reads failing) is no longer used: conditions stop holding. */
export const LEDGER_MAX_AGE_MS = 10 * 60_000;
/** Origins remembered per isolate (route mode may serve many hosts): least recently used go first. */
const MAX_ORIGINS = 64;

const ledgers = new IsolateMemory<string, ReferralLedger>({ maxEntries: MAX_ORIGINS, maxAgeMs: LEDGER_MAX_AGE_MS });
const asked = new IsolateMemory<string, true>({ maxEntries: MAX_ORIGINS, maxAgeMs: LEDGER_REFRESH_MS });

/** The origin's ledger as held now (undefined: none yet); asks for a fresh one after the response when due. */
export function ledgerFor(edge: EdgeContext): ReferralLedger | undefined {
  const now = Date.now();
  const namespace = edge.env.ACTIVITY;
  if (namespace && !asked.get(edge.authority, now)) {
    asked.set(edge.authority, true, now);
    edge.ctx.waitUntil(refreshLedger(namespace, edge.authority));
  }
  return ledgers.get(edge.authority, now);
}

/** Read the origin's ledger from its object. Never throws: a failure keeps the last one until it ages out. */
export async function refreshLedger(namespace: DurableObjectNamespace<ActivityLog>, authority: string): Promise<void> {
  try {
    const now = Date.now();
    const rows = await namespace.get(namespace.idFromName(authority)).ledgerDays(now);
    ledgers.set(authority, ledgerOf(rows, now), now);
  } catch (error) {
    logError("activity", `the crawl and referral counts of ${authority} were not read: ${String(error)}`);
  }
}

/**
 * The origin's ledger read now (explain and the tester: an admin call, not a request's path),
 * so what they say of a condition is what the edge's isolates decide with; the last one held
 * when the read fails.
 */
export async function freshLedger(
  namespace: DurableObjectNamespace<ActivityLog> | undefined,
  authority: string,
): Promise<ReferralLedger | undefined> {
  if (namespace) await refreshLedger(namespace, authority);
  return ledgers.get(authority, Date.now());
}

/** Forget every ledger (tests: a clean slate). */
export function clearLedgerMemory(): void {
  ledgers.clear();
  asked.clear();
}
