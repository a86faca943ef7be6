/**
 * Crawler catalogues (CRAWLER_CATALOGUES): public lists of crawler names with what each fetches
 * for, read so that a crawler listed after our last release still reaches the purposes and
 * `category:` rules of its category the day it is listed. Pure: JSON in, entries out, and the
 * lookup the request path and explain use. The Worker fetches and stores the lists
 * (worker/identity/catalogues.ts).
 *
 * Two formats are read:
 *   - ai.robots.txt's `robots.json` (github.com/ai-robots-txt/ai.robots.txt): an object from a
 *     product token to `{operator, respect, function, frequency, description}`, all free text.
 *     Only the token and `function` are used: `function` in our categories by
 *     `categoryOfFunction` (docs/decisions.md "Crawler catalogues" has the table).
 *   - our own shape: the `Operator` value of src/agents/operators/operator.ts as JSON, one
 *     operator, a list of them, or `{"operators": [...]}`. Of each crawler only `token` and
 *     `category` (one of ours) are read: its fallbacks, `obeysGlobalGroup`, address lists,
 *     host names and switches would grant (a group, an exemption, a verification), and a
 *     catalogue may not, so they are left unread.
 *
 * A catalogue can only restrict, never exempt (docs/security.md "Crawler catalogues"). What an
 * entry can give is a category, for a token the built-in table does not know; never a group
 * (the tokens stay the User-Agent's), a fallback, an exemption from `*`, or a verification.
 * A token the built-in table knows is left out of the lookup (the table wins) and noted when
 * the catalogue says another category (`disagreements`, shown in GET status). The decision
 * judges a catalogued claim twice, with the category and without, and keeps the stricter
 * (policy/claim.ts, standing "catalogued"), so a category's `allow` rule cannot open a path.
 */

import { productToken } from "../core/product-token.ts";
import { isCrawlerCategory, type CrawlerCategory } from "../vocabulary.ts";
import type { AgentInfo } from "./classify.ts";
import type { OperatorCrawler } from "./operators/operator.ts";
import { KNOWN_CRAWLERS, PURPOSE_SWITCHES } from "./operators/tables.ts";

/** A catalogue's largest body: ai.robots.txt's robots.json is about 110 KiB with 166 names. */
export const MAX_CATALOGUE_BYTES = 1024 * 1024;
/**
 * A catalogue's most entries: the public lists hold a few hundred names (robots.json 166). The
 * table is built on the request path once per load (every 10 minutes per isolate): four
 * catalogues at this bound take about 13 ms on a loaded 2-core machine (bench/catalogue.bench.ts).
 */
export const MAX_CATALOGUE_ENTRIES = 2_000;
/** A token longer than this is no crawler's name (the longest in robots.json has 28 characters). */
const MAX_TOKEN_LENGTH = 64;
/** What is kept of robots.json's `function` text (the longest in robots.json, 2026-08-22, has 303 characters). */
const MAX_LISTED_AS_LENGTH = 320;

export type CatalogueFormat = "robots.json" | "operators";

/** One name a catalogue lists, with our category for it. */
export interface CatalogueEntry {
  readonly token: string;
  readonly category: CrawlerCategory;
  /** What the catalogue says it is for, as it says it (robots.json's `function`; our shape: the category). */
  readonly listedAs: string;
}

export interface ParsedCatalogue {
  readonly format: CatalogueFormat;
  readonly entries: readonly CatalogueEntry[];
}

export type CatalogueParse =
  { readonly ok: true; readonly value: ParsedCatalogue } | { readonly ok: false; readonly error: string };

/** A catalogue as stored: its entries and when they were fetched. */
export interface LoadedCatalogue {
  readonly name: string;
  readonly fetchedAt: number;
  readonly entries: readonly CatalogueEntry[];
}

/** What the decision is handed for a claim a catalogue lists (edge-facts.ts HeldFacts `catalogued`). */
export interface CataloguedFact {
  /** The CRAWLER_CATALOGUES name of the catalogue that listed it. */
  readonly catalogue: string;
  /** When that catalogue was fetched (ms since the epoch). */
  readonly fetchedAt: number;
  /** The token as the catalogue spells it. */
  readonly token: string;
  readonly category: CrawlerCategory;
}

/** A catalogue entry for a token of the built-in table with another category: the table wins. */
export interface Disagreement {
  readonly catalogue: string;
  readonly token: string;
  readonly catalogued: CrawlerCategory;
  readonly table: CrawlerCategory;
}

type Fields = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A fetched body's JSON, read as one of the two formats; the error says what status shows.
 * Entries whose token is no product token are skipped (robots.json lists "Terra Cotta", which
 * no User-Agent line can name); a catalogue with no usable entry at all is refused.
 */
export function parseCatalogue(json: unknown): CatalogueParse {
  if (Array.isArray(json)) return parseCatalogue({ operators: json });
  if (!isObject(json)) return { ok: false, error: "not a JSON object (robots.json or our operators shape)" };
  const operators = json["operators"] ?? (Array.isArray(json["crawlers"]) ? [json] : undefined);
  const parsed =
    operators === undefined ? robotsJsonEntries(json) : Array.isArray(operators) ? ownEntries(operators) : undefined;
  if (parsed === undefined) return { ok: false, error: '"operators" is not a list' };
  if (parsed.count > MAX_CATALOGUE_ENTRIES) {
    return { ok: false, error: `refused: ${parsed.count} entries, more than ${MAX_CATALOGUE_ENTRIES}` };
  }
  if (parsed.entries.length === 0) return { ok: false, error: "no usable entry (a product token with a category)" };
  return {
    ok: true,
    value: { format: operators === undefined ? "robots.json" : "operators", entries: parsed.entries },
  };
}

