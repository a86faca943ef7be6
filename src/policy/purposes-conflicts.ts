/**
 * Where a policy's routes pass crawlers its own purposes block: the served robots.txt tells
 * GPTBot `Disallow: /a/` (purposes-robots.ts) while a route that comes first at the edge (an
 * `allow` rule naming it or its category, or `mode: "off"`) passes it there. Nothing is wrong
 * for the crawler (it reads a stricter file than the edge enforces), but the operator's two
 * settings disagree, and only one of them is in force: the save's answer notes it and GET status
 * lists it with the problems (the page's banner). Pure.
 *
 * A `report` route is left out: it passes on purpose, to watch, and says so in its own records.
 * Tokens that send no requests (the purpose switches, Google-Extended) are left out: no route
 * can pass a request that never comes.
 */

import { KNOWN_CRAWLERS, type KnownCrawler } from "../agents/operators/tables.ts";
import type { CompiledPolicy, PolicyMatch } from "./operator-policy.ts";
import { actionFor, blockedPrefixes } from "./purposes.ts";
import { subjectsOf } from "./purposes-robots.ts";

/** At most this many crawlers are named in one problem; the rest are counted. */
const NAMED_IN_A_PROBLEM = 5;

/** One problem per route (or route rule) and blocked prefix, naming the crawlers it passes. */
export function routesPassingPurposes(
  policy: CompiledPolicy,
  crawlers: readonly KnownCrawler[] = KNOWN_CRAWLERS,
): string[] {
  const purposes = policy.policy.purposes ?? [];
  if (purposes.length === 0) return [];
  const found = new Map<
    string,
    { member: string; route: string; path: string; entry: number; why: string; tokens: string[] }
  >();
  for (const subject of subjectsOf(purposes, crawlers, [])) {
    for (const prefix of blockedPrefixes(purposes, subject.token, subject.category)) {
      for (const path of pathsUnder(prefix, policy)) {
        const match = policy.match(path, { tokens: [subject.token], category: subject.category });
        const passing = match && passes(match);
        if (!passing) continue;
        const key = `${passing.member}\n${prefix}`;
        const entry = purposes.findIndex(
          (purpose) => purpose.path === prefix && actionFor(purpose, subject.token, subject.category) === "block",
        );
        const known = found.get(key) ?? { ...passing, path: prefix, entry, tokens: [] };
        if (!known.tokens.includes(subject.token)) known.tokens.push(subject.token);
        found.set(key, known);
      }
    }
  }
  return [...found.values()].map(({ member, route, why, path, entry, tokens }) => {
    const named = tokens.slice(0, NAMED_IN_A_PROBLEM).join(", ");
    const more = tokens.length > NAMED_IN_A_PROBLEM ? ` and ${tokens.length - NAMED_IN_A_PROBLEM} more` : "";
    return `${member}${why} lets ${named}${more} pass on ${JSON.stringify(route)}, where purposes[${entry}] blocks them (${JSON.stringify(path)}): the served robots.txt tells them "Disallow: ${path}" while the edge passes them; block them in the route too, or change the purposes`;
  });
}

/** The member of the policy that passes the match's crawler, if it does. */
function passes(match: PolicyMatch): { member: string; route: string; why: string } | undefined {
  const route = match.route.pattern;
  if (match.route.mode === "off") return { member: `routes[${match.routeIndex}]`, route, why: " (mode off)" };
  if (match.rule?.action === "allow")
    return { member: `routes[${match.routeIndex}].rules[${match.ruleIndex}]`, route, why: "" };
  return undefined;
}

/**
 * Paths inside a blocked prefix that show which route decides there: the prefix itself, and for
 * each route an example path it matches that lies inside the prefix (its pattern with every `*`
 * matching nothing; a pattern starting with `*` placed under the prefix).
 */
function pathsUnder(prefix: string, policy: CompiledPolicy): string[] {
  const paths = [prefix];
  for (const route of policy.policy.routes) {
    const bare = route.pattern.replace(/\$$/, "").replaceAll("*", "");
    const example = route.pattern.startsWith("*") ? prefix + bare : bare;
    if (example.startsWith(prefix) && !paths.includes(example)) paths.push(example);
  }
  return paths;
}
