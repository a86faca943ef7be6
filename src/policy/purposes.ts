/**
 * Purposes: which crawler categories may use which paths, said once in the live policy.
 *
 *   {"purposes": [
 *     {"path": "/", "search-engine": "allow", "ai-assistant": "allow", "ai-training": "block"},
 *     {"path": "/members/", "search-engine": "block", "ai-search": "block", "ai-training": "block"}]}
 *
 * Each entry is a path prefix and, per crawler category of the crawler table (or per product
 * token, to name one crawler), `allow` or `block`. Pure: read and validated here, compiled into
 * robots.txt lines by purposes-robots.ts; the edge enforces those lines, never this setting
 * directly, so what a crawler reads and what the edge does cannot differ.
 *
 * Choices (docs/decisions.md "Purposes"):
 *   - for a crawler, the entries that speak for it are those naming its token, else its
 *     category; an entry silent about it leaves it as the origin's robots.txt says;
 *   - a path is blocked for a crawler when an entry speaking for it blocks a prefix of the path;
 *     an `allow` under a shorter `block` cannot re-open it (robots.txt rules of a named group
 *     cannot carve a hole that keeps the `*` rules inside it exact), so the lint reports it and
 *     the block stands: the safe side for the crawler the operator wanted kept out.
 *   - `allow` never opens what robots.txt closes: the edge only ever adds blocks.
 */

import { CRAWLER_CATEGORIES, isCrawlerCategory, type CrawlerCategory } from "../vocabulary.ts";
import { productToken } from "../core/index.ts";

export type PurposeAction = "allow" | "block";

/** One entry: a path prefix and what it says per category and per named crawler. */
export interface PurposeEntry {
  /** A plain path prefix ("/members/"): no `*`, no `$`. */
  readonly path: string;
  readonly categories: Readonly<Partial<Record<CrawlerCategory, PurposeAction>>>;
  /** Product tokens as written -> action; a token here overrides its category. */
  readonly crawlers: Readonly<Record<string, PurposeAction>>;
}

export type Purposes = readonly PurposeEntry[];

/** Bounds on the setting: it is compiled into every served robots.txt. */
export const MAX_PURPOSES = 32;
export const MAX_PURPOSE_PATH = 256;
export const MAX_NAMED_CRAWLERS = 16;

/** A path prefix robots.txt can carry as written: printable ASCII, no wildcard, anchor, space or comment. */
const PLAIN_PATH = /^\/[!-~]*$/;

/** The `purposes` member of a policy document, validated; problems are pushed to `problems`. */
export function readPurposes(value: unknown, where: string, problems: string[]): Purposes {
  if (!Array.isArray(value)) {
    problems.push(`${where} must be a list of {"path": …, "<category>": "allow" | "block"}`);
    return [];
  }
  if (value.length > MAX_PURPOSES) problems.push(`${where} has ${value.length} entries; at most ${MAX_PURPOSES}`);
  const entries = value.slice(0, MAX_PURPOSES).map((entry, i) => readEntry(entry, `${where}[${i}]`, problems));
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const first = seen.get(entry.path);
    if (first !== undefined)
      problems.push(`${where}[${i}].path ${JSON.stringify(entry.path)} repeats ${where}[${first}]`);
    else seen.set(entry.path, i);
  });
  return entries;
}

function readEntry(value: unknown, where: string, problems: string[]): PurposeEntry {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`${where} must be an object`);
    return { path: "/", categories: {}, crawlers: {} };
  }
  const fields = value as Record<string, unknown>;
  const path = fields["path"];
  const validPath =
    typeof path === "string" && path.length <= MAX_PURPOSE_PATH && PLAIN_PATH.test(path) && !/[*$#]/.test(path);
  if (!validPath) {
    problems.push(
      `${where}.path must be a path prefix starting with "/" (printable ASCII, no "*", "$", "#" or spaces, at most ${MAX_PURPOSE_PATH} characters), got ${JSON.stringify(path)}`,
    );
  }
  const categories: Partial<Record<CrawlerCategory, PurposeAction>> = {};
  const crawlers: Record<string, PurposeAction> = {};
  // Product tokens compare without case: "GPTBot" and "gptbot" name one crawler, and two
  // actions for it would leave one of them silently unapplied.
  const named = new Map<string, string>();
  for (const [key, action] of Object.entries(fields)) {
    if (key === "path") continue;
    if (action !== "allow" && action !== "block") {
      problems.push(`${where}.${key} must be "allow" or "block", got ${JSON.stringify(action)}`);
      continue;
    }
    const first = isProductToken(key) ? named.get(productToken(key)) : undefined;
    if (isCrawlerCategory(key)) categories[key] = action;
    else if (first !== undefined) {
      problems.push(
        `${where}.${key} names ${first} again (product tokens compare without case); name each crawler once`,
      );
    } else if (isProductToken(key)) {
      crawlers[key] = action;
      named.set(productToken(key), key);
    } else {
      problems.push(
        `${where}.${key} is neither a crawler category (${CRAWLER_CATEGORIES.join(", ")}) nor a product token (letters, digits, "-", "_", ".")`,
      );
    }
  }
  if (Object.keys(crawlers).length > MAX_NAMED_CRAWLERS) {
    problems.push(`${where} names ${Object.keys(crawlers).length} crawlers; at most ${MAX_NAMED_CRAWLERS}`);
  }
  return { path: validPath ? path : "/", categories, crawlers };
}

function isProductToken(name: string): boolean {
  return name !== "" && productToken(name) === name.toLowerCase();
}

/** The action an entry states for a crawler: by its token first, then its category. */
export function actionFor(entry: PurposeEntry, token: string, category: CrawlerCategory): PurposeAction | undefined {
  const key = productToken(token);
  for (const [name, action] of Object.entries(entry.crawlers)) if (productToken(name) === key) return action;
  return entry.categories[category];
}

/**
 * The prefixes a crawler is blocked on: every entry speaking for it with `block`, minus those
 * inside another such prefix (already blocked). Shortest first.
 */
export function blockedPrefixes(purposes: Purposes, token: string, category: CrawlerCategory): string[] {
  const blocks = purposes
    .filter((entry) => actionFor(entry, token, category) === "block")
    .map((entry) => entry.path)
    .toSorted((a, b) => a.length - b.length || a.localeCompare(b));
  return blocks.filter((path, i) => !blocks.slice(0, i).some((outer) => path.startsWith(outer)));
}

/** `allow` entries for a crawler that lie under one of its blocks: they cannot re-open it. */
export function unexpressibleAllows(
  purposes: Purposes,
  token: string,
  category: CrawlerCategory,
): { readonly path: string; readonly under: string }[] {
  const blocked = blockedPrefixes(purposes, token, category);
  return purposes.flatMap((entry) => {
    if (actionFor(entry, token, category) !== "allow") return [];
    const under = blocked.find((outer) => entry.path.startsWith(outer));
    return under === undefined ? [] : [{ path: entry.path, under }];
  });
}

/** Whether a category is blocked at a path prefix by the entries (any enclosing block counts). */
export function categoryBlockedAt(purposes: Purposes, category: CrawlerCategory, path: string): boolean | undefined {
  let said: boolean | undefined;
  for (const entry of purposes) {
    const action = entry.categories[category];
    if (action === undefined || !path.startsWith(entry.path)) continue;
    if (action === "block") return true;
    said = false;
  }
  return said;
}
