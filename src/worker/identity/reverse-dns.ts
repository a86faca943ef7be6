/**
 * Forward-confirmed reverse DNS for crawlers whose operators document host names instead of
 * (or besides) address lists (agents/operators/tables.ts REVERSE_DNS_RULES, from each operator's file): PTR of the address,
 * then A/AAAA of a name under the operator's domains, which must contain the address.
 *
 * Through DNS over HTTPS (RFC 8484's JSON flavour, as Cloudflare's and Google's resolvers
 * serve it) with fetch: workerd has no raw DNS socket. The resolver URL is fixed by the
 * operator (var, https only), never chosen by a client; only names under the claimed
 * operator's domains are resolved forward, so a client's PTR record cannot make us look up
 * an arbitrary name. A concurrent second request for the same address waits for the first
 * lookup, and the whole check never takes longer than the fetch timeout.
 *
 * What a client can make this cost is bounded, because a client chooses its address (an IPv6
 * /64 holds 2^64 of them): answers are kept per address in isolate memory and in the Cache API
 * (the data centre's isolates share it; it costs no quota), never in KV, whose writes are few
 * (1,000 a day on Workers Free) and are needed for pause and policy saves. A refuted answer
 * condemns the address checked, never its neighbours: a client next to a real crawler (same
 * /24) must not make that crawler unverifiable. Instead each network (/24 or /48)
 * has a budget: once REFUTED_PER_NETWORK of its addresses were refuted within the hour, or are
 * being looked up now, no other address of it is looked up until the count expires, and their
 * claims are unverifiable (not refuted: those addresses were not checked). A lookup takes its
 * place in the budget before it starts, so addresses arriving together cannot all read a count
 * of 0 and all be looked up. So a network costs at most REFUTED_PER_NETWORK refuted lookups
 * (two DoH subrequests each) per hour and isolate (the count is shared through the Cache API,
 * so most isolates of a data centre see it); a crawler's own address, once confirmed, is kept
 * for the hour and counts against nothing.
 */

import ipaddr from "ipaddr.js";
import { hostInDomains, type ReverseDnsResult } from "../../agents/verification.ts";
import { type ReverseDnsRule } from "../../agents/operators/tables.ts";
import { IsolateMemory } from "../isolate-memory.ts";

export type DnsRecordType = "PTR" | "A" | "AAAA";

/** A resolver's answer to one question: the record data, or that the name does not exist. */
export type DnsAnswer = { readonly status: "ok"; readonly data: readonly string[] } | { readonly status: "nxdomain" };

/** Resolves one name; injectable so tests stub DNS and never touch the network. */
export type DnsResolver = (name: string, type: DnsRecordType, signal: AbortSignal) => Promise<DnsAnswer>;

const RECORD_TYPE_CODE: Record<DnsRecordType, number> = { PTR: 12, A: 1, AAAA: 28 };
/** A PTR set longer than this is not a crawler's; we stop reading. */
const MAX_PTR_NAMES = 4;
/** How long an answer stands: long enough to spare the resolver, short enough to follow renumbering. */
const REVERSE_DNS_TTL_SECONDS = 3600;
/** Addresses, and separately networks, remembered per isolate (~100 bytes each). */
const MEMORY_ENTRIES = 10_000;
/**
 * IPv4 addresses are grouped by /24 (the smallest block routed between networks), IPv6 by /48,
 * as crawl-rate-object.ts paces unproven claims: /48 is the smallest block routed between
 * networks and what one site or customer is commonly given. Grouped by /64 (one LAN), a /48's
 * holder would have 65,536 budgets: 16 × 65,536 lookups an hour, a bound in name only.
 */
const IPV4_NETWORK_BITS = 24;
const IPV6_NETWORK_BITS = 48;
/**
 * Refuted lookups per network and hour before its other addresses are not looked up: enough
 * that a few impostors beside a crawler (a shared host, a cloud /24) leave it checkable, few
 * enough that a /64's 2^64 addresses cost a bounded number of DoH requests.
 */
const REFUTED_PER_NETWORK = 16;
/** Cache API keys are URLs: under a name that can never be a host (RFC 2606 .invalid). */
const CACHE_KEY_BASE = "https://reverse-dns.robots-edge.invalid/";

