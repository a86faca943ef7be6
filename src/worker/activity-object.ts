/**
 * One Durable Object per origin (idFromName(authority)) holds that origin's activity in its
 * SQLite storage: hourly counts per crawler token × category × verified state × action ×
 * layer, people as one count per hour, and the most recent crawler requests. The Worker's
 * isolates send batches (activity-recorder.ts); the admin API reads here. A Durable Object
 * rather than Workers Analytics Engine: the operator page must read it back, under
 * `wrangler dev` too, and Analytics Engine cannot be queried locally.
 *
 * Bounded by construction: hourly rows older than KEEP_HOURS are deleted on every write, the
 * recent list keeps the last KEEP_RECENT requests, and one hour holds at most
 * MAX_TOKENS_PER_HOUR crawler tokens (a client inventing a new name per request would
 * otherwise add a row per request); later names in that hour count as OTHER_TOKEN.
 */

import { DurableObject } from "cloudflare:workers";
import type { ActivityBatch, HourlyCount } from "../policy/activity-batch.ts";
import {
  hourOf,
  RECORDED_ACTIONS,
  LEGACY_VERIFIED_STATES,
  VERIFIED_STATES,
  type CrawlerEvent,
  type RecordedAction,
  type RecordedLayer,
  type VerifiedState,
} from "../policy/activity.ts";

export const KEEP_HOURS = 30 * 24;
export const KEEP_RECENT = 10_000;
export const MAX_TOKENS_PER_HOUR = 200;
export const OTHER_TOKEN = "(other)";

export type { ActivityBatch, HourlyCount };

