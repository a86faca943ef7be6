/**
 * Rule patterns compiled for matching: RFC 9309 §2.2.3 (`*` and `$`) and §2.2.2 (longest
 * match). No regular expressions: a pattern is its literal head plus the literal segments
 * between its `*`s, and matching places each segment at its leftmost occurrence.
 *
 * Why leftmost placement is exact: without `$`, a pattern matches when its segments occur
 * in order after the head; placing each as early as possible leaves the most room for the
 * rest, so if any placement works, the leftmost one does. With `$`, the last segment must
 * end the path, so it is placed there and the others must fit before it.
 * Cost: one indexOf per segment, at most O(pattern length × path length) in all.
 *
 * Semantics kept from Google's reference: `$` is special only as the last character;
 * a trailing `*` changes nothing but still counts in the pattern's length (its priority).
 */

import { canonicalizePath } from "./path.ts";
import type { Rule } from "./model.ts";

/** A rule ready to match: canonical literal head, the segments after each `*`, and rank. */
export interface CompiledPattern {
  readonly rule: Rule;
  readonly allow: boolean;
  /** Length of the canonical pattern: longer wins (RFC 9309 §2.2.2). */
  readonly priority: number;
  /** File order, so that among equals the first-written rule is reported, as Google does. */
  readonly order: number;
  /** Literal text the path must start with. */
  readonly head: string;
  /** Literal segments, each after a `*`; empty when the pattern has no wildcard. */
  readonly segments: readonly string[];
  /** True when the pattern ended in `$`: the match must reach the end of the path. */
  readonly anchored: boolean;
}

/** Compile a rule; its pattern is canonicalised (see path.ts). */
export function compilePattern(rule: Rule, order: number): CompiledPattern {
  const canonical = canonicalizePath(rule.pattern);
  const anchored = canonical.endsWith("$");
  const body = anchored ? canonical.slice(0, -1) : canonical;
  const [head = "", ...rest] = body.split("*").map(literalWildcards);
  // Empty segments come from `**` or a trailing `*` and constrain nothing; an anchored
  // pattern ending in `*$` keeps its last, empty segment so that it may reach the end.
  const segments = rest.filter((segment, i) => segment !== "" || (anchored && i === rest.length - 1));
  return { rule, allow: rule.kind === "allow", priority: canonical.length, order, head, segments, anchored };
}

/**
 * RFC 9309 §2.2.3: `%2A` in a pattern matches a literal `*` in the URL and `%24` a literal
 * `$` (the RFC's own example). Both sides spell them as the character once the pattern is
 * split at its wildcards: pattern pieces through here, paths through `matchablePath`.
 * In a canonical spelling every `%2A` / `%24` is a real escape (path.ts never leaves a stray
 * `%` before two hex digits), so plain replacement is exact.
 */
function literalWildcards(piece: string): string {
  return piece.includes("%") ? piece.replaceAll("%2A", "*").replaceAll("%24", "$") : piece;
}

/** A canonical path (path.ts) in the spelling compiled patterns are matched against. */
export function matchablePath(canonical: string): string {
  return literalWildcards(canonical);
}

/**
 * Does the part of `path` from `from` up to `end` satisfy the pattern's segments?
 * The head has already been matched, ending at `from`. `end` (default: the path's length)
 * lets a decision match a path inside a whole URL without slicing it out.
 */
export function matchesAfterHead(pattern: CompiledPattern, path: string, from: number, end = path.length): boolean {
  const { segments, anchored } = pattern;
  if (segments.length === 0) return !anchored || from === end;
  const lastIndex = segments.length - 1;
  const last = segments[lastIndex] ?? "";
  const limit = anchored ? end - last.length : end;
  if (limit < from) return false;
  let position = from;
  for (let i = 0; i < lastIndex; i++) {
    const segment = segments[i] ?? "";
    const at = path.indexOf(segment, position);
    if (at < 0 || at + segment.length > limit) return false;
    position = at + segment.length;
  }
  if (anchored) return path.startsWith(last, limit);
  // indexOf finds the leftmost occurrence: if that one passes `end`, every later one does.
  const at = path.indexOf(last, position);
  return at >= 0 && at + last.length <= end;
}

/** Whether `a` beats `b`: longer pattern; on a tie allow (least restrictive); then earlier. */
export function outranks(a: CompiledPattern, b: CompiledPattern | undefined): boolean {
  if (!b) return true;
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.allow !== b.allow) return a.allow;
  return a.order < b.order;
}

/**
 * A path pattern on its own (robots.txt syntax: `*`, a final `$`), for callers that match
 * paths without rules — policy routes, usage lines. The same matcher as robots.txt rules.
 *
 *   const route = compilePathPattern("/articles/*.pdf$");
 *   route.matches("/articles/2024/report.pdf"); // true
 *   route.specificity; // 16: longer patterns are more specific (RFC 9309 §2.2.2)
 */
export interface PathPattern {
  /** The pattern as written. */
  readonly pattern: string;
  /** Length of the canonical pattern: among patterns that match, the larger is more specific. */
  readonly specificity: number;
  /** Whether a URL path (with its query; any spelling — it is canonicalised) matches. */
  matches(path: string): boolean;
}

/** Compile a robots.txt path pattern for use outside a robots.txt group. */
export function compilePathPattern(pattern: string): PathPattern {
  const compiled = compilePattern({ kind: "disallow", pattern, line: 0 }, 0);
  return {
    pattern,
    specificity: compiled.priority,
    matches(path: string): boolean {
      const canonical = matchablePath(canonicalizePath(path));
      return canonical.startsWith(compiled.head) && matchesAfterHead(compiled, canonical, compiled.head.length);
    },
  };
}
