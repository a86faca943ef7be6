/**
 * The only file that touches KV. One entry per origin authority (scheme://host[:port], the
 * scope RFC 9309 §2.3 gives a robots.txt), written whole in one put, so a reader sees the
 * old entry or the new one and never a mix; and the crawl pause.
 *
 * Key layout:  robots:<authority>  -> RobotsEntry (JSON), metadata { state, expiresAt } so the
 *                                     cron and status can page through keys without a read each
 *              pause               -> Pause (JSON)
 *              cron-cursor         -> where the last cron run stopped listing robots: keys
 *              policy              -> the live operator policy and its last versions (live-policy.ts): the default
 *              policy:host:<host>  -> one host's own policy, the same record (host-policies.ts; <host> canonical,
 *                                     as AUTHORITIES spells it: `shop.example`, `*.example.org`)
 *              policy-hosts        -> the index: every host with a policy record and its newest version, and the
 *                                     default's, so a request reads a record only when its version changed
 *              crawler-ranges      -> the published crawler lists (identity/crawler-ranges.ts)
 *              crawler-catalogues  -> the crawler catalogues, CRAWLER_CATALOGUES (identity/catalogues.ts)
 *              signature-directory:<url> -> a trusted Web Bot Auth signer's keys (identity/signature-directory.ts)
 *
 * Our failure is never the visitor's (docs/security.md "Our own faults"): every record is read
 * through one validated reader (readRecord, with the checks in stored-records.ts). A value that
 * is not JSON, empty, cut short, of the wrong shape, or from an older or newer release, and a
 * read that fails, is read as absent, or as this isolate's last good value of that key when it
 * has one; it is logged and named in GET status (own-faults.ts) with its repair, and nothing
 * here throws on it. Writes that fail throw StoreRefused, which the admin API answers as a JSON
 * 503 (admin/router.ts); every key can be overwritten or deleted whatever it holds, since no
 * write or delete reads the old value first.
 */

import { IsolateMemory } from "./isolate-memory.ts";
import { robotsMemoryBudget } from "./memory-budget.ts";
import { clearOwnFault, noteOwnFault } from "./own-faults.ts";
import type { RobotsEntry } from "./robots/entry.ts";
import {
  checkEntryMetadata,
  checkCatalogues,
  checkPause,
  checkPolicy,
  checkPolicyIndex,
  checkPolicyIndexEntry,
  checkRanges,
  checkRobotsEntry,
  checkSignatureDirectory,
  checkStoredText,
  RECORD_SCHEMA,
  type Checked,
  type CheckedCatalogues,
  type CheckedPolicy,
  type CheckedPolicyIndex,
  type PolicyIndexEntry,
  type CheckedPolicyVersion,
  type CheckedRanges,
  type CheckedSignatureDirectory,
  type StoredPause,
} from "./stored-records.ts";

const ROBOTS_PREFIX = "robots:";
const PAUSE_KEY = "pause";
const RANGES_KEY = "crawler-ranges";
const CATALOGUES_KEY = "crawler-catalogues";
const SIGNATURE_DIRECTORY_PREFIX = "signature-directory:";
const POLICY_KEY = "policy";
const POLICY_HOST_PREFIX = "policy:host:";
const POLICY_INDEX_KEY = "policy-hosts";
const CRON_CURSOR_KEY = "cron-cursor";

