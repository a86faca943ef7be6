/**
 * The purposes' problems for GET status (the page's banner), not only notes in the preview: a
 * part of the saved setting that does not apply, against each known origin's stored file (a
 * token the origin's file now names and lets in, say a CMS added `User-agent: GPTBot` /
 * `Allow: /`), and routes of the same policy that pass crawlers the purposes block
 * (policy/purposes-conflicts.ts).
 *
 * Bounded: compiling the purposes costs up to a robots.txt's size per origin, so at most
 * MAX_CHECKED_ORIGINS origins of the status page are checked, and the answer says when more were
 * left out (GET robots?origin= and the purposes preview check any one).
 */

import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import { routesPassingPurposes } from "../../policy/purposes-conflicts.ts";
import { purposesWarnings } from "../robots/purposes-served.ts";
import type { RobotsEntry } from "../robots/entry.ts";
import { tdmrepNotes } from "../licence/tdmrep-route.ts";

export const MAX_CHECKED_ORIGINS = 20;

export function purposesProblems(
  policy: CompiledPolicy | undefined,
  origins: readonly { readonly authority: string; readonly entry: RobotsEntry }[],
): string[] {
  if (!policy?.policy.purposes || policy.policy.purposes.length === 0) return [];
  const problems = routesPassingPurposes(policy).map((problem) => `purposes: ${problem}`);
  for (const { authority, entry } of origins.slice(0, MAX_CHECKED_ORIGINS)) {
    for (const warning of purposesWarnings(entry, policy)) problems.push(`purposes at ${authority}: ${warning}`);
  }
  // The origin's own tdmrep.json against the purposes (policy/tdmrep.ts), as this isolate last served it.
  for (const [authority, found] of tdmrepNotes()) {
    for (const note of found) problems.push(`tdmrep at ${authority}: ${note}`);
  }
  if (origins.length > MAX_CHECKED_ORIGINS) {
    problems.push(
      `purposes: checked against the first ${MAX_CHECKED_ORIGINS} of ${origins.length} origins on this page; POST purposes/preview?origin= checks another`,
    );
  }
  return problems;
}
