/**
 * The operator policy, live: stored in KV (store.ts, key `policy`) and changed through the
 * admin API without a redeploy. Versions are whole numbers that only grow; version 0 is the
 * policy of the POLICY var (or none), in force while KV holds no version. The record keeps the
 * last MAX_KEPT_VERSIONS versions, newest first, and is written whole in one put, so a reader
 * sees one record or the next, never a mix.
 *
 * Propagation (docs/operating.md "Live policy"): the isolate that saves a version applies it at once;
 * every other isolate re-reads KV at most every RECHECK_MS, and its reads may be served from
 * the KV cache of its location for KV_CACHE_TTL_SECONDS (KV's minimum). Other isolates of the
 * saving location see the new version within RECHECK_MS; other locations within
 * KV_CACHE_TTL_SECONDS + RECHECK_MS (40 s) once KV's central store has the write, which
 * Cloudflare documents as usually seconds but "60 seconds or more" at worst: a 30 s bound
 * everywhere is what we design for, not what KV guarantees.
 *
 * Fail-safe choices, stated here as the style asks:
 *   - a failed or unusable KV read keeps the last good policy this isolate had (logged);
 *     an isolate that never read one falls back to version 0, also logged. Never a crash, and
 *     never enforcement switched off: robots.txt keeps being enforced whatever happens here.
 *   - after a failure the isolate waits RECHECK_MS before trying again, so a KV outage costs
 *     one failed read per isolate per 10 s, not one per request.
 *   - KV has no compare-and-set: two saves racing both read version N and both write N+1;
 *     the last write wins whole. A save reads its write back and answers 409 when another
 *     save replaced it; `If-Match: "N"` refuses a save made against an older version (412).
 *
 * Policies per host (docs/operating.md "Policies per host"): the default above is one record;
 * each host key (canonical, policy/host-names.ts) has a record of the same shape, with its own
 * versions. A request's host is judged by its exact key's policy, else the nearest `*.` key's,
 * else the default's. Which keys have a record, and each one's newest version, is the index
 * (`policy-hosts`): an isolate re-reads the index at most every RECHECK_MS and a record only
 * when the index names a version it has not compiled, so the request path reads at most one
 * KV value per RECHECK_MS per isolate however many hosts there are. Compiled policies are kept
 * per isolate under two bounds, MAX_REMEMBERED_POLICIES keys and MAX_REMEMBERED_TEXT_BYTES of
 * policy text, least recently used out first. Both cover what a save may store (every host
 * MAX_POLICY_HOSTS may name, and MAX_HOST_POLICY_TEXT of their text together, refused past it), so
 * a client rotating Host headers cannot evict and buy a KV read per request; what passes them
 * anyway (records written around the admin API, lines saved before the text bound) is named in
 * GET status (policyCacheProblems) and costs one record read per evicted host when next asked.
 */

import { MAX_POLICY_BYTES, parsePolicy, type CompiledPolicy } from "../policy/operator-policy.ts";
import { policyKeysFor } from "../policy/host-names.ts";
import type { Config } from "../config/read-config.ts";
import { logError } from "./log.ts";
import {
  listPolicyHostEntries,
  notePolicyFault,
  readPolicy,
  readPolicyIndex,
  writePolicy,
  writePolicyIndex,
  type PolicyIndexEntry,
  type StoredPolicy,
  type StoredPolicyIndex,
  type StoredPolicyVersion,
} from "./store.ts";

/** How long an isolate answers from memory before asking KV again. */
export const RECHECK_MS = 10_000;
/** KV's own cache at a location for the request path's reads (KV's minimum; its default is 60). */
export const KV_CACHE_TTL_SECONDS = 30;
/** Versions kept in the record and listed (version 0, the POLICY var's, is listed besides). */
export const MAX_KEPT_VERSIONS = 20;
/** Hosts that may have a policy of their own (the index stays under ~0.5 MB). */
export const MAX_POLICY_HOSTS = 5_000;
/**
 * The policy text of every host's own policy in force, together (characters): a save past it is
 * refused (400), so all of it stays compiled on an isolate (a compiled policy is a few times its
 * text: a few tens of MB of the isolate's 128 MB at most).
 */
export const MAX_HOST_POLICY_TEXT = 6 * 1024 * 1024;
/** Compiled policies an isolate keeps (the default and every host that may have one): rotating hosts cannot evict. */
export const MAX_REMEMBERED_POLICIES = MAX_POLICY_HOSTS + 1;
/** ...and the policy text they may hold together: every host's and the default's, least recently used out past it. */
export const MAX_REMEMBERED_TEXT_BYTES = MAX_HOST_POLICY_TEXT + MAX_POLICY_BYTES;

/** A host key (canonical exact name or `*.` pattern), or null for the default policy. */
export type PolicyHost = string | null;