export interface ActivityRead {
  readonly hourly: HourlyCount[];
  readonly humans: { hour: number; count: number }[];
  /** Newest first. */
  readonly recent: CrawlerEvent[];
  /** Paths most often blocked among the recent requests since `since`. */
  readonly topBlockedPaths: { path: string; count: number }[];
  /** Recent requests for paths robots.txt disallows them, by crawler, verified state and path. */
  readonly violations: { token: string; verified: VerifiedState; path: string; count: number; lastTime: number }[];
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS hourly (
     hour INTEGER NOT NULL, token TEXT NOT NULL, category TEXT NOT NULL, verified TEXT NOT NULL,
     action TEXT NOT NULL, layer TEXT NOT NULL, count INTEGER NOT NULL, violations INTEGER NOT NULL,
     PRIMARY KEY (hour, token, category, verified, action, layer))`,
  `CREATE TABLE IF NOT EXISTS humans (hour INTEGER PRIMARY KEY, count INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS recent (
     id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, token TEXT NOT NULL, tokens TEXT NOT NULL,
     category TEXT NOT NULL, verified TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,
     action TEXT NOT NULL, layer TEXT NOT NULL, line INTEGER, rule TEXT, violation INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS recent_time ON recent (time)`,
];

export class ActivityLog extends DurableObject {
  private schemaReady = false;

  private get sql(): SqlStorage {
    if (!this.schemaReady) {
      for (const statement of SCHEMA) this.ctx.storage.sql.exec(statement);
      this.schemaReady = true;
    }
    return this.ctx.storage.sql;
  }

  /** Add a batch, then delete what has aged out. `now` is the Worker's clock (tests control it). */
  record(batch: ActivityBatch, now: number): void {
    const sql = this.sql;
    this.ctx.storage.transactionSync(() => {
      const tokensByHour = new Map<number, Set<string>>();
      for (const row of batch.hourly) {
        const token = this.boundedToken(row.hour, row.token, tokensByHour);
        sql.exec(
          `INSERT INTO hourly VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO UPDATE SET count = count + excluded.count, violations = violations + excluded.violations`,
          row.hour,
          token,
          row.category ?? "",
          row.verified,
          row.action,
          row.layer,
          row.count,
          row.violations,
        );
      }
      for (const { hour, count } of batch.humans) {
        sql.exec(
          "INSERT INTO humans VALUES (?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count",
          hour,
          count,
        );
      }
      for (const event of batch.recent.slice(-KEEP_RECENT)) {
        sql.exec(
          "INSERT INTO recent (time, token, tokens, category, verified, method, path, action, layer, line, rule, violation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          event.time,
          event.token,
          JSON.stringify(event.tokens),
          event.category ?? "",
          event.verified,
          event.method,
          event.path,
          event.action,
          event.layer,
          event.line,
          event.rule,
          event.violation ? 1 : 0,
        );
      }
      this.prune(now);
    });
  }

  /** A token as it may be stored for an hour: itself, or OTHER_TOKEN once the hour holds enough names. */
  private boundedToken(hour: number, token: string, tokensByHour: Map<number, Set<string>>): string {
    let known = tokensByHour.get(hour);
    if (!known) {
      known = new Set(
        this.sql
          .exec<{ token: string }>("SELECT DISTINCT token FROM hourly WHERE hour = ?", hour)
          .toArray()
          .map((row) => row.token),
      );
      tokensByHour.set(hour, known);
    }
    if (known.has(token)) return token;
    if (known.size >= MAX_TOKENS_PER_HOUR) return OTHER_TOKEN;
    known.add(token);
    return token;
  }

  private prune(now: number): void {
    const oldest = hourOf(now) - (KEEP_HOURS - 1) * 3_600_000;
    this.sql.exec("DELETE FROM hourly WHERE hour < ?", oldest);
    this.sql.exec("DELETE FROM humans WHERE hour < ?", oldest);
    this.sql.exec("DELETE FROM recent WHERE id <= (SELECT MAX(id) FROM recent) - ?", KEEP_RECENT);
  }

  /** The activity since `since` (ms), with the newest `recentLimit` requests. */
  read(since: number, recentLimit: number): ActivityRead {
    const sql = this.sql;
    const hourly = sql
      .exec<HourlyRow>("SELECT * FROM hourly WHERE hour >= ? ORDER BY hour, token", hourOf(since))
      .toArray()
      .map(hourlyFromRow);
    const humans = sql
      .exec<{ hour: number; count: number }>(
        "SELECT hour, count FROM humans WHERE hour >= ? ORDER BY hour",
        hourOf(since),
      )
      .toArray()
      .map((row) => ({ hour: row.hour, count: row.count }));
    const recent = sql
      .exec<RecentRow>("SELECT * FROM recent ORDER BY id DESC LIMIT ?", recentLimit)
      .toArray()
      .map(eventFromRow);
    const topBlockedPaths = sql
      .exec<{ path: string; count: number }>(
        "SELECT path, COUNT(*) AS count FROM recent WHERE action = 'block' AND time >= ? GROUP BY path ORDER BY count DESC, path LIMIT 10",
        since,
      )
      .toArray()
      .map((row) => ({ path: row.path, count: row.count }));
    const violations = sql
      .exec<{ token: string; verified: string; path: string; count: number; lastTime: number }>(
        `SELECT token, verified, path, COUNT(*) AS count, MAX(time) AS lastTime FROM recent
         WHERE violation = 1 AND time >= ? GROUP BY token, verified, path ORDER BY count DESC, lastTime DESC LIMIT 50`,
        since,
      )
      .toArray()
      .map((row) => ({ ...row, verified: verifiedState(row.verified) }));
    return { hourly, humans, recent, topBlockedPaths, violations };
  }

  /** The newest `limit` crawler requests, oldest first (what replay judges again). */
  recentRequests(limit: number): CrawlerEvent[] {
    return this.sql
      .exec<RecentRow>("SELECT * FROM recent ORDER BY id DESC LIMIT ?", limit)
      .toArray()
      .map(eventFromRow)
      .toReversed();
  }
}

type HourlyRow = Record<keyof HourlyCount, string | number> & Record<string, SqlStorageValue>;
type RecentRow = Record<string, SqlStorageValue>;

function hourlyFromRow(row: HourlyRow): HourlyCount {
  return {
    hour: Number(row.hour),
    token: String(row.token),
    category: row.category === "" ? null : String(row.category),
    verified: verifiedState(String(row.verified)),
    action: recordedAction(String(row.action)),
    layer: String(row.layer) as RecordedLayer,
    count: Number(row.count),
    violations: Number(row.violations),
  };
}

function eventFromRow(row: RecentRow): CrawlerEvent {
  return {
    time: Number(row["time"]),
    token: String(row["token"]),
    tokens: JSON.parse(String(row["tokens"])) as string[],
    category: row["category"] === "" ? null : String(row["category"]),
    verified: verifiedState(String(row["verified"])),
    method: String(row["method"]),
    path: String(row["path"]),
    action: recordedAction(String(row["action"])),
    layer: String(row["layer"]) as RecordedLayer,
    line: row["line"] === null ? null : Number(row["line"]),
    rule: row["rule"] === null ? null : String(row["rule"]),
    violation: row["violation"] === 1,
  };
}

function verifiedState(text: string): VerifiedState {
  if ((VERIFIED_STATES as readonly string[]).includes(text)) return text as VerifiedState;
  return LEGACY_VERIFIED_STATES[text] ?? "unchecked";
}

function recordedAction(text: string): RecordedAction {
  return (RECORDED_ACTIONS as readonly string[]).includes(text) ? (text as RecordedAction) : "pass";
}
