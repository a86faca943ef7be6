/**
 * The requests a replay body asks about besides the recorded ones (`robots-edge policy plan
 * --urls`): `"requests": [{"token": "Googlebot", "path": "/blog/"}]`, each judged as a GET by a
 * crawler whose claim was verified, now, under live and draft, as replay judges the recorded
 * (policy/replay.ts, one decision). A verified claim because the question is "what would this
 * crawler get": the real Googlebot, not an impostor, is who a plan must not lock out.
 *
 * Bounded (no client can buy our CPU, admin or not): at most MAX_ASKED_REQUESTS in a body
 * replay already caps at 1 MiB, judged within replay's own work budget (a second budget, so a
 * replay with both costs at most twice one); the answer says how many it judged, newest (last)
 * first, so the CLI asks again for the rest.
 */

import { productToken } from "../../core/index.ts";
import type { RecordedRequest } from "../../policy/replay.ts";
import { invalid, valid, type Validated } from "../../policy/validated.ts";

export const MAX_ASKED_REQUESTS = 2_000;
/** A path as a crawler would send it; the recorded ones are cut at 512, a URL list's may be longer. */
export const MAX_ASKED_PATH = 2_048;
const MAX_TOKEN = 100;

/** The body's `requests` as recorded requests (undefined when absent), or every problem. */
export function readAskedRequests(value: unknown, now: number): Validated<RecordedRequest[] | undefined> {
  if (value === undefined) return valid(undefined);
  if (!Array.isArray(value) || value.length > MAX_ASKED_REQUESTS) {
    return invalid([`"requests" must be a list of at most ${MAX_ASKED_REQUESTS} {"token", "path"}`]);
  }
  const problems: string[] = [];
  const requests = value.flatMap((asked: unknown, i): RecordedRequest[] => {
    const fields = typeof asked === "object" && asked !== null ? (asked as Record<string, unknown>) : {};
    const { token, path } = fields;
    const tokenOk = typeof token === "string" && token.length <= MAX_TOKEN && productToken(token) !== "";
    const pathOk = typeof path === "string" && path.startsWith("/") && path.length <= MAX_ASKED_PATH;
    if (!tokenOk)
      problems.push(`requests[${i}].token must be a crawler's product token (at most ${MAX_TOKEN} characters)`);
    if (!pathOk)
      problems.push(`requests[${i}].path must be a path starting with "/" (at most ${MAX_ASKED_PATH} characters)`);
    if (!tokenOk || !pathOk) return [];
    return [{ time: now, token, tokens: [token], verified: "verified", method: "GET", path }];
  });
  return problems.length > 0 ? invalid(problems.slice(0, 20)) : valid(requests);
}
