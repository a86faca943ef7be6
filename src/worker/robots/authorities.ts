/**
 * Which origin authorities (scheme://host[:port]) the edge fetches, stores and enforces a
 * robots.txt for. Proxy mode: only ORIGIN_URL's. Route mode: the AUTHORITIES allow-list
 * (`example.com`, `example.com:8443`, `*.example.org` for any subdomain), or, without one, any
 * Host header that reaches the Worker (bounded by the isolate LRU and the cron cap).
 * The admin API acts only on authorities that exist: served, and in route mode without a
 * list, already stored; a client never makes the edge fetch a host it chose.
 *
 * One site has several spellings in a Host header: `example.com.` (an absolute DNS name),
 * `example.com:443`, `EXAMPLE.com`. Each is read as the one authority (`authorityOf`) before
 * anything is compared, fetched or stored, so none passes unjudged and none gets a robots.txt
 * entry of its own.
 */

import type { Config } from "../../config/read-config.ts";
import { readEntry } from "../store.ts";

/**
 * Ports a Host header may name for the zone's own site: Cloudflare serves HTTP on 80 and HTTPS
 * on 443 and routes by host name, so `example.com:443` (on either scheme) is `example.com`.
 */
const WEB_PORTS: ReadonlySet<string> = new Set(["", "80", "443"]);

/**
 * The authority a URL is judged under: scheme, host lower-cased (the URL parser does this)
 * without trailing dots, and the port unless it is a web port.
 */
export function authorityOf(url: URL): string {
  const hostname = canonicalHostname(url);
  const port = WEB_PORTS.has(url.port) ? "" : `:${url.port}`;
  return `${url.protocol}//${hostname}${port}`;
}

/** The host (and port) of an authority as authorityOf writes it: the key of its policy per host. */
export function hostOfAuthority(authority: string): string {
  return authority.slice(authority.indexOf("//") + 2);
}

/**
 * The host name without trailing dots, read again by the URL parser when dots were dropped: with
 * them, `0x7f.0.0.1..` is a domain name to the parser; without, the IPv4 address `127.0.0.1`.
 * A name the parser refuses once its dots are gone (`shop.example.7`) keeps the trimmed spelling.
 */
function canonicalHostname(url: URL): string {
  const trimmed = withoutTrailingDots(url.hostname);
  if (trimmed === url.hostname) return trimmed;
  const again = `${url.protocol}//${trimmed}/`;
  return URL.canParse(again) ? new URL(again).hostname : trimmed;
}

function withoutTrailingDots(host: string): string {
  const trimmed = host.replace(/\.+$/, "");
  return trimmed === "" ? host : trimmed;
}

/**
 * AUTHORITIES read once per isolate into what a request asks of it: the exact hosts, and the
 * suffixes (`.example.org`) of the `*.` entries. A request then costs a few Set lookups however
 * long the list: walking 1,000 entries with a regex each was 24-26 µs a request
 * (bench/whole-request.bench.ts). `judged` remembers the answer per authority as spelled; it
 * starts again empty at MAX_JUDGED, so Host headers a client invents cannot grow it.
 */
interface ServedHosts {
  readonly exact: ReadonlySet<string>;
  readonly suffixes: ReadonlySet<string>;
  readonly judged: Map<string, boolean>;
}

const MAX_JUDGED = 4_096;
const servedHostsOf = new WeakMap<readonly string[], ServedHosts>();

function servedHosts(authorities: readonly string[]): ServedHosts {
  let served = servedHostsOf.get(authorities);
  if (served) return served;
  const listed = authorities.map(withoutTrailingDots);
  served = {
    exact: new Set(listed.filter((entry) => !entry.startsWith("*."))),
    suffixes: new Set(listed.filter((entry) => entry.startsWith("*.")).map((entry) => entry.slice(1))),
    judged: new Map(),
  };
  servedHostsOf.set(authorities, served);
  return served;
}

/** The host (and port unless a web port) authorityOf would write for this authority; undefined if none. */
function canonicalHost(authority: string): string | undefined {
  if (!URL.canParse(authority)) return undefined;
  return hostOfAuthority(authorityOf(new URL(authority)));
}

/** Does a `*.` entry cover the host: is some tail of it, from a dot on, a listed suffix? */
function coveredBySuffix(suffixes: ReadonlySet<string>, host: string): boolean {
  if (suffixes.size === 0) return false;
  for (let dot = host.indexOf("."); dot !== -1; dot = host.indexOf(".", dot + 1)) {
    if (suffixes.has(host.slice(dot))) return true;
  }
  return false;
}

/** Does the edge protect this authority (fetch, store, enforce its robots.txt)? */
export function isServedAuthority(config: Config, authority: string): boolean {
  if (config.originUrl) return authority === config.originUrl.origin;
  if (!config.authorities) return true;
  const served = servedHosts(config.authorities);
  const known = served.judged.get(authority);
  if (known !== undefined) return known;
  const host = canonicalHost(authority);
  const answer = host !== undefined && (served.exact.has(host) || coveredBySuffix(served.suffixes, host));
  if (served.judged.size >= MAX_JUDGED) served.judged.clear();
  served.judged.set(authority, answer);
  return answer;
}

/**
 * Served only through a `*.` AUTHORITIES entry (no exact entry names it): its host name is the
 * client's to invent, so what storing it costs is bounded (robots/cache.ts NEW_PATTERN_ENTRIES).
 */
export function isServedByPatternOnly(config: Config, authority: string): boolean {
  if (config.originUrl || !config.authorities || !isServedAuthority(config, authority)) return false;
  const host = canonicalHost(authority);
  return host !== undefined && !servedHosts(config.authorities).exact.has(host);
}

/** May the admin API act on this authority (refresh, test, explain)? */
export async function isExistingAuthority(config: Config, kv: KVNamespace, authority: string): Promise<boolean> {
  if (!isServedAuthority(config, authority)) return false;
  if (config.originUrl || config.authorities) return true;
  return (await readEntry(kv, authority)) !== undefined;
}
