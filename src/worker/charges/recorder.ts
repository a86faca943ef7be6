/**
 * Records a charged request without slowing it, as the activity recorder does
 * (activity/recorder.ts, whose flush delay it shares): the request adds its row to this
 * isolate's buffer (no I/O); the buffer goes to each origin's ChargeLedger object in ONE call
 * per origin from `ctx.waitUntil`, `flushSettings.delayMs` after the first row of a batch, or
 * at once when MAX_BATCH rows wait. So a charged request costs one buffered row and, per flush,
 * one object call and one SQLite row per charge.
 * Bounded: at most MAX_BUFFERED rows wait in an isolate; a failed call puts its batch back
 * while that holds, else it is dropped, logged and shown in GET status (object-problems.ts):
 * the ledger is an account, never a reason to fail or slow a request.
 */

import type { EdgeRecord } from "../../policy/edge-record.ts";
import { base64url, sha256 } from "../../agents/web-bot-auth/web-crypto.ts";
import { flushSettings } from "../activity/recorder.ts";
import type { EdgeContext } from "../edge/context.ts";
import { logError } from "../log.ts";
import { noteObjectProblems } from "../object-problems.ts";
import type { ChargeLedger } from "./object.ts";
import { MAX_CHARGED_PATH_CHARS, type ChargeRow } from "./store.ts";

/** A flush as soon as this many rows wait. */
export const MAX_BATCH = 100;
/** Rows an isolate holds at most while the object cannot take them. */
export const MAX_BUFFERED = 2_000;

const buffer = new Map<string, ChargeRow[]>();
let buffered = 0;
let flushDue = false;

/** The ledger row of a charged record (undefined when nothing was charged). */
export async function chargeRowOf(record: EdgeRecord, now: number): Promise<ChargeRow | undefined> {
  const charged = record.charge?.charged;
  if (!charged) return undefined;
  const path = record.path.slice(0, MAX_CHARGED_PATH_CHARS);
  const id = base64url(await sha256(new TextEncoder().encode(`${charged.signer} ${charged.signature} ${record.path}`)));
  return {
    id,
    time: now,
    operator: charged.operator,
    crawler: record.identity.known ?? record.identity.tokens[0] ?? "",
    signer: charged.signer,
    keyid: charged.keyid,
    path,
    price: record.charge?.price ?? "",
    header: charged.header,
    offered: charged.offered,
    base: charged.base,
    signature: charged.signature,
  };
}

/** Buffer one charged request's row for its origin's ledger; flush later, or now when the batch is full. */
export function recordCharge(edge: EdgeContext, row: ChargeRow): void {
  const namespace = edge.env.CHARGES;
  if (!namespace) {
    logError(
      "charges",
      `a charge of ${row.price} by ${row.signer} was not recorded: no CHARGES Durable Object is bound`,
    );
    return;
  }
  if (!keep(edge.authority, [row])) return;
  if (buffered >= MAX_BATCH) {
    edge.ctx.waitUntil(flushCharges(namespace, Date.now()));
  } else if (!flushDue) {
    flushDue = true;
    edge.ctx.waitUntil(
      new Promise((resolve) => setTimeout(resolve, flushSettings.delayMs)).then(() =>
        flushCharges(namespace, Date.now()),
      ),
    );
  }
}

function keep(authority: string, rows: readonly ChargeRow[]): boolean {
  if (buffered + rows.length > MAX_BUFFERED) {
    const why = `${rows.length} charges for ${authority} were dropped: ${MAX_BUFFERED} already wait for the ledger`;
    logError("charges", why);
    noteObjectProblems(`charges of ${authority}`, [why]);
    return false;
  }
  const list = buffer.get(authority) ?? [];
  list.push(...rows);
  buffer.set(authority, list);
  buffered += rows.length;
  return true;
}

async function flushCharges(namespace: DurableObjectNamespace<ChargeLedger>, now: number): Promise<void> {
  flushDue = false;
  const batches = [...buffer];
  buffer.clear();
  buffered = 0;
  await Promise.all(
    batches.map(async ([authority, rows]) => {
      try {
        const answer = await namespace.get(namespace.idFromName(authority)).record(rows, now);
        noteObjectProblems(`charges of ${authority}`, answer?.problems ?? []);
      } catch (error) {
        logError("charges", `${rows.length} charges for ${authority} wait for the next flush: ${String(error)}`);
        keep(authority, rows);
      }
    }),
  );
}

/** Forget what is buffered (tests: a clean slate). */
export function clearChargeMemory(): void {
  buffer.clear();
  buffered = 0;
  flushDue = false;
}