/** The policy in force on this isolate. */
export interface LivePolicy {
  /** Whose policy this is: a host key, or null for the default. */
  readonly host: PolicyHost;
  readonly version: number;
  /** When the version was saved (ms); null for version 0. */
  readonly savedAt: number | null;
  /** The policy JSON; null for none. */
  readonly text: string | null;
  readonly compiled: CompiledPolicy | undefined;
  /** Where it came from: a saved version, or the POLICY var (version 0). */
  readonly source: "kv" | "var";
  /** The last KV read failed or the record could not be used: this is the last good policy this isolate had. */
  readonly stale: boolean;
  /** Why the newest stored version is not the one in force (null when it is, or KV holds none). */
  readonly fallback: string | null;
}

/** What an isolate remembers of one key: the saved version in force (null: KV holds none). */
interface Memory {
  readonly current: { readonly entry: StoredPolicyVersion; readonly compiled: CompiledPolicy | undefined } | null;
  /** The newest version the record held when read (compared with the index's). */
  readonly newest: number | undefined;
  readonly at: number;
  readonly stale: boolean;
  readonly fallback: string | null;
}

const DEFAULT_KEY = "";
const memoryKey = (host: PolicyHost) => host ?? DEFAULT_KEY;

/**
 * The remembered policies, bounded in entries and text bytes; the least recently used go first.
 * A hit only stamps its entry (re-inserting into a Map of 1,000 entries on every request cost
 * more than the rest of the lookup); the oldest stamp is searched for only when a new policy
 * passes a bound, which a deployment within the bounds never does after warming up.
 */
const memories = new Map<string, MemoryEntry>();
let useClock = 0;
let rememberedBytes = 0;
/** When this isolate last evicted a compiled policy to stay within a bound (GET status names it). */
let evicted: { readonly at: number; readonly count: number; readonly bytes: number } | undefined;
/** Bumped whenever `memories` changes: a request host's answer kept in `answered` is good only within one. */
let memoriesGeneration = 0;

interface MemoryEntry {
  readonly memory: Memory;
  used: number;
}

const textBytes = (memory: Memory | undefined) => memory?.current?.entry.text?.length ?? 0;

function remembered(host: PolicyHost): Memory | undefined {
  const found = memories.get(memoryKey(host));
  if (!found) return undefined;
  found.used = ++useClock;
  reading?.used.push(found);
  return found.memory;
}

function remember(host: PolicyHost, remembering: Memory): void {
  const key = memoryKey(host);
  memoriesGeneration++;
  const before = memories.get(key)?.memory;
  rememberedBytes -= textBytes(before);
  release(before);
  const value = held(remembering);
  memories.set(key, { memory: value, used: ++useClock });
  rememberedBytes += textBytes(value);
  if (memories.size > MAX_REMEMBERED_POLICIES || rememberedBytes > MAX_REMEMBERED_TEXT_BYTES) foldAnsweredUses();
  while (memories.size > MAX_REMEMBERED_POLICIES || rememberedBytes > MAX_REMEMBERED_TEXT_BYTES) {
    let oldest: string | undefined;
    let oldestUse = Infinity;
    for (const [candidate, { used }] of memories) {
      if (candidate !== key && used < oldestUse) [oldest, oldestUse] = [candidate, used];
    }
    if (oldest === undefined) break;
    rememberedBytes -= textBytes(memories.get(oldest)?.memory);
    release(memories.get(oldest)?.memory);
    memories.delete(oldest);
    evicted = { at: Date.now(), count: memories.size, bytes: rememberedBytes };
  }
}

/** How long an eviction stays named in GET status. */
const EVICTION_NAMED_MS = 3_600_000;

/**
 * The cache's bound passed on this isolate within the hour: hosts are then read from KV again
 * when next asked (records stored around the admin API or before the text bound). Named, so the
 * cost is seen where it is paid; repaired by smaller or fewer host policies.
 */
export function policyCacheProblems(now = Date.now()): string[] {
  if (!evicted || now - evicted.at > EVICTION_NAMED_MS) return [];
  return [
    `host policies exceed what an isolate keeps compiled (${MAX_REMEMBERED_POLICIES} policies, ${MAX_REMEMBERED_TEXT_BYTES} characters of text; ${evicted.count} kept, ${evicted.bytes} characters): an evicted host's policy is read from KV again when next asked, up to one read per request; shrink or remove host policies (GET policies lists them)`,
  ];
}

function forget(host: PolicyHost): void {
  memoriesGeneration++;
  rememberedBytes -= textBytes(memories.get(memoryKey(host))?.memory);
  release(memories.get(memoryKey(host))?.memory);
  memories.delete(memoryKey(host));
}

/**
 * One compiled policy per policy text among those remembered: hosts whose policies are written
 * alike (an agency's template) share one, so a request reads the same compiled routes whichever
 * of them it is for, objects the CPU's caches keep, not a copy of its host's own (with 1,000
 * hosts the copies were most of what a request cost more than with one: docs/operating.md "What
 * it costs (per host)"). A compiled policy is a function of its text alone, and is never
 * changed once compiled. Counted by the memories holding it and dropped with the last, so it
 * keeps nothing the bounds above do not count.
 */
