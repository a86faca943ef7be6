/**
 * GET policies[?cursor=…&limit=N]: the default and every host with a policy of its own, its
 * newest version and who saved it, one page at a time, sorted by host name. Read from the index
 * (live-policy.ts, one KV read) and the POLICY var's hosts (version 0 of a host KV has no record
 * of), so a page costs the same at 5 or 5,000 hosts. The cursor is the last host of the page.
 */

import { freshIndex, initialPolicy, policyInForce, storedVersions } from "../live-policy.ts";
import { ownFaults } from "../own-faults.ts";
import type { PolicyIndexEntry } from "../store.ts";
import { jsonResponse } from "../responses.ts";
import { adminError, type AdminContext } from "./context.ts";
import { canonicalHostName, policyKeysFor } from "../../policy/host-names.ts";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

interface Listed {
  readonly host: string | null;
  readonly version: number;
  readonly savedAt: string | null;
  readonly via: string;
  readonly by: string | null;
  readonly source: "kv" | "var";
}

export async function listPolicies(admin: AdminContext): Promise<Response> {
  const limit = limitOf(admin.url.searchParams.get("limit"));
  if (limit === undefined) return adminError(400, `limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const cursor = cursorOf(admin.url.searchParams.get("cursor"));
  if (cursor === "bad") return adminError(400, "cursor must be the `next` value of an earlier GET policies answer");
  const index = await freshIndex(admin.kv);
  const hosts = new Map<string, Listed>();
  for (const host of admin.config.hostPolicies.keys()) hosts.set(host, fromVar(host));
  for (const [host, line] of index?.hosts ?? []) {
    // A line that is not `own` is a removal: the var's version 0 is gone with it.
    if (line.own) hosts.set(host, fromLine(host, line));
    else hosts.delete(host);
  }
  const names = [...hosts.keys()].toSorted().filter((host) => cursor === undefined || host > cursor);
  const page = names.slice(0, limit);
  const last = page.at(-1);
  return jsonResponse({
    default: await defaultListed(admin, index?.default),
    hosts: page.map((host) => hosts.get(host)),
    next: names.length > limit && last !== undefined ? encodeCursor(last) : null,
  });
}

function fromVar(host: string): Listed {
  return { host, version: 0, savedAt: null, via: "POLICY var", by: null, source: "var" };
}

function fromLine(host: string | null, line: PolicyIndexEntry): Listed {
  return {
    host,
    version: line.version,
    savedAt: new Date(line.savedAt).toISOString(),
    via: line.via,
    by: line.by ?? null,
    source: "kv",
  };
}

/** The default's newest version: the index's line, else its record (saved before the index, or never). */
async function defaultListed(admin: AdminContext, line: PolicyIndexEntry | undefined): Promise<Listed> {
  if (line && line.version > 0) return fromLine(null, line);
  const newest = (await storedVersions(admin.kv)).versions[0]?.entry;
  if (newest) return fromLine(null, { ...newest, own: newest.text !== null });
  const via = initialPolicy(admin.config).text === null ? "none" : "POLICY var";
  return { host: null, version: 0, savedAt: null, via, by: null, source: "var" };
}

function limitOf(text: string | null): number | undefined {
  if (text === null) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  return limit >= 1 && limit <= MAX_LIMIT ? limit : undefined;
}

/** The cursor: the last host of the previous page, base64url (opaque to clients, checked here). */
function encodeCursor(host: string): string {
  return btoa(host).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

function cursorOf(text: string | null): string | undefined | "bad" {
  if (text === null || text === "") return undefined;
  try {
    const host = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const canonical = canonicalHostName(host);
    return canonical.ok && canonical.value === host ? host : "bad";
  } catch {
    return "bad";
  }
}

/**
 * GET status?host=h's `policyHost`: h's own version, the policy judging its requests now, and the
 * faults of the records that decide it (its own, its patterns', the index), as status names them.
 */
export async function hostPolicyStatus(admin: AdminContext, host: string) {
  const own = await storedVersions(admin.kv, host);
  const live = await policyInForce(admin.kv, admin.config, host);
  const keys = new Set(["policy-hosts", ...policyKeysFor(host).map((key) => `policy:host:${key}`)]);
  return {
    host,
    version: own.inForce?.version ?? 0,
    judgedBy: { host: live.host, version: live.version, stale: live.stale, fallback: live.fallback },
    ownFaults: ownFaults().filter((fault) => keys.has(fault.key) || (live.host === null && fault.key === "policy")),
  };
}
