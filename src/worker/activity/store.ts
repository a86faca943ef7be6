/**
 * An origin's activity in SQLite: what the ActivityLog Durable Object (activity/object.ts)
 * stores and reads, written against a small SQL interface so the bench runs the very same
 * statements on Node's SQLite (bench/activity.bench.ts). No Worker types here.
 *
 * Bounded by construction, whatever clients invent:
 *   - writes per flush, not per request: batches from the isolates are merged in memory
 *     (PendingActivity) and written when they have waited MAX_PENDING_MS, when MAX_PENDING_ROWS
 *     counts wait, when the object goes idle (activity/object.ts), or at once before a read;
 *     one row per hourly count touched, per hour of people, and per crawler history touched;
 *   - durable within JOURNAL_MS all the same (a stop lost everything pending): what
 *     waits is also kept as ONE row, the journal (pending_journal), rewritten at most once per
 *     JOURNAL_MS while batches come (the first batch after a quiet spell at once) and deleted
 *     by the write that folds it into the tables, in the same transaction. A restarted object
 *     reads it back (a validated reader: a journal it cannot read is absent, and a problem).
 *     So a stop loses at most the last JOURNAL_MS of counts (plus the isolates' own 2 s), for
 *     one row written per JOURNAL_MS whatever the traffic;
 *   - a write that fails (storage full, a storage fault) keeps everything pending, says so
 *     (problems()), and is tried again at most once per JOURNAL_MS: never a thrown batch;
 *   - hours: KEEP_HOURS of hourly counts. One hour holds at most MAX_UNKNOWN_TOKENS_PER_HOUR
 *     names that are neither in our crawler table nor verified; later ones count as
 *     OTHER_TOKEN. Known and verified crawlers are never folded (their names are a bounded
 *     set: our table, and what a signer or an address list can prove);
 *   - recent requests: KEEP_PER_HISTORY per history (historyOf): one per known or verified
 *     crawler, one for refuted claims, one for unknown names, so a flood under one name never
 *     evicts another crawler's requests;
 *   - operators (policy/referral-ledger.ts): a row per hour and operator of our tables (never a
 *     name a client chose), written per flush like the rest;
 *   - reads aggregate in SQL: totals for the shown crawlers (the known and verified ones, and
 *     the busiest SHOWN_UNKNOWN others; the rest as one OTHER_TOKEN entry), series for the
 *     SERIES_CRAWLERS busiest shown, per hour up to 48 hours and per day beyond.
 */

import type { ActivityBatch, HourlyCount } from "../../policy/activity-batch.ts";
import type { AggregatedActivity, CountRow, SeriesRow } from "../../policy/activity-summary.ts";
import {
  addCounts,
  MAX_LEDGER_DAYS,
  NO_COUNTS,
  type LedgerDayRow,
  type OperatorCount,
} from "../../policy/referral-ledger.ts";
import { hourOf, STORED_NAMES, type CrawlerEvent, type VerifiedState } from "../../policy/activity.ts";
import { CRAWLER_CATEGORIES, type CountedAction, type CrawlerCategory } from "../../vocabulary.ts";

export const KEEP_HOURS = 30 * 24;
export const KEEP_PER_HISTORY = 500;
export const MAX_UNKNOWN_TOKENS_PER_HOUR = 200;
export const OTHER_TOKEN = "(other)";
/** Names shown one by one besides the known and verified crawlers; the rest are one OTHER_TOKEN entry. */
export const SHOWN_UNKNOWN = 50;
/** Crawlers whose series the answer carries (the busiest shown). */
export const SERIES_CRAWLERS = 25;
/**
 * Counts wait in the object's memory at most this long while batches keep coming (a read
 * writes them at once): an hourly count row is written once per this period, not per batch.
 */
export const MAX_PENDING_MS = 600_000;
/** A write as soon as this many distinct counts wait (a flood of names: memory stays bounded). */
export const MAX_PENDING_ROWS = 5_000;
/**
 * With no new batch for this long, what waits is written: an idle object is evicted after
 * 70 to 140 s (Cloudflare's Durable Object lifecycle), and a pending timer keeps it from
 * hibernating until then.
 */
export const IDLE_WRITE_MS = 50_000;
/** Series per hour up to this many hours, per day beyond. */
export const HOURLY_SERIES_MAX_HOURS = 48;
/** What waits is in storage (the journal) at most this long after it came; writes at most this often. */
export const JOURNAL_MS = 20_000;
/**
 * Recent requests the journal keeps in all (the newest of each history, shared out): a row
 * stays far below SQLite's 2 MB, and a restart loses at most the older part of a busy minute's
 * recent list, never a count.
 */
export const JOURNAL_RECENT = 2_000;
/** The journal's format. */
export const JOURNAL_VERSION = 1;
/** The entry that shows refuted claims, whatever name they claimed (never the named crawler's). */
export const REFUTED_CLAIMS = "(refuted claims)";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The stored JSON of a history's events carries its format's version. */
export const HISTORY_VERSION = 1;