const compiledByText = new Map<string, { readonly compiled: CompiledPolicy; holders: number }>();

/** The memory as remembered: its compiled policy the one shared for its text, counted. */
function held(memory: Memory): Memory {
  const current = memory.current;
  const text = current?.entry.text;
  if (!current?.compiled || text === null || text === undefined) return memory;
  const shared = compiledByText.get(text);
  if (!shared) {
    compiledByText.set(text, { compiled: current.compiled, holders: 1 });
    return memory;
  }
  shared.holders++;
  return shared.compiled === current.compiled
    ? memory
    : { ...memory, current: { ...current, compiled: shared.compiled } };
}

function release(memory: Memory | undefined): void {
  const text = memory?.current?.compiled ? memory.current.entry.text : null;
  if (text === null || text === undefined) return;
  const shared = compiledByText.get(text);
  if (shared && --shared.holders <= 0) compiledByText.delete(text);
}

/** The index as this isolate last read it (undefined value: KV holds none, or it cannot be read). */
let indexMemory: { readonly value: StoredPolicyIndex | undefined; readonly at: number } | undefined;

/** Forget what this isolate remembers (tests). */
export function clearPolicyMemory(): void {
  memories.clear();
  clearAnswered();
  compiledByText.clear();
  memoriesGeneration++;
  rememberedBytes = 0;
  indexMemory = undefined;
  evicted = undefined;
}

/**
 * How many policies this isolate holds, their text, how many different compiled policies, and
 * how many hosts' lookups it keeps answered (bench, tests).
 */
export function rememberedPolicies(): {
  readonly count: number;
  readonly textBytes: number;
  readonly compiled: number;
  readonly answered: number;
} {
  return { count: memories.size, textBytes: rememberedBytes, compiled: compiledByText.size, answered: answered.size };
}

/** Can this deployment have policies per host at all (route mode with AUTHORITIES)? */
function hostsPossible(config: Config): boolean {
  return !config.originUrl && config.authorities !== undefined;
}

/**
 * The policy in force for a request to `host` (a canonical exact host; null or omitted: the
 * default): its own key's, else the nearest `*.` key's, else the default's. From memory; the
 * index at most once per RECHECK_MS, a record only when the index shows a version not compiled.
 */
export function policyInForce(
  kv: KVNamespace,
  config: Config,
  host: PolicyHost = null,
  slot?: PolicySlot,
): LivePolicy | Promise<LivePolicy> {
  const now = Date.now();
  // Steady state answers without a promise: every request of a crawler asks this.
  return rememberedPolicy(config, host, now, slot) ?? resolvedPolicy(kv, config, host, now);
}

/**
 * A caller's own place for the last answer about one host (the request path keeps one per
 * authority, edge/host-memo.ts), always asked with the same `host`: read before `answered`, so
 * a request reads its host's answer without a Map read (with 1,000 hosts in turn the Map's
 * table and key strings are cache lines of that host's the CPU no longer holds). What it holds
 * is used only while it is `answered`'s own entry for the host (not retired) and still good.
 */
export interface PolicySlot {
  policy: LivePolicy | undefined;
}

/**
 * A request host's last answer from memory, kept while nothing it was read from has changed: the
 * same index read, the same config, no policy remembered or forgotten since (memoriesGeneration),
 * and no time limit it depended on passed (`until`). The lookup of a host, in steady state, is
 * then one Map read: with 1,000 hosts, walking each request's keys through the index and the
 * memory (a few Maps of 1,000 entries and a fresh object per request) cost more than the
 * decision it prepares (docs/operating.md "What it costs (per host)"). The same answer as
 * reading it again. Bounded: hosts under a `*.` pattern are as many as clients care to name, so
 * past MAX_ANSWERED hosts the table starts again empty.
 */
const answered = new Map<string, AnsweredPolicy>();
export const MAX_ANSWERED = 4_096;

/** Empty `answered`, retiring what it held: a caller's slot may hold one (PolicySlot). */
function clearAnswered(): void {
  for (const known of answered.values()) known.retired = true;
  answered.clear();
}

/**
 * The answer itself (a LivePolicy) and what it was read from, in one object: with 1,000 hosts
 * each object a request reads of its own host's is a cache miss the one-host deployment does not
 * have, and the answer, its validity and its least-recently-used stamp were three. A hit reads
 * the fields first declared here (one or two cache lines) and stamps only this record (`used`);
 * the remembered entries it used take the stamp before anything is evicted or this table is
 * emptied (foldAnsweredUses), so eviction sees every use.
 */
