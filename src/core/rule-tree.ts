/**
 * The rules of one group, indexed for matching many paths: a radix tree over the literal
 * heads of the patterns. A decision walks the tree along the path once; at each node it
 * meets exactly the rules whose head is a prefix of the path, so a file with thousands of
 * rules costs about the same per decision as one with ten (only rules whose head matched
 * are ever tried past their head). When many wildcard rules meet a long path, they are matched
 * together in one pass over the path (segment-automaton.ts) rather than one after another.
 *
 * Invariant: a node's `label` is the text between its parent and itself; the concatenated
 * labels from the root spell the heads of the rules stored at that node.
 */

import { canonicalPathEnd, isRewritten } from "./path.ts";
import { matchesAfterHead, outranks, type CompiledPattern } from "./pattern.ts";
import { ASK_STEPS, AUTOMATON_CHARACTER_STEPS, CANDIDATE_STEPS, TRY_STEPS, type StepBudget } from "./match-budget.ts";
import { SegmentAutomaton, type Candidate } from "./segment-automaton.ts";

/**
 * Above this many (wildcard rule × path character) steps, wildcard rules are matched together
 * in one pass instead of one by one. One by one is faster for the files and paths seen in
 * practice (a few rules to try, short paths); one pass bounds the worst case (thousands of
 * wildcard rules against a long path).
 */
export const ONE_BY_ONE_LIMIT = 50_000;

interface TreeNode<P extends CompiledPattern> {
  label: string;
  /** Children by the first character of their label, while the tree is built. */
  children: Map<number, TreeNode<P>> | undefined;
  /**
   * The same children for walking, once built (seal): `kids` in ascending order of their
   * label's first character; those characters are `codes[firstsAt ..]`, the label itself is
   * `codes[labelAt ..]` for `labelLength` (codes: the tree's one array of character codes).
   * A walk compares the URL with numbers in one typed array: no Map hashing, and no second
   * string to decode for every character compared.
   */
  kids: TreeNode<P>[];
  firstsAt: number;
  /**
   * For a wide node (more than NARROW children), where its table starts in `codes`: for each
   * ASCII character, 1 + the index of the child starting with it, or 0. Else -1.
   */
  tableAt: number;
  labelAt: number;
  labelLength: number;
  /** The label holds `%` or `#`: compared in place, those characters are not taken as read. */
  careful: boolean;
  /** A `$` or `*` rule ends here: matching it reads the path past this node. */
  readsRest: boolean;
  /** Some rule ends here: a walk records the node (nodes that only branch are passed by). */
  holdsRules: boolean;
  /** Best rule with no wildcard and no `$` whose head ends here: it matches on reaching it. */
  prefix: P | undefined;
  /** Best rule `head$`: it matches only when the path ends here. */
  exact: P | undefined;
  /** Rules with wildcards after this head, best first: the first that matches wins here. */
  wild: P[] | undefined;
}

/** The children of every leaf: one shared empty list (seal gives inner nodes their own). */
const NO_KIDS: never[] = [];

function newNode<P extends CompiledPattern>(label: string): TreeNode<P> {
  return {
    label,
    children: undefined,
    kids: NO_KIDS,
    firstsAt: 0,
    tableAt: -1,
    labelAt: 0,
    labelLength: label.length,
    careful: false,
    readsRest: false,
    holdsRules: false,
    prefix: undefined,
    exact: undefined,
    wild: undefined,
  };
}

/** An index of compiled patterns that finds the winning rule for a path. */
export class RuleTree<P extends CompiledPattern = CompiledPattern> {
  private readonly root = newNode<P>("");
  private automaton: SegmentAutomaton | undefined;
  /**
   * The nodes on the path of the last walk and where each one's key ends, reused by every
   * `find` so that a decision allocates nothing (find never re-enters itself).
   */
  private readonly walkedNodes: TreeNode<P>[] = [];
  private readonly walkedPositions: number[] = [];
  /** What the last walk found (see `walk`); like the arrays above, reused by every call. */
  private stop = 0;
  private walkReadsRest = false;
  /** How many wildcard rules the tree holds (counted by seal): a bound on the rules one walk can meet. */
  private wildCount = 0;

