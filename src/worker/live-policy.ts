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
 */

import { parsePolicy, type CompiledPolicy } from "../policy/operator-policy.ts";
import type { Config } from "../config/read-config.ts";
import { logError } from "./log.ts";
import { notePolicyFault, readPolicy, writePolicy, type StoredPolicy, type StoredPolicyVersion } from "./store.ts";

/** How long an isolate answers from memory before asking KV again. */
export const RECHECK_MS = 10_000;
/** KV's own cache at a location for the request path's reads (KV's minimum; its default is 60). */
export const KV_CACHE_TTL_SECONDS = 30;
/** Versions kept in the record and listed (version 0, the POLICY var's, is listed besides). */
export const MAX_KEPT_VERSIONS = 20;

/** The policy in force on this isolate. */
export interface LivePolicy {
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

/** What an isolate remembers: the saved version in force (null: KV holds none). */
interface Memory {
  readonly current: { readonly entry: StoredPolicyVersion; readonly compiled: CompiledPolicy | undefined } | null;
  readonly at: number;
  readonly stale: boolean;
  readonly fallback: string | null;
}

let memory: Memory | undefined;

/** Forget what this isolate remembers (tests). */
export function clearPolicyMemory(): void {
  memory = undefined;
}

/** The policy in force for a request: from memory, else KV (at most once per RECHECK_MS). */
export async function policyInForce(kv: KVNamespace, config: Config): Promise<LivePolicy> {
  const now = Date.now();
  if (!memory || now - memory.at >= RECHECK_MS) memory = await reread(kv, now);
  return livePolicy(memory, config);
}

/**
 * The newest stored version that validates is in force: a version this release
 * cannot use (a stricter validator after an upgrade, a newer release's field, a hand edit) is
 * passed over, named in status with why, never a silent drop to version 0. A record that
 * cannot be read at all (store.ts says why), or holds no usable version, keeps this isolate's
 * last good version, else version 0; all of it logged.
 */
async function reread(kv: KVNamespace, now: number): Promise<Memory> {
  const read = await readPolicy(kv, { cacheTtl: KV_CACHE_TTL_SECONDS });
  if (read.problem !== undefined) {
    logError("live-policy", `policy read failed, keeping ${keptName()}: ${read.problem}`);
    const fallback = `the stored record cannot be used (${read.problem}); ${keptName()} stays in force`;
    return { current: memory?.current ?? null, at: now, stale: true, fallback };
  }
  if (!read.value) return { current: null, at: now, stale: false, fallback: null };
  const judged = judgeVersions(read.value, compiledOf);
  notePolicyFault(judged.fallback ?? undefined);
  if (judged.inForce) return { current: judged.inForce, at: now, stale: false, fallback: judged.fallback };
  logError("live-policy", `no stored policy version validates, keeping ${keptName()}: ${judged.fallback ?? ""}`);
  return { current: memory?.current ?? null, at: now, stale: true, fallback: judged.fallback };
}

function keptName(): string {
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
 * A version compiled, once per version: a re-read every RECHECK_MS that finds the same version
 * keeps the routes already indexed (a 64 KiB policy is not re-parsed and re-indexed every 10 s).
 */
function compiledOf(entry: StoredPolicyVersion): ReturnType<Compile> {
  if (entry.text === null) return { ok: true, value: undefined };
  const known = memory?.current;
  if (known?.compiled && known.entry.version === entry.version && known.entry.text === entry.text) {
    return { ok: true, value: known.compiled };
  }
  return parsePolicy(entry.text);
}

function livePolicy(remembered: Memory, config: Config): LivePolicy {
  const current = remembered.current;
  const { stale, fallback } = remembered;
  if (!current) return { ...initialPolicy(config), stale, fallback };
  const { entry, compiled } = current;
  return { version: entry.version, savedAt: entry.savedAt, text: entry.text, compiled, source: "kv", stale, fallback };
}

/** Version 0: the POLICY var's policy, or none. */
export function initialPolicy(config: Config): LivePolicy {
  const text = config.policy ? JSON.stringify(config.policy.policy, null, 2) : null;
  return { version: 0, savedAt: null, text, compiled: config.policy, source: "var", stale: false, fallback: null };
}

/** The outcome of a save. */
export type SaveOutcome =
  | { readonly kind: "saved"; readonly entry: StoredPolicyVersion }
  /** If-Match named another version than the one in force. */
  | { readonly kind: "precondition-failed"; readonly version: number }
  /** Another save, at the same moment, replaced this one (the read-back shows its version). */
  | { readonly kind: "overwritten"; readonly entry: StoredPolicyVersion; readonly by: number };

export interface SaveRequest {
  /** The policy JSON, already validated by parsePolicy; null for none. */
  readonly text: string | null;
  readonly compiled: CompiledPolicy | undefined;
  readonly via: "put" | "rollback";
  readonly from?: number;
  /** Save only if this version is in force (If-Match). */
  readonly ifMatch?: number | undefined;
}

/**
 * Store a new version (one higher than any kept, readable or not, so numbers only grow), apply it
 * on this isolate at once. A record that cannot be read is replaced whole (it is never read
 * first to be kept); a KV write that fails throws StoreRefused (the admin API's 503), and
 * nothing changes in force.
 */
export async function savePolicy(kv: KVNamespace, request: SaveRequest): Promise<SaveOutcome> {
  const listing = await storedVersions(kv);
  const newest = Math.max(0, ...listing.versions.map((listed) => listed.version ?? 0));
  const inForceVersion = listing.inForce?.version ?? 0;
  if (request.ifMatch !== undefined && request.ifMatch !== inForceVersion) {
    return { kind: "precondition-failed", version: inForceVersion };
  }
  const entry: StoredPolicyVersion = {
    version: newest + 1,
    savedAt: Date.now(),
    text: request.text,
    via: request.via,
    ...(request.from !== undefined && { from: request.from }),
    saveId: crypto.randomUUID(),
  };
  const kept = listing.versions.flatMap((listed) => (listed.entry ? [listed.entry] : []));
  await writePolicy(kv, { versions: [entry, ...kept].slice(0, MAX_KEPT_VERSIONS) });
  memory = { current: { entry, compiled: request.compiled }, at: Date.now(), stale: false, fallback: null };
  notePolicyFault(undefined);
  // No compare-and-set in KV: read the write back; another save may have landed on top of it.
  const after = (await storedVersions(kv)).versions[0]?.entry;
  if (after && after.saveId !== entry.saveId) {
    memory = undefined; // re-read: the other save is what is in force
    return { kind: "overwritten", entry, by: after.version };
  }
  return { kind: "saved", entry };
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
 * The stored versions, newest first (fresh from KV: the admin API's view). A record this code
 * cannot read lists this isolate's last good versions (or none) and says why, rather than
 * failing the admin API: GET and PUT policy always answer.
 */
export async function storedVersions(kv: KVNamespace): Promise<PolicyListing> {
  const read = await readPolicy(kv);
  const judged = read.value ? judgeVersions(read.value, compiledOf) : undefined;
  // A readable record clears the key's fault in store.ts; a version passed over is one again.
  if (read.problem === undefined) notePolicyFault(judged?.fallback ?? undefined);
  const unreadable = read.problem === undefined ? null : `the stored record cannot be used (${read.problem})`;
  return {
    versions: judged?.listed ?? [],
    inForce: judged?.inForce?.entry,
    fallback: [unreadable, judged?.fallback ?? null].filter((why) => why !== null).join("; ") || null,
  };
}