class AnsweredPolicy implements LivePolicy {
  // What a hit reads, first (V8 lays fields out in the order assigned).
  readonly compiled: CompiledPolicy | undefined;
  readonly index: typeof indexMemory;
  readonly config: Config;
  readonly generation: number;
  /** Good while answeredSeconds(now) is below this (answeredSeconds: a small integer, held in the object). */
  readonly untilSecond: number;
  used: number;
  /** No longer `answered`'s entry (replaced, or the table emptied): a slot holding it reads the Map again. */
  retired = false;
  readonly host: PolicyHost;
  readonly version: number;
  readonly savedAt: number | null;
  readonly text: string | null;
  readonly source: "kv" | "var";
  readonly stale: boolean;
  readonly fallback: string | null;
  /** The remembered entries the reading used. */
  readonly entries: readonly MemoryEntry[];

  constructor(
    live: LivePolicy,
    index: typeof indexMemory,
    config: Config,
    generation: number,
    /** The answer is good before this time (ms): the RECHECK_MS limits the reading met. */
    until: number,
    entries: readonly MemoryEntry[],
  ) {
    this.compiled = live.compiled;
    this.index = index;
    this.config = config;
    this.generation = generation;
    // Rounded down: the answer may be read again up to a second early, never kept too long.
    this.untilSecond = Math.min(ANSWERED_FOREVER, Math.floor(answeredSeconds(until)));
    this.used = useClock;
    this.host = live.host;
    this.version = live.version;
    this.savedAt = live.savedAt;
    this.text = live.text;
    this.source = live.source;
    this.stale = live.stale;
    this.fallback = live.fallback;
    this.entries = entries;
  }
}

/**
 * Time for `answered`, in seconds since this module loaded: a small integer, which V8 keeps in
 * the record itself, where a time in ms (past 2³¹) is a number object of its own, one more cache
 * line per host and request. No time limit is ANSWERED_FOREVER (34 years).
 */
const ANSWERED_EPOCH = Date.now();
const ANSWERED_FOREVER = 2 ** 30;
const answeredSeconds = (ms: number) => (ms - ANSWERED_EPOCH) / 1000;

/** Give the remembered entries the stamps of the answers that used them (before an eviction or a clear). */
function foldAnsweredUses(): void {
  for (const known of answered.values()) {
    for (const entry of known.entries) if (entry.used < known.used) entry.used = known.used;
  }
}

/** What rememberedPolicy is reading now: the remembered entries it used and its time limit. */
let reading: { until: number; readonly used: MemoryEntry[] } | undefined;

/** policyInForce from this isolate's memory alone; undefined when any step needs KV. */
function rememberedPolicy(
  config: Config,
  host: PolicyHost,
  now: number,
  slot: PolicySlot | undefined,
): LivePolicy | undefined {
  const key = memoryKey(host);
  const slotted = slot?.policy;
  const known = slotted instanceof AnsweredPolicy && !slotted.retired ? slotted : answered.get(key);
  if (
    known !== undefined &&
    known.index === indexMemory &&
    known.config === config &&
    known.generation === memoriesGeneration &&
    answeredSeconds(now) < known.untilSecond
  ) {
    known.used = ++useClock;
    if (slot && slotted !== known) slot.policy = known;
    return known;
  }
  reading = { until: Infinity, used: [] };
  try {
    const live = readRememberedPolicy(config, host, now);
    if (!live) return undefined;
    if (answered.size >= MAX_ANSWERED) {
      foldAnsweredUses();
      clearAnswered();
    }
    const { until, used } = reading;
    const answer = new AnsweredPolicy(live, indexMemory, config, memoriesGeneration, until, used);
    const replaced = answered.get(key);
    if (replaced) replaced.retired = true;
    answered.set(key, answer);
    if (slot) slot.policy = answer;
    return answer;
  } finally {
    reading = undefined;
  }
}

function readRememberedPolicy(config: Config, host: PolicyHost, now: number): LivePolicy | undefined {
  const index = indexMemory?.value;
  if (host !== null && hostsPossible(config)) {
    if (!indexMemory || now - indexMemory.at >= RECHECK_MS) return undefined;
    if (reading) reading.until = Math.min(reading.until, indexMemory.at + RECHECK_MS);
    for (const key of policyKeysFor(host)) {
      if (!hasOwnPolicy(key, index, config)) continue;
      const live = keyFromMemory(config, key, index?.hosts.get(key), now);
      if (!live) return undefined;
      if (live.text !== null) return live;
    }
  }
  return keyFromMemory(config, null, index?.default, now);
}

/**
 * policyInForce when memory does not answer. One KV read per request once warm: a request that
 * re-reads the index keeps a remembered policy whose version changed (one request longer) and
 * leaves its record to the next request. Only a key this isolate never read is read at once.
 */
