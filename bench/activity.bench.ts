// The activity store's bounds, measured on the very statements the ActivityLog object runs
// (src/worker/activity/store.ts), here on Node's SQLite:
//   - the 30-day view with 200 new names an hour (144,000 names): target within 1 s and 16 MB;
//   - SQLite rows written per crawler request under sustained traffic: target at most 0.2
//     (Workers Free allows 100,000 rows written a day, then fails every further write).
// Rows written are what Cloudflare bills: rows inserted, updated or deleted (every table is
// keyed by its primary key, so there is no second index row to count).
import { DatabaseSync } from "node:sqlite";
import { ActivityBuffer } from "../src/policy/activity-batch.ts";
import type { CrawlerEvent } from "../src/policy/activity.ts";
import { summarizeActivity } from "../src/policy/activity-summary.ts";
import { ActivityStore, OTHER_TOKEN, type SqlRunner, type SqlValue } from "../src/worker/activity/store.ts";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 23, 12, 30);
const HOUR0 = NOW - (NOW % HOUR);

/** Node's SQLite behind the store's interface, counting rows written. */
function nodeSql(): SqlRunner & { written: number; db: DatabaseSync } {
  const db = new DatabaseSync(":memory:");
  const runner = {
    db,
    written: 0,
    exec<T extends Record<string, SqlValue>>(query: string, ...bindings: SqlValue[]): T[] {
      const statement = db.prepare(query);
      if (/^\s*(SELECT|WITH)\b/i.test(query)) return statement.all(...bindings) as T[];
      runner.written += Number(statement.run(...bindings).changes);
      return [];
    },
    transaction(body: () => void): void {
      db.exec("BEGIN");
      body();
      db.exec("COMMIT");
    },
  };
  return runner;
}

// --- The 30-day view with 200 new names an hour -------------------------------------------
{
  const sql = nodeSql();
  const store = new ActivityStore(sql);
  sql.db.exec(
    `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < 719),
                    b(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM b WHERE i < 199)
     INSERT INTO hourly_counts SELECT ${HOUR0} - n * ${HOUR}, 'Invented-' || n || '-' || i, '', 'unchecked',
                                      CASE i % 3 WHEN 0 THEN 'pass' WHEN 1 THEN 'block' ELSE 'report' END,
                                      'robots.txt', 1 + i % 5, 0 FROM h, b`,
  );
  sql.db.exec(
    `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < 719)
     INSERT INTO hourly_counts SELECT ${HOUR0} - n * ${HOUR}, 'GPTBot', 'ai-training', 'verified', 'block',
                                      'robots.txt', 3, 3 FROM h`,
  );
  const window = { fromHour: HOUR0 - 719 * HOUR, toHour: HOUR0 };
  const times: number[] = [];
  let heap = 0;
  let size = 0;
  for (let run = 0; run < 5; run++) {
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const read = store.read(window, 100, NOW);
    const answer = JSON.stringify(summarizeActivity(read, window, OTHER_TOKEN));
    times.push(performance.now() - started);
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
    size = answer.length;
  }
  const median = times.toSorted((a, b) => a - b)[2] ?? NaN;
  const mb = heap / 1_048_576;
  console.log("activity view, 30 days x 200 new names an hour (144,000 names, 144,720 hourly rows)");
  console.log(`  read + summary: median ${median.toFixed(0)} ms of 5 (target <= 1000 ms)`);
  console.log(
    `  JS heap grown during one read: ${mb.toFixed(1)} MB (target <= 16 MB; ${globalThis.gc ? "after gc" : "run with --expose-gc for a clean figure"})`,
  );
  console.log(`  answer: ${(size / 1024).toFixed(0)} KiB of JSON`);
  console.log(`${median <= 1000 && mb <= 16 ? "PASS" : "MISS"}  30-day view within 1 s and 16 MB`);
}

// --- Rows written per crawler request under sustained traffic -------------------------------
/**
 * `perSecond` crawler requests for an hour, from 12 crawlers and a few paths, through the
 * isolate's buffer (flushed every 2 s, as the recorder does) into the store, which writes
 * when it says to (what waited MAX_PENDING_MS, or MAX_PENDING_ROWS counts), as the object does.
 */
function rowsPerRequest(perSecond: number): number {
  const sql = nodeSql();
  const store = new ActivityStore(sql);
  const buffer = new ActivityBuffer();
  const tokens = ["Googlebot", "bingbot", "GPTBot", "ClaudeBot", "CCBot", "Applebot", "YandexBot"];
  const unknown = ["ExampleBot", "SiteAuditBot", "FooCrawler", "BarSpider", "(unnamed)"];
  const actions = ["pass", "pass", "pass", "block", "rate-limited"] as const;
  let requests = 0;
  const seconds = 3_600;
  for (let second = 0; second < seconds; second++) {
    const time = NOW + second * 1000;
    for (let k = 0; k < perSecond; k++) {
      const i = requests++;
      const known = i % 3 !== 0;
      const token = known ? (tokens[i % tokens.length] ?? "") : (unknown[i % unknown.length] ?? "");
      const event: CrawlerEvent = {
        time,
        token,
        tokens: [token],
        category: known ? "search-engine" : null,
        verified: known && i % 2 === 0 ? "verified" : "unchecked",
        method: "GET",
        path: `/page/${i % 50}`,
        action: actions[i % actions.length] ?? "pass",
        layer: "robots.txt",
        line: null,
        rule: null,
        violation: false,
      };
      buffer.add("https://example.com", { kind: "crawler", event });
    }
    if (second % 2 === 1) for (const [, batch] of buffer.take()) if (store.add(batch, time)) store.write(time);
  }
  for (const [, batch] of buffer.take()) store.add(batch, NOW + seconds * 1000);
  store.write(NOW + seconds * 1000);
  return sql.written / requests;
}

console.log("SQLite rows written per crawler request, an hour of sustained traffic (12 crawlers)");
let worst = 0;
for (const perSecond of [1, 10, 100]) {
  const rows = rowsPerRequest(perSecond);
  worst = Math.max(worst, rows);
  console.log(`  ${String(perSecond).padStart(3)} requests/s: ${rows.toFixed(3)} rows written per request`);
}
console.log(
  `${worst <= 0.2 ? "PASS" : "MISS"}  at most 0.2 rows written per crawler request (worst ${worst.toFixed(3)})`,
);
