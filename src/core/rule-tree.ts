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
 * practice (a few rules to try, short paths); one pass bounds the worst case (a hostile file's).
 */
const ONE_BY_ONE_LIMIT = 50_000;

interface TreeNode {
  label: string;
  children: Map<number, TreeNode> | undefined;
  /** Best rule with no wildcard and no `$` whose head ends here: it matches on reaching it. */
  prefix: CompiledPattern | undefined;
  /** Best rule `head$`: it matches only when the path ends here. */
  exact: CompiledPattern | undefined;
  /** Rules with wildcards after this head, best first: the first that matches wins here. */
  wild: CompiledPattern[] | undefined;
}

function newNode(label: string): TreeNode {
  return { label, children: undefined, prefix: undefined, exact: undefined, wild: undefined };
}

/** An index of compiled patterns that finds the winning rule for a path. */
export class RuleTree {
  private readonly root = newNode("");
  private automaton: SegmentAutomaton | undefined;

  constructor(patterns: readonly CompiledPattern[]) {
    for (const pattern of patterns) this.add(pattern);
    this.sortWild(this.root);
  }

  /** The winning rule for a canonical path, or undefined when no rule matches. */
  find(path: string): CompiledPattern | undefined {
    const visited = this.walk(path);
    let wildWork = 0;
    for (const { node, position } of visited) wildWork += (node.wild?.length ?? 0) * (path.length - position);
    if (wildWork > ONE_BY_ONE_LIMIT) return this.findInOnePass(path, visited);
    let best: CompiledPattern | undefined;
    for (const { node, position } of visited) best = this.bestAt(node, path, position, best);
    return best;
  }

  /** The nodes whose key is a prefix of the path, root first, with where each key ends. */
  private walk(path: string): { node: TreeNode; position: number }[] {
    const visited = [{ node: this.root, position: 0 }];
    let node = this.root;
    let position = 0;
    while (position < path.length) {
      const child = node.children?.get(path.charCodeAt(position));
      if (!child || !path.startsWith(child.label, position)) break;
      position += child.label.length;
      node = child;
      visited.push({ node, position });
    }
    return visited;
  }

  /**
   * Same winner as `bestAt` over the visited nodes, for inputs where trying each wildcard rule
   * on its own could cost rules × path length: every wildcard rule met is matched in one pass
   * (segment-automaton.ts), then the best of all matching rules wins (`outranks` is a total
   * order, so the order of comparison does not change the winner).
   */
  private findInOnePass(path: string, visited: { node: TreeNode; position: number }[]) {
    let best: CompiledPattern | undefined;
    const candidates: Candidate[] = [];
    for (const { node, position } of visited) {
      if (node.prefix && outranks(node.prefix, best)) best = node.prefix;
      if (node.exact && position === path.length && outranks(node.exact, best)) best = node.exact;
      for (const pattern of node.wild ?? []) candidates.push({ pattern, from: position });
    }
    this.automaton ??= new SegmentAutomaton(this.wildPatterns(this.root));
    for (const pattern of this.automaton.matching(path, candidates)) if (outranks(pattern, best)) best = pattern;
    return best;
  }

  private wildPatterns(node: TreeNode): CompiledPattern[] {
    const own = node.wild ?? [];
    return [...own, ...[...(node.children?.values() ?? [])].flatMap((child) => this.wildPatterns(child))];
  }

  private bestAt(node: TreeNode, path: string, position: number, best: CompiledPattern | undefined) {
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

  private add(pattern: CompiledPattern): void {
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
  private insert(key: string): TreeNode {
    let node = this.root;
    let position = 0;
    while (position < key.length) {
      const first = key.charCodeAt(position);
      const child = node.children?.get(first);
      if (!child) {
        const leaf = newNode(key.slice(position));
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

  private sortWild(node: TreeNode): void {
    node.wild?.sort((a, b) => (outranks(a, b) ? -1 : 1));
    node.children?.forEach((child) => this.sortWild(child));
  }
}

function commonPrefixLength(label: string, key: string, from: number): number {
  let i = 0;
  while (i < label.length && from + i < key.length && label.charCodeAt(i) === key.charCodeAt(from + i)) i++;
  return i;
}

/** Put a new node between `parent` and `child`, holding the first `at` characters of the label. */
function splitNode(parent: TreeNode, child: TreeNode, at: number): void {
  const middle = newNode(child.label.slice(0, at));
  child.label = child.label.slice(at);
  middle.children = new Map([[child.label.charCodeAt(0), child]]);
  parent.children?.set(middle.label.charCodeAt(0), middle);
}