async function resolvedPolicy(kv: KVNamespace, config: Config, host: PolicyHost, now: number): Promise<LivePolicy> {
  const reads = { left: 1 };
  if (host !== null && hostsPossible(config)) {
    const index = await indexNow(kv, now, reads);
    for (const key of policyKeysFor(host)) {
      if (!hasOwnPolicy(key, index, config)) continue;
      const live = await keyInForce(kv, config, key, index?.hosts.get(key), now, reads);
      // A key whose versions all fail (or a var entry gone) has no policy to give: the next one judges.
      if (live.text !== null) return live;
    }
  }
  const index = host === null || !hostsPossible(config) ? indexMemory?.value : await indexNow(kv, now, reads);
  return keyInForce(kv, config, null, index?.default, now, reads);
}

function hasOwnPolicy(key: string, index: StoredPolicyIndex | undefined, config: Config): boolean {
  const indexed = index?.hosts.get(key);
  return indexed ? indexed.own : config.hostPolicies.has(key);
}

async function indexNow(kv: KVNamespace, now: number, reads: { left: number }): Promise<StoredPolicyIndex | undefined> {
  if (indexMemory && now - indexMemory.at < RECHECK_MS) return indexMemory.value;
  reads.left--;
  const read = await readPolicyIndex(kv, { cacheTtl: KV_CACHE_TTL_SECONDS });
  // Unreadable: store.ts answers the last good index (named in status) or none; hosts then fall
  // back to the POLICY var and the default, logged.
  if (read.problem !== undefined) logError("live-policy", `policy index unusable: ${read.problem}`);
  indexMemory = { value: read.value, at: now };
  return read.value;
}

/** One key's policy in force: remembered while the index shows the version remembered. */
async function keyInForce(
  kv: KVNamespace,
  config: Config,
  host: PolicyHost,
  indexed: PolicyIndexEntry | undefined,
  now: number,
  reads: { left: number },
): Promise<LivePolicy> {
  const known = keyFromMemory(config, host, indexed, now);
  if (known) return known;
  const before = memories.get(memoryKey(host))?.memory;
  // This request has had its read: the version remembered answers once more.
  if (before && reads.left <= 0) return livePolicy(before, config, host);
  reads.left--;
  const memory = await reread(kv, host, before, now);
  remember(host, memory);
  return livePolicy(memory, config, host);
}

/**
 * A key's policy from memory while it is current: the index names the version remembered, or
 * (no index line) it was read less than RECHECK_MS ago. Undefined: it must be read.
 */
function keyFromMemory(
  config: Config,
  host: PolicyHost,
  indexed: PolicyIndexEntry | undefined,
  now: number,
): LivePolicy | undefined {
  // A host the index does not name has no record: its policy is the POLICY var's, no read.
  if (host !== null && !indexed) return initialPolicy(config, host);
  const memory = remembered(host);
  if (!memory) return undefined;
  const current = indexed !== undefined && (memory.newest ?? 0) === indexed.version;
  if (!current && now - memory.at >= RECHECK_MS) return undefined;
  if (!current && reading) reading.until = Math.min(reading.until, memory.at + RECHECK_MS);
  return livePolicy(memory, config, host);
}

/**
 * The newest stored version that validates is in force: a version this release
 * cannot use (a stricter validator after an upgrade, a newer release's field, a hand edit) is
 * passed over, named in status with why, never a silent drop to version 0. A record that
 * cannot be read at all (store.ts says why), or holds no usable version, keeps this isolate's
 * last good version, else version 0; all of it logged.
 */
async function reread(kv: KVNamespace, host: PolicyHost, before: Memory | undefined, now: number): Promise<Memory> {
  const read = await readPolicy(kv, { cacheTtl: KV_CACHE_TTL_SECONDS, host });
  const kept = keptName(before);
  const name = host === null ? "policy" : `policy of ${host}`;
  if (read.problem !== undefined) {
    logError("live-policy", `${name} read failed, keeping ${kept}: ${read.problem}`);
    const fallback = `the stored record cannot be used (${read.problem}); ${kept} stays in force`;
    return { current: before?.current ?? null, newest: undefined, at: now, stale: true, fallback };
  }
  if (!read.value) return { current: null, newest: undefined, at: now, stale: false, fallback: null };
  const judged = judgeVersions(read.value, (entry) => compiledOf(entry, before));
  const newest = newestVersion(read.value);
  notePolicyFault(judged.fallback ?? undefined, host);
  if (judged.inForce) return { current: judged.inForce, newest, at: now, stale: false, fallback: judged.fallback };
  logError("live-policy", `no stored version of the ${name} validates, keeping ${kept}: ${judged.fallback ?? ""}`);
  return { current: before?.current ?? null, newest, at: now, stale: true, fallback: judged.fallback };
}

function newestVersion(record: StoredPolicy): number | undefined {
  const first = record.versions[0];
  return first === undefined ? undefined : first.ok ? first.value.version : first.version;
}

function keptName(memory: Memory | undefined): string {
  return memory?.current ? `version ${memory.current.entry.version}` : "version 0 (POLICY var)";
}