  /** Every node's label, children's first characters and table (see TreeNode), by seal. */
  private readonly codes: Uint16Array;
  /**
   * Counted while the tree is built, so that `codes` is allocated once at a size that holds
   * everything (growing a large array element by element cost ~60 ms for the largest corpus
   * file, 437,000 label characters): labels' characters, nodes (each is one first character
   * of its parent), and nodes that had more than NARROW children (a table each).
   */
  private labelCharacters = 0;
  private nodes = 1;
  private wideNodes = 0;

  /**
   * The decision's budget (match-budget.ts) this tree's walks spend, when it answers for a
   * matcher; other users (policy routes, usage lines) match few patterns and spend none.
   */
  private readonly budget: StepBudget | undefined;

  constructor(patterns: readonly P[], budget?: StepBudget) {
    this.budget = budget;
    for (const pattern of patterns) this.add(pattern);
    this.codes = new Uint16Array(this.labelCharacters + this.nodes + 0x80 * this.wideNodes);
    this.seal(this.root, 0);
  }

  /** The winning rule for a canonical path, or undefined when no rule matches. */
  find(path: string): P | undefined {
    return this.findIn(path, 0, path.length);
  }

  /**
   * The winning rule for the canonical path `text[start, end)`: a decision matches on the URL
   * it was given, so the path is never sliced out of it. Positions below are indexes in `text`.
   */
  findIn(text: string, start: number, end: number): P | undefined {
    return this.bestOfWalk(text, start, end, this.walk(text, start, end, false));
  }

  /**
   * The winning rule for the path that starts at `text[start]` and ends at the first `#` or
   * the end of `text`, read as the URL spells it, or `null` when the answer needs the path's
   * canonical spelling (then the caller canonicalises it and calls `findIn`).
   *
   * One pass over the path, for the usual URL that is already canonical: the walk compares
   * the path with the heads of the rules (which are canonical, so a character equal to one of
   * theirs is canonical too, `%` and `#` aside); only the character where the walk stops, and
   * the rest of the path when a walked node holds a rule that reads it (`$` or `*`), are
   * checked for characters canonicalizePath would rewrite (path.ts `isRewritten`).
   * Why a prefix can be trusted: canonicalizePath copies every character that is neither `%`
   * nor rewritten as it stands, so up to the first such character the two spellings agree.
   */
  findInPlace(text: string, start: number): P | undefined | null {
    const depth = this.walk(text, start, text.length, true);
    const stop = this.stop;
    if (stop === STOP_UNSURE) return null;
    let end = stop;
    if (stop < text.length) {
      const code = text.charCodeAt(stop);
      if (code !== 0x23 /* # */) {
        if (isRewritten(code)) return null;
        // The path goes on past the walk; where it ends matters only to `$` and `*` rules.
        end = this.walkReadsRest ? canonicalPathEnd(text, stop + 1) : text.length;
        if (end < 0) return null;
        // Finding where the path ends read it past the walk: a step a character.
        if (this.walkReadsRest) this.budget?.spend(end - stop);
      }
    }
    return this.bestOfWalk(text, start, end, depth);
  }

  /** The winner among the rules of the walked nodes, for a path ending at `end`. */
  private bestOfWalk(text: string, start: number, end: number, depth: number): P | undefined {
    if (this.wildCount * (end - start) > ONE_BY_ONE_LIMIT && this.wildWork(end, depth) > ONE_BY_ONE_LIMIT) {
      return this.findInOnePass(text, end, depth);
    }
    // Deepest first: the longest heads meet first, so a rule found there lets the shallower
    // nodes' wildcard rules stop at the first one that cannot outrank it.
    let best: P | undefined;
    for (let i = depth - 1; i >= 0; i--) {
      const node = this.walkedNodes[i];
      if (node) best = bestAt(node, text, this.walkedPositions[i] ?? 0, end, best, this.budget);
    }
    return best;
  }

