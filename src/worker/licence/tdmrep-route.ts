/**
 * GET/HEAD /.well-known/tdmrep.json (policy/tdmrep.ts): the origin's own file when it has one
 * (a 200 wins, untouched), else the file the purposes generate. Only when the purposes reserve
 * something: otherwise the request goes on as any other. Like robots.txt, a terms file is for
 * everyone: no one is judged or charged for reading it.
 */

import { canonicalizePath } from "../../core/index.ts";
import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import { TDMREP_PATH, tdmrepDisagreements, tdmrepRules } from "../../policy/tdmrep.ts";
import type { Purposes } from "../../policy/purposes.ts";
import type { EdgeContext } from "../edge/context.ts";
import { forward } from "../edge/forward.ts";

/** Whether the request asks for tdmrep.json, in any spelling that means it. */
export function isTdmrepRequest({ request, url }: EdgeContext): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  return url.pathname === TDMREP_PATH || canonicalizePath(url.pathname) === TDMREP_PATH;
}

/** The file to answer with, or undefined when the purposes reserve nothing. */
export async function tdmrepResponse(
  edge: EdgeContext,
  policy: CompiledPolicy | undefined,
): Promise<Response | undefined> {
  const rules = tdmrepRules(policy?.policy.purposes, policy?.policy.tdmPolicy);
  if (rules.length === 0) return undefined;
  try {
    const own = await forward(edge.request, edge.url, edge.config.originUrl);
    if (own.status === 200) {
      // Compared with the purposes after the answer (a copy of the body, read bounded): the lint in GET status.
      if (own.body && edge.request.method === "GET")
        edge.ctx.waitUntil(noteOwnFile(edge.authority, own.clone(), policy?.policy.purposes));
      return own;
    }
    await own.body?.cancel();
  } catch {
    // The origin could not be asked: the generated file still says the purposes.
  }
  const body = edge.request.method === "HEAD" ? null : `${JSON.stringify(rules, null, 2)}\n`;
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "x-robots-edge": "tdmrep-generated",
    },
  });
}

/** The most of an origin's tdmrep.json the lint reads: far above a real file. */
export const MAX_LINTED_BYTES = 64 * 1024;
/** Origins whose notes are kept in this isolate (the oldest forgotten first). */
const MAX_NOTED_ORIGINS = 100;
const notes = new Map<string, readonly string[]>();

/**
 * Where each origin's own tdmrep.json and the purposes disagree, as this isolate last saw it
 * served (GET status shows them through admin/purposes-problems.ts).
 */
export function tdmrepNotes(): ReadonlyMap<string, readonly string[]> {
  return notes;
}

/** Forget the notes (tests: each starts as a new isolate would). */
export function clearTdmrepNotes(): void {
  notes.clear();
}

async function noteOwnFile(authority: string, response: Response, purposes: Purposes | undefined): Promise<void> {
  try {
    const text = await boundedText(response);
    const found =
      text === undefined
        ? [
            `the origin's /.well-known/tdmrep.json is larger than ${MAX_LINTED_BYTES} bytes; not compared with the purposes`,
          ]
        : tdmrepDisagreements(text, purposes);
    notes.delete(authority);
    if (found.length > 0) notes.set(authority, found);
    if (notes.size > MAX_NOTED_ORIGINS) notes.delete(notes.keys().next().value as string);
  } catch {
    // A body that cannot be read leaves the last notes as they were: the file was served all the same.
  }
}

async function boundedText(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_LINTED_BYTES) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}