/** A kept version as the admin API lists it: the version, and why it cannot be in force (null: it can). */
export interface ListedVersion {
  readonly version: number | undefined;
  readonly entry: StoredPolicyVersion | undefined;
  readonly problem: string | null;
}

interface JudgedVersions {
  readonly inForce: NonNullable<Memory["current"]> | undefined;
  readonly listed: readonly ListedVersion[];
  /** Why the newest stored version is not in force; null when it is. */
  readonly fallback: string | null;
}

type Compile = (
  entry: StoredPolicyVersion,
) => { ok: true; value: CompiledPolicy | undefined } | { ok: false; problems: string[] };

/** Every kept version judged, newest first; the first that validates is in force. */
function judgeVersions(record: StoredPolicy, compile: Compile): JudgedVersions {
  let inForce: JudgedVersions["inForce"];
  const passedOver: string[] = [];
  const listed = record.versions.map((read): ListedVersion => {
    if (!read.ok) {
      const problem = `cannot be read by this release: ${read.cause}`;
      if (!inForce) passedOver.push(`version ${read.version ?? "?"} ${problem}`);
      return { version: read.version, entry: undefined, problem };
    }
    const compiled = compile(read.value);
    if (!compiled.ok) {
      const problem = `no longer validates: ${compiled.problems.join("; ")}`;
      if (!inForce) passedOver.push(`version ${read.value.version} ${problem}`);
      return { version: read.value.version, entry: read.value, problem };
    }
    inForce ??= { entry: read.value, compiled: compiled.value };
    return { version: read.value.version, entry: read.value, problem: null };
  });
  const instead = inForce ? `version ${inForce.entry.version} is in force` : "no stored version validates";
  const fallback = passedOver.length > 0 ? `${passedOver.join("; ")}; ${instead}` : null;
  return { inForce, listed, fallback };
}

/**
 * A version compiled, once per version: a re-read that finds the same version keeps the routes
 * already indexed (a 64 KiB policy is not re-parsed and re-indexed every 10 s).
 */
function compiledOf(entry: StoredPolicyVersion, known: Memory | undefined): ReturnType<Compile> {
  if (entry.text === null) return { ok: true, value: undefined };
  const current = known?.current;
  if (current?.compiled && current.entry.version === entry.version && current.entry.text === entry.text) {
    return { ok: true, value: current.compiled };
  }
  const shared = compiledByText.get(entry.text)?.compiled;
  return shared ? { ok: true, value: shared } : parsePolicy(entry.text);
}

function livePolicy(memory: Memory, config: Config, host: PolicyHost): LivePolicy {
  const current = memory.current;
  const { stale, fallback } = memory;
  if (!current) return { ...initialPolicy(config, host), stale, fallback };
  const { entry, compiled } = current;
  return {
    host,
    version: entry.version,
    savedAt: entry.savedAt,
    text: entry.text,
    compiled,
    source: "kv",
    stale,
    fallback,
  };
}

/** Version 0 of a key: the POLICY var's policy for it (the plain document, or its `hosts` entry), or none. */
export function initialPolicy(config: Config, host: PolicyHost = null): LivePolicy {
  const compiled = host === null ? config.policy : config.hostPolicies.get(host);
  const text = compiled ? JSON.stringify(compiled.policy, null, 2) : null;
  return { host, version: 0, savedAt: null, text, compiled, source: "var", stale: false, fallback: null };
}

/** The outcome of a save. */
export type SaveOutcome =
  | { readonly kind: "saved"; readonly entry: StoredPolicyVersion }
  /** If-Match named another version than the one in force. */
  | { readonly kind: "precondition-failed"; readonly version: number }
  /** Another save, at the same moment, replaced this one (the read-back shows its version). */
  | { readonly kind: "overwritten"; readonly entry: StoredPolicyVersion; readonly by: number }
  /** A new host would pass MAX_POLICY_HOSTS. */
  | { readonly kind: "too-many-hosts"; readonly limit: number }
  /** Every host's policy text together would pass MAX_HOST_POLICY_TEXT. */
  | { readonly kind: "too-much-text"; readonly limit: number; readonly total: number };

export interface SaveRequest {
  /** The policy JSON, already validated by parsePolicy; null for none. */
  readonly text: string | null;
  readonly compiled: CompiledPolicy | undefined;
  readonly via: "put" | "rollback" | "delete";
  readonly from?: number;
  /** Save only if this version is in force (If-Match). */
  readonly ifMatch?: number | undefined;
  /** Whose policy: a host key, or null (omitted) for the default. */
  readonly host?: PolicyHost;
  /** Who saved it (X-Saved-By). */
  readonly by?: string | undefined;
}

/**
 * Store a new version (one higher than any kept, readable or not, so numbers only grow), apply it
 * on this isolate at once, and name it in the index. A record that cannot be read is replaced
 * whole (it is never read first to be kept); a KV write that fails throws StoreRefused (the admin
 * API's 503), and nothing changes in force.
 */