  /** Steps that trying the walked nodes' wildcard rules one by one could take at most. */
  private wildWork(end: number, depth: number): number {
    let work = 0;
    for (let i = 0; i < depth; i++) {
      work += (this.walkedNodes[i]?.wild?.length ?? 0) * (end - (this.walkedPositions[i] ?? 0));
    }
    return work;
  }

  /**
   * Record the nodes that hold rules and whose key is a prefix of `text[start, end)`, root
   * first; returns how many. Also sets `stop`, where the walk stopped reading (STOP_UNSURE: a
   * `%` met in place), and `walkReadsRest`, whether a walked node holds a `$` or `*` rule.
   * `inPlace`: the text is a URL as written, so a `%` in a head is not trusted and a `#` ends
   * the path.
   */
  private walk(text: string, start: number, end: number, inPlace: boolean): number {
    let node = this.root;
    let position = start;
    let depth = 0;
    let readsRest = node.readsRest;
    let stop = end;
    const codes = this.codes;
    if (node.holdsRules) {
      this.walkedNodes[depth] = node;
      this.walkedPositions[depth++] = start;
    }
    while (position < end) {
      const at = childIndex(codes, node, text.charCodeAt(position));
      if (at < 0) {
        stop = position;
        break;
      }
      const child = node.kids[at] as TreeNode<P>;
      if (inPlace) {
        const missed = labelMissedAt(text, position, codes, child);
        if (missed !== LABEL_MATCHED) {
          stop = missed;
          break;
        }
      } else if (!labelAt(text, position, end, codes, child)) {
        break;
      }
      position += child.labelLength;
      node = child;
      if (node.holdsRules) {
        readsRest ||= node.readsRest;
        this.walkedNodes[depth] = node;
        this.walkedPositions[depth++] = position;
      }
    }
    this.stop = stop;
    this.walkReadsRest = readsRest;
    // A step per character walked, and ASK_STEPS for asking the tree at all (a set of groups
    // answered across its groups asks thousands of trees).
    this.budget?.spend(ASK_STEPS + position - start);
    return depth;
  }

  /**
   * Same winner as `bestAt` over the walked nodes, for inputs where trying each wildcard rule
   * on its own could cost rules × path length: every wildcard rule met is matched in one pass
   * (segment-automaton.ts), then the best of all matching rules wins (`outranks` is a total
   * order, so the order of comparison does not change the winner).
   */
  private findInOnePass(text: string, end: number, depth: number): P | undefined {
    this.budget?.spend(this.onePassSteps(end, depth));
    let best: P | undefined;
    const candidates: Candidate[] = [];
    for (let i = 0; i < depth; i++) {
      const node = this.walkedNodes[i];
      const position = this.walkedPositions[i] ?? 0;
      if (!node) continue;
      if (node.prefix && outranks(node.prefix, best)) best = node.prefix;
      if (node.exact && position === end && outranks(node.exact, best)) best = node.exact;
      for (const pattern of node.wild ?? []) candidates.push({ pattern, from: position });
    }
    this.automaton ??= new SegmentAutomaton(this.wildPatterns(this.root));
    for (const pattern of this.automaton.matching(text, candidates, end)) {
      if (outranks(pattern, best)) best = pattern as P;
    }
    return best;
  }

  /**
   * What a pass costs before it starts (spent first, so that a pass past the budget is not
   * made): its wildcard rules and the characters it reads, from the first walked head on.
   */
  private onePassSteps(end: number, depth: number): number {
    let rules = 0;
    for (let i = 0; i < depth; i++) rules += this.walkedNodes[i]?.wild?.length ?? 0;
    return rules * CANDIDATE_STEPS + (end - (this.walkedPositions[0] ?? 0)) * AUTOMATON_CHARACTER_STEPS;
  }

  private wildPatterns(node: TreeNode<P>): P[] {
    const own = node.wild ?? [];
    return [...own, ...[...(node.children?.values() ?? [])].flatMap((child) => this.wildPatterns(child))];
  }

