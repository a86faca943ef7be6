/**
 * An upper estimate of what a robots.txt's compiled matcher holds on the isolate's heap, for the
 * robots.txt memory's bound (robots/cache.ts robotsWeight): the model it revives, its index of
 * tokens, the groups and rule trees it builds for the tokens asked (tokens named by the same
 * groups share one merged list and its trees; what is built is bounded by the file's own size,
 * rules and pattern characters: core/match.ts builtCostBound), and the record reading's matcher
 * (policy/readings.ts).
 *
 * Each coefficient is at least what one more of its kind cost in Node 24 (--expose-gc,
 * heapUsed, every token of the file asked in both readings: bench/robots-memory.bench.ts
 * measures the shapes), so the estimate stays above the measured heap for every shape measured
 * (one-line groups, groups of one rule, thousands of rules with wildcards, escapes or
 * index.html, long patterns, many `*`, the corpus files, and the shapes of two attacks: 1,000
 * tokens named by the same 2 groups of wildcard patterns, 326 MB in Node when each token merged
 * its own list, weighed 10.5 MB by a count of rules alone; 2 groups naming a, b, c over 11,000
 * rules). Node is the upper side: workerd's V8
 * compresses pointers, Node's does not. The shape is read from counts, not the file's length:
 * 500 KiB costs from under 1 MB (a few long patterns) to ~58 MB (two tokens and a rule per
 * group), and a bound by length alone would admit ten times fewer ordinary files.
 */

import { builtCostBound, type RobotsTxt } from "../../core/index.ts";

/** Bytes per unit (Node 24, both readings, every token asked); see the module comment. */
const BYTES = {
  /** The revived model, per character of its JSON (diagnostics, lines, strings). */
  modelChar: 6,
  /** A token a group names: its index entry and, once asked, its merged group and decisions. */
  agent: 1_500,
  /** A user-agent line where the record reading starts a new group (a group more there). */
  recordBreak: 2_000,
  /** A group: its merged group, extensions and decisions for "no rule" and "/robots.txt". */
  group: 4_000,
  /** A rule: its compiled pattern(s) in the trees of both readings, other spellings included. */
  rule: 1_000,
  /** A pattern character: wildcard segments and tree labels. */
  patternChar: 8,
  /** A rule's decision in a token's group, made when it first wins, and its map entry. */
  decision: 200,
  /** A merged list's reference to a rule, a record or a group (8 bytes in Node), twice. */
  reference: 16,
  base: 8_192,
} as const;

/** The upper estimate, in bytes, of `robots` compiled as the edge enforces it. */
export function compiledMatcherBytes(robots: RobotsTxt, modelLength: number): number {
  let bytes = BYTES.base + BYTES.modelChar * modelLength;
  /** Decisions a matcher can make: a rule in each token's group (tokens × their rules). */
  let decisions = 0;
  /** The groups naming each token, in file order: tokens named by the same ones share a list. */
  const groupsOf = new Map<string, number[]>();
  robots.groups.forEach((group, index) => {
    bytes += BYTES.group + BYTES.agent * group.agents.length + BYTES.rule * group.rules.length;
    for (const line of group.agentLines) if (line.recordAfter !== undefined) bytes += BYTES.recordBreak;
    for (const rule of group.rules) bytes += BYTES.patternChar * rule.pattern.length;
    decisions += Math.max(1, group.agents.length) * group.rules.length;
    for (const token of group.agents) {
      const named = groupsOf.get(token);
      if (named) named.push(index);
      else groupsOf.set(token, [index]);
    }
  });
  // A set of several groups has merged lists of its own (core/match.ts sharedGroups), one for all
  // the tokens it names: references to its rules, records and groups, and trees of its rules,
  // weighed as the file's own rules and pattern characters are. The matcher bounds each kind
  // (builtCostBound): the lists with the tokens and decisions, the trees on their own.
  const own = { rules: 0, chars: 0, references: 0 };
  const merged = new Set<string>();
  for (const indexes of groupsOf.values()) {
    const key = String(indexes);
    if (indexes.length < 2 || merged.has(key)) continue;
    merged.add(key);
    own.references += indexes.length;
    for (const index of indexes) {
      const group = robots.groups[index];
      if (!group) continue;
      own.rules += group.rules.length;
      for (const rule of group.rules) own.chars += rule.pattern.length;
      const { requestRates, comments, usage, others } = group.extensions;
      own.references += group.rules.length + requestRates.length + comments.length + usage.length + others.length;
    }
  }
  // Each kind at most all of it and at most the bound: the sum is above any mix the bound holds.
  const built = builtCostBound(robots);
  return (
    bytes +
    BYTES.rule * Math.min(own.rules, built) +
    BYTES.patternChar * Math.min(own.chars, built) +
    BYTES.reference * Math.min(own.references, built) +
    BYTES.decision * Math.min(decisions, built)
  );
}
