/**
 * Which origin authorities (scheme://host[:port]) the edge fetches, stores and enforces a
 * robots.txt for. Proxy mode: only ORIGIN_URL's. Route mode: the AUTHORITIES allow-list
 * (`example.com`, `example.com:8443`, `*.example.org` for any subdomain), or, without one, any
 * Host header that reaches the Worker (bounded by the isolate LRU and the cron cap).
 * The admin API acts only on authorities that exist: served, and in route mode without a
 * list, already stored; a client never makes the edge fetch a host it chose.
 */

import type { Config } from "../config/read-config.ts";
import { readEntry } from "./store.ts";

/** Does the edge protect this authority (fetch, store, enforce its robots.txt)? */
export function isServedAuthority(config: Config, authority: string): boolean {
  if (config.originUrl) return authority === config.originUrl.origin;
  if (!config.authorities) return true;
  const host = URL.canParse(authority) ? new URL(authority).host : undefined;
  if (host === undefined) return false;
  return config.authorities.some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern,
  );
}

/** May the admin API act on this authority (refresh, test, explain)? */
export async function isExistingAuthority(config: Config, kv: KVNamespace, authority: string): Promise<boolean> {
  if (!isServedAuthority(config, authority)) return false;
  if (config.originUrl || config.authorities) return true;
  return (await readEntry(kv, authority)) !== undefined;
}
