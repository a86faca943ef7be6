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
import { readPolicy, writePolicy, type StoredPolicy, type StoredPolicyVersion } from "./store.ts";

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
  /** The last KV read failed: this is the last good policy this isolate had. */
  readonly stale: boolean;
}

/** What an isolate remembers: the saved version in force (null: KV holds none). */
interface Memory {
  readonly current: { readonly entry: StoredPolicyVersion; readonly compiled: CompiledPolicy | undefined } | null;
  readonly at: number;
  readonly stale: boolean;
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

async function reread(kv: KVNamespace, now: number): Promise<Memory> {
  try {
    const record = await readPolicy(kv, { cacheTtl: KV_CACHE_TTL_SECONDS });
    return { current: record ? inForce(record) : null, at: now, stale: false };
  } catch (error) {
    const kept = memory?.current ? `version ${memory.current.entry.version}` : "version 0 (POLICY var)";
    logError("live-policy", `policy read failed, keeping ${kept}: ${messageOf(error)}`);
    return { current: memory?.current ?? null, at: now, stale: true };
  }
}

/** The newest version of a record, compiled; throws on a record this code cannot use. */
function inForce(record: StoredPolicy): NonNullable<Memory["current"]> {
  const entry = Array.isArray(record.versions) ? record.versions[0] : undefined;
  if (!entry || !Number.isInteger(entry.version) || !(entry.text === null || typeof entry.text === "string")) {
    throw new TypeError("the stored policy record has no usable current version");
  }
  if (entry.text === null) return { entry, compiled: undefined };
  // Compiled once per version: a re-read every RECHECK_MS that finds the same version keeps the
  // routes already indexed (a 64 KiB policy is not re-parsed and re-indexed every 10 s).
  const known = memory?.current;
  if (known?.compiled && known.entry.version === entry.version && known.entry.text === entry.text) {
    return { entry, compiled: known.compiled };
  }
  const parsed = parsePolicy(entry.text);
  if (!parsed.ok) throw new TypeError(`stored version ${entry.version} is invalid: ${parsed.problems.join("; ")}`);
  return { entry, compiled: parsed.value };
}

function livePolicy(remembered: Memory, config: Config): LivePolicy {
  const current = remembered.current;
  if (!current) return { ...initialPolicy(config), stale: remembered.stale };
  const { entry, compiled } = current;
  return {
    version: entry.version,
    savedAt: entry.savedAt,
    text: entry.text,
    compiled,
    source: "kv",
    stale: remembered.stale,
  };
}

/** Version 0: the POLICY var's policy, or none. */
export function initialPolicy(config: Config): LivePolicy {
  const text = config.policy ? JSON.stringify(config.policy.policy, null, 2) : null;
  return { version: 0, savedAt: null, text, compiled: config.policy, source: "var", stale: false };
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

/** Store a new version (one higher than the newest), apply it on this isolate at once. */
export async function savePolicy(kv: KVNamespace, request: SaveRequest): Promise<SaveOutcome> {
  const versions = await storedVersions(kv);
  const newest = versions[0]?.version ?? 0;
  if (request.ifMatch !== undefined && request.ifMatch !== newest) {
    return { kind: "precondition-failed", version: newest };
  }
  const entry: StoredPolicyVersion = {
    version: newest + 1,
    savedAt: Date.now(),
    text: request.text,
    via: request.via,
    ...(request.from !== undefined && { from: request.from }),
    saveId: crypto.randomUUID(),
  };
  await writePolicy(kv, { versions: [entry, ...versions].slice(0, MAX_KEPT_VERSIONS) });
  memory = { current: { entry, compiled: request.compiled }, at: Date.now(), stale: false };
  // No compare-and-set in KV: read the write back; another save may have landed on top of it.
  const after = (await storedVersions(kv))[0];
  if (after && after.saveId !== entry.saveId) {
    memory = undefined; // re-read: the other save is what is in force
    return { kind: "overwritten", entry, by: after.version };
  }
  return { kind: "saved", entry };
}

/**
 * The stored versions, newest first (fresh from KV: the admin API's view). A record this code
 * cannot read (edited by hand, say) lists nothing rather than failing the admin API.
 */
export async function storedVersions(kv: KVNamespace): Promise<readonly StoredPolicyVersion[]> {
  const versions: unknown = (await readPolicy(kv))?.versions;
  return Array.isArray(versions) ? versions.filter(isStoredVersion) : [];
}

function isStoredVersion(value: unknown): value is StoredPolicyVersion {
  if (typeof value !== "object" || value === null) return false;
  const { version, savedAt, text } = value as Record<string, unknown>;
  return Number.isSafeInteger(version) && typeof savedAt === "number" && (text === null || typeof text === "string");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
