/**
 * Web Bot Auth key directories (draft-meunier-http-message-signatures-directory): fetched
 * from trusted signers only, kept in KV and isolate memory, refreshed by the cron.
 *
 * Safety and cost choices, stated up front:
 * - Only an origin in the trust table is ever fetched. A Signature-Agent a client sends that
 *   the table does not hold is never fetched (no SSRF), whatever the request says.
 * - https only; http only for a loopback origin the operator listed in SIGNATURE_AGENTS
 *   (local runs and tests). No redirects (a directory that moves is a failure, not a hop to a
 *   host nobody vetted). At most MAX_DIRECTORY_BYTES, and the configured fetch timeout.
 * - Kept for the response's Cache-Control max-age, clamped to [MIN_LIFETIME_MS,
 *   MAX_LIFETIME_MS] (DEFAULT_LIFETIME_MS without one): fetched at most once per lifetime,
 *   never per request. A failed fetch keeps the last good keys and is retried after
 *   RETRY_AFTER_FAILURE_MS — also when nothing was ever fetched, so a signer that is down
 *   cannot make every signed request fetch again.
 */

import { parseDirectory, type DirectoryKey, type ParsedDirectory } from "../agents/web-bot-auth/directory.ts";
import { isLoopbackOrigin, type SignatureAgent } from "../agents/web-bot-auth/signature-agents.ts";
import { maxAgeOf, readLimited, ROBOTS_FETCH_USER_AGENT } from "./origin-fetch.ts";
import { readSignatureDirectory, writeSignatureDirectory, type StoredSignatureDirectory } from "./store.ts";

export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";
const DIRECTORY_MEDIA_TYPE = "application/http-message-signatures-directory+json";
/** A JWKS of a few keys is a few KB; 64 KiB leaves room for a card and many keys. */
export const MAX_DIRECTORY_BYTES = 64 * 1024;
export const MIN_LIFETIME_MS = 5 * 60_000;
export const MAX_LIFETIME_MS = 24 * 3_600_000;
export const DEFAULT_LIFETIME_MS = 3_600_000;
export const RETRY_AFTER_FAILURE_MS = MIN_LIFETIME_MS;
/** Memory holds at most one entry per trusted signer; this bounds it if the table is huge. */
const MAX_MEMORY_ENTRIES = 64;

export interface DirectoryOptions {
  readonly kv: KVNamespace;
  /** The trust table in effect (trustedSignatureAgents). */
  readonly agents: ReadonlyMap<string, SignatureAgent>;
  readonly timeoutMs: number;
}

/** A signer's keys as they stand: possibly the last good ones after failed refreshes. */
export interface SignatureDirectory {
  readonly origin: string;
  readonly directory: ParsedDirectory | undefined;
  readonly nextFetchAt: number;
  /** Why the last fetch failed (the keys are then the last good ones, if any). */
  readonly lastError: string | undefined;
}

const memory = new Map<string, SignatureDirectory>();
const inFlight = new Map<string, Promise<SignatureDirectory>>();

export function clearSignatureDirectoryMemory(): void {
  memory.clear();
  inFlight.clear();
}

/**
 * The directory of a trusted signer, for the request path: memory, then KV, and a fetch only
 * when its lifetime is over (one per isolate at a time). Undefined for an untrusted origin.
 */
export async function signatureDirectory(
  options: DirectoryOptions,
  origin: string,
): Promise<SignatureDirectory | undefined> {
  const agent = options.agents.get(origin);
  if (agent === undefined) return undefined;
  const now = Date.now();
  const remembered = memory.get(origin);
  if (remembered && now < remembered.nextFetchAt) return remembered;
  const stored = await readSignatureDirectory(options.kv, origin);
  if (stored && now < stored.nextFetchAt) return remember(await fromStored(stored));
  return refreshOnce(options, agent, stored);
}

/** The key lookup the verifier takes (verifyWebBotAuth's `lookupKey`). */
export function signatureKeyLookup(
  options: DirectoryOptions,
): (origin: string, keyid: string) => Promise<DirectoryKey | undefined> {
  return async (origin, keyid) => (await signatureDirectory(options, origin))?.directory?.keys.get(keyid);
}

