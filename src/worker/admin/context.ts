/**
 * What every admin handler shares, below all of them (the router imports the handlers, the
 * handlers import this): the request's context, and the one shape of an admin error,
 * JSON `{ "error", "problems"? }` with its status.
 */

import type { Config } from "../../config/read-config.ts";
import { jsonResponse } from "../responses.ts";

export interface AdminContext {
  readonly request: Request;
  readonly url: URL;
  readonly config: Config;
  readonly kv: KVNamespace;
  readonly env: Env;
  readonly ctx: ExecutionContext;
  /** The origin authority this request belongs to. */
  readonly authority: string;
  /** loadConfig's problems and warnings: shown in status (never to the public). */
  readonly configProblems: readonly string[];
  readonly configWarnings: readonly string[];
}

/** Every admin error: JSON `{ "error", "problems"? }`. */
export function adminError(code: number, error: string, problems?: readonly string[]): Response {
  return jsonResponse(problems && problems.length > 0 ? { error, problems } : { error }, code);
}

/** A refused parameter (an origin, a URL) as its admin error: 400 unless it says otherwise. */
export function problemResponse(problem: { ok: false; problems: readonly string[]; status?: number }): Response {
  return adminError(problem.status ?? 400, problem.problems[0] ?? "bad request", problem.problems);
}
