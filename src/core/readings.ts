/**
 * The other mainstream reading of a robots.txt file, beside RFC 9309's and Google's (which the
 * engine answers): the RECORD reading of Python's urllib.robotparser, the `robots-parser`
 * package and the 1996 draft. It differs from ours in two places only:
 *   - grouping: a user-agent line after any other field, or after an empty line, starts a new
 *     group (RFC 9309 and Google: only an allow or disallow line ends a group's user-agent
 *     lines, so `User-agent: bingbot` / `Crawl-delay: 10` / blank / `User-agent: AhrefsBot` /
 *     `Disallow: /` is one group of two crawlers for us, two records for them). The record
 *     before such a break is an empty group where either parser gives it one (a crawl-delay),
 *     and no group otherwise (its crawlers fall to `*`): the more permissive of the two, so
 *     the edge never refuses what either allows, and never lifts what both refuse. A line of
 *     spaces is no break (urllib tests the line before stripping it; robots-parser skips it);
 *   - characters no request target carries raw (a space, `"`, `<`, `>`, backquote, `{`, `}`,
 *     controls): RFC 9309 §2.2.2 encodes only non-ASCII and reserved octets before comparing,
 *     and Google's matcher compares the rest byte for byte, so `Disallow: /sp ace` matches no
 *     request (clients send `/sp%20ace`); they percent-encode the rule and match `/sp%20ace`.
 * Matching stays RFC 9309's longest match in both (first-match parsers are no reading we
 * honour). The engine's verdicts do not change here: the edge's decision asks this reading
 * too and refuses a crawler other than Google's only what both readings refuse
 * (policy/readings.ts); lint reports every place they differ (parse.ts, code reading-disputed).
 */

import type { Group, GroupExtensions, RobotsTxt, Rule } from "./model.ts";
import { canonicalizePath } from "./path.ts";
import { userAgentNames } from "./product-token.ts";

/**
 * The first character in `pattern` that no request target carries raw, or undefined. These are
 * the ASCII characters WHATWG's URL parser (browsers, fetch, the Workers runtime) always
 * percent-encodes in a path: C0 controls, space, `"`, `<`, `>`, backquote, `{`, `}`, DEL.
 * (`|`, `\` and `^` are left raw by it, so requests can carry them; non-ASCII is
 * percent-encoded on both sides by RFC 9309 §2.2.2 itself.)
 */
export function rawCharacterOf(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || RAW_PUNCTUATION.includes(pattern.charAt(i))) return pattern.charAt(i);
  }
  return undefined;
}

const RAW_PUNCTUATION = '"<>`{}';

/** A raw character as a person reads it: `a raw space`, `a raw "<"`, `a raw U+0009`. */
export function rawCharacterName(character: string): string {
  if (character === " ") return "a raw space";
  const code = character.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `a raw U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `a raw "${character}"`;
}

/** The pattern as the record reading's parsers match it: percent-encoded. */
export function encodedPattern(pattern: string): string {
  return canonicalizePath(pattern);
}

const NO_EXTENSIONS: GroupExtensions = Object.freeze({
  requestRates: [],
  comments: [],
  usage: [],
  others: [],
});

/**
 * The file as the record reading groups it and matches its rules, or undefined when that
 * reading gives every crawler the same rules as ours. Each group our reading joins across a
 * record break (an agent line with `recordAfter`) becomes one group per record: the last holds
 * the group's rules; a record before it holds no rule (its lines between user-agent lines are
 * extensions at most) or is no group at all, as the break's `priorRecord` says. No group: both
 * parsers drop it or read on to `*`'s rules for its crawlers (urllib.robotparser drops
 * user-agent lines a blank line follows before a crawl-delay; robots-parser ends a run of
 * user-agent lines at a sitemap or unknown field and gives it a group only for a crawl-delay),
 * so an empty group there would lift a `*` rule both still hold. Extensions are kept only in the
 * last record: this reading is asked which paths are refused, never for rates.
 */
export function recordReading(robots: RobotsTxt): RobotsTxt | undefined {
  let differs = false;
  const groups: Group[] = [];
  for (const group of robots.groups) {
    const rules = encodedRules(group.rules);
    if (rules !== group.rules) differs = true;
    const records = recordsOf(group);
    if (records.length > 1) differs = true;
    records.forEach((agentLines, i) => {
      const last = i === records.length - 1;
      if (!last && records[i + 1]?.[0]?.priorRecord === "none") return;
      groups.push({
        agents: [...new Set(agentLines.flatMap(({ value }) => userAgentNames(value)))],
        agentLines,
        rules: last ? rules : [],
        extensions: last ? group.extensions : NO_EXTENSIONS,
      });
    });
  }
  return differs ? { ...robots, groups } : undefined;
}

/** A group's user-agent lines cut where the record reading starts a new group. */
export function recordsOf(group: Group): Group["agentLines"][] {
  const records: Group["agentLines"][number][][] = [];
  for (const agentLine of group.agentLines) {
    const current = records.at(-1);
    if (!current || agentLine.recordAfter !== undefined) records.push([agentLine]);
    else current.push(agentLine);
  }
  return records;
}

function encodedRules(rules: readonly Rule[]): readonly Rule[] {
  if (!rules.some((rule) => rawCharacterOf(rule.pattern) !== undefined)) return rules;
  return rules.map((rule) =>
    rawCharacterOf(rule.pattern) === undefined ? rule : { ...rule, pattern: encodedPattern(rule.pattern) },
  );
}