interface Entries {
  readonly entries: CatalogueEntry[];
  /** Every entry seen, usable or not: what the count bound is held to. */
  readonly count: number;
}

function robotsJsonEntries(json: Fields): Entries | undefined {
  const names = Object.keys(json);
  const entries: CatalogueEntry[] = [];
  if (names.length > MAX_CATALOGUE_ENTRIES) return { entries, count: names.length };
  for (const token of names) {
    const about = json[token];
    if (!isObject(about) || !isToken(token)) continue;
    // Kept for status and tests only, bounded: a catalogue cannot grow the stored record by its prose.
    const listedAs = typeof about["function"] === "string" ? about["function"].slice(0, MAX_LISTED_AS_LENGTH) : "";
    entries.push({ token, category: categoryOfFunction(listedAs), listedAs });
  }
  return { entries, count: names.length };
}

/** What is read of an operator file's crawler (operators/operator.ts): nothing that grants. */
type CataloguedCrawler = Pick<OperatorCrawler, "token" | "category">;

function ownEntries(operators: readonly unknown[]): Entries {
  const entries: CatalogueEntry[] = [];
  let count = 0;
  for (const operator of operators) {
    const crawlers = isObject(operator) && Array.isArray(operator["crawlers"]) ? operator["crawlers"] : [];
    count += crawlers.length;
    if (count > MAX_CATALOGUE_ENTRIES) return { entries, count };
    for (const crawler of crawlers) {
      if (!isObject(crawler)) continue;
      const read: Partial<Record<keyof CataloguedCrawler, unknown>> = crawler;
      const { token, category } = read;
      if (typeof token !== "string" || !isToken(token)) continue;
      if (typeof category !== "string" || !isCrawlerCategory(category)) continue;
      entries.push({ token, category, listedAs: category });
    }
  }
  return { entries, count };
}

/** A name a User-Agent line can carry whole: RFC 9309's letters, `-`, `_`, with digits and dots. */
function isToken(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && token !== "" && productToken(token) === token.toLowerCase();
}

/**
 * robots.json's `function` in our categories. The field is free text: since 2026 it mostly
 * holds Known Agents' category names ("AI Data Scrapers", "AI Assistants", "AI Search
 * Crawlers", …), otherwise a sentence. Read in this order, first match wins:
 *   training, LLM, scraper/scrapes, data provider, dataset, machine learning -> ai-training
 *   search                                                                   -> ai-search
 *   assistant, agent, user-initiated, prompt, on behalf                      -> ai-assistant
 *   anything else ("Data is sold.", "Unclear at this time.")                 -> other
 * Every name on that list is an AI crawler by the list's own purpose; a training word wins
 * because a crawler that also trains is refused wherever training is, which is what a site that
 * blocks training asks (a catalogue can only restrict).
 */
export function categoryOfFunction(text: string): CrawlerCategory {
  const lower = text.toLowerCase();
  if (/train|\bllm\b|scrap|data provider|dataset|machine learning/.test(lower)) return "ai-training";
  if (/search/.test(lower)) return "ai-search";
  if (/assistant|agent|user-initiated|prompt|on behalf/.test(lower)) return "ai-assistant";
  return "other";
}

/** The built-in table's tokens, the names it matches and its purpose switches, each with the table's category. */
const TABLE_CATEGORY = new Map<string, CrawlerCategory>([
  ...KNOWN_CRAWLERS.flatMap((crawler) =>
    [crawler.token, ...[crawler.pattern ?? []].flat()].map((name) => [productToken(name), crawler.category] as const),
  ),
  ...PURPOSE_SWITCHES.map((purpose) => [productToken(purpose.token), purpose.category] as const),
]);

/** The lookup built from every loaded catalogue: one per load of the stored record, never per request. */
export interface CatalogueTable {
  /** By product token (lower-cased); a token the built-in table knows is never in it. */
  readonly byToken: ReadonlyMap<string, CataloguedFact>;
  readonly disagreements: readonly Disagreement[];
}

export const EMPTY_CATALOGUE_TABLE: CatalogueTable = { byToken: new Map(), disagreements: [] };

/**
 * Every catalogue's entries in one lookup, catalogues in the order given (CRAWLER_CATALOGUES's
 * order): a token two catalogues list takes the first's category.
 */
export function catalogueTable(catalogues: readonly LoadedCatalogue[]): CatalogueTable {
  const byToken = new Map<string, CataloguedFact>();
  const disagreements: Disagreement[] = [];
  for (const { name, fetchedAt, entries } of catalogues) {
    for (const { token, category } of entries) {
      const key = productToken(token);
      const table = TABLE_CATEGORY.get(key);
      if (table !== undefined) {
        if (table !== category) disagreements.push({ catalogue: name, token, catalogued: category, table });
        continue;
      }
      if (!byToken.has(key)) byToken.set(key, { catalogue: name, fetchedAt, token, category });
    }
  }
  return { byToken, disagreements };
}

/**
 * The catalogue entry for a claim: only a crawler the built-in table does not know (the table
 * wins), by its tokens, best first. A browser, or a crawler of the table, is never catalogued.
 */
export function cataloguedOf(table: CatalogueTable, agent: AgentInfo): CataloguedFact | undefined {
  if (!agent.crawler || agent.known !== undefined || table.byToken.size === 0) return undefined;
  for (const token of agent.tokens) {
    const found = table.byToken.get(productToken(token));
    if (found !== undefined) return found;
  }
  return undefined;
}