/** A DoH JSON resolver at `endpoint` (RFC 8484 servers' `application/dns-json` API). */
export function dohResolver(endpoint: string): DnsResolver {
  const base = new URL(endpoint);
  if (base.protocol !== "https:") throw new TypeError(`DoH resolver must be https, got ${endpoint}`);
  return async (name, type, signal) => {
    const url = new URL(base);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    // workerd has no redirect: "error"; "manual" leaves a 3xx unfollowed, and a 3xx is not ok.
    const response = await fetch(url, { headers: { accept: "application/dns-json" }, redirect: "manual", signal });
    if (!response.ok) throw new Error(`resolver answered ${response.status}`);
    return parseDohAnswer(await response.json(), type);
  };
}

/** The records of `type` in a DoH JSON answer (Status 0 NOERROR, 3 NXDOMAIN; others throw). */
export function parseDohAnswer(json: unknown, type: DnsRecordType): DnsAnswer {
  const body = typeof json === "object" && json !== null ? (json as { Status?: unknown; Answer?: unknown }) : {};
  if (body.Status === 3) return { status: "nxdomain" };
  if (body.Status !== 0) throw new Error(`resolver status ${String(body.Status)}`);
  const answers = Array.isArray(body.Answer) ? (body.Answer as unknown[]) : [];
  const data = answers
    .filter((record): record is { type: number; data: string } => {
      const r = record as { type?: unknown; data?: unknown };
      return r.type === RECORD_TYPE_CODE[type] && typeof r.data === "string";
    })
    .map((record) => record.data);
  return { status: "ok", data };
}

/** The in-addr.arpa / ip6.arpa name of an address (IPv4-mapped IPv6 as IPv4); undefined if not an address. */
export function reverseName(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  const bytes = parsed.toByteArray();
  if (parsed.kind() === "ipv4") return `${bytes.toReversed().join(".")}.in-addr.arpa`;
  const nibbles = bytes.flatMap((byte) => [byte >> 4, byte & 15]);
  return `${nibbles
    .toReversed()
    .map((nibble) => nibble.toString(16))
    .join(".")}.ip6.arpa`;
}

/** PTR, then forward confirmation of the first name under `domains`; no caching here. */
async function forwardConfirm(
  address: string,
  domains: readonly string[],
  resolve: DnsResolver,
  signal: AbortSignal,
): Promise<ReverseDnsResult> {
  const name = reverseName(address);
  if (name === undefined) return { status: "error", message: "not an IP address" };
  const parsed = ipaddr.process(address);
  const ptr = await resolve(name, "PTR", signal);
  if (ptr.status === "nxdomain" || ptr.data.length === 0) return { status: "nxdomain" };
  const hosts = ptr.data.slice(0, MAX_PTR_NAMES).map((host) => host.toLowerCase().replace(/\.$/, ""));
  const host = hosts.find((candidate) => hostInDomains(candidate, domains));
  if (host === undefined) return { status: "ptr-mismatch", hosts };
  const forward = await resolve(host, parsed.kind() === "ipv4" ? "A" : "AAAA", signal);
  const confirmed =
    forward.status === "ok" &&
    forward.data.some((data) => ipaddr.isValid(data) && ipaddr.process(data).toString() === parsed.toString());
  return confirmed ? { status: "confirmed", host } : { status: "forward-mismatch", host };
}

const memory = new IsolateMemory<string, ReverseDnsResult>({
  maxEntries: MEMORY_ENTRIES,
  maxAgeMs: REVERSE_DNS_TTL_SECONDS * 1000,
});
/** What a network's addresses were refuted: how many within the hour, and the last one. */
interface RefutedInNetwork {
  readonly count: number;
  readonly last: string;
}
/** Networks with refuted answers, by cache key of the network. */
const refutedNetworks = new IsolateMemory<string, RefutedInNetwork>({
  maxEntries: MEMORY_ENTRIES,
  maxAgeMs: REVERSE_DNS_TTL_SECONDS * 1000,
});
const inFlight = new Map<string, Promise<ReverseDnsResult>>();
/**
 * Lookups under way, by cache key of the network: each holds its place in the network's budget
 * until its answer is counted. Entries exist only while lookups are under way (at most
 * REFUTED_PER_NETWORK per network, each ended by the timeout), and at most MEMORY_ENTRIES
 * networks at once; past that a new network is not looked up (unverifiable, never refuted).
 */
const reservedInNetwork = new Map<string, number>();

/** For tests (test/worker/helpers.ts): this memory outlives a test in one isolate; each test starts as a new isolate would. */
export function clearReverseDnsMemory(): void {
  memory.clear();
  refutedNetworks.clear();
  inFlight.clear();
  reservedInNetwork.clear();
}

