/**
 * The admin API's live-policy routes (live-policy.ts keeps the record):
 *
 *   GET  policy                     the policy in force, its version, the kept versions with time
 *   PUT  policy  <policy JSON>      a new version; 400 `{error, problems, at: [{line, problem}]}`
 *                                   with every problem and its line in the submitted text
 *   POST policy/rollback {"version": N}   version N's policy in force again, as a new version
 *   DELETE policy?host=h            a new version of h with no policy of its own
 *
 * Each takes `?host=<name>` (admin/policy-host.ts): that host's own policy, with its own
 * versions and If-Match; without it, the default. `X-Saved-By` names who saved (kept, listed).
 *
 * Bodies are bounded (MAX_POLICY_BYTES; 413 beyond; admin/body.ts) and must be UTF-8.
 * `If-Match: "N"` (the ETag GET answers) makes a save conditional on version N still being in
 * force (412 if not): the page sends it, so an editor opened before someone else's save cannot
 * silently undo it. `If-Match: *` makes it unconditional.
 */

import { MAX_POLICY_BYTES, parsePolicy } from "../../policy/operator-policy.ts";
import { locateProblems } from "../../policy/policy-lines.ts";
import { routesPassingPurposes } from "../../policy/purposes-conflicts.ts";
import type { AdminContext } from "./context.ts";
import { readBodyText } from "./body.ts";
import {
  initialPolicy,
  MAX_KEPT_VERSIONS,
  policyInForce,
  savePolicy,
  storedVersions,
  type PolicyHost,
  type SaveOutcome,
} from "../live-policy.ts";
import { policyHostParam } from "./policy-host.ts";
import { jsonResponse } from "../responses.ts";
import type { StoredPolicyVersion } from "../store.ts";

// Kept beside the policy's parser, so the CLI refuses what PUT policy would (cli/purposes.ts).
export { MAX_POLICY_BYTES };
/** A rollback body is `{"version": N}`. */
const MAX_ROLLBACK_BYTES = 1024;

function policyError(status: number, error: string, extra: Record<string, unknown> = {}): Response {
  return jsonResponse({ error, ...extra }, status);
}

/**
 * The policy in force (fresh from KV), its version, and every kept version with its time. The
 * newest version that validates is in force; each that does not says why (`problem`), and
 * `fallback` says why the newest is not in force. Answers whatever the record holds.
 */
export async function getPolicy(admin: AdminContext): Promise<Response> {
  const param = policyHostParam(admin);
  if (!param.ok) return param.response;
  const { host } = param;
  const listing = await storedVersions(admin.kv, host);
  const initial = initialPolicy(admin.config, host);
  const current = listing.inForce;
  const inForce = current ? describe(current) : describe(undefined, initial.text);
  const response = jsonResponse({
    ...(host !== null && { host, judgedBy: await judgedBy(admin, host) }),
    ...inForce,
    policy: parsedOrNull(inForce.text),
    source: current ? "kv" : "var",
    fallback: listing.fallback,
    maxKept: MAX_KEPT_VERSIONS,
    history: [
      ...listing.versions.map((listed) => ({
        ...(listed.entry ? describe(listed.entry) : { version: listed.version ?? null }),
        inForce: listed.entry !== undefined && listed.entry === current,
        problem: listed.problem,
      })),
      { ...describe(undefined, initial.text), inForce: current === undefined, problem: null },
    ],
  });
  response.headers.set("etag", `"${inForce.version}"`);
  return response;
}

/** Whose policy judges an exact host's requests now (a pattern's: the pattern's own, or the default). */
async function judgedBy(admin: AdminContext, host: string) {
  if (host.startsWith("*.")) return null;
  const live = await policyInForce(admin.kv, admin.config, host);
  return { host: live.host, version: live.version };
}

