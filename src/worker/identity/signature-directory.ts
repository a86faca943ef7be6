/**
 * Web Bot Auth key sets (draft-ietf-webbotauth-httpsig-protocol-01, "Key Distribution and Discovery"): the JWK Set at each
 * trusted signer's URL (its well-known directory for a bare origin), fetched from trusted
 * signers only, kept in KV and isolate memory by signer URL, refreshed by the cron.
 *
 * Safety and cost choices, stated up front:
 * - Only a signer URL in the trust table is ever fetched. A Signature-Agent a client sends that
 *   the table does not hold is never fetched (no SSRF), whatever the request says.
 * - https only; http only for a loopback origin the operator listed in SIGNATURE_AGENTS
 *   (local runs and tests). No redirects (a directory that moves is a failure, not a hop to a
 *   host nobody vetted). At most MAX_DIRECTORY_BYTES, and the configured fetch timeout.
 * - Kept for the response's Cache-Control max-age, clamped to [MIN_LIFETIME_MS,
 *   MAX_LIFETIME_MS] (DEFAULT_LIFETIME_MS without one): fetched at most once per lifetime,
 *   never per request. A failed fetch keeps the last good keys and is retried after
 *   REFETCH_INTERVAL_MS — also when nothing was ever fetched, so a signer that is down
 *   cannot make every signed request fetch again.
 * - A signature naming a keyid the set we hold lacks (the signer rotated after we cached it)
 *   fetches the set again, at most once per signer per REFETCH_INTERVAL_MS per isolate
 *   (lastAttempt), so a client naming random keyids costs at most one fetch a minute. Until
 *   the set answers with the key, the signature is unverifiable, never refuted.
 */

import { parseDirectory, type DirectoryKey, type ParsedDirectory } from "../../agents/web-bot-auth/directory.ts";
import type { SignatureAgent } from "../../agents/web-bot-auth/signature-agents.ts";
import { isLoopbackUrl } from "../../agents/web-bot-auth/signer-url.ts";
import { maxAgeOf, readLimited, ROBOTS_FETCH_USER_AGENT } from "../robots/origin-fetch.ts";
import { readSignatureDirectory, writeSignatureDirectory, type StoredSignatureDirectory } from "../store.ts";

const DIRECTORY_MEDIA_TYPE = "application/http-message-signatures-directory+json";
/** A JWKS of a few keys is a few KB; 64 KiB leaves room for a card and many keys. */
const MAX_DIRECTORY_BYTES = 64 * 1024;
const MIN_LIFETIME_MS = 5 * 60_000;
const MAX_LIFETIME_MS = 24 * 3_600_000;
const DEFAULT_LIFETIME_MS = 3_600_000;
/** At most one fetch per signer per minute after a failure or for a missing keyid (the keys come back within a minute). */
const REFETCH_INTERVAL_MS = 60_000;
/** Memory holds at most one entry per trusted signer; this bounds it if the table is huge. */
const MAX_MEMORY_ENTRIES = 64;

export interface DirectoryOptions {
  readonly kv: KVNamespace;
  /** The trust table in effect, by signer URL (trustedSignatureAgents). */
  readonly agents: ReadonlyMap<string, SignatureAgent>;
  readonly timeoutMs: number;
}

/** A signer's keys as they stand: possibly the last good ones after failed refreshes. */
export interface SignatureDirectory {
  readonly url: string;
  readonly directory: ParsedDirectory | undefined;
  readonly nextFetchAt: number;
  /** Why the last fetch failed (the keys are then the last good ones, if any). */
  readonly lastError: string | undefined;
}

const memory = new Map<string, SignatureDirectory>();
const inFlight = new Map<string, Promise<SignatureDirectory>>();
/** When this isolate last fetched each signer's set (bounds the fetches a missing keyid causes). */
const lastAttempt = new Map<string, number>();

/** For tests (test/worker/helpers.ts): this memory outlives a test in one isolate; each test starts as a new isolate would. */
export function clearSignatureDirectoryMemory(): void {
  memory.clear();
  inFlight.clear();
  lastAttempt.clear();
}

/**
 * The key set of a trusted signer, for the request path: memory, then KV, and a fetch only
 * when its lifetime is over (one per isolate at a time). Undefined for an untrusted URL.
 */