export type SqlValue = string | number | null;

/** What the store needs of SQLite: a statement and its rows, and a transaction. */
export interface SqlRunner {
  exec<T extends Record<string, SqlValue>>(query: string, ...bindings: SqlValue[]): T[];
  transaction(body: () => void): void;
}

export const ACTIVITY_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS hourly_counts (
     hour INTEGER NOT NULL, token TEXT NOT NULL, category TEXT NOT NULL, verified TEXT NOT NULL,
     action TEXT NOT NULL, layer TEXT NOT NULL, count INTEGER NOT NULL, violations INTEGER NOT NULL,
     PRIMARY KEY (hour, token, category, verified, action, layer)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS human_counts (hour INTEGER PRIMARY KEY, count INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS crawler_history (history TEXT PRIMARY KEY, events TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS operator_counts (
     hour INTEGER NOT NULL, operator TEXT NOT NULL, category TEXT NOT NULL, crawls INTEGER NOT NULL,
     verified INTEGER NOT NULL, bytes INTEGER NOT NULL, referrals INTEGER NOT NULL,
     PRIMARY KEY (hour, operator, category)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS pending_journal (id INTEGER PRIMARY KEY, pending TEXT NOT NULL)`,
];

/** Which history a request is kept in (see the file comment). */
export function historyOf(event: Pick<CrawlerEvent, "token" | "category" | "verified">): string {
  if (event.verified === "refuted") return REFUTED_CLAIMS;
  if (event.category !== null || event.verified === "verified") return event.token;
  return "(unknown names)";
}

/** A name that is neither in our table nor verified: the ones a client can invent. */
function isInventable(row: Pick<HourlyCount, "category" | "verified">): boolean {
  return row.category === null && row.verified !== "verified";
}
const INVENTABLE_SQL = "category = '' AND verified != 'verified'";
/** A refuted claim, in today's name or version 1's (STORED_NAMES). */
const REFUTED_SQL = "verified IN ('refuted', 'impostor')";
/** The entry a stored count is shown under: a refuted claim under REFUTED_CLAIMS, never the name it claimed. */
const SHOWN_TOKEN_SQL = `CASE WHEN ${REFUTED_SQL} THEN '${REFUTED_CLAIMS}' ELSE token END`;
const SHOWN_CATEGORY_SQL = `CASE WHEN ${REFUTED_SQL} THEN '' ELSE category END`;

/** Batches merged in memory between two writes. */
class PendingActivity {
  readonly hourly = new Map<string, { -readonly [K in keyof HourlyCount]: HourlyCount[K] }>();
  readonly humans = new Map<number, number>();
  readonly histories = new Map<string, CrawlerEvent[]>();
  readonly operators = new Map<string, { -readonly [K in keyof OperatorCount]: OperatorCount[K] }>();
  /** When the oldest pending batch came (undefined: nothing pending). */
  since: number | undefined;
  /** Something came since the journal was last written. */
  unjournaled = false;

  add(batch: ActivityBatch): void {
    for (const row of batch.hourly) {
      const key = `${row.hour}\n${row.token}\n${row.category}\n${row.verified}\n${row.action}\n${row.layer}`;
      const counts = this.hourly.get(key);
      if (counts) {
        counts.count += row.count;
        counts.violations += row.violations;
      } else this.hourly.set(key, { ...row });
    }
    for (const { hour, count } of batch.humans) this.humans.set(hour, (this.humans.get(hour) ?? 0) + count);
    for (const row of batch.operators ?? []) {
      const key = `${row.hour}\n${row.operator}\n${row.category ?? ""}`;
      const counts = this.operators.get(key);
      this.operators.set(key, counts ? { ...counts, ...addCounts(counts, row) } : { ...row });
    }
    for (const event of batch.recent) {
      const history = historyOf(event);
      const events = this.histories.get(history) ?? [];
      events.push(event);
      // Cut now and then rather than on every push: amortised, and bounded at twice the cap.
      this.histories.set(history, events.length > 2 * KEEP_PER_HISTORY ? events.slice(-KEEP_PER_HISTORY) : events);
    }
    this.unjournaled = true;
  }

  get isEmpty(): boolean {
    return this.hourly.size === 0 && this.humans.size === 0 && this.histories.size === 0 && this.operators.size === 0;
  }

  clear(): void {
    this.hourly.clear();
    this.operators.clear();
    this.humans.clear();
    this.histories.clear();
    this.since = undefined;
    this.unjournaled = false;
  }

  /** What waits, as the journal's one row (recent requests cut to JOURNAL_RECENT in all). */
  journal(): string {
    const perHistory = Math.max(1, Math.floor(JOURNAL_RECENT / Math.max(1, this.histories.size)));
    return JSON.stringify({
      version: JOURNAL_VERSION,
      since: this.since,
      hourly: [...this.hourly.values()],
      humans: [...this.humans],
      operators: [...this.operators.values()],
      recent: [...this.histories.values()].flatMap((events) => events.slice(-perHistory)),
    });
  }
}

/** A series' bucket: an hour for windows up to HOURLY_SERIES_MAX_HOURS, a day beyond (a chart of 720 bars is unreadable). */
export function bucketMsFor(window: ActivityWindow): number {
  return (window.toHour - window.fromHour) / HOUR_MS + 1 > HOURLY_SERIES_MAX_HOURS ? DAY_MS : HOUR_MS;
}

/** The window a read covers. */
export interface ActivityWindow {
  readonly fromHour: number;
  readonly toHour: number;
}

/** An operator's counts in one bucket of the window (the view's ledger). */
export interface OperatorBucketRow extends OperatorCount {
  /** The bucket's start (ms); `hour` is the same. */
  readonly bucket: number;
}

export interface ActivityRead extends AggregatedActivity {
  /** Per operator and bucket: crawls, bytes, referrals (at most operators of our tables × buckets). */
  readonly operators: OperatorBucketRow[];
  /** Newest first, at most the limit asked for. */
  readonly recent: CrawlerEvent[];
  /** Paths most often blocked among the kept requests since the window's start, per crawler. */
  readonly topBlockedPaths: { token: string; path: string; count: number }[];
  readonly violations: { token: string; verified: VerifiedState; path: string; count: number; lastTime: number }[];
  /** Stored values this version does not know: shown, never read as something else. */
  readonly problems: string[];
}

export class ActivityStore {
  private readonly sql: SqlRunner;
  private readonly pending = new PendingActivity();
  private schemaReady = false;
  /** When a write was last tried (the journal's or the tables'): at most one per JOURNAL_MS. */
  private triedAt = Number.NEGATIVE_INFINITY;
  /** Why the last write failed; cleared by one that works. */
  private writeProblem: string | undefined;
  /** Stored values found unreadable outside a read (the journal, a history on write): bounded. */
  private readonly storedProblems = new Set<string>();

  constructor(sql: SqlRunner) {
    this.sql = sql;
    this.ready();
    this.recoverJournal();
  }

  /** Merge a batch in memory; flush() writes it when due. */
  add(batch: ActivityBatch, now: number): void {
    this.pending.add(batch);
    this.pending.since ??= now;
  }

  get hasPending(): boolean {
    return !this.pending.isEmpty;
  }

  /**
   * What should be written at `now`: the tables (what waited MAX_PENDING_MS, or
   * MAX_PENDING_ROWS counts), the journal (something came since it was written), or nothing
   * yet. Never more than one write per JOURNAL_MS (a failing store is not hammered).
   */
  due(now: number): "tables" | "journal" | undefined {
    const { since } = this.pending;
    if (since === undefined) return undefined;
    // A flood of names: memory's bound, at once unless the store is failing.
    if (this.pending.hourly.size >= MAX_PENDING_ROWS && this.writeProblem === undefined) return "tables";
    if (now - this.triedAt < JOURNAL_MS) return undefined;
    if (now - since >= MAX_PENDING_MS) return "tables";
    return this.pending.unjournaled ? "journal" : undefined;
  }

  /** When the next write falls due if nothing else comes (undefined: nothing waits to be journaled). */
  nextDueAt(): number | undefined {
    return this.pending.unjournaled ? Math.max(this.triedAt + JOURNAL_MS, this.pending.since ?? 0) : undefined;
  }

  /**
   * Write what is due at `now` (or the tables, with `tables`): never throws. A failed write
   * keeps everything pending and is the problem problems() names until one works.
   */
  flush(now: number, tables = false): "tables" | "journal" | "failed" | undefined {
    const due = tables && this.hasPending ? "tables" : this.due(now);
    if (due === undefined) return undefined;
    this.triedAt = now;
    try {
      if (due === "tables") this.write(now);
      else this.writeJournal();
      this.writeProblem = undefined;
      return due;
    } catch (error) {
      this.writeProblem = `storage refused a write of the pending activity (${String(error)}): kept in memory, tried again within ${JOURNAL_MS / 1000} s`;
      return "failed";
    }
  }

  /** The object's standing problems: a failing write, stored values it could not read. */
  problems(): string[] {
    return [...this.storedProblems, ...(this.writeProblem === undefined ? [] : [this.writeProblem])];
  }

  /** What waits, in its one journal row. */
  writeJournal(): void {
    this.ready();
    this.sql.exec(
      "INSERT INTO pending_journal VALUES (0, ?) ON CONFLICT DO UPDATE SET pending = excluded.pending",
      this.pending.journal(),
    );
    this.pending.unjournaled = false;
  }

  /** Write what is pending in one transaction (and drop the journal it replaces), then delete what has aged out. */
  write(now: number): void {
    this.ready();
    const { hourly, humans, histories, operators } = this.pending;
    this.sql.transaction(() => {
      for (const row of this.foldedHourly(hourly.values())) {
        this.sql.exec(
          `INSERT INTO hourly_counts VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO UPDATE SET count = count + excluded.count, violations = violations + excluded.violations`,
          row.hour,
          row.token,
          row.category ?? "",
          row.verified,
          row.action,
          row.layer,
          row.count,
          row.violations,
        );
      }
      for (const [hour, count] of humans) {
        this.sql.exec(
          "INSERT INTO human_counts VALUES (?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count",
          hour,
          count,
        );
      }
      for (const row of operators.values()) {
        this.sql.exec(
          `INSERT INTO operator_counts VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO UPDATE SET crawls = crawls + excluded.crawls, verified = verified + excluded.verified,
                                     bytes = bytes + excluded.bytes, referrals = referrals + excluded.referrals`,
          row.hour,
          row.operator,
          row.category ?? "",
          row.crawls,
          row.verified,
          row.bytes,
          row.referrals,
        );
      }
      for (const [history, events] of histories) {
        const kept = [...this.storedHistory(history).events, ...events].slice(-KEEP_PER_HISTORY);
        this.sql.exec(
          "INSERT INTO crawler_history VALUES (?, ?) ON CONFLICT DO UPDATE SET events = excluded.events",
          history,
          JSON.stringify({ version: HISTORY_VERSION, events: kept }),
        );
      }
      const oldest = hourOf(now) - (KEEP_HOURS - 1) * HOUR_MS;
      this.sql.exec("DELETE FROM hourly_counts WHERE hour < ?", oldest);
      this.sql.exec("DELETE FROM human_counts WHERE hour < ?", oldest);
      this.sql.exec("DELETE FROM operator_counts WHERE hour < ?", oldest);
      this.sql.exec("DELETE FROM pending_journal");
    });
    this.pending.clear();
  }

  /**
   * A restarted object's pending counts: the journal its last life wrote, read through its
   * validated reader (readJournal). Unreadable: absent, and a problem naming it.
   */
  private recoverJournal(): void {
    const row = this.sql.exec<{ pending: string }>("SELECT pending FROM pending_journal WHERE id = 0")[0];
    if (!row) return;
    const problems: string[] = [];
    const journal = readJournal(row.pending, problems);
    for (const problem of problems.slice(0, 4)) this.storedProblems.add(problem);
    if (!journal) return;
    this.pending.add(journal.batch);
    this.pending.since = journal.since;
    this.pending.unjournaled = false;
  }

  /** Pending counts with names past an hour's cap folded into OTHER_TOKEN: one row written per stored row. */
  private foldedHourly(rows: Iterable<HourlyCount>): HourlyCount[] {
    const unknownByHour = new Map<number, Set<string>>();
    const folded = new Map<string, { -readonly [K in keyof HourlyCount]: HourlyCount[K] }>();
    for (const row of rows) {
      const token = isInventable(row) ? this.boundedToken(row.hour, row.token, unknownByHour) : row.token;
      const key = `${row.hour}\n${token}\n${row.category}\n${row.verified}\n${row.action}\n${row.layer}`;
      const entry = folded.get(key);
      if (entry) {
        entry.count += row.count;
        entry.violations += row.violations;
      } else folded.set(key, { ...row, token });
    }
    return [...folded.values()];
  }

  /** An inventable name as stored for its hour: itself, or OTHER_TOKEN once the hour holds enough. */
  private boundedToken(hour: number, token: string, byHour: Map<number, Set<string>>): string {
    let names = byHour.get(hour);
    if (!names) {
      const rows = this.sql.exec<{ token: string }>(
        `SELECT DISTINCT token FROM hourly_counts WHERE hour = ? AND ${INVENTABLE_SQL}`,
        hour,
      );
      names = new Set(rows.map((row) => row.token));
      byHour.set(hour, names);
    }
    if (names.has(token)) return token;
    if (names.size >= MAX_UNKNOWN_TOKENS_PER_HOUR) return OTHER_TOKEN;
    names.add(token);
    return token;
  }

  /** The activity of the window, with the newest `recentLimit` requests (pending counts written first). */
  read(window: ActivityWindow, recentLimit: number, now: number): ActivityRead {
    // A failed write keeps what waits (flush): the stored activity is read all the same.
    if (this.hasPending) this.flush(now, true);
    this.ready();
    const since = window.fromHour;
    const bucketMs = bucketMsFor(window);
    const problems: string[] = this.problems();
    const { shown, inventableNames, shownInventable } = this.shownTokens(since);
    const counts = this.sql
      .exec<Record<string, SqlValue>>(
        `SELECT ${SHOWN_TOKEN_SQL} AS token, ${SHOWN_CATEGORY_SQL} AS category, verified, action, layer,
                SUM(count) AS count, SUM(violations) AS violations
         FROM hourly_counts WHERE hour >= ? AND ${SHOWN_TOKEN_SQL} IN (SELECT value FROM json_each(?))
         GROUP BY 1, 2, verified, action, layer`,
        since,
        JSON.stringify(shown),
      )
      .flatMap((row) => countRow(row, problems));
    // One pass over the window: every crawler's counts per bucket, verified state, action and
    // layer; the chart's "all crawlers" and, less the shown ones, the other names' entry.
    const all = this.sql
      .exec<Record<string, SqlValue>>(
        `SELECT NULL AS token, hour - hour % ? AS bucket, '' AS category, verified, action, layer,
                SUM(count) AS count, SUM(violations) AS violations
         FROM hourly_counts WHERE hour >= ? GROUP BY bucket, verified, action, layer`,
        bucketMs,
        since,
      )
      .flatMap((row) => bucketedCountRow(row, problems));
    counts.push(...otherCounts(all, counts));
    const seriesTokens = JSON.stringify(busiest(counts, SERIES_CRAWLERS));
    const series = [
      ...all.map(({ bucket, action, count }) => ({ token: null, bucket, action, count })),
      ...this.sql
        .exec<Record<string, SqlValue>>(
          `SELECT ${SHOWN_TOKEN_SQL} AS token, hour - hour % ? AS bucket, action, SUM(count) AS count
           FROM hourly_counts WHERE hour >= ? AND ${SHOWN_TOKEN_SQL} IN (SELECT value FROM json_each(?))
           GROUP BY 1, bucket, action`,
          bucketMs,
          since,
          seriesTokens,
        )
        .flatMap((row) => seriesRow(row, problems)),
    ];
    const otherNames = inventableNames - shownInventable;
    const humans = this.sql
      .exec<{ bucket: number; count: number }>(
        "SELECT hour - hour % ? AS bucket, SUM(count) AS count FROM human_counts WHERE hour >= ? GROUP BY bucket",
        bucketMs,
        since,
      )
      .map((row) => ({ bucket: Number(row.bucket), count: Number(row.count) }));
    const operators = this.sql
      .exec<Record<string, SqlValue>>(
        `SELECT operator, hour - hour % ? AS bucket, SUM(crawls) AS crawls, SUM(verified) AS verified,
                SUM(bytes) AS bytes, SUM(referrals) AS referrals
         FROM operator_counts WHERE hour >= ? GROUP BY operator, bucket`,
        bucketMs,
        since,
      )
      .map((row) => {
        const bucket = Number(row["bucket"]);
        return { bucket, hour: bucket, operator: String(row["operator"]), ...totalsOf(row) };
      });
    const kept = this.allRecent(problems);
    return {
      operators,
      bucketMs,
      counts,
      otherNames,
      series,
      humans,
      recent: kept.slice(0, recentLimit),
      topBlockedPaths: topBlocked(kept, since),
      violations: violationsOf(kept, since),
      problems,
    };
  }

  /**
   * Per operator, per day back from `now` (MAX_LEDGER_DAYS of them): what the isolates keep for
   * the policy's ratio condition. Counts still waiting in memory are added, not written: an
   * isolate asks once a minute, and a write per ask would be a write per minute per isolate.
   */
  ledgerDays(now: number): LedgerDayRow[] {
    this.ready();
    const nowHour = hourOf(now);
    const rows = this.sql.exec<Record<string, SqlValue>>(
      `SELECT operator, category, CAST((? - hour) / ${DAY_MS} AS INTEGER) AS daysAgo, SUM(crawls) AS crawls,
              SUM(verified) AS verified, SUM(bytes) AS bytes, SUM(referrals) AS referrals
       FROM operator_counts WHERE hour > ? GROUP BY operator, category, daysAgo`,
      nowHour,
      nowHour - MAX_LEDGER_DAYS * DAY_MS,
    );
    const days = new Map<string, LedgerDayRow>();
    const add = (
      operator: string,
      category: CrawlerCategory | undefined,
      daysAgo: number,
      counts: typeof NO_COUNTS,
    ) => {
      if (daysAgo < 0 || daysAgo >= MAX_LEDGER_DAYS) return;
      const key = `${operator}\n${category ?? ""}\n${daysAgo}`;
      const row = { operator, ...(category !== undefined && { category }), daysAgo };
      days.set(key, { ...row, ...addCounts(days.get(key) ?? NO_COUNTS, counts) });
    };
    // A bound JS number is a REAL to SQLite: the division is floored here whatever SQLite made of it.
    for (const row of rows) {
      // A category this version does not know counts for none (never as another one).
      const category = storedCategory(row["category"], []);
      if (category === undefined) continue;
      add(String(row["operator"]), category ?? undefined, Math.floor(Number(row["daysAgo"])), totalsOf(row));
    }
    for (const row of this.pending.operators.values()) {
      add(row.operator, row.category, Math.floor((nowHour - row.hour) / DAY_MS), row);
    }
    return [...days.values()];
  }

  /** The newest `limit` crawler requests of every history, oldest first (what replay judges). */
  recentRequests(limit: number, now: number): CrawlerEvent[] {
    if (this.hasPending) this.flush(now, true);
    this.ready();
    return this.allRecent([]).slice(0, limit).toReversed();
  }

  /**
   * The known and verified crawlers of the window, and the busiest SHOWN_UNKNOWN other names;
   * with how many other names there are in all (counted in the same pass).
   */
  private shownTokens(since: number): { shown: string[]; inventableNames: number; shownInventable: number } {
    const named = this.sql.exec<{ token: string }>(
      `SELECT DISTINCT ${SHOWN_TOKEN_SQL} AS token FROM hourly_counts
       WHERE hour >= ? AND (NOT (${INVENTABLE_SQL}) OR ${REFUTED_SQL})`,
      since,
    );
    const busiestOthers = this.sql.exec<{ token: string; names: number }>(
      `SELECT token, COUNT(*) OVER () AS names FROM (
         SELECT token, SUM(count) AS requests FROM hourly_counts
         WHERE hour >= ? AND ${INVENTABLE_SQL} AND NOT ${REFUTED_SQL} AND token != ? GROUP BY token)
       ORDER BY requests DESC, token LIMIT ?`,
      since,
      OTHER_TOKEN,
      SHOWN_UNKNOWN,
    );
    const namedTokens = new Set(named.map((row) => String(row.token)));
    const others = busiestOthers.map((row) => String(row.token)).filter((token) => !namedTokens.has(token));
    return {
      shown: [...namedTokens, ...others],
      inventableNames: Number(busiestOthers[0]?.names ?? 0),
      shownInventable: busiestOthers.length,
    };
  }

  /** Every kept request, newest first. */
  private allRecent(problems: string[]): CrawlerEvent[] {
    const rows = this.sql.exec<{ history: string; events: string }>("SELECT history, events FROM crawler_history");
    // Each history newest first, then a stable sort: requests of the same millisecond stay newest first.
    const events = rows.flatMap((row) => this.parseHistory(row.history, row.events, problems).events.toReversed());
    return events.toSorted((a, b) => b.time - a.time);
  }

  /** A history as stored, to append to: an unreadable one is replaced (and said once). */
  private storedHistory(history: string): { events: CrawlerEvent[] } {
    const row = this.sql.exec<{ events: string }>("SELECT events FROM crawler_history WHERE history = ?", history)[0];
    if (!row) return { events: [] };
    const problems: string[] = [];
    const read = this.parseHistory(history, row.events, problems);
    if (problems.length > 0 && this.storedProblems.size < 8) {
      this.storedProblems.add(`${problems[0] ?? ""} (replaced by the requests written after it)`);
    }
    return read;
  }

  /** A stored history through its validated reader: not JSON, another format or shape -> none, and a problem. */
  private parseHistory(history: string, text: string, problems: string[]): { events: CrawlerEvent[] } {
    let stored: { version?: unknown; events?: unknown } | null;
    try {
      stored = JSON.parse(text) as typeof stored;
    } catch {
      stored = null;
    }
    if (
      stored === null ||
      typeof stored !== "object" ||
      stored.version !== HISTORY_VERSION ||
      !Array.isArray(stored.events)
    ) {
      const format =
        stored !== null && typeof stored === "object"
          ? `format ${JSON.stringify(stored.version ?? null)}`
          : "no JSON object";
      problems.push(`the stored history ${JSON.stringify(history)} has ${format}: not shown`);
      return { events: [] };
    }
    return { events: stored.events.flatMap((event) => storedEvent(event, problems)) };
  }

  private ready(): void {
    if (this.schemaReady) return;
    for (const statement of ACTIVITY_SCHEMA) this.sql.exec(statement);
    this.schemaReady = true;
  }
}

function totalsOf(row: Record<string, SqlValue>): typeof NO_COUNTS {
  return {
    crawls: Number(row["crawls"]),
    verified: Number(row["verified"]),
    bytes: Number(row["bytes"]),
    referrals: Number(row["referrals"]),
  };
}

/** The `limit` shown crawlers with most requests (not OTHER_TOKEN). */
function busiest(counts: readonly CountRow[], limit: number): string[] {
  const requests = new Map<string, number>();
  for (const row of counts) {
    if (row.token !== OTHER_TOKEN) requests.set(row.token, (requests.get(row.token) ?? 0) + row.count);
  }
  return [...requests]
    .toSorted((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([token]) => token);
}

/** The entry a kept request is shown under: a refuted claim under REFUTED_CLAIMS, never the name it claimed. */
function shownToken(event: Pick<CrawlerEvent, "token" | "verified">): string {
  return event.verified === "refuted" ? REFUTED_CLAIMS : event.token;
}

function topBlocked(events: readonly CrawlerEvent[], since: number): ActivityRead["topBlockedPaths"] {
  const counts = new Map<string, { token: string; path: string; count: number }>();
  for (const event of events) {
    if (event.action !== "block" || event.time < since) continue;
    const token = shownToken(event);
    const key = `${token}\n${event.path}`;
    const entry = counts.get(key) ?? { token, path: event.path, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].toSorted((a, b) => b.count - a.count || a.path.localeCompare(b.path)).slice(0, 50);
}

function violationsOf(events: readonly CrawlerEvent[], since: number): ActivityRead["violations"] {
  const rows = new Map<string, ActivityRead["violations"][number]>();
  for (const event of events) {
    if (!event.violation || event.time < since) continue;
    // Per verification standing: a crawler's row holds its verified, unverifiable,
    // unchecked or disguised requests; refuted ones are the impostors' row, whatever they claimed.
    const token = shownToken(event);
    const key = `${token}\n${event.verified}\n${event.path}`;
    const row = rows.get(key) ?? {
      token,
      verified: event.verified,
      path: event.path,
      count: 0,
      lastTime: 0,
    };
    row.count++;
    row.lastTime = Math.max(row.lastTime, event.time);
    rows.set(key, row);
  }
  return [...rows.values()].toSorted((a, b) => b.count - a.count || b.lastTime - a.lastTime).slice(0, 50);
}

/** A stored value of a closed list, or a problem naming it: never read as another value. */
function known<T extends string>(list: readonly T[], value: unknown, what: string, problems: string[]): T | undefined {
  if ((list as readonly unknown[]).includes(value)) return value as T;
  const problem = `stored ${what} ${JSON.stringify(value)} is not one this version knows (${list.join(", ")}): those counts are not shown`;
  if (!problems.includes(problem)) problems.push(problem);
  return undefined;
}

/** A stored verified state; an earlier version's name is read as the state it stood for. */
function storedVerified(value: unknown, problems: string[]): VerifiedState | undefined {
  const legacy = typeof value === "string" ? STORED_NAMES.legacy.verified[value] : undefined;
  return legacy ?? known(STORED_NAMES.verified, value, "verified state", problems);
}

/** A stored action; an earlier version's name is read as the action it stood for. */
function storedAction(value: unknown, problems: string[]): CountedAction | undefined {
  const legacy = typeof value === "string" ? STORED_NAMES.legacy.actions[value] : undefined;
  return legacy ?? known(STORED_NAMES.actions, value, "action", problems);
}

/** A stored category ("" or null: none); a name this version does not know is a problem. */
function storedCategory(value: unknown, problems: string[]): CrawlerCategory | null | undefined {
  if (value === "" || value === null || value === undefined) return null;
  return known(CRAWLER_CATEGORIES, value, "category", problems);
}

function countRow(row: Record<string, SqlValue>, problems: string[]): CountRow[] {
  const verified = storedVerified(row["verified"], problems);
  const action = storedAction(row["action"], problems);
  const layer = known(STORED_NAMES.layers, row["layer"], "layer", problems);
  const category = storedCategory(row["category"], problems);
  if (!verified || !action || !layer || category === undefined) return [];
  const token = String(row["token"]);
  return [
    { token, category, verified, action, layer, count: Number(row["count"]), violations: Number(row["violations"]) },
  ];
}

/** A count row of every crawler in one bucket (the window's single pass). */
interface BucketedCount extends CountRow {
  readonly bucket: number;
}

function bucketedCountRow(row: Record<string, SqlValue>, problems: string[]): BucketedCount[] {
  return countRow({ ...row, token: "" }, problems).map((count) => ({ ...count, bucket: Number(row["bucket"]) }));
}

/** All crawlers' counts less the shown ones': the other names, as one OTHER_TOKEN entry. */
function otherCounts(all: readonly BucketedCount[], shown: readonly CountRow[]): CountRow[] {
  const rest = new Map<string, { -readonly [K in keyof CountRow]: CountRow[K] }>();
  const add = (row: CountRow, sign: number) => {
    const key = `${row.verified}\n${row.action}\n${row.layer}`;
    const entry = rest.get(key) ?? { ...row, token: OTHER_TOKEN, category: null, count: 0, violations: 0 };
    entry.count += sign * row.count;
    entry.violations += sign * row.violations;
    rest.set(key, entry);
  };
  for (const row of all) add(row, 1);
  for (const row of shown) add(row, -1);
  return [...rest.values()].filter((row) => row.count > 0);
}

function seriesRow(row: Record<string, SqlValue>, problems: string[]): SeriesRow[] {
  const action = storedAction(row["action"], problems);
  if (!action) return [];
  const token = row["token"] === null ? null : String(row["token"]);
  return [{ token, bucket: Number(row["bucket"]), action, count: Number(row["count"]) }];
}

/**
 * A stored request through its validated reader: every field of its shape checked, so a value
 * of another release, hand-edited or cut short is left out with a problem, never rendered as
 * something it is not.
 */
function storedEvent(value: unknown, problems: string[]): CrawlerEvent[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return shapeProblem("a stored request is not an object", problems);
  }
  const event = value as Record<string, unknown>;
  const verified = storedVerified(event["verified"], problems);
  const action = storedAction(event["action"], problems);
  const layer = known(STORED_NAMES.layers, event["layer"], "layer", problems);
  const category = storedCategory(event["category"], problems);
  if (!verified || !action || !layer || category === undefined) return [];
  const { time, token, tokens, method, path, line, rule, violation } = event;
  const shaped =
    typeof time === "number" &&
    Number.isFinite(time) &&
    typeof token === "string" &&
    Array.isArray(tokens) &&
    tokens.every((name) => typeof name === "string") &&
    typeof method === "string" &&
    typeof path === "string" &&
    (line === null || (typeof line === "number" && Number.isInteger(line))) &&
    (rule === null || typeof rule === "string") &&
    typeof violation === "boolean";
  if (!shaped) return shapeProblem("a stored request lacks a field or has one of another type", problems);
  return [
    { time, token, tokens: tokens as string[], category, verified, method, path, action, layer, line, rule, violation },
  ];
}

function shapeProblem(problem: string, problems: string[]): [] {
  const said = `${problem}: not shown`;
  if (!problems.includes(said)) problems.push(said);
  return [];
}

/** A count of the journal: its fields' types and words checked (countRow's words, and numbers). */
function journalHourly(value: unknown, problems: string[]): HourlyCount[] {
  if (value === null || typeof value !== "object") return shapeProblem("a journal count is not an object", problems);
  const row = value as Record<string, unknown>;
  const numbers = [row["hour"], row["count"], row["violations"]].every(
    (n) => typeof n === "number" && Number.isInteger(n) && n >= 0,
  );
  if (!numbers || typeof row["token"] !== "string") return shapeProblem("a journal count has a wrong field", problems);
  const read = countRow(row as Record<string, SqlValue>, problems)[0];
  return read ? [{ ...read, hour: Number(row["hour"]) }] : [];
}

function journalOperator(value: unknown, problems: string[]): OperatorCount[] {
  if (value === null || typeof value !== "object")
    return shapeProblem("a journal ledger count is not an object", problems);
  const row = value as Record<string, unknown>;
  const numbers = ["hour", "crawls", "verified", "bytes", "referrals"].every((name) => {
    const n = row[name];
    return typeof n === "number" && Number.isInteger(n) && n >= 0;
  });
  const category = storedCategory(row["category"], problems);
  if (!numbers || typeof row["operator"] !== "string" || category === undefined) {
    return shapeProblem("a journal ledger count has a wrong field", problems);
  }
  const { hour, operator, crawls, verified, bytes, referrals } = row as unknown as OperatorCount;
  return [{ hour, operator, ...(category !== null && { category }), crawls, verified, bytes, referrals }];
}

/**
 * The journal's validated reader: its format, and every count and request in it. Anything
 * wrong and the whole journal is absent (a part of it would be a count we cannot vouch for),
 * with a problem naming it.
 */
export function readJournal(text: string, problems: string[]): { since: number; batch: ActivityBatch } | undefined {
  const said: string[] = [];
  let stored: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      stored = parsed as Record<string, unknown>;
  } catch {
    stored = null;
  }
  const fail = (why: string) => {
    problems.push(`the stored pending activity (pending_journal) ${why}: treated as absent, its counts not recorded`);
    return undefined;
  };
  if (!stored) return fail("is no JSON object");
  if (stored["version"] !== JOURNAL_VERSION) return fail(`has format ${JSON.stringify(stored["version"] ?? null)}`);
  const { since, hourly, humans, operators, recent } = stored;
  if (
    typeof since !== "number" ||
    !Array.isArray(hourly) ||
    !Array.isArray(humans) ||
    !Array.isArray(operators) ||
    !Array.isArray(recent)
  ) {
    return fail("lacks a field or has one of another type");
  }
  const batch: ActivityBatch = {
    hourly: hourly.flatMap((row) => journalHourly(row, said)),
    humans: humans.flatMap((pair: unknown) =>
      Array.isArray(pair) &&
      pair.length === 2 &&
      pair.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0)
        ? [{ hour: Number(pair[0]), count: Number(pair[1]) }]
        : shapeProblem("a journal count of people is not [hour, count]", said),
    ),
    operators: operators.flatMap((row) => journalOperator(row, said)),
    recent: recent.flatMap((event) => storedEvent(event, said)),
  };
  if (said.length > 0) return fail(`holds a value this version cannot read (${said[0] ?? ""})`);
  return { since, batch };
}
