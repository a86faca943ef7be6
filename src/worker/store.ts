/**
 * The only file that touches KV. One entry per origin authority (scheme://host[:port], the
 * scope RFC 9309 §2.3 gives a robots.txt), written whole in one put, so a reader sees the
 * old entry or the new one and never a mix; and the crawl pause.
 *
 * Key layout:  robots:<authority>  -> RobotsEntry (JSON), metadata { state, expiresAt } so the
 *                                     cron and status can page through keys without a read each
 *              pause               -> Pause (JSON)
 *              cron-cursor         -> where the last cron run stopped listing robots: keys
 *              policy              -> the live operator policy and its last versions (live-policy.ts)
 */

import { ENTRY_VERSION, type RobotsEntry } from "./robots/entry.ts";

const ROBOTS_PREFIX = "robots:";
const PAUSE_KEY = "pause";

/** A crawl pause started through the admin API. */
export interface Pause {
  readonly until: number;
  readonly retryAfter: number;
  readonly reason: string | undefined;
  readonly startedAt: number;
}

export async function readEntry(kv: KVNamespace, authority: string): Promise<RobotsEntry | undefined> {
  const value = await kv.get<RobotsEntry>(ROBOTS_PREFIX + authority, "json");
  // An entry written in another format is not guessed at: it reads as none, so the edge
  // fetches robots.txt again and writes it anew.
  return value?.version === ENTRY_VERSION ? value : undefined;
}

/** What the key listing tells of an entry without reading it (older entries carry none). */
export interface EntryMetadata {
  readonly state: RobotsEntry["state"];
  readonly expiresAt: number;
}

export async function writeEntry(kv: KVNamespace, entry: RobotsEntry): Promise<void> {
  const metadata: EntryMetadata = { state: entry.state, expiresAt: entry.expiresAt };
  await kv.put(ROBOTS_PREFIX + entry.authority, JSON.stringify(entry), { metadata });
}

export async function deleteEntry(kv: KVNamespace, authority: string): Promise<void> {
  await kv.delete(ROBOTS_PREFIX + authority);
}

/** One page of authorities with an entry, and the cursor of the next page (undefined at the end). */
export async function listAuthorityPage(
  kv: KVNamespace,
  options: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<{ authorities: { authority: string; metadata: EntryMetadata | undefined }[]; cursor: string | undefined }> {
  const page = await kv.list<EntryMetadata>({
    prefix: ROBOTS_PREFIX,
    limit: options.limit,
    ...(options.cursor && { cursor: options.cursor }),
  });
  return {
    authorities: page.keys.map((key) => ({
      authority: key.name.slice(ROBOTS_PREFIX.length),
      metadata: key.metadata ?? undefined,
    })),
    cursor: page.list_complete ? undefined : page.cursor,
  };
}

const CRON_CURSOR_KEY = "cron-cursor";

export async function readCronCursor(kv: KVNamespace): Promise<string | undefined> {
  return (await kv.get(CRON_CURSOR_KEY)) ?? undefined;
}

export async function writeCronCursor(kv: KVNamespace, cursor: string | undefined): Promise<void> {
  if (cursor === undefined) await kv.delete(CRON_CURSOR_KEY);
  else await kv.put(CRON_CURSOR_KEY, cursor);
}

export async function readPause(kv: KVNamespace): Promise<Pause | undefined> {
  return (await kv.get<Pause>(PAUSE_KEY, "json")) ?? undefined;
}

/** Store a pause; KV drops it by itself a minute after it ends. */
export async function writePause(kv: KVNamespace, pause: Pause): Promise<void> {
  const ttlSeconds = Math.max(60, Math.ceil((pause.until - Date.now()) / 1000) + 60);
  await kv.put(PAUSE_KEY, JSON.stringify(pause), { expirationTtl: ttlSeconds });
}

export async function deletePause(kv: KVNamespace): Promise<void> {
  await kv.delete(PAUSE_KEY);
}

const RANGES_KEY = "crawler-ranges";

/** Published crawler IP ranges, per source name (see agents/verification.ts). */
export interface StoredRanges {
  /** The last good list of each source. */
  readonly sources: Readonly<Record<string, { readonly fetchedAt: number; readonly cidrs: readonly string[] }>>;
  /** The last fetch of each source, good or not: what status shows as its last error. */
  readonly attempts?: Readonly<
    Record<string, { readonly at: number; readonly error: string | null; readonly url?: string }>
  >;
}

export async function readRanges(kv: KVNamespace): Promise<StoredRanges | undefined> {
  return (await kv.get<StoredRanges>(RANGES_KEY, "json")) ?? undefined;
}

export async function writeRanges(kv: KVNamespace, ranges: StoredRanges): Promise<void> {
  await kv.put(RANGES_KEY, JSON.stringify(ranges));
}

const SIGNATURE_DIRECTORY_PREFIX = "signature-directory:";

/** A trusted Web Bot Auth signer's key set, by signer URL: the last good JSON and when to fetch it next. */
export interface StoredSignatureDirectory {
  readonly url: string;
  /** The directory as last fetched with usable keys; undefined before the first success. */
  readonly json: unknown;
  readonly fetchedAt: number | undefined;
  /** Not fetched again before this (ms): the cache lifetime, or the retry delay after a failure. */
  readonly nextFetchAt: number;
  readonly lastError: string | undefined;
}

export async function readSignatureDirectory(
  kv: KVNamespace,
  signerUrl: string,
): Promise<StoredSignatureDirectory | undefined> {
  return (await kv.get<StoredSignatureDirectory>(SIGNATURE_DIRECTORY_PREFIX + signerUrl, "json")) ?? undefined;
}

export async function writeSignatureDirectory(kv: KVNamespace, directory: StoredSignatureDirectory): Promise<void> {
  await kv.put(SIGNATURE_DIRECTORY_PREFIX + directory.url, JSON.stringify(directory));
}

const POLICY_KEY = "policy";

/** One saved version of the operator policy (live-policy.ts says what each field means). */
export interface StoredPolicyVersion {
  readonly version: number;
  readonly savedAt: number;
  /** The policy JSON as submitted; null: no policy (a rollback to an empty POLICY var). */
  readonly text: string | null;
  readonly via: "put" | "rollback";
  /** For a rollback: the version whose policy was put back. */
  readonly from?: number;
  /** Random per save: a read-back tells whether another save overwrote this one. */
  readonly saveId: string;
}

/** The live policy: its versions, newest (the one in force) first; written whole in one put. */
export interface StoredPolicy {
  readonly versions: readonly StoredPolicyVersion[];
}

/**
 * The stored policy record. `cacheTtl` (seconds, at least 30) lets KV serve it from the
 * location's cache that long; the request path passes it, the admin API reads fresh.
 */
export async function readPolicy(
  kv: KVNamespace,
  options: { readonly cacheTtl?: number } = {},
): Promise<StoredPolicy | undefined> {
  const value = await kv.get<StoredPolicy>(POLICY_KEY, { type: "json", ...options });
  return value ?? undefined;
}

export async function writePolicy(kv: KVNamespace, policy: StoredPolicy): Promise<void> {
  await kv.put(POLICY_KEY, JSON.stringify(policy));
}
