/**
 * Published crawler IP ranges for verification: fetched by the cron (or POST
 * refresh?sources=ranges) into KV (one entry for all sources), held in isolate memory (re-read
 * from KV every 10 minutes, so no KV read per request). A failed, empty or oversized fetch
 * keeps the source's previous list, and is recorded with its error so status can say which
 * list is missing or stale. Until a source's first good fetch, claims that need it are
 * unverifiable (policy/claim.ts), never believed.
 *
 * Each load of the lists also compiles the crawler-only ones into one AddressIndex
 * (agents/address-intervals.ts) for crawlers in disguise: once per load, never per request.
 * A stale crawler-only list is left out of it (a list problem never makes anyone a crawler);
 * mixed lists are always in, as exclusions.
 *
 * Where a list comes from: the operator's address (RANGE_SOURCES), or CRAWLER_RANGES's URL
 * for that source (a mirror, a test). A list is bounded: MAX_RANGE_LIST_BYTES of body and
 * MAX_RANGE_PREFIXES prefixes, so a list (or its mirror) cannot grow the KV entry, the isolate's
 * memory or the compile time without bound; and no prefix wider than WIDEST_PREFIX, so a typo
 * (0.0.0.0/0) cannot make everyone a crawler.
 */

import { compileAddressIndex, type AddressIndex, type RangeListInput } from "../../agents/address-intervals.ts";
import { rangeUseOf } from "../../agents/operators/tables.ts";
import { parseRangeList, RangeSet } from "../../agents/verification.ts";
import { RANGE_SOURCES, type RangeSource } from "../../agents/operators/tables.ts";
import { IsolateMemory } from "../isolate-memory.ts";
import { fetchBoundedJson } from "../robots/origin-fetch.ts";
import { readRanges, writeRanges, type StoredRanges } from "../store.ts";

/** A published list's largest body: Google's biggest lists are tens of KiB. */
export const MAX_RANGE_LIST_BYTES = 1024 * 1024;
/** A published list's most prefixes: Google's googlebot list has a few hundred. */
export const MAX_RANGE_PREFIXES = 10_000;
/**
 * The widest prefix a list may hold, per family. Operators publish their crawlers' addresses
 * in small blocks (Google /27 and /64, Bing and OpenAI /24 to /28, Common Crawl /29); a wider
 * one (0.0.0.0/0, ::/0, a whole /8) is a typo or a bad mirror, and would make every person in
 * it that crawler in disguise, and verify anyone's claim of it. Such a list is refused as a
 * whole, as an oversized one is: the last good list kept, the error shown in status.
 */
export const WIDEST_PREFIX = { ipv4: 16, ipv6: 32 } as const;

const MEMORY_RECHECK_MS = 10 * 60_000;
/**
 * A list not refreshed for this long is stale: the cron tries every 30 minutes. A stale list
 * still verifies the addresses it holds, but no longer refutes the others (RangeSet.stale):
 * the operator may have added ranges since, and our failure to fetch them must not make its
 * real crawler an impostor.
 */
export const STALE_LIST_MS = 24 * 3600_000;

/** What one load of the stored lists gives: a RangeSet per source, and the crawler-only index. */
interface LoadedRanges {
  readonly sets: ReadonlyMap<string, RangeSet>;
  readonly disguise: AddressIndex;
}

const memory = new IsolateMemory<"ranges", LoadedRanges>({
  maxEntries: 1,
  maxAgeMs: MEMORY_RECHECK_MS,
});

/** For tests (test/worker/helpers.ts): this memory outlives a test in one isolate; each test starts as a new isolate would. */
export function clearRangesMemory(): void {
  memory.clear();
  compiled = undefined;
}

/** Range sets per source name, as stored (empty map before the first cron run). */
export async function crawlerRanges(kv: KVNamespace): Promise<ReadonlyMap<string, RangeSet>> {
  return (await loadedRanges(kv)).sets;
}

/** The crawler-only lists compiled (fresh ones only; mixed lists as exclusions). */
export async function crawlerOnlyIndex(kv: KVNamespace): Promise<AddressIndex> {
  return (await loadedRanges(kv)).disguise;
}

/**
 * The compiled index when this isolate holds it, else undefined (then crawlerOnlyIndex reads
 * KV). Every browser request asks for it: on a warm isolate it is answered without a promise,
 * which is most of what the check would cost (bench/disguise.bench.ts).
 */
export function crawlerOnlyIndexInMemory(): AddressIndex | undefined {
  return memory.get("ranges", Date.now())?.disguise;
}

