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
 * Cost: usage lines are indexed like rules, in a RuleTree per format (built once per group and
 * kept), so a path meets only the lines whose head it starts with, and many wildcard lines are
 * matched in one pass; the tree's walk, and each equal-length line tried besides its winner, spend
 * the matching budget (match-budget.ts): past it MatchingTooCostly, as for the rules. Matching
 * every line one by one cost 702 ms on an 8 KB path for 15,554 `/*a<n>` lines (attack 13, A13-8).
 */

import type { AppliedGroup } from "./match.ts";
import type { GroupExtensions, UsageFormat, UsageLine } from "./model.ts";
import { canonicalizePath } from "./path.ts";
import { AUTOMATON_CHARACTER_STEPS, CANDIDATE_STEPS, StepBudget, TRY_STEPS } from "./match-budget.ts";
import { compilePattern, matchablePath, matchesAfterHead, type CompiledPattern } from "./pattern.ts";
import { ONE_BY_ONE_LIMIT, RuleTree } from "./rule-tree.ts";
import { SegmentAutomaton, type Candidate } from "./segment-automaton.ts";

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
  if (!group || !options.allowed || group.extensions.usage.length === 0) return NONE;
  const indexed = indexedUsage(group.extensions);
  // A call of its own outside a request's scope: the whole budget (match-budget.ts).
  BUDGET.start();
  const canonical = matchablePath(canonicalizePath(path));
  const lines = [...longestMatching(indexed.usage, canonical), ...longestMatching(indexed.signal, canonical)];
  return lines.length === 0 ? NONE : { preferences: combine(lines), lines };
}

/** The budget usage resolution spends; inside a request's scope, the request's (match-budget.ts). */
const BUDGET = new StepBudget();

/** One format's usage lines, indexed. */
interface FormatIndex {
  /** The lines with a path, by pattern: the tree finds the longest that matches. */
  readonly tree: RuleTree;
  /** Each distinct pattern, with the lines that state it, by the pattern's length (priority). */
  readonly byPriority: ReadonlyMap<number, Peers>;
  /** Lines with no path: they cover every path, below any line with one. */
  readonly noPath: readonly UsageLine[];
}

interface PatternLines {
  readonly pattern: CompiledPattern;
  readonly lines: readonly UsageLine[];
}

/** The patterns of one length: they combine when several match (vocab-07 §5.1). */
interface Peers {
  readonly entries: readonly PatternLines[];
  /** How many of them have wildcards. */
  readonly wild: number;
  /** Their wildcard patterns matched in one pass, built on the first path that needs it. */
  automaton?: SegmentAutomaton;
}

/**
 * The lines of the longest pattern that matches `path`: the tree's winner, and the other
 * patterns of its length that match too, in the file's order. Those others are tried one by one
 * when that is cheap, else in one pass of a segment automaton, as the tree does (rule-tree.ts):
 * 964 lines of one length tried one by one on an 8 KB path cost 7.7 million steps.
 */
function longestMatching(index: FormatIndex, path: string): UsageLine[] {
  const best = index.tree.find(path);
  if (!best) return [...index.noPath];
  const peers = index.byPriority.get(best.priority);
  if (!peers) return [];
  const matched = peers.wild * path.length > ONE_BY_ONE_LIMIT ? inOnePass(peers, path) : oneByOne(peers, path);
  const winners: UsageLine[] = [];
  for (const { pattern, lines } of peers.entries) {
    if (pattern === best || matched.has(pattern)) winners.push(...lines);
  }
  // oxlint-disable-next-line unicorn/no-array-sort -- core is ES2022 (no toSorted); sorts its own list
  return winners.sort((a, b) => a.line - b.line);
}

function oneByOne(peers: Peers, path: string): Set<CompiledPattern> {
  const matched = new Set<CompiledPattern>();
  for (const { pattern } of peers.entries) {
    // A try reads the path past the head about once: TRY_STEPS and the path's length.
    BUDGET.spend(TRY_STEPS + path.length);
    if (path.startsWith(pattern.head) && matchesAfterHead(pattern, path, pattern.head.length)) matched.add(pattern);
  }
  return matched;
}

function inOnePass(peers: Peers, path: string): Set<CompiledPattern> {
  BUDGET.spend(peers.entries.length * CANDIDATE_STEPS + path.length * AUTOMATON_CHARACTER_STEPS);
  const matched = new Set<CompiledPattern>();
  const candidates: Candidate[] = [];
  for (const { pattern } of peers.entries) {
    if (!path.startsWith(pattern.head)) continue;
    if (pattern.segments.length > 0) candidates.push({ pattern, from: pattern.head.length });
    else if (matchesAfterHead(pattern, path, pattern.head.length)) matched.add(pattern);
  }
  peers.automaton ??= new SegmentAutomaton(
    peers.entries.map(({ pattern }) => pattern).filter((pattern) => pattern.segments.length > 0),
  );
  for (const pattern of peers.automaton.matching(path, candidates)) matched.add(pattern);
  return matched;
}

interface IndexedUsage {
  readonly usage: FormatIndex;
  readonly signal: FormatIndex;
}

// A group's usage lines are indexed once per group, not per request: a file may hold thousands
// of them. Keyed on the extensions, not their list: a set of several groups makes its merged
// list on each read past the matcher's bound (match.ts, merged-group.ts); its extensions stay.
const INDEXED = new WeakMap<GroupExtensions, IndexedUsage>();

function indexedUsage(extensions: GroupExtensions): IndexedUsage {
  let known = INDEXED.get(extensions);
  if (!known) {
    known = {
      usage: formatIndex(extensions.usage, "content-usage"),
      signal: formatIndex(extensions.usage, "content-signal"),
    };
    INDEXED.set(extensions, known);
  }
  return known;
}

function formatIndex(usage: readonly UsageLine[], format: UsageFormat): FormatIndex {
  const noPath: UsageLine[] = [];
  const byPattern = new Map<string, { pattern: CompiledPattern; lines: UsageLine[] }>();
  for (const line of usage) {
    if (line.format !== format) continue;
    if (line.pattern === "") {
      noPath.push(line);
      continue;
    }
    const known = byPattern.get(line.pattern);
    if (known) known.lines.push(line);
    else {
      const pattern = compilePattern({ kind: "disallow", pattern: line.pattern, line: line.line }, line.line);
      byPattern.set(line.pattern, { pattern, lines: [line] });
    }
  }
  const byLength = new Map<number, PatternLines[]>();
  for (const entry of byPattern.values()) {
    const same = byLength.get(entry.pattern.priority);
    if (same) same.push(entry);
    else byLength.set(entry.pattern.priority, [entry]);
  }
  const byPriority = new Map<number, Peers>();
  for (const [priority, entries] of byLength) {
    byPriority.set(priority, { entries, wild: entries.filter(({ pattern }) => pattern.segments.length > 0).length });
  }
  const patterns = [...byPattern.values()].map(({ pattern }) => pattern);
  return { tree: new RuleTree(patterns, BUDGET), byPriority, noPath };
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