/** For the cron: fetch every trusted signer's directory whose lifetime is over. Says what happened per origin. */
export async function refreshSignatureDirectories(options: DirectoryOptions): Promise<Record<string, string>> {
  const report: Record<string, string> = {};
  await Promise.all(
    [...options.agents.values()].map(async (agent) => {
      const stored = await readSignatureDirectory(options.kv, agent.origin);
      if (stored && Date.now() < stored.nextFetchAt) {
        report[agent.origin] = "fresh";
        return;
      }
      const refreshed = await refreshOnce(options, agent, stored);
      report[agent.origin] = refreshed.lastError ?? "fetched";
    }),
  );
  return report;
}

function refreshOnce(
  options: DirectoryOptions,
  agent: SignatureAgent,
  previous: StoredSignatureDirectory | undefined,
): Promise<SignatureDirectory> {
  let pending = inFlight.get(agent.origin);
  if (pending === undefined) {
    pending = refresh(options, agent, previous).finally(() => inFlight.delete(agent.origin));
    inFlight.set(agent.origin, pending);
  }
  return pending;
}

async function refresh(
  options: DirectoryOptions,
  agent: SignatureAgent,
  previous: StoredSignatureDirectory | undefined,
): Promise<SignatureDirectory> {
  const now = Date.now();
  let stored: StoredSignatureDirectory;
  try {
    const fetched = await fetchDirectory(agent, options.timeoutMs);
    stored = {
      origin: agent.origin,
      json: fetched.json,
      fetchedAt: now,
      nextFetchAt: now + fetched.lifetimeMs,
      lastError: undefined,
    };
  } catch (error) {
    // Keep the last good keys: an outage at the signer must not unverify its agents.
    stored = {
      origin: agent.origin,
      json: previous?.json,
      fetchedAt: previous?.fetchedAt,
      nextFetchAt: now + RETRY_AFTER_FAILURE_MS,
      lastError: error instanceof Error ? error.message : String(error),
    };
  }
  await writeSignatureDirectory(options.kv, stored);
  return remember(await fromStored(stored));
}

async function fetchDirectory(
  agent: SignatureAgent,
  timeoutMs: number,
): Promise<{ json: unknown; lifetimeMs: number }> {
  const url = new URL(DIRECTORY_PATH, agent.origin);
  const mayUseHttp = agent.docs === "SIGNATURE_AGENTS" && isLoopbackOrigin(agent.origin);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && mayUseHttp)) {
    throw new Error(`refused: ${agent.origin} is not https (http only for a loopback origin in SIGNATURE_AGENTS)`);
  }
  const response = await fetch(url, {
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: `${DIRECTORY_MEDIA_TYPE}, application/json`, "user-agent": ROBOTS_FETCH_USER_AGENT },
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    const moved = response.status >= 300 && response.status < 400;
    throw new Error(moved ? `refused: redirect (${response.status})` : `directory answered ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_DIRECTORY_BYTES) {
    await response.body?.cancel();
    throw new Error(`refused: larger than ${MAX_DIRECTORY_BYTES} bytes`);
  }
  const body = await readLimited(response, MAX_DIRECTORY_BYTES + 1);
  if (body.byteLength > MAX_DIRECTORY_BYTES) throw new Error(`refused: larger than ${MAX_DIRECTORY_BYTES} bytes`);
  const json: unknown = JSON.parse(new TextDecoder().decode(body));
  const parsed = await parseDirectory(json);
  if (parsed === undefined || parsed.keys.size === 0) throw new Error("no usable keys in the directory");
  return { json, lifetimeMs: lifetimeOf(response.headers.get("cache-control")) };
}

function lifetimeOf(cacheControl: string | null): number {
  const maxAge = maxAgeOf(cacheControl);
  if (maxAge === undefined) return DEFAULT_LIFETIME_MS;
  return Math.min(MAX_LIFETIME_MS, Math.max(MIN_LIFETIME_MS, maxAge * 1000));
}

async function fromStored(stored: StoredSignatureDirectory): Promise<SignatureDirectory> {
  const directory = stored.json === undefined ? undefined : await parseDirectory(stored.json);
  return { origin: stored.origin, directory, nextFetchAt: stored.nextFetchAt, lastError: stored.lastError };
}

function remember(entry: SignatureDirectory): SignatureDirectory {
  if (memory.size >= MAX_MEMORY_ENTRIES && !memory.has(entry.origin)) memory.clear();
  memory.set(entry.origin, entry);
  return entry;
}
