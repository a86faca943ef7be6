/**
 * An origin's charges ledger in SQLite: what the ChargeLedger Durable Object (charges/object.ts)
 * stores and reads, over the activity store's small SQL interface so a bench can run the same
 * statements on Node's SQLite. No Worker types here.
 *
 * A charge is an invoice line, so each is ONE row, written once (rows written per charged
 * request: 1, in a batch per flush: charges/recorder.ts), never a count. Bounded all the same:
 *   - a row is small: the signature base is at most MAX_COMMITMENT_CHARS (policy/terms-price.ts),
 *     the path at most MAX_CHARGED_PATH_CHARS, the rest short;
 *   - KEEP_DAYS of rows, and at most MAX_ROWS: past that the oldest go first, and GET status says
 *     so (problems()); export them before (GET charges) if they are still to be invoiced;
 *   - one row per signature and request target (`id`): a paid request replayed to another
 *     isolate within its signature's window (each isolate refuses a reuse it saw itself: 429)
 *     is one row, one charge;
 *   - a read returns at most MAX_READ rows.
 */

import type { SqlRunner } from "../activity/store.ts";
import { CHARGE_COLUMNS } from "../../policy/charges-export.ts";

export const KEEP_DAYS = 400;
export const MAX_ROWS = 200_000;
export const MAX_READ = 50_000;
export const MAX_CHARGED_PATH_CHARS = 2_048;
const DAY_MS = 86_400_000;

/** One charged request: who committed to pay what, for which path, when, and the signed proof. */
export interface ChargeRow {
  /** Hash of the signer, signature and request target (charges/recorder.ts): one row per paid request. */
  readonly id: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** The crawler's operator (our table's, else the signer). */
  readonly operator: string;
  readonly crawler: string;
  readonly signer: string;
  readonly keyid: string;
  readonly path: string;
  /** The rule's price as written (`USD 0.01`): what `crawler-charged` said. */
  readonly price: string;
  /** The price header the signature covered, and its value. */
  readonly header: string;
  readonly offered: string;
  /** The RFC 9421 signature base and signature (base64): the crawler's signed commitment. */
  readonly base: string;
  readonly signature: string;
}

/** What a read asks for: a period, and one operator or all. */
export interface ChargeQuery {
  readonly from: number;
  readonly to: number;
  readonly operator: string | undefined;
  readonly limit: number;
}

export const CHARGES_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS charges (
     id TEXT PRIMARY KEY, time INTEGER NOT NULL, operator TEXT NOT NULL, crawler TEXT NOT NULL,
     signer TEXT NOT NULL, keyid TEXT NOT NULL, path TEXT NOT NULL, price TEXT NOT NULL,
     header TEXT NOT NULL, offered TEXT NOT NULL, base TEXT NOT NULL, signature TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS charges_by_time ON charges (time)`,
];

/** The table's columns: the row's id, then what an export shows (policy/charges-export.ts). */
const COLUMNS = ["id", ...CHARGE_COLUMNS] as const;

/** What the store keeps at most (tests shrink them to see them hold). */
export interface ChargeBounds {
  readonly keepDays: number;
  readonly maxRows: number;
}

export class ChargeStore {
  private readonly sql: SqlRunner;
  private readonly bounds: ChargeBounds;
  private readonly standing: string[] = [];

  constructor(sql: SqlRunner, bounds: ChargeBounds = { keepDays: KEEP_DAYS, maxRows: MAX_ROWS }) {
    this.sql = sql;
    this.bounds = bounds;
    for (const statement of CHARGES_SCHEMA) sql.exec(statement);
  }

  /** Write a batch in one transaction (a replayed charge is ignored), then drop what is past the bounds. */
  add(rows: readonly ChargeRow[], now: number): void {
    this.sql.transaction(() => {
      for (const row of rows) {
        this.sql.exec(
          `INSERT OR IGNORE INTO charges (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`,
          ...COLUMNS.map((column) => row[column]),
        );
      }
      this.sql.exec("DELETE FROM charges WHERE time < ?", now - this.bounds.keepDays * DAY_MS);
      const [count] = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM charges");
      const over = (count?.n ?? 0) - this.bounds.maxRows;
      if (over > 0) {
        this.sql.exec("DELETE FROM charges WHERE id IN (SELECT id FROM charges ORDER BY time LIMIT ?)", over);
        this.standing.splice(
          0,
          this.standing.length,
          `the charges ledger held more than ${this.bounds.maxRows} rows: the ${over} oldest were dropped`,
        );
      }
    });
  }

  /** The charges of a period (and operator), oldest first, at most `limit`. */
  read(query: ChargeQuery): ChargeRow[] {
    const limit = Math.min(query.limit, MAX_READ);
    const rows =
      query.operator === undefined
        ? this.sql.exec<Record<string, string | number>>(
            "SELECT * FROM charges WHERE time >= ? AND time < ? ORDER BY time, id LIMIT ?",
            query.from,
            query.to,
            limit,
          )
        : this.sql.exec<Record<string, string | number>>(
            "SELECT * FROM charges WHERE time >= ? AND time < ? AND operator = ? ORDER BY time, id LIMIT ?",
            query.from,
            query.to,
            query.operator,
            limit,
          );
    return rows as unknown as ChargeRow[];
  }

  problems(): string[] {
    return [...this.standing];
  }
}
