/**
 * The cron's robots.txt work, capped and paged: each run fetches at most `limit` origins whose
 * entry has expired, lists at most MAX_PAGES_PER_RUN pages of keys (the key metadata says when
 * each entry expires, so no entry is read unless due), and leaves a cursor in KV so the next
 * run carries on where this one stopped. Proxy mode has one origin, ORIGIN_URL's; route mode
 * skips stored authorities that are not served any more (AUTHORITIES changed).
 */

import { isServedAuthority } from "./authorities.ts";
import type { Config } from "../../config/read-config.ts";
import { refresh } from "./cache.ts";
import { listAuthorityPage, noteBadCronCursor, readCronCursor, readEntry, writeCronCursor } from "../store.ts";

/** Default number of origin fetches per cron run: well inside a Worker's subrequest limit. */
export const CRON_REFRESH_LIMIT = 40;
const MAX_PAGES_PER_RUN = 25;

export interface CronRefreshResult {
  /** Authorities fetched in this run. */
  readonly refreshed: string[];
  /** Whether the run reached the end of the key list (the next run starts from the top). */
  readonly complete: boolean;
}

/** Refresh up to `limit` expired origins; never throws for one origin's failure. */
export async function refreshDueOrigins(
  env: { readonly ROBOTS: KVNamespace },
  config: Config,
  options: { readonly limit?: number; readonly now?: number } = {},
): Promise<CronRefreshResult> {
  const limit = options.limit ?? CRON_REFRESH_LIMIT;
  const now = options.now ?? Date.now();
  const kv = env.ROBOTS;
  if (config.originUrl) {
    const authority = config.originUrl.origin;
    const entry = await readEntry(kv, authority);
    if (entry && entry.expiresAt > now) return { refreshed: [], complete: true };
    await refresh(authority, kv, config, entry).catch(() => undefined);
    return { refreshed: [authority], complete: true };
  }
  const due: string[] = [];
  const startCursor = await readCronCursor(kv);
  let cursor = startCursor;
  // A page never holds more keys than the fetches left, so the cursor can always move on.
  for (let page = 0; page < MAX_PAGES_PER_RUN && due.length < limit; page++) {
    const listed = await listAuthorityPage(kv, { limit: limit - due.length, cursor }).catch((error: unknown) => {
      // A stored cursor KV refuses (edited by hand, expired) would stop every run here: it is
      // named in status and dropped, and this run starts from the top.
      if (page > 0 || cursor === undefined) throw error;
      noteBadCronCursor(error);
      cursor = undefined;
      return listAuthorityPage(kv, { limit: limit - due.length });
    });
    for (const { authority, metadata } of listed.authorities) {
      if (!isServedAuthority(config, authority)) continue;
      if (!metadata || metadata.expiresAt <= now) due.push(authority);
    }
    cursor = listed.cursor;
    if (cursor === undefined) break;
  }
  if (cursor !== startCursor) await writeCronCursor(kv, cursor);
  for (const authority of due) await refresh(authority, kv, config, undefined).catch(() => undefined);
  return { refreshed: due, complete: cursor === undefined };
}