  private add(pattern: P): void {
    const node = this.insert(pattern.head);
    if (pattern.segments.length > 0) {
      (node.wild ??= []).push(pattern);
    } else if (pattern.anchored) {
      if (outranks(pattern, node.exact)) node.exact = pattern;
    } else if (outranks(pattern, node.prefix)) {
      node.prefix = pattern;
    }
  }

  /** Find or make the node whose path from the root spells `key`. */
  private insert(key: string): TreeNode<P> {
    let node = this.root;
    let position = 0;
    while (position < key.length) {
      const first = key.charCodeAt(position);
      const child = node.children?.get(first);
      if (!child) {
        const leaf = newNode<P>(key.slice(position));
        const children = (node.children ??= new Map());
        children.set(first, leaf);
        this.nodes++;
        this.labelCharacters += leaf.label.length;
        if (children.size === NARROW + 1) this.wideNodes++;
        return leaf;
      }
      const common = commonPrefixLength(child.label, key, position);
      if (common < child.label.length) {
        splitNode(node, child, common); // one more node; the characters are the same
        this.nodes++;
      }
      node = node.children?.get(first) ?? child;
      position += common;
    }
    return node;
  }

  /**
   * Once every pattern is in: wildcard rules best first, children in order, and each node's
   * label, children's first characters and (wide node) table written to `codes` from `at` on.
   * Returns where the next node's codes start.
   */
  private seal(node: TreeNode<P>, at: number): number {
    const codes = this.codes;
    if (node.wild) {
      node.wild.sort((a, b) => (outranks(a, b) ? -1 : 1));
      node.wild = bestOfEachPattern(node.wild);
      this.wildCount += node.wild.length;
    }
    node.careful = node.label.includes("%") || node.label.includes("#");
    node.readsRest = node.exact !== undefined || node.wild !== undefined;
    node.holdsRules = node.readsRest || node.prefix !== undefined;
    node.labelAt = at;
    node.labelLength = node.label.length;
    for (let i = 0; i < node.labelLength; i++) codes[at + i] = node.label.charCodeAt(i);
    node.firstsAt = at + node.labelLength;
    const children = node.children;
    if (children === undefined) return node.firstsAt; // a leaf, as most nodes are
    const kids: TreeNode<P>[] = [];
    children.forEach((child) => kids.push(child));
    kids.sort((a, b) => a.label.charCodeAt(0) - b.label.charCodeAt(0));
    node.kids = kids;
    let next = node.firstsAt + kids.length;
    // Heads are canonical, so ASCII (path.ts): a table of 128 entries covers every child.
    const wide = kids.length > NARROW && kids.every((kid) => kid.label.charCodeAt(0) < 0x80);
    if (wide) node.tableAt = next;
    if (wide) next += 0x80;
    for (let i = 0; i < kids.length; i++) {
      const first = kids[i]?.label.charCodeAt(0) ?? 0;
      codes[node.firstsAt + i] = first;
      if (wide) codes[node.tableAt + first] = i + 1;
    }
    for (const kid of kids) next = this.seal(kid, next);
    return next;
  }
}

/**
 * The first (best) of the wildcard rules that spell the same pattern after this head, in order:
 * the others can never win (they match exactly where the best does, and rank below it), and
 * each copy kept would be tried, or run in a pass, on every decision: 6 copies of `/*ab` in
 * each of 3,764 groups, 36,570 in one (attack 12), cost 6 and 36,570 times the work.
 */
function bestOfEachPattern<P extends CompiledPattern>(wild: P[]): P[] {
  const seen = new Set<string>();
  const kept: P[] = [];
  for (const pattern of wild) {
    // The anchor as a flag of its own, first: appended as a `$` it made `/*$` (segments [""],
    // anchored) and `/*$*` (segments ["$"]) one key, and dropped the one that matches `/`.
    // Segments never hold a `*` (they are split on it), so joining them on `*` is unambiguous.
    const key = (pattern.anchored ? "1" : "0") + pattern.segments.join("*");
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(pattern);
  }
  return kept.length === wild.length ? wild : kept;
}

/** Up to this many children, a node's first characters are scanned; above, it has a table. */
const NARROW = 6;

