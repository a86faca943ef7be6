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

import { matchesAfterHead, outranks, type CompiledPattern } from "./pattern.ts";
import { SegmentAutomaton, type Candidate } from "./segment-automaton.ts";

/**
 * Above this many (wildcard rule × path character) steps, wildcard rules are matched together
 * in one pass instead of one by one. One by one is faster for the files and paths seen in
 * practice (a few rules to try, short paths); one pass bounds the worst case (thousands of
 * wildcard rules against a long path).
 */
const ONE_BY_ONE_LIMIT = 50_000;

interface TreeNode<P extends CompiledPattern> {
  label: string;
  children: Map<number, TreeNode<P>> | undefined;
  /** Best rule with no wildcard and no `$` whose head ends here: it matches on reaching it. */
  prefix: P | undefined;
  /** Best rule `head$`: it matches only when the path ends here. */
  exact: P | undefined;
  /** Rules with wildcards after this head, best first: the first that matches wins here. */
  wild: P[] | undefined;
}

function newNode<P extends CompiledPattern>(label: string): TreeNode<P> {
  return { label, children: undefined, prefix: undefined, exact: undefined, wild: undefined };
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
  private readonly hasWild: boolean;

  constructor(patterns: readonly P[]) {
    for (const pattern of patterns) this.add(pattern);
    this.sortWild(this.root);
    this.hasWild = patterns.some((pattern) => pattern.segments.length > 0);
  }

  /** The winning rule for a canonical path, or undefined when no rule matches. */
  find(path: string): P | undefined {
    const depth = this.walk(path);
    if (this.hasWild && this.wildWork(path, depth) > ONE_BY_ONE_LIMIT) return this.findInOnePass(path, depth);
    // Deepest first: the longest heads meet first, so a rule found there lets the shallower
    // nodes' wildcard rules stop at the first one that cannot outrank it.
    let best: P | undefined;
    for (let i = depth - 1; i >= 0; i--) {
      const node = this.walkedNodes[i];
      if (node) best = bestAt(node, path, this.walkedPositions[i] ?? 0, best);
    }
    return best;
  }

  /** Steps that trying the walked nodes' wildcard rules one by one could take at most. */
  private wildWork(path: string, depth: number): number {
    let work = 0;
    for (let i = 0; i < depth; i++) {
      work += (this.walkedNodes[i]?.wild?.length ?? 0) * (path.length - (this.walkedPositions[i] ?? 0));
    }
    return work;
  }

  /** Record the nodes whose key is a prefix of the path, root first; returns how many. */
  private walk(path: string): number {
    let node = this.root;
    let position = 0;
    let depth = 0;
    this.walkedNodes[depth] = node;
    this.walkedPositions[depth++] = 0;
    while (position < path.length) {
      const child = node.children?.get(path.charCodeAt(position));
      if (!child || !path.startsWith(child.label, position)) break;
      position += child.label.length;
      node = child;
      this.walkedNodes[depth] = node;
      this.walkedPositions[depth++] = position;
    }
    return depth;
  }

  /**
   * Same winner as `bestAt` over the walked nodes, for inputs where trying each wildcard rule
   * on its own could cost rules × path length: every wildcard rule met is matched in one pass
   * (segment-automaton.ts), then the best of all matching rules wins (`outranks` is a total
   * order, so the order of comparison does not change the winner).
   */
  private findInOnePass(path: string, depth: number): P | undefined {
    let best: P | undefined;
    const candidates: Candidate[] = [];
    for (let i = 0; i < depth; i++) {
      const node = this.walkedNodes[i];
      const position = this.walkedPositions[i] ?? 0;
      if (!node) continue;
      if (node.prefix && outranks(node.prefix, best)) best = node.prefix;
      if (node.exact && position === path.length && outranks(node.exact, best)) best = node.exact;
      for (const pattern of node.wild ?? []) candidates.push({ pattern, from: position });
    }
    this.automaton ??= new SegmentAutomaton(this.wildPatterns(this.root));
    for (const pattern of this.automaton.matching(path, candidates)) {
      if (outranks(pattern, best)) best = pattern as P;
    }
    return best;
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
        (node.children ??= new Map()).set(first, leaf);
        return leaf;
      }
      const common = commonPrefixLength(child.label, key, position);
      if (common < child.label.length) splitNode(node, child, common);
      node = node.children?.get(first) ?? child;
      position += common;
    }
    return node;
  }

  private sortWild(node: TreeNode<P>): void {
    node.wild?.sort((a, b) => (outranks(a, b) ? -1 : 1));
    node.children?.forEach((child) => this.sortWild(child));
  }
}

function commonPrefixLength(label: string, key: string, from: number): number {
  let i = 0;
  while (i < label.length && from + i < key.length && label.charCodeAt(i) === key.charCodeAt(from + i)) i++;
  return i;
}

/** The winner among `best` and the rules stored at `node` that match the path there. */
function bestAt<P extends CompiledPattern>(node: TreeNode<P>, path: string, position: number, best: P | undefined) {
  let winner = best;
  if (node.prefix && outranks(node.prefix, winner)) winner = node.prefix;
  if (node.exact && position === path.length && outranks(node.exact, winner)) winner = node.exact;
  if (node.wild) {
    for (const pattern of node.wild) {
      if (!outranks(pattern, winner)) break;
      if (matchesAfterHead(pattern, path, position)) {
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