export async function savePolicy(kv: KVNamespace, request: SaveRequest): Promise<SaveOutcome> {
  const host = request.host ?? null;
  const listing = await storedVersions(kv, host);
  const newest = Math.max(0, ...listing.versions.map((listed) => listed.version ?? 0));
  const inForceVersion = listing.inForce?.version ?? 0;
  if (request.ifMatch !== undefined && request.ifMatch !== inForceVersion) {
    return { kind: "precondition-failed", version: inForceVersion };
  }
  const index = host === null ? undefined : await freshIndex(kv);
  if (host !== null && request.text !== null && !index?.hosts.get(host)?.own) {
    const owning = [...(index?.hosts.values() ?? [])].filter((line) => line.own).length;
    if (owning >= MAX_POLICY_HOSTS) return { kind: "too-many-hosts", limit: MAX_POLICY_HOSTS };
  }
  const total = host === null ? 0 : hostPolicyText(index, host, request.text);
  if (total > MAX_HOST_POLICY_TEXT) return { kind: "too-much-text", limit: MAX_HOST_POLICY_TEXT, total };
  const entry: StoredPolicyVersion = {
    version: newest + 1,
    savedAt: Date.now(),
    text: request.text,
    via: request.via,
    ...(request.from !== undefined && { from: request.from }),
    saveId: crypto.randomUUID(),
    ...(request.by !== undefined && { by: request.by }),
  };
  const line = indexLine(entry);
  const kept = listing.versions.flatMap((listed) => (listed.entry ? [listed.entry] : []));
  await writePolicy(
    kv,
    { versions: [entry, ...kept].slice(0, MAX_KEPT_VERSIONS) },
    host,
    host === null ? undefined : line,
  );
  remember(host, {
    current: { entry, compiled: request.compiled },
    newest: entry.version,
    at: Date.now(),
    stale: false,
    fallback: null,
  });
  notePolicyFault(undefined, host);
  await indexSave(kv, host, line, index);
  // No compare-and-set in KV: read the write back; another save may have landed on top of it.
  const after = (await storedVersions(kv, host)).versions[0]?.entry;
  if (after && after.saveId !== entry.saveId) {
    forget(host); // re-read: the other save is what is in force
    return { kind: "overwritten", entry, by: after.version };
  }
  return { kind: "saved", entry };
}

/** Every host's own policy text with `host`'s replaced by `text` (lines saved before textLength count 0). */
function hostPolicyText(index: StoredPolicyIndex | undefined, host: string, text: string | null): number {
  let total = text?.length ?? 0;
  for (const [other, line] of index?.hosts ?? []) if (other !== host && line.own) total += line.textLength ?? 0;
  return total;
}

function indexLine(entry: StoredPolicyVersion): PolicyIndexEntry {
  return {
    version: entry.version,
    savedAt: entry.savedAt,
    via: entry.via,
    ...(entry.by !== undefined && { by: entry.by }),
    own: entry.text !== null,
    textLength: entry.text?.length ?? 0,
  };
}

/** The index fresh from KV; one that cannot be read is rebuilt from the host records' listing. */
export async function freshIndex(kv: KVNamespace): Promise<StoredPolicyIndex | undefined> {
  const read = await readPolicyIndex(kv);
  if (read.problem === undefined) return read.value;
  return { default: undefined, hosts: await listPolicyHostEntries(kv) };
}

/**
 * Name a save in the index (a host's always; the default's when an index exists, so a
 * deployment without hosts keeps one write per save). Read back, and written again when
 * another host's save replaced it at the same moment (KV has no compare-and-set): at most
 * three tries; what is still lost is repaired by the cron (repairPolicyIndex) or the next save.
 */
async function indexSave(
  kv: KVNamespace,
  host: PolicyHost,
  line: PolicyIndexEntry,
  known: StoredPolicyIndex | undefined,
): Promise<void> {
  let index = host === null ? await freshIndex(kv) : known;
  if (host === null && index === undefined) return;
  // The default's line too, so an isolate reads the default only when it changes.
  const defaultLine = host === null ? line : (index?.default ?? (await defaultLineNow(kv)));
  for (let attempt = 0; attempt < 3; attempt++) {
    const hosts = new Map(index?.hosts);
    if (host !== null) hosts.set(host, line);
    const next: StoredPolicyIndex = { default: defaultLine, hosts };
    await writePolicyIndex(kv, next);
    indexMemory = { value: next, at: Date.now() };
    index = await freshIndex(kv);
    const landed = host === null ? index?.default : index?.hosts.get(host);
    if (landed?.version === line.version) return;
  }
  logError("live-policy", `the policy index kept losing ${host ?? "the default"}'s save to simultaneous saves`);
}

