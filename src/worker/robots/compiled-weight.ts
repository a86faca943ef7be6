/**
 * An upper estimate of what a robots.txt's compiled matcher holds on the isolate's heap, for the
 * robots.txt memory's bound (robots/cache.ts robotsWeight): the model it revives, its index of
 * tokens, the groups and rule trees it builds for the tokens asked (bounded by the file's own
 * size: core/match.ts BUILT_COST_FLOOR), and the record reading's matcher (policy/readings.ts).
 *
 * Each coefficient is at least what one more of its kind cost in Node 24 (--expose-gc,
 * heapUsed, every token of the file asked in both readings: bench/robots-memory.bench.ts
 * measures the shapes), so the estimate stays above the measured heap for every shape measured
 * (one-line groups, groups of one rule, thousands of rules with wildcards, escapes or
 * index.html, long patterns, many `*`, the corpus files). Node is the upper side: workerd's V8
 * compresses pointers, Node's does not. The shape is read from counts, not the file's length:
 * 500 KiB costs from under 1 MB (a few long patterns) to ~58 MB (two tokens and a rule per
 * group), and a bound by length alone would admit ten times fewer ordinary files.
 */

import { BUILT_COST_FLOOR, type RobotsTxt } from "../../core/index.ts";

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
  base: 8_192,
} as const;

/** The upper estimate, in bytes, of `robots` compiled as the edge enforces it. */
export function compiledMatcherBytes(robots: RobotsTxt, modelLength: number): number {
  let bytes = BYTES.base + BYTES.modelChar * modelLength;
  let size = 0;
  /** Decisions a matcher can make: a rule in each token's group (tokens × their rules). */
  let decisions = 0;
  /** Rules a token several groups name holds in a list (and trees) of its own. */
  const rulesOf = new Map<string, { groups: number; rules: number }>();
  for (const group of robots.groups) {
    bytes += BYTES.group + BYTES.agent * group.agents.length + BYTES.rule * group.rules.length;
    for (const line of group.agentLines) if (line.recordAfter !== undefined) bytes += BYTES.recordBreak;
    for (const rule of group.rules) bytes += BYTES.patternChar * rule.pattern.length;
    size += group.agents.length + group.rules.length;
    decisions += Math.max(1, group.agents.length) * group.rules.length;
    for (const token of group.agents) {
      const named = rulesOf.get(token) ?? { groups: 0, rules: 0 };
      rulesOf.set(token, { groups: named.groups + 1, rules: named.rules + group.rules.length });
    }
  }
  let ownLists = 0;
  for (const { groups, rules } of rulesOf.values()) if (groups > 1) ownLists += rules;
  // What a matcher keeps of them at once (core/match.ts): twice the file's size, plus the floor.
  const built = 2 * size + BUILT_COST_FLOOR;
  return bytes + BYTES.rule * Math.min(ownLists, built) + BYTES.decision * Math.min(decisions, built);
}
