/**
 * GET/HEAD /.well-known/tdmrep.json (policy/tdmrep.ts): the origin's own file when it has one
 * (a 200 wins, untouched), else the file the purposes generate. Only when the purposes reserve
 * something: otherwise the request goes on as any other. Like robots.txt, a terms file is for
 * everyone: no one is judged or charged for reading it.
 */

import { canonicalizePath } from "../../core/index.ts";
import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import { TDMREP_PATH, tdmrepRules } from "../../policy/tdmrep.ts";
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
    if (own.status === 200) return own;
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
