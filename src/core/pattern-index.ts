/**
 * Many path patterns indexed once (the rule tree robots.txt groups use, rule-tree.ts), for
 * callers that ask "which of these patterns is the most specific match" per request: the
 * operator policy's routes. One decision costs about one walk of the path however many
 * patterns there are, where trying each pattern in turn costs patterns × path length (a
 * 64 KiB policy of ~820 wildcard routes against an 8 KB path took 150–220 ms that way).
 * Ranking: the longest canonical pattern (RFC 9309 §2.2.2); on a tie, the first written.
 *
 * A few patterns (FEW_PATTERNS, other spellings counted) are tried in turn instead, each
 * compiled pattern taken from one table this isolate shares (internedPattern): a deployment
 * of 1,000 hosts, each with a policy of a few routes, holds 1,000 route indexes, and a request
 * walking a tree of its own host's (a dozen small objects the CPU's caches no longer hold)
 * cost 1,000 hosts 1.4× the CPU of one (docs/operating.md "What it costs (per host)"). Tried
 * in turn, a request reads one list and the patterns it names, most of them the same objects
 * for every host written from one template. The answer is the tree's (outranks' order); the
 * tree still answers when trying in turn could cost more than the tree's own one-by-one bound
 * (rule-tree.ts ONE_BY_ONE_LIMIT), built then, once.
 */

import { canonicalizePath } from "./path.ts";
import { compilePattern, matchablePath, matchesAfterHead, type CompiledPattern } from "./pattern.ts";
import { ONE_BY_ONE_LIMIT, RuleTree } from "./rule-tree.ts";

export interface PathPatternIndex {
  /** Index (in the list given) of the most specific pattern matching the path, or -1. */
  find(path: string): number;
  /** The same, for a path already in canonical spelling (canonicalizePath): no second pass. */
  findCanonical(canonical: string): number;
  /**
   * `findCanonical` with the patterns as written only (their other spellings left out): the
   * choice RFC 9309's reading makes. The caller judges both and keeps the stricter, so an
   * other spelling can add a refusal but never lift one (judge.ts judgeSpelling).
   */
  findCanonicalAsWritten(canonical: string): number;
}

/** Up to this many patterns (other spellings included), they are tried in turn. */
export const FEW_PATTERNS = 8;

/**
 * Index the patterns (robots.txt syntax: `*`, a final `$`); compiled here, once. `alsoSpelled`
 * as in MatcherOptions (match.ts): another spelling each pattern also matches, ranked by its
 * own length.
 */
export function indexPathPatterns(
  patterns: readonly string[],
  alsoSpelled?: (canonicalPattern: string) => string | undefined,
): PathPatternIndex {
  // The other spelling ranks by its own length, the octets it matches (RFC 9309 §2.2.2, as
  // match.ts buildTrees): ranked as written, route `/a%27` read as `/a'` (3) would be chosen
  // over route `/a'b` (4) on `/a'b`, lifting that route's refusal.
  const others = patterns.flatMap((pattern, order) => {
    const other = alsoSpelled?.(canonicalizePath(pattern));
    return other === undefined ? [] : [{ pattern: other, order }];
  });
  if (patterns.length + others.length <= FEW_PATTERNS) return new FewPatterns(patterns, others);
  return treeIndex(patterns, others);
}

/** The patterns in a rule tree: one walk of the path, whatever their number. */
function treeIndex(patterns: readonly string[], others: readonly OtherSpelling[]): PathPatternIndex {
  // Every pattern as a rule of one kind, its order its place in the list: the tree's ranking
  // (outranks) is then exactly "longest, then first written".
  const written = patterns.map((pattern, order) => compilePattern({ kind: "disallow", pattern, line: order }, order));
  const spelled = others.map(({ pattern, order }) => compilePattern({ kind: "disallow", pattern, line: order }, order));
  const asWritten = new RuleTree(written);
  // Without other spellings (no escapes) one tree answers both questions.
  const every = spelled.length === 0 ? asWritten : new RuleTree([...written, ...spelled]);
  const findCanonical = (canonical: string): number => every.find(matchablePath(canonical))?.order ?? -1;
  const findCanonicalAsWritten = (canonical: string): number =>
    every === asWritten ? findCanonical(canonical) : (asWritten.find(matchablePath(canonical))?.order ?? -1);
  return { find: (path) => findCanonical(canonicalizePath(path)), findCanonical, findCanonicalAsWritten };
}

