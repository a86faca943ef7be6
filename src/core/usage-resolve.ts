/**
 * Which usage preferences a group states for one path (draft-ietf-aipref-attach-05 §3.1).
 *
 *   - Preferences apply only to paths the group lets the crawler fetch; a disallowed path has
 *     none ("N/A" in the draft's Table 1).
 *   - Lines are matched like Allow/Disallow (RFC 9309 §2.2.2, `*` and `$`, canonical
 *     percent-encoding): the line with the longest matching pattern decides, as a whole —
 *     a key it does not mention is unknown, not inherited from a shorter line. A line with no
 *     path covers every path, below any line with one (length 0 < "/").
 *   - Lines of equal length combine per key by draft-ietf-aipref-vocab-07 §5.1: any `n` / `no`
 *     wins, else any `y` / `yes`, else unknown. (Allow/Disallow take the permissive side of
 *     a tie; usage preferences, by the draft, the restrictive one.)
 *   - Content-Usage and Content-Signal are separate vocabularies, each resolved on its own.
 * A line whose statement did not parse still wins on length: its preferences are unknown.
 * Cost: one pattern match per usage line of the group; patterns are compiled once per model.
 */

import type { AppliedGroup } from "./match.ts";
import type { GroupExtensions, UsageFormat, UsageLine } from "./model.ts";
import { canonicalizePath } from "./path.ts";
import { compilePattern, matchablePath, matchesAfterHead, type CompiledPattern } from "./pattern.ts";

/** The effective preference for one key on one path, and the lines that decided it. */
export interface EffectivePreference {
  readonly format: UsageFormat;
  readonly key: string;
  readonly allow: boolean;
  /** Line numbers that state this value for the key (several when equal patterns agree). */
  readonly lines: readonly number[];
}

/** Everything the group says about using one path. */
export interface UsageResolution {
  /** Known keys with a y/n, Content-Usage first, each format in the order its lines state them. */
  readonly preferences: readonly EffectivePreference[];
  /** The lines that applied (longest pattern per format), including ones that state nothing usable. */
  readonly lines: readonly UsageLine[];
}

const NONE: UsageResolution = { preferences: [], lines: [] };

/**
 * The usage preferences of `group` for `path` (path and query, as matched against rules).
 * `allowed` is the group's Allow/Disallow answer for that path (Decision.allowed).
 */
export function resolveUsage(
  group: Pick<AppliedGroup, "extensions"> | undefined,
  path: string,
  options: { readonly allowed: boolean },
): UsageResolution {
  if (!group || !options.allowed) return NONE;
  const { usage, compiled } = compiledUsage(group.extensions);
  if (usage.length === 0) return NONE;
  const canonical = matchablePath(canonicalizePath(path));
  const lines = [
    ...longestMatching(usage, compiled, "content-usage", canonical),
    ...longestMatching(usage, compiled, "content-signal", canonical),
  ];
  return lines.length === 0 ? NONE : { preferences: combine(lines), lines };
}

function longestMatching(
  usage: readonly UsageLine[],
  compiled: readonly (CompiledPattern | undefined)[],
  format: UsageFormat,
  path: string,
): UsageLine[] {
  let best = -1;
  let winners: UsageLine[] = [];
  usage.forEach((line, i) => {
    if (line.format !== format) return;
    const priority = matchPriority(compiled[i], path);
    if (priority < 0 || priority < best) return;
    if (priority > best) winners = [];
    best = priority;
    winners.push(line);
  });
  return winners;
}

interface CompiledUsage {
  readonly usage: readonly UsageLine[];
  readonly compiled: readonly (CompiledPattern | undefined)[];
}

// A group's usage lines are compiled once per group, not per request: a file may hold thousands
// of them. Keyed on the extensions, not their list: a set of several groups makes its merged
// list on each read past the matcher's bound (match.ts, merged-group.ts); its extensions stay.
const COMPILED = new WeakMap<GroupExtensions, CompiledUsage>();

function compiledUsage(extensions: GroupExtensions): CompiledUsage {
  let known = COMPILED.get(extensions);
  if (!known) {
    const usage = extensions.usage;
    const compiled = usage.map(({ pattern, line }) =>
      pattern === "" ? undefined : compilePattern({ kind: "disallow", pattern, line }, line),
    );
    known = { usage, compiled };
    COMPILED.set(extensions, known);
  }
  return known;
}

/** The pattern's length when it matches the path, -1 when it does not; 0 for "no path". */
function matchPriority(pattern: CompiledPattern | undefined, path: string): number {
  if (!pattern) return 0;
  if (!path.startsWith(pattern.head)) return -1;
  return matchesAfterHead(pattern, path, pattern.head.length) ? pattern.priority : -1;
}

/** vocab-07 §5.1, per key: any "no" wins, else any "yes". */
function combine(lines: readonly UsageLine[]): EffectivePreference[] {
  const byKey = new Map<string, { format: UsageFormat; key: string; yes: number[]; no: number[] }>();
  for (const line of lines) {
    for (const { key, allow } of line.preferences) {
      const id = `${line.format} ${key}`;
      let entry = byKey.get(id);
      if (!entry) {
        entry = { format: line.format, key, yes: [], no: [] };
        byKey.set(id, entry);
      }
      (allow ? entry.yes : entry.no).push(line.line);
    }
  }
  return [...byKey.values()].map(({ format, key, yes, no }) =>
    no.length > 0 ? { format, key, allow: false, lines: no } : { format, key, allow: true, lines: yes },
  );
}
