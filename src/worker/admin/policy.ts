/**
 * The admin API's live-policy routes (live-policy.ts keeps the record):
 *
 *   GET  policy                     the policy in force, its version, the kept versions with time
 *   PUT  policy  <policy JSON>      a new version; 400 `{error, problems, at: [{line, problem}]}`
 *                                   with every problem and its line in the submitted text
 *   POST policy/rollback {"version": N}   version N's policy in force again, as a new version
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
import { initialPolicy, MAX_KEPT_VERSIONS, savePolicy, storedVersions, type SaveOutcome } from "../live-policy.ts";
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
  const listing = await storedVersions(admin.kv);
  const initial = initialPolicy(admin.config);
  const current = listing.inForce;
  const inForce = current ? describe(current) : describe(undefined, initial.text);
  const response = jsonResponse({
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
  if (!entry) return { version: 0, savedAt: null, via: "POLICY var", from: null, text: initialText };
  return {
    version: entry.version,
    savedAt: new Date(entry.savedAt).toISOString(),
    via: entry.via,
    from: entry.from ?? null,
    text: entry.text,
  };
}

/** Validate and store a policy as a new version. */
export async function putPolicy(admin: AdminContext): Promise<Response> {
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
  const outcome = await savePolicy(admin.kv, { text: body.text, compiled: parsed.value, via: "put", ifMatch });
  // Saved, but two of its settings disagree: said now, and in GET status while it stands.
  return saved(outcome, routesPassingPurposes(parsed.value));
}

/** Put the policy of a kept version (or version 0) back in force, as a new version. */
export async function rollbackPolicy(admin: AdminContext): Promise<Response> {
  const body = await readBodyText(admin.request, MAX_ROLLBACK_BYTES);
  if (!body.ok) return policyError(body.status, body.error);
  const ifMatch = ifMatchVersion(admin.request);
  if (ifMatch === "bad") return policyError(400, 'If-Match must be a version in quotes, such as "3"');
  const version = rollbackVersion(body.text);
  if (version === undefined) {
    return policyError(400, 'rollback needs a JSON body {"version": N}, N a whole number from 0 (the POLICY var)');
  }
  const target = await rollbackTarget(admin, version);
  if (!target.ok) return target.response;
  const outcome = await savePolicy(admin.kv, { ...target.value, via: "rollback", from: version, ifMatch });
  return saved(outcome);
}

async function rollbackTarget(admin: AdminContext, version: number) {
  if (version === 0) {
    const initial = initialPolicy(admin.config);
    return { ok: true, value: { text: initial.text, compiled: initial.compiled } } as const;
  }
  const { versions } = await storedVersions(admin.kv);
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

function saved(outcome: SaveOutcome, notes: readonly string[] = []): Response {
  switch (outcome.kind) {
    case "saved": {
      const response = jsonResponse({
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