/** The part of the Cache API used here: caches.default in the Worker (its data centre's isolates share it). */
export interface AnswerCache {
  match(request: Request): Promise<Response | undefined>;
  put(request: Request, response: Response): Promise<void>;
}

export interface ReverseDnsOptions {
  /** Where answers are shared beyond this isolate; undefined: isolate memory only. */
  readonly cache: AnswerCache | undefined;
  readonly resolve: DnsResolver;
  readonly timeoutMs: number;
  /** Injectable clock for tests. */
  readonly now?: () => number;
}

/**
 * The forward-confirmed reverse DNS result for `address` against the claimed operators'
 * rules: from isolate memory, else the Cache API, else "not looked up" when another address of
 * its network was refuted within the hour, else one lookup (shared by concurrent callers)
 * bounded by `timeoutMs`. Timeouts and resolver errors are not kept, so the next request tries
 * again; definite answers (confirmed, mismatches, NXDOMAIN) are, for REVERSE_DNS_TTL_SECONDS.
 */
export async function reverseDnsFor(
  address: string,
  rules: readonly ReverseDnsRule[],
  options: ReverseDnsOptions,
): Promise<ReverseDnsResult> {
  const domains = domainsOf(rules);
  // A client claiming no operator that documents reverse DNS never causes a lookup.
  if (domains.length === 0) return { status: "error", message: "no reverse DNS rule applies" };
  const key = cacheKey(domains, address);
  const now = options.now ?? Date.now;
  const remembered = memory.get(key, now());
  if (remembered) return remembered;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const lookup = lookUp(key, address, domains, options, now).finally(() => inFlight.delete(key));
  inFlight.set(key, lookup);
  return lookup;
}

function domainsOf(rules: readonly ReverseDnsRule[]): string[] {
  return [...new Set(rules.flatMap((rule) => rule.domains))].toSorted();
}

function cacheKey(domains: readonly string[], address: string): string {
  return `${domains.join(",")} ${address}`;
}

