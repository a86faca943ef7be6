/**
 * One Durable Object per origin (idFromName(authority)) holds that origin's activity in its
 * SQLite storage (activity/store.ts says what and how it stays bounded). The Worker's
 * isolates send batches (activity/recorder.ts); the object merges them in memory and writes
 * them into its tables when they have waited MAX_PENDING_MS, when IDLE_WRITE_MS pass without a
 * batch, or at once before a read, so SQLite rows are written per flush, not per request.
 * What waits is in storage all the same within JOURNAL_MS (the store's journal: one row): the
 * first batch after a quiet spell at once, later ones by a timer, so a stop, a crash or a
 * deploy loses at most the last JOURNAL_MS. Timers rather than an alarm: a pending timer keeps
 * the object in memory (an alarm does not, and what it would write is in memory), and both
 * come well before the runtime evicts an idle object (70 to 140 s).
 * A write that fails keeps what waits (the store's flush) and is tried again by the timer;
 * `record` never throws for it: it answers the object's problems, which the recorder notes for
 * GET status (object-problems.ts).
 * The admin API reads here. A Durable Object rather than Workers Analytics Engine: the
 * operator page must read it back, under `wrangler dev` too, and Analytics Engine cannot be
 * queried locally.
 */

import { DurableObject } from "cloudflare:workers";
import type { ActivityBatch } from "../../policy/activity-batch.ts";
import type { CrawlerEvent } from "../../policy/activity.ts";
import type { LedgerDayRow } from "../../policy/referral-ledger.ts";
import { migrateActivityTables } from "./migration.ts";
import { logError } from "../log.ts";
import { ActivityStore, IDLE_WRITE_MS, type ActivityRead, type ActivityWindow, type SqlRunner } from "./store.ts";

/** What `record` answers: the object's standing problems (none: all is written or waits as it should). */
export interface RecordAnswer {
  readonly problems: string[];
}

export class ActivityLog extends DurableObject {
  private storeOf: ActivityStore | undefined;
  private idleWrite: ReturnType<typeof setTimeout> | undefined;
  private journalWrite: ReturnType<typeof setTimeout> | undefined;

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
  record(batch: ActivityBatch, now: number): RecordAnswer {
    this.store.add(batch, now);
    this.flush(now, false);
    if (this.idleWrite !== undefined) clearTimeout(this.idleWrite);
    this.idleWrite = setTimeout(() => this.flush(Date.now(), true), IDLE_WRITE_MS);
    return { problems: this.store.problems() };
  }

  /** Write what is due (the tables, with `tables`), log a failure, and time the next journal write. */
  private flush(now: number, tables: boolean): void {
    if (this.store.flush(now, tables) === "failed") logError("activity", this.store.problems().at(-1) ?? "");
    const dueAt = this.store.nextDueAt();
    if (dueAt === undefined || this.journalWrite !== undefined) return;
    this.journalWrite = setTimeout(
      () => {
        this.journalWrite = undefined;
        this.flush(Date.now(), false);
      },
      Math.max(0, dueAt - now),
    );
  }

  /** The object's standing problems (GET status, through the recorder and the admin API). */
  problems(): string[] {
    return this.store.problems();
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
