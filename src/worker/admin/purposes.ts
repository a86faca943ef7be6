/**
 * POST purposes/preview?origin=: what a purposes setting makes of an origin's stored
 * robots.txt, for the page to show the generated lines next to the origin's. Saves nothing.
 *   body {"purposes": […]}: a draft, validated as PUT policy validates it (400 with problems);
 *   body {}: the purposes of the policy in force.
 * Answer: {origin, originText, generated, applied, notes}. The origin's text is the stored
 * copy (none fetched here); no copy (the origin has none, or nothing is stored yet) is "".
 */

import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import { parsePolicy } from "../../policy/operator-policy.ts";
import { compilePurposes } from "../../policy/purposes-robots.ts";
import type { AdminContext } from "./context.ts";
import { readBodyText } from "./body.ts";
import { MAX_POLICY_BYTES } from "./policy.ts";
import { jsonResponse } from "../responses.ts";
import { storedRobots } from "../robots/cache.ts";
import { fromBase64 } from "../robots/entry.ts";

export async function previewPurposes(
  admin: AdminContext,
  origin: string,
  live: CompiledPolicy | undefined,
): Promise<Response> {
  const body = await readBodyText(admin.request, MAX_POLICY_BYTES);
  if (!body.ok) return jsonResponse({ error: body.error }, body.status);
  const draft = draftPurposes(body.text);
  if (!draft.ok) return jsonResponse({ error: draft.problems[0], problems: draft.problems }, 400);
  const purposes = draft.purposes ?? live?.policy.purposes ?? [];
  const stored = await storedRobots(origin, admin.kv);
  const copy = stored?.entry.state === "ok" ? stored.entry.copy : undefined;
  const bytes = copy ? fromBase64(copy.bodyBase64) : undefined;
  const result = compilePurposes(bytes, purposes);
  return jsonResponse({
    origin,
    originText: bytes ? new TextDecoder().decode(bytes) : "",
    generated: result.generated,
    applied: result.applied,
    notes: result.notes,
  });
}

type Draft =
  | { readonly ok: true; readonly purposes: CompiledPolicy["policy"]["purposes"] }
  | { readonly ok: false; readonly problems: readonly string[] };

function draftPurposes(text: string): Draft {
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { ok: false, problems: ["the body must be JSON"] };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problems: ['the body must be a JSON object {"purposes"?: […]}'] };
  }
  const list = (value as Record<string, unknown>)["purposes"];
  if (list === undefined) return { ok: true, purposes: undefined };
  const parsed = parsePolicy(JSON.stringify({ purposes: list }));
  return parsed.ok ? { ok: true, purposes: parsed.value.policy.purposes } : { ok: false, problems: parsed.problems };
}