interface OtherSpelling {
  readonly pattern: string;
  /** The place of the pattern it spells in the list given. */
  readonly order: number;
}

/**
 * A few patterns tried in turn: the written ones first, then the other spellings, each with the
 * place of its pattern in the list given. The winner is the one outranks prefers (the tree's):
 * the longest canonical pattern, then the first written.
 */
class FewPatterns implements PathPatternIndex {
  /**
   * Each pattern followed by its place: one array, so that a request reads one object of its
   * policy's own here besides the patterns (most of them shared, internedPattern).
   */
  private readonly entries: readonly (CompiledPattern | number)[];
  private readonly count: number;
  private readonly writtenCount: number;
  /** Patterns with a `*`: what trying each in turn can cost per path character. */
  private readonly wildCount: number;
  private tree: PathPatternIndex | undefined;
  private readonly source: { readonly patterns: readonly string[]; readonly others: readonly OtherSpelling[] };

  constructor(patterns: readonly string[], others: readonly OtherSpelling[]) {
    const placed = [...patterns.map((pattern, order) => ({ pattern, order })), ...others];
    const compiled = placed.map(({ pattern }) => internedPattern(pattern));
    this.entries = placed.flatMap(({ order }, i) => [compiled[i] as CompiledPattern, order]);
    this.count = placed.length;
    this.writtenCount = patterns.length;
    this.wildCount = compiled.filter((pattern) => pattern.segments.length > 0).length;
    this.source = { patterns, others };
  }

  find(path: string): number {
    return this.findCanonical(canonicalizePath(path));
  }

  findCanonical(canonical: string): number {
    return this.best(canonical, this.count) ?? this.treeIndex().findCanonical(canonical);
  }

  findCanonicalAsWritten(canonical: string): number {
    return this.best(canonical, this.writtenCount) ?? this.treeIndex().findCanonicalAsWritten(canonical);
  }

  /**
   * The place of the best of the first `count` patterns matching, -1 for none; undefined when
   * the path is long enough that trying the wildcard patterns in turn passes the tree's bound.
   */
  private best(canonical: string, count: number): number | undefined {
    if (this.wildCount * canonical.length > ONE_BY_ONE_LIMIT) return undefined;
    const path = matchablePath(canonical);
    let bestOrder = -1;
    let bestPriority = -1;
    const entries = this.entries;
    for (let i = 0; i < 2 * count; i += 2) {
      const pattern = entries[i] as CompiledPattern;
      const order = entries[i + 1] as number;
      // outranks (pattern.ts), every pattern here being of one kind: longer, then first written.
      if (pattern.priority < bestPriority || (pattern.priority === bestPriority && order >= bestOrder)) continue;
      if (path.startsWith(pattern.head) && matchesAfterHead(pattern, path, pattern.head.length)) {
        bestOrder = order;
        bestPriority = pattern.priority;
      }
    }
    return bestOrder;
  }

  private treeIndex(): PathPatternIndex {
    return (this.tree ??= treeIndex(this.source.patterns, this.source.others));
  }
}

/**
 * The compiled patterns every FewPatterns of this isolate shares, by their text. Bounded: past
 * MAX_INTERNED patterns or MAX_INTERNED_CHARACTERS of their text the table starts again empty
 * (indexes keep the patterns they hold; only sharing with later ones is lost), so policies that
 * come and go cannot grow it.
 */
const interned = new Map<string, CompiledPattern>();
let internedCharacters = 0;
const MAX_INTERNED = 4_096;
const MAX_INTERNED_CHARACTERS = 256 * 1024;

/** A pattern compiled as a rule of one kind at place 0 (FewPatterns keeps each one's place). */
function internedPattern(pattern: string): CompiledPattern {
  const known = interned.get(pattern);
  if (known) return known;
  const compiled = compilePattern({ kind: "disallow", pattern, line: 0 }, 0);
  if (interned.size >= MAX_INTERNED || internedCharacters + pattern.length > MAX_INTERNED_CHARACTERS) {
    interned.clear();
    internedCharacters = 0;
  }
  interned.set(pattern, compiled);
  internedCharacters += pattern.length;
  return compiled;
}
