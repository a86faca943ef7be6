/**
 * `/.well-known/tdmrep.json` from the purposes (TDMRep, the W3C TDM Reservation Protocol,
 * Community Group final report of 10 May 2024): the paths where the purposes block the
 * `ai-training` category, each with `"tdm-reservation": 1` (and `"tdm-policy"` when the policy
 * names one). The same paths as the `tdm-reservation` header (terms.ts) and the robots.txt
 * lines the purposes generate, so every dialect says one thing. Pure.
 *
 * The file is a JSON array of rules `{"location": …, "tdm-reservation": 0|1, "tdm-policy": …}`;
 * each prefix is written `<prefix>*`, which reads the same as a prefix whether a reader takes
 * `location` as a robots.txt-style prefix pattern or as a glob. Only reservations are written:
 * a path the purposes leave open is left unsaid, as robots.txt leaves it.
 *
 * The origin's own file wins (worker/licence/tdmrep-route.ts serves it when it has one);
 * `tdmrepDisagreements` says where it and the purposes differ, for the lint.
 */

import { categoryBlockedAt, type Purposes } from "./purposes.ts";

export const TDMREP_PATH = "/.well-known/tdmrep.json";

export interface TdmrepRule {
  readonly location: string;
  readonly "tdm-reservation": 0 | 1;
  readonly "tdm-policy"?: string;
}

/** The prefixes where AI training is blocked, outermost only, shortest first. */
export function reservedPrefixes(purposes: Purposes | undefined): string[] {
  const blocked = (purposes ?? [])
    .filter((entry) => entry.categories["ai-training"] === "block")
    .map((entry) => entry.path)
    .toSorted((a, b) => a.length - b.length || a.localeCompare(b));
  return blocked.filter((path, i) => !blocked.slice(0, i).some((outer) => path.startsWith(outer)));
}

/** The generated rules; empty when the purposes reserve nothing. */
export function tdmrepRules(purposes: Purposes | undefined, tdmPolicy: string | undefined): TdmrepRule[] {
  return reservedPrefixes(purposes).map((prefix) => ({
    location: `${prefix}*`,
    "tdm-reservation": 1,
    ...(tdmPolicy !== undefined && { "tdm-policy": tdmPolicy }),
  }));
}

/**
 * Where the origin's own tdmrep.json and the purposes disagree, in words for the lint: a path
 * the purposes reserve that the origin's file leaves unreserved (or never mentions), and a path
 * the origin's file reserves that the purposes leave open. An unreadable file says so.
 */
export function tdmrepDisagreements(originText: string, purposes: Purposes | undefined): string[] {
  let rules: unknown;
  try {
    rules = JSON.parse(originText);
  } catch {
    return ["the origin's /.well-known/tdmrep.json is not JSON; TDM agents may ignore it"];
  }
  if (!Array.isArray(rules)) return ["the origin's /.well-known/tdmrep.json is not a JSON array of rules"];
  const origin = rules.flatMap((rule: unknown) => {
    if (typeof rule !== "object" || rule === null) return [];
    const { location, "tdm-reservation": reservation } = rule as Record<string, unknown>;
    return typeof location === "string" ? [{ prefix: location.replace(/\*+$/, ""), reserved: reservation === 1 }] : [];
  });
  const problems: string[] = [];
  for (const prefix of reservedPrefixes(purposes)) {
    const said = origin.find((rule) => prefix.startsWith(rule.prefix));
    if (!said?.reserved) {
      problems.push(
        `the purposes block ai-training under ${prefix}, but the origin's tdmrep.json ${said ? `says "tdm-reservation": 0 for ${said.prefix}*` : "does not reserve it"}; its file is the one served`,
      );
    }
  }
  for (const rule of origin) {
    if (rule.reserved && categoryBlockedAt(purposes ?? [], "ai-training", rule.prefix) !== true) {
      problems.push(`the origin's tdmrep.json reserves ${rule.prefix}*, where the purposes do not block ai-training`);
    }
  }
  return problems;
}
