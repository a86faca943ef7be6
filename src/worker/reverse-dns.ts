/**
 * Forward-confirmed reverse DNS for crawlers whose operators document host names instead of
 * (or besides) address lists (agents/verification.ts, REVERSE_DNS_RULES): PTR of the address,
 * then A/AAAA of a name under the operator's domains, which must contain the address.
 *
 * Through DNS over HTTPS (RFC 8484's JSON flavour, as Cloudflare's and Google's resolvers
 * serve it) with fetch: workerd has no raw DNS socket. The resolver URL is fixed by the
 * operator (var, https only), never chosen by a client; only names under the claimed
 * operator's domains are resolved forward, so a client's PTR record cannot make us look up
 * an arbitrary name. Answers are cached per address in isolate memory and KV (TTL), a
 * concurrent second request for the same address waits for the first lookup, and the whole
 * check never takes longer than the fetch timeout.
 */

import ipaddr from "ipaddr.js";
import { hostInDomains, type ReverseDnsResult, type ReverseDnsRule } from "../agents/verification.ts";
import { IsolateMemory } from "./isolate-memory.ts";

export type DnsRecordType = "PTR" | "A" | "AAAA";

/** A resolver's answer to one question: the record data, or that the name does not exist. */
export type DnsAnswer = { readonly status: "ok"; readonly data: readonly string[] } | { readonly status: "nxdomain" };

/** Resolves one name; injectable so tests stub DNS and never touch the network. */
export type DnsResolver = (name: string, type: DnsRecordType, signal: AbortSignal) => Promise<DnsAnswer>;

const RECORD_TYPE_CODE: Record<DnsRecordType, number> = { PTR: 12, A: 1, AAAA: 28 };
/** A PTR set longer than this is not a crawler's; we stop reading. */
const MAX_PTR_NAMES = 4;
/** How long an answer stands: long enough to spare the resolver, short enough to follow renumbering. */
export const REVERSE_DNS_TTL_SECONDS = 3600;
const MEMORY_ENTRIES = 10_000;
const KV_PREFIX = "rdns:";

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
export async function forwardConfirm(
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
const inFlight = new Map<string, Promise<ReverseDnsResult>>();

export function clearReverseDnsMemory(): void {
  memory.clear();
  inFlight.clear();
}

export interface ReverseDnsOptions {
  readonly kv: KVNamespace;
  readonly resolve: DnsResolver;
  readonly timeoutMs: number;
  /** Injectable clock for tests. */
  readonly now?: () => number;
}

/**
 * The forward-confirmed reverse DNS result for `address` against the claimed operators'
 * rules: from isolate memory, else KV, else one lookup (shared by concurrent callers) bounded
 * by `timeoutMs`. Timeouts and resolver errors are not cached, so the next request tries again;
 * definite answers (confirmed, mismatches, NXDOMAIN) are, for REVERSE_DNS_TTL_SECONDS.
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

/**
 * The cached answer for `address`, from isolate memory or KV, without ever looking it up:
 * admin explain (a GET) may read what the edge already learnt, never make it resolve anything.
 */
export async function cachedReverseDns(
  address: string,
  rules: readonly ReverseDnsRule[],
  kv: KVNamespace,
  now: number = Date.now(),
): Promise<ReverseDnsResult | undefined> {
  const domains = domainsOf(rules);
  if (domains.length === 0) return undefined;
  const key = cacheKey(domains, address);
  const remembered = memory.get(key, now);
  if (remembered) return remembered;
  return (await kv.get<ReverseDnsResult>(KV_PREFIX + key, "json").catch(() => null)) ?? undefined;
}

async function lookUp(
  key: string,
  address: string,
  domains: readonly string[],
  options: ReverseDnsOptions,
  now: () => number,
): Promise<ReverseDnsResult> {
  const stored = await options.kv.get<ReverseDnsResult>(KV_PREFIX + key, "json").catch(() => null);
  if (stored) {
    memory.set(key, stored, now());
    return stored;
  }
  const result = await withTimeout(options.timeoutMs, (signal) =>
    forwardConfirm(address, domains, options.resolve, signal),
  );
  if (result.status !== "timeout" && result.status !== "error") {
    memory.set(key, result, now());
    await options.kv
      .put(KV_PREFIX + key, JSON.stringify(result), { expirationTtl: REVERSE_DNS_TTL_SECONDS })
      .catch(() => undefined); // a KV hiccup costs a repeat lookup, never the request
  }
  return result;
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