/** A write KV refused (KV down, the daily write quota spent, a value too large): the admin API answers 503. */
export class StoreRefused extends Error {
  readonly key: string;
  constructor(key: string, cause: unknown) {
    super(`the store refused to write ${key} (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = "StoreRefused";
    this.key = key;
  }
}

async function put(kv: KVNamespace, key: string, value: string, options?: KVNamespacePutOptions): Promise<void> {
  try {
    await kv.put(key, value, options);
  } catch (error) {
    throw new StoreRefused(key, error);
  }
}

async function remove(kv: KVNamespace, key: string): Promise<void> {
  try {
    await kv.delete(key);
  } catch (error) {
    throw new StoreRefused(key, error);
  }
  lastGood.delete(key);
  clearOwnFault(key);
}

/**
 * The last value of each key that read well on this isolate: what a key reads as while its
 * stored value cannot be used. Bounded like the memories it stands behind (500 origins and a
 * few single keys); the least recently read go first.
 */
const lastGood = new IsolateMemory<string, unknown>({
  maxEntries: 600,
  maxAgeMs: Number.MAX_SAFE_INTEGER,
  // A robots.txt entry holds up to ~4 MB of text (a 500 KiB file's base64 and model): 600 of
  // them, kept here after the robots.txt memory dropped them, would be GBs; so they are weighed
  // as that memory weighs their text, within the robots.txt memories' one budget.
  weigh: textWeight,
  budget: robotsMemoryBudget,
});

/** What a stored robots.txt entry's copy holds (its base64 and model); 0 for other values. */
function textWeight(value: unknown): number {
  const copy = (value as { copy?: { bodyBase64?: unknown; model?: unknown } } | undefined)?.copy;
  return copy ? lengthOf(copy.bodyBase64) + lengthOf(copy.model) : 0;
}

const lengthOf = (text: unknown): number => (typeof text === "string" ? text.length : 0);

/** What the last good values hold: how many, and their weight in the robots.txt memories' budget. */
export function lastGoodUse(): { readonly values: number; readonly bytes: number } {
  return { values: lastGood.size, bytes: lastGood.totalWeight };
}

/** Forget the last good values (tests: each starts as a new isolate would). */
export function clearStoreMemory(): void {
  lastGood.clear();
}

/** A read: the value in force (undefined: none), and why the stored one was not used, if it was not. */
export interface StoreRead<T> {
  readonly value: T | undefined;
  readonly problem: string | undefined;
}

/**
 * The one validated reader: KV's text, checked; a failed read or a value the check refuses is
 * a fault of ours (noted with its repair, logged once), answered with this isolate's last good
 * value of the key or with none. Never throws.
 */
async function readRecord<T>(
  kv: KVNamespace,
  key: string,
  check: (json: unknown) => Checked<T>,
  options: { readonly cacheTtl?: number } = {},
): Promise<StoreRead<T>> {
  let text: string | null;
  try {
    text = await kv.get(key, { type: "text", ...options });
  } catch (error) {
    return unusable<T>(key, `the read failed (${error instanceof Error ? error.message : String(error)})`);
  }
  if (text === null) {
    lastGood.delete(key);
    clearOwnFault(key);
    return { value: undefined, problem: undefined };
  }
  const checked = checkStoredText(text, check);
  if (!checked.ok) return unusable<T>(key, checked.cause);
  lastGood.set(key, checked.value, Date.now());
  clearOwnFault(key);
  return { value: checked.value, problem: undefined };
}

function unusable<T>(key: string, cause: string): StoreRead<T> {
  const kept = lastGood.get(key, Date.now()) as T | undefined;
  const reading = kept === undefined ? "read as absent" : "this isolate keeps its last good value";
  noteOwnFault(key, `${cause}; ${reading}`, repairOf(key));
  return { value: kept, problem: cause };
}

/** How the operator replaces or removes each key through the admin API (or what repairs it by itself). */
function repairOf(key: string): string {
  if (key.startsWith(ROBOTS_PREFIX)) {
    const origin = key.slice(ROBOTS_PREFIX.length);
    return `POST refresh?origin=${origin} fetches and stores it anew (or DELETE origin?origin=${origin}); until then crawlers are judged by a fresh fetch`;
  }
  if (key.startsWith(POLICY_HOST_PREFIX)) {
    const host = key.slice(POLICY_HOST_PREFIX.length);
    return `PUT policy?host=${host} saves a valid policy over it (or POST policy/rollback?host=${host}, DELETE policy?host=${host})`;
  }
  if (key.startsWith(SIGNATURE_DIRECTORY_PREFIX)) {
    return "fetched and stored anew by the next cron run or signed request; `wrangler kv key delete` removes it";
  }
  switch (key) {
    case PAUSE_KEY:
      return "DELETE pause removes it (POST pause stores a new one); until then no stored pause is in force";
    case POLICY_KEY:
      return "PUT policy saves a valid policy over it (or POST policy/rollback)";
    case POLICY_INDEX_KEY:
      return "the next save of any policy (PUT policy, with or without host=) writes it anew from the stored host records; until then hosts are judged by the default";
    case RANGES_KEY:
      return "POST refresh?sources=ranges fetches and stores the lists anew; until then claims they verify are unverifiable";
    case CATALOGUES_KEY:
      return "POST refresh?sources=catalogues fetches and stores the catalogues anew; until then only the built-in table gives categories";
    default:
      return `\`wrangler kv key delete ${key}\` removes it`;
  }
}

// ---- robots:<authority> ----

export async function readEntry(kv: KVNamespace, authority: string): Promise<RobotsEntry | undefined> {
  return (await readRecord(kv, ROBOTS_PREFIX + authority, (json) => checkRobotsEntry(json, authority))).value;
}

/** Whether KV holds anything under the origin's key, readable or not (DELETE origin says what it removed). */
export async function hasEntry(kv: KVNamespace, authority: string): Promise<boolean> {
  return (await kv.get(ROBOTS_PREFIX + authority).catch(() => null)) !== null;
}

/** What the key listing tells of an entry without reading it (older entries carry none). */
export interface EntryMetadata {
  readonly state: RobotsEntry["state"];
  readonly expiresAt: number;
}

export async function writeEntry(kv: KVNamespace, entry: RobotsEntry): Promise<void> {
  const metadata: EntryMetadata = { state: entry.state, expiresAt: entry.expiresAt };
  await put(kv, ROBOTS_PREFIX + entry.authority, JSON.stringify(entry), { metadata });
  lastGood.set(ROBOTS_PREFIX + entry.authority, entry, Date.now());
  clearOwnFault(ROBOTS_PREFIX + entry.authority);
}

export async function deleteEntry(kv: KVNamespace, authority: string): Promise<void> {
  await remove(kv, ROBOTS_PREFIX + authority);
}

/** One page of authorities with an entry, and the cursor of the next page (undefined at the end). */
export async function listAuthorityPage(
  kv: KVNamespace,
  options: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<{ authorities: { authority: string; metadata: EntryMetadata | undefined }[]; cursor: string | undefined }> {
  const page = await kv.list<unknown>({
    prefix: ROBOTS_PREFIX,
    limit: options.limit,
    ...(options.cursor && { cursor: options.cursor }),
  });
  return {
    authorities: page.keys.map((key) => ({
      authority: key.name.slice(ROBOTS_PREFIX.length),
      // Metadata of another shape reads as none: the entry is then read when the cron looks at it.
      metadata: checkEntryMetadata(key.metadata),
    })),
    cursor: page.list_complete ? undefined : page.cursor,
  };
}

// ---- cron-cursor: an opaque KV list cursor; one KV refuses is dropped by the cron (cron-refresh.ts) ----

export async function readCronCursor(kv: KVNamespace): Promise<string | undefined> {
  const cursor = await kv.get(CRON_CURSOR_KEY).catch(() => null);
  return cursor === null || cursor.trim() === "" ? undefined : cursor;
}

export async function writeCronCursor(kv: KVNamespace, cursor: string | undefined): Promise<void> {
  if (cursor === undefined) await remove(kv, CRON_CURSOR_KEY);
  else await put(kv, CRON_CURSOR_KEY, cursor);
}

/** The stored cursor was refused by KV's list: named in status, then dropped so the next run starts over. */
export function noteBadCronCursor(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  noteOwnFault(
    CRON_CURSOR_KEY,
    `KV refused the stored cursor (${message}); this run started over`,
    repairOf(CRON_CURSOR_KEY),
  );
}

// ---- pause ----

/** A crawl pause started through the admin API. */
export type Pause = StoredPause;

export async function readPause(kv: KVNamespace): Promise<Pause | undefined> {
  return (await readRecord(kv, PAUSE_KEY, checkPause)).value;
}

/** Whether KV holds anything under `pause`, readable or not (DELETE pause says what it removed). */
export async function hasPause(kv: KVNamespace): Promise<boolean> {
  return (await kv.get(PAUSE_KEY).catch(() => null)) !== null;
}

/** Store a pause; KV drops it by itself a minute after it ends. */
export async function writePause(kv: KVNamespace, pause: Pause): Promise<void> {
  const ttlSeconds = Math.max(60, Math.ceil((pause.until - Date.now()) / 1000) + 60);
  await put(kv, PAUSE_KEY, JSON.stringify({ schema: RECORD_SCHEMA, ...pause }), { expirationTtl: ttlSeconds });
  lastGood.set(PAUSE_KEY, pause, Date.now());
  clearOwnFault(PAUSE_KEY);
}

export async function deletePause(kv: KVNamespace): Promise<void> {
  await remove(kv, PAUSE_KEY);
}

// ---- crawler-ranges ----

/** Published crawler IP ranges, per source name (see agents/verification.ts). */
export type StoredRanges = CheckedRanges;

export async function readRanges(kv: KVNamespace): Promise<StoredRanges | undefined> {
  return (await readRecord(kv, RANGES_KEY, checkRanges)).value;
}

export async function writeRanges(kv: KVNamespace, ranges: StoredRanges): Promise<void> {
  await put(kv, RANGES_KEY, JSON.stringify({ schema: RECORD_SCHEMA, ...ranges }));
  lastGood.set(RANGES_KEY, ranges, Date.now());
  clearOwnFault(RANGES_KEY);
}

// ---- crawler-catalogues ----

/** The crawler catalogues as stored: each last good copy, each last attempt (identity/catalogues.ts). */
export type StoredCatalogues = CheckedCatalogues;

export async function readCatalogues(kv: KVNamespace): Promise<StoredCatalogues | undefined> {
  return (await readRecord(kv, CATALOGUES_KEY, checkCatalogues)).value;
}

export async function writeCatalogues(kv: KVNamespace, catalogues: StoredCatalogues): Promise<void> {
  await put(kv, CATALOGUES_KEY, JSON.stringify({ schema: RECORD_SCHEMA, ...catalogues }));
  lastGood.set(CATALOGUES_KEY, catalogues, Date.now());
  clearOwnFault(CATALOGUES_KEY);
}

// ---- signature-directory:<url> ----

/** A trusted Web Bot Auth signer's key set, by signer URL: the last good JSON and when to fetch it next. */
export type StoredSignatureDirectory = CheckedSignatureDirectory;

export async function readSignatureDirectory(
  kv: KVNamespace,
  signerUrl: string,
): Promise<StoredSignatureDirectory | undefined> {
  const key = SIGNATURE_DIRECTORY_PREFIX + signerUrl;
  return (await readRecord(kv, key, (json) => checkSignatureDirectory(json, signerUrl))).value;
}

export async function writeSignatureDirectory(kv: KVNamespace, directory: StoredSignatureDirectory): Promise<void> {
  const key = SIGNATURE_DIRECTORY_PREFIX + directory.url;
  await put(kv, key, JSON.stringify({ schema: RECORD_SCHEMA, ...directory }));
  lastGood.set(key, directory, Date.now());
  clearOwnFault(key);
}

// ---- policy, policy:host:<host>, policy-hosts ----

/** One saved version of the operator policy (live-policy.ts says what each field means). */
export type StoredPolicyVersion = CheckedPolicyVersion;

/** The live policy as stored: its versions, newest first, each read or with why it cannot be. */
export type StoredPolicy = CheckedPolicy;

/** Which hosts have a policy record, and each one's newest version (and the default's). */
export type StoredPolicyIndex = CheckedPolicyIndex;
export type { PolicyIndexEntry };

/** The key of a host's policy record; null is the default's (`policy`, as before hosts). */
function policyKey(host: string | null): string {
  return host === null ? POLICY_KEY : POLICY_HOST_PREFIX + host;
}

/**
 * The stored policy record of a host (null: the default). `cacheTtl` (seconds, at least 30)
 * lets KV serve it from the location's cache that long; the request path passes it, the admin
 * API reads fresh.
 */
export async function readPolicy(
  kv: KVNamespace,
  options: { readonly cacheTtl?: number; readonly host?: string | null } = {},
): Promise<StoreRead<StoredPolicy>> {
  const { host = null, ...read } = options;
  return readRecord(kv, policyKey(host), checkPolicy, read);
}

/** Write a host's versions (null: the default's) whole in one put (newest first). */
export async function writePolicy(
  kv: KVNamespace,
  { versions }: { readonly versions: readonly StoredPolicyVersion[] },
  host: string | null = null,
  /** A host's line of the index, also kept as the key's metadata so the index can be rebuilt from a listing. */
  metadata?: PolicyIndexEntry,
): Promise<void> {
  const key = policyKey(host);
  await put(kv, key, JSON.stringify({ schema: RECORD_SCHEMA, versions }), metadata && { metadata });
  lastGood.set(key, { versions: versions.map((value) => ({ ok: true, value })) }, Date.now());
  clearOwnFault(key);
}

/**
 * A fault of a readable policy record (null: the default's): its newest version does not
 * validate (live-policy.ts says which is in force instead); undefined when the newest is in force.
 */
export function notePolicyFault(cause: string | undefined, host: string | null = null): void {
  const key = policyKey(host);
  if (cause === undefined) clearOwnFault(key);
  else noteOwnFault(key, cause, repairOf(key));
}

/** The index of host policies (absent: no host has ever had one, or a release before hosts). */
export async function readPolicyIndex(
  kv: KVNamespace,
  options: { readonly cacheTtl?: number } = {},
): Promise<StoreRead<StoredPolicyIndex>> {
  return readRecord(kv, POLICY_INDEX_KEY, checkPolicyIndex, options);
}

/** Write the index whole (hosts sorted by name, so a listing pages through it in order). */
export async function writePolicyIndex(kv: KVNamespace, index: StoredPolicyIndex): Promise<void> {
  const hosts = Object.fromEntries([...index.hosts].toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  await put(kv, POLICY_INDEX_KEY, JSON.stringify({ schema: RECORD_SCHEMA, default: index.default, hosts }));
  lastGood.set(POLICY_INDEX_KEY, index, Date.now());
  clearOwnFault(POLICY_INDEX_KEY);
}

/** Every host's policy record as KV's listing describes it (its metadata), to rebuild an unreadable index. */
export async function listPolicyHostEntries(kv: KVNamespace): Promise<Map<string, PolicyIndexEntry>> {
  const hosts = new Map<string, PolicyIndexEntry>();
  let cursor: string | undefined;
  do {
    const page = await kv.list<unknown>({ prefix: POLICY_HOST_PREFIX, ...(cursor && { cursor }) });
    for (const key of page.keys) {
      const entry = checkPolicyIndexEntry(key.metadata);
      // A record without usable metadata is listed as a policy of its own: read when requested.
      hosts.set(key.name.slice(POLICY_HOST_PREFIX.length), entry ?? { version: 1, savedAt: 0, via: "put", own: true });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return hosts;
}
