// A tiny reference matcher, written apart from src/ so that the compiled matcher can be
// checked against something obviously correct (STYLE.md: "two implementations, one suite").
//
// RFC 9309 §2.2.2 and §2.2.3, nothing else: patterns are taken as given (the caller passes
// them in canonical form), `*` matches any sequence of characters, a `$` that ends the
// pattern anchors it to the end of the path, any other `$` is a literal character. The
// longest matching pattern wins, counted in characters as written (`*` and `$` included);
// on a tie allow wins; no matching pattern means allowed; /robots.txt is always allowed.
// No regular expressions and no indexOf: the set of path positions the pattern can have
// reached, one pattern character at a time; O(pattern × path) per rule at worst, meant to
// be read rather than to be fast.

/** One rule as the reference sees it. */
export interface ReferenceRule {
  readonly kind: "allow" | "disallow";
  readonly pattern: string;
}

/** The reference's answer: allowed or not, and the winning rule when one matched. */
export interface ReferenceDecision {
  readonly allowed: boolean;
  /** The winning rule's kind and pattern length, when a rule matched. */
  readonly winner?: { readonly kind: "allow" | "disallow"; readonly length: number };
}

/**
 * Does `pattern` match `path` from its start?
 * `ends` holds, in ascending order, every position of `path` where the pattern characters
 * read so far can stop: a literal moves each position on by one if the path has that
 * character there; `*` can stop anywhere from the first position on.
 */
export function referenceMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let ends = [0];
  for (const char of body) {
    if (ends.length === 0) return false;
    if (char === "*") {
      const first = ends[0] ?? 0;
      ends = [];
      for (let j = first; j <= path.length; j++) ends.push(j);
    } else {
      ends = ends.filter((j) => j < path.length && path[j] === char).map((j) => j + 1);
    }
  }
  // Anchored: the match must stop at the end of the path; otherwise anywhere will do.
  return anchored ? ends.includes(path.length) : ends.length > 0;
}

/** Decide a path against one group's rules by RFC 9309 §2.2.2. */
export function referenceDecide(rules: readonly ReferenceRule[], path: string): ReferenceDecision {
  if (path === "/robots.txt") return { allowed: true };
  let winner: { kind: "allow" | "disallow"; length: number } | undefined;
  for (const rule of rules) {
    if (!referenceMatches(rule.pattern, path)) continue;
    const length = rule.pattern.length;
    const better =
      winner === undefined ||
      length > winner.length ||
      (length === winner.length && rule.kind === "allow" && winner.kind === "disallow");
    if (better) winner = { kind: rule.kind, length };
  }
  if (winner === undefined) return { allowed: true };
  return { allowed: winner.kind === "allow", winner };
}