export async function signatureDirectory(
  options: DirectoryOptions,
  signerUrl: string,
): Promise<SignatureDirectory | undefined> {
  const agent = options.agents.get(signerUrl);
  if (agent === undefined) return undefined;
  const now = Date.now();
  const remembered = memory.get(signerUrl);
  if (remembered && now < remembered.nextFetchAt) return remembered;
  const stored = await readSignatureDirectory(options.kv, signerUrl);
  if (stored && now < stored.nextFetchAt) return remember(await fromStored(stored));
  return refreshOnce(options, agent, stored);
}

/** The key lookup the verifier takes (verifyWebBotAuth's `lookupKey`): by the pair (signer URL, keyid). */
export function signatureKeyLookup(
  options: DirectoryOptions,
): (signerUrl: string, keyid: string) => Promise<DirectoryKey | undefined> {
  return async (signerUrl, keyid) => {
    const held = await signatureDirectory(options, signerUrl);
    const key = held?.directory?.keys.get(keyid);
    if (key !== undefined || held === undefined) return key;
    return (await fetchedAgainForKey(options, signerUrl))?.directory?.keys.get(keyid);
  };
}

/**
 * The set fetched again because it lacks a key (a rotation) or could not be fetched: only when
 * this isolate has not fetched it within REFETCH_INTERVAL_MS, else what we hold.
 */
async function fetchedAgainForKey(
  options: DirectoryOptions,
  signerUrl: string,
): Promise<SignatureDirectory | undefined> {
  const agent = options.agents.get(signerUrl);
  if (agent === undefined) return undefined;
  if (Date.now() - (lastAttempt.get(signerUrl) ?? -Infinity) < REFETCH_INTERVAL_MS) return memory.get(signerUrl);
  return refreshOnce(options, agent, await readSignatureDirectory(options.kv, signerUrl));
}

/** For the cron: fetch every trusted signer's key set whose lifetime is over. Says what happened per signer URL. */
export async function refreshSignatureDirectories(options: DirectoryOptions): Promise<Record<string, string>> {
  const report: Record<string, string> = {};
  await Promise.all(
    [...options.agents.values()].map(async (agent) => {
      const stored = await readSignatureDirectory(options.kv, agent.url);
      if (stored && Date.now() < stored.nextFetchAt) {
        report[agent.url] = "fresh";
        return;
      }
      const refreshed = await refreshOnce(options, agent, stored);
      report[agent.url] = refreshed.lastError ?? "fetched";
    }),
  );
  return report;
}

function refreshOnce(
  options: DirectoryOptions,
  agent: SignatureAgent,
  previous: StoredSignatureDirectory | undefined,
): Promise<SignatureDirectory> {
  let pending = inFlight.get(agent.url);
  if (pending === undefined) {
    pending = refresh(options, agent, previous).finally(() => inFlight.delete(agent.url));
    inFlight.set(agent.url, pending);
  }
  return pending;
}

async function refresh(
  options: DirectoryOptions,
  agent: SignatureAgent,
  previous: StoredSignatureDirectory | undefined,
): Promise<SignatureDirectory> {
  const now = Date.now();
  if (lastAttempt.size >= MAX_MEMORY_ENTRIES && !lastAttempt.has(agent.url)) lastAttempt.clear();
  lastAttempt.set(agent.url, now);
  let stored: StoredSignatureDirectory;
  try {
    const fetched = await fetchDirectory(agent, options.timeoutMs);
    stored = {
      url: agent.url,
      json: fetched.json,
      fetchedAt: now,
      nextFetchAt: now + fetched.lifetimeMs,
      lastError: undefined,
    };
  } catch (error) {
    // Keep the last good keys: an outage at the signer must not unverify its agents.
    stored = {
      url: agent.url,
      json: previous?.json,
      fetchedAt: previous?.fetchedAt,
      nextFetchAt: now + REFETCH_INTERVAL_MS,
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
  const url = new URL(agent.url);
  const mayUseHttp = agent.docs === "SIGNATURE_AGENTS" && isLoopbackUrl(agent.url);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && mayUseHttp)) {
    throw new Error(`refused: ${agent.url} is not https (http only for a loopback host in SIGNATURE_AGENTS)`);
  }
  const response = await fetch(url, {
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      accept: `${DIRECTORY_MEDIA_TYPE}, application/jwk-set+json, application/json`,
      "user-agent": ROBOTS_FETCH_USER_AGENT,
    },
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
  return { url: stored.url, directory, nextFetchAt: stored.nextFetchAt, lastError: stored.lastError };
}

function remember(entry: SignatureDirectory): SignatureDirectory {
  if (memory.size >= MAX_MEMORY_ENTRIES && !memory.has(entry.url)) memory.clear();
  memory.set(entry.url, entry);
  return entry;
}
