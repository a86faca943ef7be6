/**
 * One Durable Object per origin (idFromName(authority)) holds that origin's charges ledger in
 * its SQLite storage (charges/store.ts says what and how it stays bounded). Isolates send
 * batches (charges/recorder.ts); each batch is one transaction. Its own object rather than a
 * table of the activity log's: the activity view may be reset or lose its last seconds by
 * design; an invoice line may not, and it is exported on its own (GET charges).
 */

import { DurableObject } from "cloudflare:workers";
import type { SqlRunner } from "../activity/store.ts";
import { ChargeStore, type ChargeQuery, type ChargeRow } from "./store.ts";

export class ChargeLedger extends DurableObject {
  private storeOf: ChargeStore | undefined;

  private get store(): ChargeStore {
    if (!this.storeOf) {
      const { storage } = this.ctx;
      const sql: SqlRunner = {
        exec: (query, ...bindings) => storage.sql.exec(query, ...bindings).toArray() as never,
        transaction: (body) => storage.transactionSync(body),
      };
      this.storeOf = new ChargeStore(sql);
    }
    return this.storeOf;
  }

  /** Write a batch; answers the ledger's standing problems (GET status, through object-problems.ts). */
  record(rows: ChargeRow[], now: number): { problems: string[] } {
    this.store.add(rows, now);
    return { problems: this.store.problems() };
  }

  read(query: ChargeQuery): ChargeRow[] {
    return this.store.read(query);
  }
}
