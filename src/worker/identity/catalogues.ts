/**
 * Crawler catalogues (CRAWLER_CATALOGUES, agents/catalogue.ts): fetched by the cron and by
 * `POST refresh?sources=catalogues` from the URLs in force only (never one a request names),
 * stored in KV as one record through the validated reader, and held in isolate memory (re-read
 * from KV every 10 minutes, so no KV read per request) as one lookup table.
 *
 * Kept as the published address lists are (crawler-ranges.ts): a failed, hanging (the fetch
 * timeout), oversized (MAX_CATALOGUE_BYTES), over-long (MAX_CATALOGUE_ENTRIES) or malformed
 * answer keeps the catalogue's last good copy, and its error is stored with the attempt, so
 * GET status says which catalogue failed, when and why. A catalogue removed from the var is
 * dropped at the next refresh; until then it is not used (only the var's names are looked up).
 */

import {
  catalogueTable,
  cataloguedOf,
  EMPTY_CATALOGUE_TABLE,
  MAX_CATALOGUE_BYTES,
  parseCatalogue,
  type CatalogueTable,
  type CataloguedFact,
  type Disagreement,
} from "../../agents/catalogue.ts";
import type { AgentInfo } from "../../agents/classify.ts";
import type { Config } from "../../config/read-config.ts";
import { IsolateMemory } from "../isolate-memory.ts";
import { fetchBoundedJson } from "../robots/origin-fetch.ts";
import { readCatalogues, writeCatalogues, type StoredCatalogues } from "../store.ts";
import type { StoredCatalogue } from "../stored-records.ts";

const MEMORY_RECHECK_MS = 10 * 60_000;
/** A catalogue not refreshed for this long is shown as stale (it is still used: it can only restrict). */
export const STALE_CATALOGUE_MS = 24 * 3600_000;

const memory = new IsolateMemory<string, CatalogueTable>({ maxEntries: 1, maxAgeMs: MEMORY_RECHECK_MS });

/** For tests: each starts as a new isolate would. */
export function clearCataloguesMemory(): void {
  memory.clear();
}

/**
 * The lookup table of the catalogues the var names, in its order. Keyed by the var's names, so
 * a change of the var is a new table at once.
 */
export async function catalogues(kv: KVNamespace, urls: ReadonlyMap<string, string>): Promise<CatalogueTable> {
  if (urls.size === 0) return EMPTY_CATALOGUE_TABLE;
  const key = [...urls.keys()].join("\n");
  const now = Date.now();
  const remembered = memory.get(key, now);
  if (remembered) return remembered;
  const stored = await readCatalogues(kv);
  const loaded = [...urls.keys()].flatMap((name) => {
    const catalogue = stored?.catalogues[name];
    return catalogue ? [{ name, fetchedAt: catalogue.fetchedAt, entries: catalogue.entries }] : [];
  });
  const table = catalogueTable(loaded);
  memory.set(key, table, now);
  return table;
}

/**
 * The catalogue entry for a request's User-Agent claim (the decision's held fact), read only for
 * a crawler neither the built-in table nor Cloudflare's category names: a browser, or a known
 * crawler, costs nothing.
 */
export async function cataloguedClaim(
  kv: KVNamespace,
  config: Pick<Config, "crawlerCatalogues">,
  agent: AgentInfo,
  cloudflareCategory: unknown,
): Promise<CataloguedFact | undefined> {
  if (!agent.crawler || agent.known !== undefined || cloudflareCategory !== undefined) return undefined;
  if (config.crawlerCatalogues.size === 0 || agent.tokens.length === 0) return undefined;
  return cataloguedOf(await catalogues(kv, config.crawlerCatalogues), agent);
}

