/**
 * Many path patterns indexed once (the rule tree robots.txt groups use, rule-tree.ts), for
 * callers that ask "which of these patterns is the most specific match" per request: the
 * operator policy's routes. One decision costs about one walk of the path however many
 * patterns there are, where trying each pattern in turn costs patterns × path length (a
 * 64 KiB policy of ~820 wildcard routes against an 8 KB path took 150–220 ms that way).
 * Ranking: the longest canonical pattern (RFC 9309 §2.2.2); on a tie, the first written.
 */

import { canonicalizePath } from "./path.ts";
import { compilePattern, matchablePath } from "./pattern.ts";
import { RuleTree } from "./rule-tree.ts";

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

/**
 * Index the patterns (robots.txt syntax: `*`, a final `$`); compiled here, once. `alsoSpelled`
 * as in MatcherOptions (match.ts): another spelling each pattern also matches, ranked by its
 * own length.
 */
export function indexPathPatterns(
  patterns: readonly string[],
  alsoSpelled?: (canonicalPattern: string) => string | undefined,
): PathPatternIndex {
  // Every pattern as a rule of one kind, its order its place in the list: the tree's ranking
  // (outranks) is then exactly "longest, then first written".
  const written = patterns.map((pattern, order) => compilePattern({ kind: "disallow", pattern, line: order }, order));
  // The other spelling ranks by its own length, the octets it matches (RFC 9309 §2.2.2, as
  // match.ts buildTrees): ranked as written, route `/a%27` read as `/a'` (3) would be chosen
  // over route `/a'b` (4) on `/a'b`, lifting that route's refusal.
  const others = patterns.flatMap((pattern, order) => {
    const other = alsoSpelled?.(canonicalizePath(pattern));
    return other === undefined ? [] : [compilePattern({ kind: "disallow", pattern: other, line: order }, order)];
  });
  const asWritten = new RuleTree(written);
  // Without other spellings (no escapes) one tree answers both questions.
  const every = others.length === 0 ? asWritten : new RuleTree([...written, ...others]);
  const findCanonical = (canonical: string): number => every.find(matchablePath(canonical))?.order ?? -1;
  const findCanonicalAsWritten = (canonical: string): number =>
    every === asWritten ? findCanonical(canonical) : (asWritten.find(matchablePath(canonical))?.order ?? -1);
  return { find: (path) => findCanonical(canonicalizePath(path)), findCanonical, findCanonicalAsWritten };
}