/**
 * The cron's repair of the index. KV has no compare-and-set, so two saves at one moment can each
 * write an index without the other's host; indexSave's three tries narrow that, and this closes
 * it. Each host record carries its own index line as listing metadata, written with the record,
 * and the default's line is its record's newest version, so the records are the truth the index
 * is brought up to: a host the listing holds at a newer version than the index (or that the
 * index lacks), or a default record newer than the index's line, is written back. Records are
 * never deleted (DELETE saves a version with no policy of its own), so the repair only adds and
 * raises. Like a save, it merges into the index read just before its write and reads it back,
 * three tries at most: a save landing meanwhile (or read stale, KV's copies lag up to a minute)
 * keeps its line, and what a lagging read still loses the next run repairs. An index that
 * cannot be read is left alone: it may be a newer release's, and the next save rewrites it
 * (status names it meanwhile). Cost: one KV list per 1,000 hosts, one read of the index and one
 * of the default per cron run; a write (and two reads more) only when a save was lost.
 * Answers the keys it repaired (null: the default).
 */
export async function repairPolicyIndex(kv: KVNamespace): Promise<(string | null)[]> {
  const listed = await listPolicyHostEntries(kv);
  const first = await readPolicyIndex(kv);
  // No index and no host: a deployment without hosts keeps no index (indexSave).
  if (first.problem !== undefined || (first.value === undefined && listed.size === 0)) return [];
  const defaultLine = await defaultLineNow(kv);
  if (linesLost(first.value, listed, defaultLine).length === 0) return [];
  let repaired: (string | null)[] = [];
  // Each pass reads the index fresh: the first to merge into, the next ones to check the write back.
  for (let attempt = 0; ; attempt++) {
    const fresh = await readPolicyIndex(kv);
    if (fresh.problem !== undefined) return repaired;
    const lost = linesLost(fresh.value, listed, defaultLine);
    if (lost.length === 0) return repaired;
    if (attempt === 3) break;
    if (attempt === 0) repaired = lost;
    const hosts = new Map(fresh.value?.hosts);
    for (const key of lost) if (key !== null) hosts.set(key, listed.get(key) as PolicyIndexEntry);
    const next: StoredPolicyIndex = {
      default: lost.includes(null) ? defaultLine : fresh.value?.default,
      hosts,
    };
    await writePolicyIndex(kv, next);
    indexMemory = { value: next, at: Date.now() };
  }
  logError(
    "live-policy",
    "the cron's repair of the policy index kept meeting simultaneous saves: the next run tries again",
  );
  return repaired;
}

/** The keys whose record is newer than `index`'s line for it (null: the default). */
function linesLost(
  index: StoredPolicyIndex | undefined,
  listed: ReadonlyMap<string, PolicyIndexEntry>,
  defaultLine: PolicyIndexEntry | undefined,
): (string | null)[] {
  const lost: (string | null)[] = [];
  if (defaultLine !== undefined && (index?.default?.version ?? -1) < defaultLine.version) lost.push(null);
  for (const [host, line] of listed) if ((index?.hosts.get(host)?.version ?? -1) < line.version) lost.push(host);
  return lost;
}

/** The default record's newest version as an index line (version 0: KV holds none). */
async function defaultLineNow(kv: KVNamespace): Promise<PolicyIndexEntry | undefined> {
  const read = await readPolicy(kv);
  if (read.problem !== undefined) return undefined; // unknown: isolates re-read the default every RECHECK_MS
  const first = read.value?.versions[0];
  if (!first) return { version: 0, savedAt: 0, via: "put", own: false };
  return first.ok ? indexLine(first.value) : undefined;
}

/** The kept versions as the admin API sees them (fresh from KV), and the one in force. */
export interface PolicyListing {
  /** Newest first, each with why it cannot be in force (null: it can). */
  readonly versions: readonly ListedVersion[];
  /** The newest version that validates; undefined: version 0 (the POLICY var) is in force. */
  readonly inForce: StoredPolicyVersion | undefined;
  /** Why the newest stored version is not in force, or why the record cannot be read. */
  readonly fallback: string | null;
}

/**
 * A key's stored versions, newest first (fresh from KV: the admin API's view). A record this
 * code cannot read lists this isolate's last good versions (or none) and says why, rather than
 * failing the admin API: GET and PUT policy always answer.
 */
export async function storedVersions(kv: KVNamespace, host: PolicyHost = null): Promise<PolicyListing> {
  const read = await readPolicy(kv, { host });
  const before = memories.get(memoryKey(host))?.memory;
  const judged = read.value ? judgeVersions(read.value, (entry) => compiledOf(entry, before)) : undefined;
  // A readable record clears the key's fault in store.ts; a version passed over is one again.
  if (read.problem === undefined) notePolicyFault(judged?.fallback ?? undefined, host);
  const unreadable = read.problem === undefined ? null : `the stored record cannot be used (${read.problem})`;
  return {
    versions: judged?.listed ?? [],
    inForce: judged?.inForce?.entry,
    fallback: [unreadable, judged?.fallback ?? null].filter((why) => why !== null).join("; ") || null,
  };
}