/**
 * Index among the node's children of the one whose label starts with `code`, or -1: one look-up
 * in a wide node's table, else a scan of its few first characters (ascending, each once).
 */
function childIndex<P extends CompiledPattern>(codes: Uint16Array, node: TreeNode<P>, code: number): number {
  if (node.tableAt >= 0) return code < 0x80 ? (codes[node.tableAt + code] ?? 0) - 1 : -1;
  const from = node.firstsAt;
  for (let i = 0; i < node.kids.length; i++) {
    const first = codes[from + i] ?? 0;
    if (first === code) return i;
    if (first > code) return -1;
  }
  return -1;
}

/** `labelMissedAt`'s answers besides an index: the whole label matched; a `%` met, unsure. */
const LABEL_MATCHED = -1;
const STOP_UNSURE = -2;

/**
 * Where `child.label` stops matching `text` at `position` (the index of the first character
 * that differs, or the text's end), LABEL_MATCHED, or STOP_UNSURE when an equal `%` was read:
 * an escape in the URL may not be spelled as the head spells it (`%2f` and `%2F`).
 * A `#` ends the path, so it never matches. The first character is known to match (childIndex)
 * unless the label is careful.
 */
function labelMissedAt<P extends CompiledPattern>(
  text: string,
  position: number,
  codes: Uint16Array,
  child: TreeNode<P>,
): number {
  const length = Math.min(child.labelLength, text.length - position);
  const at = child.labelAt - position;
  for (let i = position + (child.careful ? 0 : 1); i < position + length; i++) {
    const code = text.charCodeAt(i);
    if (code !== codes[at + i] || code === 0x23 /* # */) return i;
    if (code === 0x25 /* % */) return STOP_UNSURE;
  }
  return length === child.labelLength ? LABEL_MATCHED : position + length;
}

/**
 * Does the child's label occur in `text` at `position`, within `end`? Its first character is
 * already known to match (childIndex found it). A plain loop over the tree's codes: labels are
 * short, and a built-in call costs more than comparing a few characters.
 */
function labelAt<P extends CompiledPattern>(
  text: string,
  position: number,
  end: number,
  codes: Uint16Array,
  child: TreeNode<P>,
): boolean {
  const stop = position + child.labelLength;
  if (stop > end) return false;
  const at = child.labelAt - position;
  for (let i = position + 1; i < stop; i++) {
    if (text.charCodeAt(i) !== codes[at + i]) return false;
  }
  return true;
}

function commonPrefixLength(label: string, key: string, from: number): number {
  let i = 0;
  while (i < label.length && from + i < key.length && label.charCodeAt(i) === key.charCodeAt(from + i)) i++;
  return i;
}

/** The winner among `best` and the rules stored at `node` that match the path there. */
function bestAt<P extends CompiledPattern>(
  node: TreeNode<P>,
  text: string,
  position: number,
  end: number,
  best: P | undefined,
  budget: StepBudget | undefined,
): P | undefined {
  let winner = best;
  if (node.prefix && outranks(node.prefix, winner)) winner = node.prefix;
  if (node.exact && position === end && outranks(node.exact, winner)) winner = node.exact;
  if (node.wild) {
    for (const pattern of node.wild) {
      if (!outranks(pattern, winner)) break;
      // A try reads the path past the head about once (String#indexOf per segment): its
      // length in steps, and TRY_STEPS for the try itself.
      budget?.spend(TRY_STEPS + end - position);
      if (matchesAfterHead(pattern, text, position, end)) {
        winner = pattern;
        break;
      }
    }
  }
  return winner;
}

/** Put a new node between `parent` and `child`, holding the first `at` characters of the label. */
function splitNode<P extends CompiledPattern>(parent: TreeNode<P>, child: TreeNode<P>, at: number): void {
  const middle = newNode<P>(child.label.slice(0, at));
  child.label = child.label.slice(at);
  middle.children = new Map([[child.label.charCodeAt(0), child]]);
  parent.children?.set(middle.label.charCodeAt(0), middle);
}
