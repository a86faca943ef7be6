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
  const compiled = patterns.flatMap((pattern, order) => {
    const written = compilePattern({ kind: "disallow", pattern, line: order }, order);
    const other = alsoSpelled?.(canonicalizePath(pattern));
    // The other spelling ranks by its own length, the octets it matches (RFC 9309 §2.2.2, as
    // match.ts buildTrees): ranked as written, route `/a%27` read as `/a'` (3) would be chosen
    // over route `/a'b` (4) on `/a'b`, lifting that route's refusal.
    if (other === undefined) return [written];
    return [written, compilePattern({ kind: "disallow", pattern: other, line: order }, order)];
  });
  const tree = new RuleTree(compiled);
  const findCanonical = (canonical: string): number => tree.find(matchablePath(canonical))?.order ?? -1;
  return { find: (path) => findCanonical(canonicalizePath(path)), findCanonical };
}
