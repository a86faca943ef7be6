/**
 * One Durable Object per origin (idFromName(authority)) holds that origin's activity in its
 * SQLite storage (activity/store.ts says what and how it stays bounded). The Worker's
 * isolates send batches (activity/recorder.ts); the object merges them in memory and writes
 * them when they have waited MAX_PENDING_MS, when IDLE_WRITE_MS pass without a batch, or at
 * once before a read, so SQLite rows are written per flush, not per request. A timer rather
 * than an alarm: a pending timer keeps the object in memory (an alarm does not), and the idle
 * write comes before the runtime evicts an idle object. Counts not yet written are lost if
 * the object restarts first (a deploy): the activity view is an account, never a reason to
 * slow a request.
 * The admin API reads here. A Durable Object rather than Workers Analytics Engine: the
 * operator page must read it back, under `wrangler dev` too, and Analytics Engine cannot be
 * queried locally.
 */

import { DurableObject } from "cloudflare:workers";
import type { ActivityBatch } from "../../policy/activity-batch.ts";
import type { CrawlerEvent } from "../../policy/activity.ts";
import type { LedgerDayRow } from "../../policy/referral-ledger.ts";
import { migrateActivityTables } from "./migration.ts";
import { ActivityStore, IDLE_WRITE_MS, type ActivityRead, type ActivityWindow, type SqlRunner } from "./store.ts";

export class ActivityLog extends DurableObject {
  private storeOf: ActivityStore | undefined;
  private idleWrite: ReturnType<typeof setTimeout> | undefined;

  private get store(): ActivityStore {
    if (!this.storeOf) {
      const { storage } = this.ctx;
      const sql: SqlRunner = {
        exec: (query, ...bindings) => storage.sql.exec(query, ...bindings).toArray() as never,
        transaction: (body) => storage.transactionSync(body),
      };
      migrateActivityTables(sql);
      this.storeOf = new ActivityStore(sql);
    }
    return this.storeOf;
  }

  /** Merge a batch, written later (see above). `now` is the Worker's clock (tests control it). */
  record(batch: ActivityBatch, now: number): void {
    if (this.store.add(batch, now)) this.store.write(now);
    if (this.idleWrite !== undefined) clearTimeout(this.idleWrite);
    this.idleWrite = setTimeout(() => {
      if (this.store.hasPending) this.store.write(Date.now());
    }, IDLE_WRITE_MS);
  }

  /** The activity of the window, with the newest `recentLimit` requests. */
  read(window: ActivityWindow, recentLimit: number, now: number): ActivityRead {
    return this.store.read(window, recentLimit, now);
  }

  /** Per operator, per day back from `now`: crawls, bytes, referrals (what isolates keep for the policy). */
  ledgerDays(now: number): LedgerDayRow[] {
    return this.store.ledgerDays(now);
  }

  /** The newest `limit` crawler requests, oldest first (what replay judges again). */
  recentRequests(limit: number, now: number): CrawlerEvent[] {
    return this.store.recentRequests(limit, now);
  }
}