async function loadedRanges(kv: KVNamespace): Promise<LoadedRanges> {
  const now = Date.now();
  const remembered = memory.get("ranges", now);
  if (remembered) return remembered;
  const stored = await readRanges(kv);
  const lists = Object.entries(stored?.sources ?? {}).map(([name, source]) => ({
    name,
    cidrs: source.cidrs,
    stale: now - source.fetchedAt > STALE_LIST_MS,
  }));
  const sets = new Map(lists.map((list) => [list.name, new RangeSet(list.cidrs, { stale: list.stale })]));
  const inputs = lists
    .map((list) => ({ ...list, crawlerOnly: rangeUseOf(list.name)?.use === "crawler-only" }))
    .filter((list) => !(list.crawlerOnly && list.stale));
  const loaded = { sets, disguise: compiledOnce(inputs, stored?.sources ?? {}) };
  memory.set("ranges", loaded, now);
  return loaded;
}

/**
 * The compiled index, recompiled only when the lists it is made of changed (a new fetch, a list
 * turning stale): the isolate re-reads KV every 10 minutes, the lists change at most every 30.
 */
let compiled: { readonly signature: string; readonly index: AddressIndex } | undefined;

function compiledOnce(
  inputs: readonly (RangeListInput & { readonly stale: boolean })[],
  sources: StoredRanges["sources"],
): AddressIndex {
  const signature = inputs
    .map((list) => `${list.name}@${sources[list.name]?.fetchedAt}:${list.cidrs.length}:${list.stale}`)
    .join(",");
  if (compiled?.signature !== signature) compiled = { signature, index: compileAddressIndex(inputs) };
  return compiled.index;
}

/** Where a source's list is fetched from: CRAWLER_RANGES's URL for it, else the operator's. */
export function rangeListUrl(source: RangeSource, urls: ReadonlyMap<string, string>): string {
  return urls.get(source.name) ?? source.url;
}

/**
 * Fetch every source; store what came back valid, keep the rest as it was. The fetch names
 * itself as the robots.txt fetch does: operators' CDNs and WAFs refuse anonymous clients,
 * and a list we cannot fetch leaves its crawlers unverifiable.
 */
export async function refreshCrawlerRanges(
  kv: KVNamespace,
  options: { readonly timeoutMs: number; readonly urls: ReadonlyMap<string, string> },
): Promise<void> {
  const previous = await readRanges(kv);
  const sources: Record<string, StoredRanges["sources"][string]> = { ...previous?.sources };
  const attempts: Record<string, NonNullable<StoredRanges["attempts"]>[string]> = { ...previous?.attempts };
  await Promise.all(
    RANGE_SOURCES.map(async (source) => {
      const at = Date.now();
      const url = rangeListUrl(source, options.urls);
      try {
        const cidrs = await fetchRangeList(url, options.timeoutMs);
        sources[source.name] = { fetchedAt: at, cidrs };
        attempts[source.name] = { at, error: null, url };
      } catch (error) {
        // Keep the previous list: an outage at the operator must not unverify its crawlers.
        attempts[source.name] = { at, error: error instanceof Error ? error.message : String(error), url };
      }
    }),
  );
  await writeRanges(kv, { sources, attempts });
  memory.clear();
}

/** One list's valid CIDRs; throws with what status shows as the last error. */
async function fetchRangeList(url: string, timeoutMs: number): Promise<string[]> {
  const json = await fetchBoundedJson(url, timeoutMs, MAX_RANGE_LIST_BYTES);
  const count = prefixCount(json);
  if (count > MAX_RANGE_PREFIXES) throw new Error(`refused: ${count} prefixes, more than ${MAX_RANGE_PREFIXES}`);
  const cidrs = parseRangeList(json);
  if (!cidrs) throw new Error("no valid prefixes in the answer");
  const wide = cidrs.find(tooWide);
  if (wide !== undefined) throw new Error(`refused: ${wide} is wider than any crawler's block (${widestOf(wide)})`);
  return cidrs;
}

/** Whether a valid CIDR covers more than WIDEST_PREFIX allows for its family. */
function tooWide(cidr: string): boolean {
  const length = Number(cidr.slice(cidr.lastIndexOf("/") + 1));
  return cidr.includes(":") ? length < WIDEST_PREFIX.ipv6 : length < WIDEST_PREFIX.ipv4;
}

function widestOf(cidr: string): string {
  return cidr.includes(":") ? `IPv6 /${WIDEST_PREFIX.ipv6}` : `IPv4 /${WIDEST_PREFIX.ipv4}`;
}

function prefixCount(json: unknown): number {
  const prefixes = typeof json === "object" && json !== null ? (json as { prefixes?: unknown }).prefixes : undefined;
  return Array.isArray(prefixes) ? prefixes.length : 0;
}
