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

/**
 * With policies per host, each policy judging origins of the status page, its problems named
 * by whose it is (`purposes of shop.example's policy: …`; the default's as before) and checked
 * against the origins it judges only. The MAX_CHECKED_ORIGINS bound is for all of them together.
 */
export function purposesProblemsByPolicy(
  judging: readonly {
    readonly host: string | null;
    readonly policy: CompiledPolicy | undefined;
    readonly origins: readonly { readonly authority: string; readonly entry: RobotsEntry }[];
  }[],
  defaultPolicy: CompiledPolicy | undefined,
): string[] {
  const budget = { left: MAX_CHECKED_ORIGINS };
  return [
    ...judging.flatMap(({ host, policy, origins }) => policyPurposesProblems(policy, origins, host, budget)),
    ...tdmrepProblems(defaultPolicy),
  ];
}

function policyPurposesProblems(
  policy: CompiledPolicy | undefined,
  origins: readonly { readonly authority: string; readonly entry: RobotsEntry }[],
  host: string | null,
  budget: { left: number },
): string[] {
  if (!policy?.policy.purposes || policy.policy.purposes.length === 0) return [];
  const whose = host === null ? "purposes" : `purposes of ${host}'s policy`;
  const problems = routesPassingPurposes(policy).map((problem) => `${whose}: ${problem}`);
  const checked = origins.slice(0, Math.max(0, budget.left));
  budget.left -= checked.length;
  for (const { authority, entry } of checked) {
    for (const warning of purposesWarnings(entry, policy)) problems.push(`${whose} at ${authority}: ${warning}`);
  }
  if (origins.length > checked.length) {
    problems.push(
      `${whose}: checked against ${checked.length} of the ${origins.length} origins it judges on this page (at most ${MAX_CHECKED_ORIGINS} in all); POST purposes/preview?origin= checks another`,
    );
  }
  return problems;
}

/** The origin's own tdmrep.json against the purposes (policy/tdmrep.ts), as this isolate last served it. */
function tdmrepProblems(policy: CompiledPolicy | undefined): string[] {
  if (!policy?.policy.purposes || policy.policy.purposes.length === 0) return [];
  return [...tdmrepNotes()].flatMap(([authority, found]) => found.map((note) => `tdmrep at ${authority}: ${note}`));
}
