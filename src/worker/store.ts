/**
 * The only file that touches KV. One entry per origin authority (scheme://host[:port], the
 * scope RFC 9309 §2.3 gives a robots.txt), written whole in one put, so a reader sees the
 * old entry or the new one and never a mix; and the crawl pause.
 *
 * Key layout:  robots:<authority>  -> RobotsEntry (JSON)
 *              pause               -> Pause (JSON)
 */

import type { RobotsEntry } from "./robots-entry.ts";

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
  return value ?? undefined;
}

export async function writeEntry(kv: KVNamespace, entry: RobotsEntry): Promise<void> {
  await kv.put(ROBOTS_PREFIX + entry.authority, JSON.stringify(entry));
}

/** Every authority with an entry (for the cron refresh and the status page). */
export async function listAuthorities(kv: KVNamespace): Promise<string[]> {
  const authorities: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: ROBOTS_PREFIX, ...(cursor && { cursor }) });
    authorities.push(...page.keys.map((key) => key.name.slice(ROBOTS_PREFIX.length)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return authorities;
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
  readonly sources: Readonly<Record<string, { readonly fetchedAt: number; readonly cidrs: readonly string[] }>>;
}

export async function readRanges(kv: KVNamespace): Promise<StoredRanges | undefined> {
  return (await kv.get<StoredRanges>(RANGES_KEY, "json")) ?? undefined;
}

export async function writeRanges(kv: KVNamespace, ranges: StoredRanges): Promise<void> {
  await kv.put(RANGES_KEY, JSON.stringify(ranges));
}
