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
 * as in MatcherOptions (match.ts): another spelling each pattern also matches, ranked as written.
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
    if (other === undefined) return [written];
    return [
      written,
      { ...compilePattern({ kind: "disallow", pattern: other, line: order }, order), priority: written.priority },
    ];
  });
  const tree = new RuleTree(compiled);
  const findCanonical = (canonical: string): number => tree.find(matchablePath(canonical))?.order ?? -1;
  return { find: (path) => findCanonical(canonicalizePath(path)), findCanonical };
}
