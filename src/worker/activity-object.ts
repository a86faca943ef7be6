/**
 * One Durable Object per origin (idFromName(authority)) holds that origin's activity in its
 * SQLite storage (activity-store.ts says what and how it stays bounded). The Worker's
 * isolates send batches (activity-recorder.ts); the object merges them in memory and writes
 * them at most every WRITE_EVERY_MS (an alarm), or at once before a read, so SQLite rows are
 * written per flush, not per request. Counts merged but not yet written are lost if the
 * object is evicted first: the activity view is an account, never a reason to slow a request.
 * The admin API reads here. A Durable Object rather than Workers Analytics Engine: the
 * operator page must read it back, under `wrangler dev` too, and Analytics Engine cannot be
 * queried locally.
 */

import { DurableObject } from "cloudflare:workers";
import type { ActivityBatch } from "../policy/activity-batch.ts";
import type { CrawlerEvent } from "../policy/activity.ts";
import { migrateActivityTables } from "./activity-migration.ts";
import {
  ActivityStore,
  WRITE_EVERY_MS,
  type ActivityRead,
  type ActivityWindow,
  type SqlRunner,
} from "./activity-store.ts";

export type { ActivityBatch, ActivityRead };

export class ActivityLog extends DurableObject {
  private storeOf: ActivityStore | undefined;

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

  /** Merge a batch; it is written within WRITE_EVERY_MS. `now` is the Worker's clock (tests control it). */
  async record(batch: ActivityBatch, now: number): Promise<void> {
    if (this.store.add(batch)) this.store.write(now);
    else if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + WRITE_EVERY_MS);
  }

  override alarm(): void {
    if (this.store.hasPending) this.store.write(Date.now());
  }

  /** The activity of the window, with the newest `recentLimit` requests. */
  read(window: ActivityWindow, recentLimit: number, now: number): ActivityRead {
    return this.store.read(window, recentLimit, now);
  }

  /** The newest `limit` crawler requests, oldest first (what replay judges again). */
  recentRequests(limit: number, now: number): CrawlerEvent[] {
    return this.store.recentRequests(limit, now);
  }
}