/** Fetch every catalogue the var names; store what came back valid, keep the rest as it was. */
export async function refreshCatalogues(
  kv: KVNamespace,
  options: { readonly timeoutMs: number; readonly urls: ReadonlyMap<string, string> },
): Promise<void> {
  if (options.urls.size === 0) return;
  const previous = await readCatalogues(kv);
  const kept: Record<string, StoredCatalogue> = {};
  const attempts: Record<string, StoredCatalogues["attempts"][string]> = {};
  await Promise.all(
    [...options.urls].map(async ([name, url]) => {
      const at = Date.now();
      const last = previous?.catalogues[name];
      try {
        const { format, entries } = await fetchCatalogue(url, options.timeoutMs);
        kept[name] = { fetchedAt: at, url, format, entries };
        attempts[name] = { at, error: null, url };
      } catch (error) {
        // The last good copy stays in force: a list's outage must not drop the categories it gave.
        if (last) kept[name] = last;
        attempts[name] = { at, error: error instanceof Error ? error.message : String(error), url };
      }
    }),
  );
  await writeCatalogues(kv, { catalogues: kept, attempts });
  memory.clear();
}

/** One catalogue's entries; throws with what status shows as the last error. */
async function fetchCatalogue(url: string, timeoutMs: number): Promise<ReturnType<typeof parsed>> {
  const json = await fetchBoundedJson(url, timeoutMs, MAX_CATALOGUE_BYTES);
  return parsed(json);
}

function parsed(json: unknown) {
  const result = parseCatalogue(json);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/** Each catalogue as GET status shows it. */
export interface CatalogueStatus {
  readonly name: string;
  /** Where it is fetched from now (the var's URL). */
  readonly url: string;
  readonly format: string | null;
  readonly fetchedAt: string | null;
  readonly ageSeconds: number | null;
  /** Entries in the last good copy; tokens of the built-in table among them change nothing. */
  readonly count: number | null;
  readonly lastAttemptAt: string | null;
  readonly lastError: string | null;
}

export interface CataloguesStatus {
  readonly catalogues: readonly CatalogueStatus[];
  /** Entries for tokens the built-in table knows with another category: the table wins. */
  readonly disagreements: readonly Disagreement[];
  /** A catalogue with no good copy, failing, or stale: one line each (the page's banner). */
  readonly problems: readonly string[];
}

export async function cataloguesStatus(
  kv: KVNamespace,
  config: Pick<Config, "crawlerCatalogues">,
  now: number,
): Promise<CataloguesStatus> {
  const stored = config.crawlerCatalogues.size === 0 ? undefined : await readCatalogues(kv);
  const list = [...config.crawlerCatalogues].map(([name, url]): CatalogueStatus => {
    const catalogue = stored?.catalogues[name];
    const attempt = stored?.attempts[name];
    return {
      name,
      url,
      format: catalogue?.format ?? null,
      fetchedAt: iso(catalogue?.fetchedAt),
      ageSeconds: catalogue ? Math.max(0, Math.round((now - catalogue.fetchedAt) / 1000)) : null,
      count: catalogue?.entries.length ?? null,
      lastAttemptAt: iso(attempt?.at),
      lastError: attempt?.error ?? null,
    };
  });
  const table = await catalogues(kv, config.crawlerCatalogues);
  return { catalogues: list, disagreements: table.disagreements, problems: list.flatMap(problemOf) };
}

function problemOf(catalogue: CatalogueStatus): string[] {
  const error = catalogue.lastError ? `: ${catalogue.lastError}` : "";
  if (catalogue.fetchedAt === null) {
    return [
      `crawler catalogue ${catalogue.name} is not loaded${error}; until it is, only the built-in table gives categories (POST refresh?sources=catalogues)`,
    ];
  }
  if (catalogue.lastError) {
    return [
      `crawler catalogue ${catalogue.name}: the last fetch failed${error}; its copy of ${catalogue.fetchedAt} stays in force`,
    ];
  }
  if (catalogue.ageSeconds !== null && catalogue.ageSeconds * 1000 > STALE_CATALOGUE_MS) {
    return [`crawler catalogue ${catalogue.name} is ${Math.round(catalogue.ageSeconds / 3600)} h old`];
  }
  return [];
}

function iso(time: number | undefined): string | null {
  return typeof time === "number" ? new Date(time).toISOString() : null;
}
