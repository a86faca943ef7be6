/**
 * Activity stored by earlier versions, moved once into today's tables (activity/store.ts):
 * `hourly` and `humans` (the same columns) and `recent` (a row per request, now a history per
 * crawler). The old tables are dropped afterwards, so this runs once per object. And
 * `operator_counts` without its `category` column (the release before counts were kept per category): its rows are
 * kept with category '' (no category), so the page still shows them, while the policy's
 * condition, which counts one category's answered crawls, never reads them (they counted
 * every request, refusals and user-triggered fetches too).
 */

import { ACTIVITY_SCHEMA, HISTORY_VERSION, historyOf, KEEP_PER_HISTORY, type SqlRunner } from "./store.ts";

export function migrateActivityTables(sql: SqlRunner): void {
  migrateOperatorCategories(sql);
  const old = new Set(
    sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('hourly', 'humans', 'recent')",
      )
      .map((row) => row.name),
  );
  if (old.size === 0) return;
  sql.transaction(() => {
    for (const statement of ACTIVITY_SCHEMA) sql.exec(statement);
    if (old.has("hourly")) {
      sql.exec(
        `INSERT INTO hourly_counts SELECT hour, token, category, verified, action, layer, count, violations FROM hourly
         WHERE true ON CONFLICT DO UPDATE SET count = count + excluded.count, violations = violations + excluded.violations`,
      );
      sql.exec("DROP TABLE hourly");
    }
    if (old.has("humans")) {
      sql.exec(
        "INSERT INTO human_counts SELECT hour, count FROM humans WHERE true ON CONFLICT DO UPDATE SET count = count + excluded.count",
      );
      sql.exec("DROP TABLE humans");
    }
    if (old.has("recent")) {
      migrateRecent(sql);
      sql.exec("DROP TABLE recent");
    }
  });
}

/** The old per-request rows, grouped into histories (oldest first within each). */
function migrateRecent(sql: SqlRunner): void {
  const histories = new Map<string, unknown[]>();
  for (const row of sql.exec<Record<string, string | number | null>>("SELECT * FROM recent ORDER BY id")) {
    const event = {
      time: Number(row["time"]),
      token: String(row["token"]),
      tokens: JSON.parse(String(row["tokens"])) as string[],
      category: row["category"] === "" ? null : String(row["category"]),
      verified: row["verified"],
      method: String(row["method"]),
      path: String(row["path"]),
      action: row["action"],
      layer: row["layer"],
      line: row["line"] === null ? null : Number(row["line"]),
      rule: row["rule"] === null ? null : String(row["rule"]),
      violation: row["violation"] === 1,
    };
    const history = historyOf(event as Parameters<typeof historyOf>[0]);
    const events = histories.get(history) ?? [];
    events.push(event);
    histories.set(history, events);
  }
  for (const [history, events] of histories) {
    sql.exec(
      "INSERT INTO crawler_history VALUES (?, ?) ON CONFLICT DO NOTHING",
      history,
      JSON.stringify({ version: HISTORY_VERSION, events: events.slice(-KEEP_PER_HISTORY) }),
    );
  }
}

/** operator_counts keyed by (hour, operator) becomes keyed by (hour, operator, category). */
function migrateOperatorCategories(sql: SqlRunner): void {
  const columns = sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('operator_counts')");
  if (columns.length === 0 || columns.some((column) => column.name === "category")) return;
  sql.transaction(() => {
    sql.exec("ALTER TABLE operator_counts RENAME TO operator_counts_before_categories");
    for (const statement of ACTIVITY_SCHEMA) sql.exec(statement);
    sql.exec(
      `INSERT INTO operator_counts SELECT hour, operator, '', crawls, verified, bytes, referrals
       FROM operator_counts_before_categories`,
    );
    sql.exec("DROP TABLE operator_counts_before_categories");
  });
}