/** The network an address is grouped in for refuted answers ("192.0.2.0/24", "2001:db8:1::/48"); undefined if not an address. */
export function networkOf(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  const bits = parsed.kind() === "ipv4" ? IPV4_NETWORK_BITS : IPV6_NETWORK_BITS;
  const bytes = parsed.toByteArray().map((byte, index) => {
    const kept = Math.max(0, Math.min(8, bits - index * 8));
    return byte & (0xff << (8 - kept)) & 0xff;
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${bits}`;
}

function cacheRequest(key: string): Request {
  return new Request(CACHE_KEY_BASE + encodeURIComponent(key));
}

/** A kept answer from the Cache API; a miss, a broken entry or a failing cache is undefined. */
async function fromCache<T>(cache: AnswerCache | undefined, key: string): Promise<T | undefined> {
  if (!cache) return undefined;
  try {
    const response = await cache.match(cacheRequest(key));
    return response ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Keep an answer in the Cache API for REVERSE_DNS_TTL_SECONDS; a failing cache costs a repeat lookup, never the request. */
async function toCache(cache: AnswerCache | undefined, key: string, value: unknown): Promise<void> {
  if (!cache) return;
  const response = Response.json(value, { headers: { "cache-control": `max-age=${REVERSE_DNS_TTL_SECONDS}` } });
  await cache.put(cacheRequest(key), response).catch(() => undefined);
}

/**
 * The kept answer for `address`, from isolate memory or the Cache API, without ever looking it
 * up: admin explain (a GET) may read what the edge already learnt, never make it resolve anything.
 */
export async function cachedReverseDns(
  address: string,
  rules: readonly ReverseDnsRule[],
  cache: AnswerCache | undefined,
  now: number = Date.now(),
): Promise<ReverseDnsResult | undefined> {
  const domains = domainsOf(rules);
  if (domains.length === 0) return undefined;
  const key = cacheKey(domains, address);
  return memory.get(key, now) ?? (await fromCache<ReverseDnsResult>(cache, key));
}

function isRefuted(result: ReverseDnsResult): boolean {
  return result.status === "nxdomain" || result.status === "ptr-mismatch" || result.status === "forward-mismatch";
}

async function lookUp(
  key: string,
  address: string,
  domains: readonly string[],
  options: ReverseDnsOptions,
  now: () => number,
): Promise<ReverseDnsResult> {
  const kept = await fromCache<ReverseDnsResult>(options.cache, key);
  if (kept) {
    memory.set(key, kept, now());
    return kept;
  }
  const network = networkOf(address);
  if (network === undefined) return confirmAndKeep(key, address, domains, options, now);
  const networkKey = cacheKey(domains, network);
  await refutedIn(networkKey, options.cache, now());
  // From here to the reservation nothing awaits: concurrent callers see each other's places.
  const skipped = budgetSpent(networkKey, network, now());
  if (skipped) return skipped;
  reservedInNetwork.set(networkKey, (reservedInNetwork.get(networkKey) ?? 0) + 1);
  let result: ReverseDnsResult;
  try {
    result = await confirmAndKeep(key, address, domains, options, now);
  } finally {
    const left = (reservedInNetwork.get(networkKey) ?? 1) - 1;
    if (left > 0) reservedInNetwork.set(networkKey, left);
    else reservedInNetwork.delete(networkKey);
  }
  if (isRefuted(result)) {
    // Counted only here, once per address and hour (its answer is kept): a budget, not a verdict.
    // Read and written with no await between, so concurrent answers each add their one.
    const counted = { count: (refutedNetworks.get(networkKey, now())?.count ?? 0) + 1, last: address };
    refutedNetworks.set(networkKey, counted, now());
    await toCache(options.cache, networkKey, counted);
  }
  return result;
}

/** "Skipped" when the network's refuted and reserved lookups fill its budget, or too many networks are being looked up. */
function budgetSpent(networkKey: string, network: string, now: number): ReverseDnsResult | undefined {
  const refuted = refutedNetworks.get(networkKey, now);
  const reserved = reservedInNetwork.get(networkKey) ?? 0;
  if ((refuted?.count ?? 0) + reserved >= REFUTED_PER_NETWORK) {
    const last = refuted ? ` (the last ${refuted.last})` : "";
    const underWay = reserved > 0 ? ` and ${reserved} are being looked up` : "";
    const reason = `${refuted?.count ?? 0} addresses in ${network} were refuted within the hour${last}${underWay}`;
    return { status: "skipped", reason };
  }
  if (reserved === 0 && reservedInNetwork.size >= MEMORY_ENTRIES) {
    return { status: "skipped", reason: `${MEMORY_ENTRIES} networks are being looked up at once` };
  }
  return undefined;
}

/** One lookup bounded by the timeout; a definite answer is kept in memory and the Cache API. */
async function confirmAndKeep(
  key: string,
  address: string,
  domains: readonly string[],
  options: ReverseDnsOptions,
  now: () => number,
): Promise<ReverseDnsResult> {
  const result = await withTimeout(options.timeoutMs, (signal) =>
    forwardConfirm(address, domains, options.resolve, signal),
  );
  if (result.status === "timeout" || result.status === "error") return result;
  memory.set(key, result, now());
  await toCache(options.cache, key, result);
  return result;
}

/** The network's refuted count: isolate memory, else the Cache API (the data centre's isolates). */
async function refutedIn(
  networkKey: string,
  cache: AnswerCache | undefined,
  now: number,
): Promise<RefutedInNetwork | undefined> {
  const remembered = refutedNetworks.get(networkKey, now);
  if (remembered) return remembered;
  const kept = await fromCache<unknown>(cache, networkKey);
  // An entry of an earlier release held the one refuted address: one count.
  const read = typeof kept === "string" ? { count: 1, last: kept } : isRefutedInNetwork(kept) ? kept : undefined;
  if (read) refutedNetworks.set(networkKey, read, now);
  return read;
}

function isRefutedInNetwork(value: unknown): value is RefutedInNetwork {
  if (typeof value !== "object" || value === null) return false;
  const { count, last } = value as Record<string, unknown>;
  return typeof count === "number" && Number.isInteger(count) && count > 0 && typeof last === "string";
}
/** Runs `work` and answers "timeout" after `timeoutMs` even if the resolver ignores the abort. */
async function withTimeout(
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<ReverseDnsResult>,
): Promise<ReverseDnsResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<ReverseDnsResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ status: "timeout" });
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      work(controller.signal).catch((error: unknown): ReverseDnsResult =>
        controller.signal.aborted
          ? { status: "timeout" }
          : { status: "error", message: error instanceof Error ? error.message : String(error) },
      ),
      timedOut,
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
