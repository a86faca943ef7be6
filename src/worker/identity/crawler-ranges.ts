/**
 * Published crawler IP ranges for verification: fetched by the cron into KV (one entry for
 * all sources), held in isolate memory (re-read from KV every 10 minutes, so no KV read per
 * request). A failed or empty fetch keeps the source's previous list, and is recorded with
 * its error so status can say which list is missing or stale. Until a source's first good
 * fetch, claims that need it are unverifiable (policy/claim.ts), never believed.
 */

import { parseRangeList, RangeSet, RANGE_SOURCES } from "../../agents/verification.ts";
import { IsolateMemory } from "../isolate-memory.ts";
import { ROBOTS_FETCH_USER_AGENT } from "../robots/origin-fetch.ts";
import { readRanges, writeRanges, type StoredRanges } from "../store.ts";

const MEMORY_RECHECK_MS = 10 * 60_000;
/**
 * A list not refreshed for this long is stale: the cron tries every 30 minutes. A stale list
 * still verifies the addresses it holds, but no longer refutes the others (RangeSet.stale):
 * the operator may have added ranges since, and our failure to fetch them must not make its
 * real crawler an impostor.
 */
export const STALE_LIST_MS = 24 * 3600_000;

const memory = new IsolateMemory<"ranges", ReadonlyMap<string, RangeSet>>({
  maxEntries: 1,
  maxAgeMs: MEMORY_RECHECK_MS,
});

/** For tests (test/worker/helpers.ts): this memory outlives a test in one isolate; each test starts as a new isolate would. */
export function clearRangesMemory(): void {
  memory.clear();
}

/** Range sets per source name, as stored (empty map before the first cron run). */
export async function crawlerRanges(kv: KVNamespace): Promise<ReadonlyMap<string, RangeSet>> {
  const now = Date.now();
  const remembered = memory.get("ranges", now);
  if (remembered) return remembered;
  const stored = await readRanges(kv);
  const sets = new Map(
    Object.entries(stored?.sources ?? {}).map(([name, source]) => [
      name,
      new RangeSet(source.cidrs, { stale: now - source.fetchedAt > STALE_LIST_MS }),
    ]),
  );
  memory.set("ranges", sets, now);
  return sets;
}

/**
 * Fetch every source; store what came back valid, keep the rest as it was. The fetch names
 * itself as the robots.txt fetch does: operators' CDNs and WAFs refuse anonymous clients,
 * and a list we cannot fetch leaves its crawlers unverifiable.
 */
export async function refreshCrawlerRanges(kv: KVNamespace, timeoutMs: number): Promise<void> {
  const previous = await readRanges(kv);
  const sources: Record<string, StoredRanges["sources"][string]> = { ...previous?.sources };
  const attempts: Record<string, NonNullable<StoredRanges["attempts"]>[string]> = { ...previous?.attempts };
  await Promise.all(
    RANGE_SOURCES.map(async (source) => {
      const at = Date.now();
      try {
        const response = await fetch(source.url, {
          headers: { accept: "application/json", "user-agent": ROBOTS_FETCH_USER_AGENT },
          signal: AbortSignal.timeout(timeoutMs),
        });
        const json: unknown = response.ok ? await response.json().catch(() => NOT_JSON) : undefined;
        const cidrs = parseRangeList(json);
        if (cidrs) sources[source.name] = { fetchedAt: at, cidrs };
        attempts[source.name] = { at, error: cidrs ? null : fetchError(response, json) };
      } catch (error) {
        // Keep the previous list: an outage at the operator must not unverify its crawlers.
        attempts[source.name] = { at, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  await writeRanges(kv, { sources, attempts });
  memory.clear();
}

const NOT_JSON = Symbol("not JSON");

function fetchError(response: Response, json: unknown): string {
  if (!response.ok) return `HTTP ${response.status}`;
  return json === NOT_JSON ? "the answer is not JSON" : "no valid prefixes in the answer";
}