/** The policy text as JSON (null for none, or for a stored text that is not JSON). */
function parsedOrNull(text: string | null): unknown {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** A version as the API lists it; undefined is version 0 (the POLICY var, or none). */
function describe(entry: StoredPolicyVersion | undefined, initialText: string | null = null) {
  if (!entry) return { version: 0, savedAt: null, via: "POLICY var", from: null, by: null, text: initialText };
  return {
    version: entry.version,
    savedAt: new Date(entry.savedAt).toISOString(),
    via: entry.via,
    from: entry.from ?? null,
    by: entry.by ?? null,
    text: entry.text,
  };
}

/** Validate and store a policy as a new version. */
export async function putPolicy(admin: AdminContext): Promise<Response> {
  const saver = saverOf(admin);
  if (!saver.ok) return saver.response;
  const { host, by } = saver;
  const body = await readBodyText(admin.request, MAX_POLICY_BYTES);
  if (!body.ok) return policyError(body.status, body.error);
  const ifMatch = ifMatchVersion(admin.request);
  if (ifMatch === "bad") return policyError(400, 'If-Match must be a version in quotes, such as "3"');
  const parsed = parsePolicy(body.text);
  if (!parsed.ok) {
    return policyError(400, `the policy has ${parsed.problems.length} problem(s); nothing was saved`, {
      problems: parsed.problems,
      at: locateProblems(body.text, parsed.problems),
    });
  }
  const outcome = await savePolicy(admin.kv, {
    text: body.text,
    compiled: parsed.value,
    via: "put",
    ifMatch,
    host,
    by,
  });
  // Saved, but two of its settings disagree: said now, and in GET status while it stands.
  return saved(outcome, host, routesPassingPurposes(parsed.value));
}

/** Remove a host's own policy: a new version with none, so the next pattern or the default judges it. */
export async function deletePolicy(admin: AdminContext): Promise<Response> {
  const saver = saverOf(admin);
  if (!saver.ok) return saver.response;
  const { host, by } = saver;
  if (host === null) {
    return policyError(400, "DELETE policy needs host=: the default always exists (PUT a policy, or roll back to 0)");
  }
  const ifMatch = ifMatchVersion(admin.request);
  if (ifMatch === "bad") return policyError(400, 'If-Match must be a version in quotes, such as "3"');
  return saved(await savePolicy(admin.kv, { text: null, compiled: undefined, via: "delete", ifMatch, host, by }), host);
}

/** Longest X-Saved-By kept. */
const MAX_SAVED_BY_LENGTH = 100;

/** `?host=` and `X-Saved-By` of a save, or the error. */
function saverOf(
  admin: AdminContext,
): { ok: true; host: PolicyHost; by: string | undefined } | { ok: false; response: Response } {
  const param = policyHostParam(admin);
  if (!param.ok) return param;
  const by = admin.request.headers.get("x-saved-by")?.trim();
  // Printable characters only (no control characters, which a log or a terminal would obey).
  if (by !== undefined && (by.length > MAX_SAVED_BY_LENGTH || /\p{Cc}/u.test(by))) {
    return {
      ok: false,
      response: policyError(400, `X-Saved-By must be at most ${MAX_SAVED_BY_LENGTH} printable characters`),
    };
  }
  return { ok: true, host: param.host, by: by === "" ? undefined : by };
}

/** Put the policy of a kept version (or version 0) back in force, as a new version. */
export async function rollbackPolicy(admin: AdminContext): Promise<Response> {
  const saver = saverOf(admin);
  if (!saver.ok) return saver.response;
  const { host, by } = saver;
  const body = await readBodyText(admin.request, MAX_ROLLBACK_BYTES);
  if (!body.ok) return policyError(body.status, body.error);
  const ifMatch = ifMatchVersion(admin.request);
  if (ifMatch === "bad") return policyError(400, 'If-Match must be a version in quotes, such as "3"');
  const version = rollbackVersion(body.text);
  if (version === undefined) {
    return policyError(400, 'rollback needs a JSON body {"version": N}, N a whole number from 0 (the POLICY var)');
  }
  const target = await rollbackTarget(admin, version, host);
  if (!target.ok) return target.response;
  const outcome = await savePolicy(admin.kv, { ...target.value, via: "rollback", from: version, ifMatch, host, by });
  return saved(outcome, host);
}

async function rollbackTarget(admin: AdminContext, version: number, host: PolicyHost) {
  if (version === 0) {
    const initial = initialPolicy(admin.config, host);
    return { ok: true, value: { text: initial.text, compiled: initial.compiled } } as const;
  }
  const { versions } = await storedVersions(admin.kv, host);
  const entry = versions.find((candidate) => candidate.version === version)?.entry;
  const kept = versions.map((candidate) => candidate.version).join(", ");
  if (!entry) {
    const error = `version ${version} is not kept (the last ${MAX_KEPT_VERSIONS} are, and 0): kept ${kept || "none"}`;
    return { ok: false, response: policyError(400, error) } as const;
  }
  // A kept version was valid when saved; it is checked again in case validation has since tightened.
  const parsed = entry.text === null ? undefined : parsePolicy(entry.text);
  if (parsed && !parsed.ok) {
    return {
      ok: false,
      response: policyError(400, `version ${version} is no longer valid`, { problems: parsed.problems }),
    } as const;
  }
  return { ok: true, value: { text: entry.text, compiled: parsed?.value } } as const;
}

function rollbackVersion(text: string): number | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const version =
    typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)["version"]
      : undefined;
  return typeof version === "number" && Number.isSafeInteger(version) && version >= 0 ? version : undefined;
}

function saved(outcome: SaveOutcome, host: PolicyHost, notes: readonly string[] = []): Response {
  switch (outcome.kind) {
    case "saved": {
      const response = jsonResponse({
        ...(host !== null && { host }),
        version: outcome.entry.version,
        savedAt: new Date(outcome.entry.savedAt).toISOString(),
        ...(notes.length > 0 && { notes }),
      });
      response.headers.set("etag", `"${outcome.entry.version}"`);
      return response;
    }
    case "precondition-failed":
      return policyError(
        412,
        `the policy changed since you loaded it: version ${outcome.version} is in force now; reload and save again`,
        { version: outcome.version },
      );
    case "too-many-hosts":
      return policyError(
        400,
        `at most ${outcome.limit} hosts may have a policy of their own: remove one (DELETE policy?host=…) or use a *. pattern`,
      );
    case "too-much-text":
      return policyError(
        400,
        `the host policies would hold ${outcome.total} characters of policy text together, past ${outcome.limit} (what an isolate keeps compiled): nothing was saved; shrink this or another host's policy, or use a *. pattern`,
        { total: outcome.total, limit: outcome.limit },
      );
    case "overwritten":
      return policyError(
        409,
        `another save at the same moment replaced this one: version ${outcome.by} is in force; reload and check`,
        { version: outcome.by },
      );
  }
}

/**
 * `If-Match: "N"` as a version; undefined when absent or `*`; "bad" when not that shape.
 * `*` asks only that a current representation exist (RFC 9110 §13.1.1), and a policy is
 * always in force (version 0 at least), so it makes the save unconditional.
 */
function ifMatchVersion(request: Request): number | undefined | "bad" {
  const header = request.headers.get("if-match");
  if (header === null || header.trim() === "*") return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(header);
  return match?.[1] === undefined ? "bad" : Number(match[1]);
}
