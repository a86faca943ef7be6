/**
 * RobotsTxt model × crawler tokens × URL -> Decision.
 *
 * RFC 9309 §2.2.1: a crawler obeys one group, the one naming its product token
 * (case-insensitive); groups naming the same token are merged; `*` applies only when no
 * group names the crawler, and is never merged into a specific group. A user-agent line
 * names its whole token and Google's reading of it (product-token.ts), so Googlebot obeys
 * `User-agent: Googlebot2` as Google's parser does, and MJ12bot still has its own group.
 * Tokens come in priority order (["googlebot-image", "googlebot"]): the first token that
 * has a group decides, as Google documents for its crawlers with a fallback name.
 * RFC 9309 §2.2.2: the longest matching pattern wins, allow wins a tie, nothing matching
 * means allowed, and /robots.txt is always allowed.
 *
 * Google-only, kept: an `allow` of `…/index.htm` or `…/index.html` also allows the bare
 * directory (`…/$`), as Google's reference does (option `indexHtmlAllowsDirectory`).
 * Each token's merged group and its rule index are built on first use, so a huge file costs
 * nothing for the groups no request asks about. Tokens obeying the same set of groups share one
 * merged rule list, its extensions and its trees (keyed by the groups' indexes, "0,1"): a copy
 * per token was quadratic (110 MB in Node for 100 KiB naming 3,000 tokens over 3,000 rules;
 * 326 MB for 424 KiB of 2 groups naming the same 1,000 tokens over wildcard patterns), and an
 * AI-crawler blocklist of 150 tokens built 150 identical trees. Only what names the token is its
 * own: its user-agent lines and the decisions that carry them. Every cost is bounded by the
 * file's own size (builtCostBound), however many tokens requests name, and no request rebuilds
 * trees: each group's own are built once; a merged list's are built while they fit and kept,
 * and past that a set is answered from its groups' own. A set's rules and extensions are a view
 * over its groups' lists (merged-group.ts), copied only when read. What is cheap to rebuild (a
 * token's group, its decisions, a set's view) is dropped least recently used first,
 * never all: dropping all made 2 groups naming a, b, c over 11,000 rules rebuild their trees
 * on every request (47.5 ms), and tokens of different sets asked in turn did the same.
 */

import { productToken, userAgentNames } from "./product-token.ts";
import { mergedView, rulesOf, type KeptLists, type MergedView } from "./merged-group.ts";
import type { Group, GroupExtensions, RobotsTxt, Rule } from "./model.ts";
import { canonicalizePath, isRewritten, pathAndQuery, pathStartInPlace } from "./path.ts";
import { compilePattern, matchablePath, outranks, type CompiledPattern } from "./pattern.ts";
import { rawCharacterOf, recordReading } from "./readings.ts";
import { StepBudget } from "./match-budget.ts";
import { RuleTree } from "./rule-tree.ts";

/** Why a decision came out as it did when no rule decided it. */
export type DecisionReason = "rule" | "no-matching-rule" | "no-group" | "robots-txt";

/** The group a crawler obeys: all groups naming one token, merged. */
export interface AppliedGroup {
  /** The product token the group names (a line's whole name or Google's reading), or `*`. */
  readonly token: string;
  /** Line numbers of the user-agent lines naming that token. */
  readonly agentLines: readonly number[];
  readonly rules: readonly Rule[];
  readonly extensions: GroupExtensions;
}

/**
 * The answer to "may this crawler fetch this URL?", with its reason. A matcher builds each
 * possible decision once (per rule, per group's "no rule matched" and "/robots.txt") and
 * returns that same frozen object every time: callers may key what they derive on it. (Only a
 * token dropped past BUILT_COST_FLOOR's bound has its group built again, with new decisions.)
 */
export interface Decision {
  readonly allowed: boolean;
  readonly reason: DecisionReason;
  /** The deciding rule, when reason is "rule". */
  readonly rule?: Rule;
  /** The group that applied; absent when no group applies. */
  readonly group?: AppliedGroup;
}

/** Per-decision options: who is asking, beyond its tokens. */
export interface DecideOptions {
  /** False for crawlers documented to obey only groups naming them (AdsBot-Google). */
  readonly obeysGlobalGroup?: boolean;
}

export interface MatcherOptions {
  /** Google-only: allow of `/dir/index.html` also allows `/dir/`. Default true. */
  readonly indexHtmlAllowsDirectory?: boolean;
  /**
   * A caller's reading of a rule: another spelling of its canonical pattern that the same rule
   * also matches (undefined: none). The engine itself has none, so it keeps RFC 9309's and
   * Google's answers; the edge reads reserved escapes as their characters
   * (src/policy/path-spellings.ts ruleSpelling). The other spellings may only add refusals:
   * see `buildTrees` for how they rank and why the written reading still refuses.
   */
  readonly alsoSpelled?: (canonicalPattern: string) => string | undefined;
}

const TOKEN_MEMO_SIZE = 256;
/**
 * What the tokens asked may build, twice over: twice the file's size (its tokens, rules, pattern
 * characters and extension records: groupCost) plus this many, for
 *   - tokens' groups (1 each), their decisions (1 each) and views of their sets of groups (1,
 *     plus the groups when several, once for all the tokens obeying them): past the bound the
 *     least recently used tokens are dropped, and views no kept token obeys;
 *   - merged lists' trees (their rules and pattern characters) and merged lists a caller read
 *     (their entries): built while they fit, kept.
 * Each group's own trees are the file's own size. An ordinary file's groups all fit at once.
 */
export const BUILT_COST_FLOOR = 10_000;

/** The bound on what a matcher of `robots` builds (see BUILT_COST_FLOOR); compiled-weight.ts weighs it. */
export function builtCostBound(robots: RobotsTxt): number {
  let size = 0;
  for (const group of robots.groups) size += group.agents.length + groupCost(group);
  return 2 * size + BUILT_COST_FLOOR;
}

/**
 * What a group adds to a merged list: its rules and their pattern characters (the trees hold
 * both), and its extension records (the merged extensions list them).
 */
function groupCost(group: { readonly rules: readonly Rule[]; readonly extensions: GroupExtensions }): number {
  let cost = group.rules.length;
  for (const rule of group.rules) cost += rule.pattern.length;
  const { requestRates, comments, usage, others } = group.extensions;
  return cost + requestRates.length + comments.length + usage.length + others.length;
}

const NO_OPTIONS: DecideOptions = {};

// Decisions carry no per-request data, so each possible one is built once and shared: the
// per-request path allocates nothing but the canonical path.
const NO_GROUP: Decision = Object.freeze({ allowed: true, reason: "no-group" });
const ROBOTS_TXT_NO_GROUP: Decision = Object.freeze({ allowed: true, reason: "robots-txt" });

/**
 * A compiled pattern; the decision it makes when it wins is its rule's in the group asked
 * (decisionBy). Trees of one rule list are shared by every token obeying that list (the
 * tokens of one set of groups), so they hold no group.
 */
type DecidingPattern = CompiledPattern;

/**
 * What every token obeying one set of groups shares: a view of their rules and extensions
 * (merged-group.ts: no copy, O(groups) to make), and the trees that answer for them. Kept while
 * a built token refers to it.
 */
interface SharedGroups {
  readonly key: string;
  /** The groups, by index in the file. */
  readonly indexes: readonly number[];
  readonly view: MergedView;
  /** Its part of the built cost: 1, plus its groups when several (the view's references). */
  readonly cost: number;
  /** Built tokens referring to it. */
  refs: number;
  /** The merged trees, or each group's own (treesOf), asked on first decision. */
  trees: readonly GroupTrees[] | undefined;
}

/** A token's group: its own name and lines, the shared rules, and the decisions naming them. */
interface GroupIndex {
  readonly group: AppliedGroup;
  readonly shared: SharedGroups;
  readonly robotsTxt: Decision;
  readonly noMatch: Decision;
  /** Each rule's decision in this group, made when it first wins (no map before). */
  decisions: Map<Rule, Decision> | undefined;
  /** When it was last used (RobotsMatcher clock): the least recently used are dropped first. */
  used: number;
}

/** A product token's place in the token memo: its group while built, undefined once dropped. */
interface TokenSlot {
  readonly key: string;
  index: GroupIndex | undefined;
}

/**
 * A group's rules indexed for matching: `every` holds each rule in every spelling it has;
 * `asWritten`, only when some rule has another spelling, holds them as written (RFC 9309's
 * reading), whose refusals stand whatever the other spellings say.
 */
interface GroupTrees {
  readonly every: RuleTree<DecidingPattern>;
  readonly asWritten: RuleTree<DecidingPattern> | undefined;
}

/** A parsed file compiled for many decisions. */
export class RobotsMatcher {
  /** Token -> the file's groups naming it, in file order (an index; a list for several). */
  private readonly named: Map<string, number | number[]>;
  /**
   * Tokens' groups built so far; with the shared groups they refer to, they hold `builtCost`,
   * within `maxBuiltCost`. Each notes when it was last used (`clock`).
   */
  private readonly built = new Map<string, GroupIndex>();
  private clock = 0;
  /** Shared groups by their groups' indexes ("0,1"). */
  private readonly shared = new Map<string, SharedGroups>();
  private builtCost = 0;
  /** Each group's own trees, by index, built on first use and kept: the file's own size. */
  private readonly groupTrees: (GroupTrees | undefined)[] = [];
  /**
   * Trees of merged lists by their groups' indexes, and merged lists read by callers (by list
   * and indexes: merged-group.ts), kept once built, while their rules, characters and entries
   * (`keptCost`) fit within `maxBuiltCost`; past it a set is answered from its groups' own
   * trees, and a list read is made for that read. Never dropped: dropping them meant building
   * them again, one request at a time, for tokens of different sets asked in turn.
   */
  private readonly mergedTrees = new Map<string, GroupTrees>();
  private readonly mergedLists = new Map<string, readonly unknown[]>();
  private keptCost = 0;
  private readonly keptLists: KeptLists = { list: (key, length, make) => this.keptList(key, length, make) };
  /** Each group's rules and pattern characters (what its part of a merged tree costs), on first use. */
  private readonly treeCostOfGroup: (number | undefined)[] = [];
  private readonly agentLinesByGroup = new Map<number, Map<string, number[]>>();
  private readonly maxBuiltCost: number;
  /**
   * Crawler token as sent -> its product token's slot (null: it names no group), so the
   * per-request path skips token extraction. A slot, never the group: an entry kept a group
   * dropped past the bound alive, with its lists, once per spelling (`Abcdefgh`, `aBcdefgh`, …:
   * 117 MB). Every spelling shares the one slot, which lets go of its group when it is dropped.
   */
  private readonly tokenGroups = new Map<string, TokenSlot | null>();
  /** Each product token's slot, made when its group is first built: at most the file's tokens. */
  private readonly slots = new Map<string, TokenSlot>();
  private readonly indexHtml: boolean;
  private readonly alsoSpelled: MatcherOptions["alsoSpelled"];
  private readonly robots: RobotsTxt;
  private readonly options: MatcherOptions;
  /**
   * The matching work one `decide` may do, spent by every tree it asks (match-budget.ts): past
   * it, decide throws MatchingTooCostly rather than answer a path it could not check.
   */
  private readonly budget = new StepBudget();
  /** The record reading's matcher (null: it reads the file as we do), built on first use. */
  private recordMatcher: RobotsMatcher | null | undefined;

  constructor(robots: RobotsTxt, options: MatcherOptions = {}) {
    this.robots = robots;
    this.options = options;
    this.indexHtml = options.indexHtmlAllowsDirectory ?? true;
    this.alsoSpelled = options.alsoSpelled;
    this.named = groupsNaming(robots);
    this.maxBuiltCost = builtCostBound(robots);
  }

  /**
   * The same file as the record reading reads it (readings.ts: urllib.robotparser,
   * robots-parser, the 1996 draft), matched the same way; undefined when that reading gives
   * every crawler the rules ours does. Not this engine's answer (`decide` is RFC 9309's and
   * Google's): the edge's decision asks it, to refuse only what every reading refuses.
   */
  recordReading(): RobotsMatcher | undefined {
    if (this.recordMatcher === undefined) {
      const other = recordReading(this.robots);
      this.recordMatcher = other ? new RobotsMatcher(other, this.options) : null;
    }
    return this.recordMatcher ?? undefined;
  }

  /** The group that the first token with a group names, else `*`, else undefined. */
  groupFor(tokens: readonly string[], options: DecideOptions = NO_OPTIONS): AppliedGroup | undefined {
    return this.indexFor(tokens, options)?.group;
  }

  /** May a crawler with these product tokens (priority order) fetch this URL or path? */
  decide(tokens: readonly string[], url: string, options: DecideOptions = NO_OPTIONS): Decision {
    const index = this.indexFor(tokens, options);
    this.budget.start();
    // Usually the URL already spells its path canonically: match it where it stands. Else
    // (an escape, a non-ASCII or other rewritten character, no path) build the canonical path.
    const start = pathStartInPlace(url);
    const inPlace = start < 0 ? undefined : this.decideInPlace(index, url, start);
    if (inPlace) return inPlace;
    const path = matchablePath(canonicalizePath(pathAndQuery(url)));
    return this.decideOn(index, path, 0, path.length);
  }

  /**
   * The decision for the path at `url[start]` as the URL spells it, or undefined when only its
   * canonical spelling can tell (then `decide` takes the general route).
   */
  private decideInPlace(index: GroupIndex | undefined, url: string, start: number): Decision | undefined {
    const robotsTxt = isRobotsTxtInPlace(url, start);
    if (robotsTxt !== false) return robotsTxt && (index ? index.robotsTxt : ROBOTS_TXT_NO_GROUP);
    if (!index) return NO_GROUP;
    const all = (index.shared.trees ??= this.treesOf(index.shared));
    if (all.length > 1) return this.decideInPlaceAcross(index, all, url, start);
    const trees = all[0] as GroupTrees;
    const winner = trees.every.findInPlace(url, start);
    if (winner === null) return undefined;
    const decision = winner ? this.decisionBy(index, winner.rule) : index.noMatch;
    if (!trees.asWritten || !decision.allowed) return decision;
    const written = trees.asWritten.findInPlace(url, start);
    if (written === null) return undefined;
    return written && !written.allow ? this.decisionBy(index, written.rule) : decision;
  }

  /** decideInPlace for a set of groups answered from each group's trees: the best of their winners. */
  private decideInPlaceAcross(
    index: GroupIndex,
    all: readonly GroupTrees[],
    url: string,
    start: number,
  ): Decision | undefined {
    const winner = bestInPlace(all, false, url, start);
    if (winner === null) return undefined;
    const decision = winner ? this.decisionBy(index, winner.rule) : index.noMatch;
    if (!decision.allowed || !anyAsWritten(all)) return decision;
    const written = bestInPlace(all, true, url, start);
    if (written === null) return undefined;
    return written && !written.allow ? this.decisionBy(index, written.rule) : decision;
  }

  /** The decision for the canonical, matchable path `text[start, end)`. */
  private decideOn(index: GroupIndex | undefined, text: string, start: number, end: number): Decision {
    if (!index) return isRobotsTxt(text, start, end) ? ROBOTS_TXT_NO_GROUP : NO_GROUP;
    if (isRobotsTxt(text, start, end)) return index.robotsTxt;
    const all = (index.shared.trees ??= this.treesOf(index.shared));
    const winner = bestIn(all, false, text, start, end);
    const decision = winner ? this.decisionBy(index, winner.rule) : index.noMatch;
    if (!decision.allowed || !anyAsWritten(all)) return decision;
    const written = bestIn(all, true, text, start, end);
    return written && !written.allow ? this.decisionBy(index, written.rule) : decision;
  }

  private indexFor(tokens: readonly string[], options: DecideOptions): GroupIndex | undefined {
    for (let i = 0; i < tokens.length; i++) {
      const group = this.groupOfToken(tokens[i] ?? "");
      if (group) return group;
    }
    return options.obeysGlobalGroup === false ? undefined : (this.groupNamed("*") ?? undefined);
  }

  private groupOfToken(token: string): GroupIndex | null {
    const known = this.tokenGroups.get(token);
    if (known === null) return null;
    if (known !== undefined) return known.index ? this.used(known.index) : this.groupNamed(known.key);
    const key = productToken(token);
    const group = key === "" ? null : this.groupNamed(key);
    // Tokens come from request headers: bound the memo so odd User-Agents cannot grow it.
    if (this.tokenGroups.size >= TOKEN_MEMO_SIZE) this.tokenGroups.clear();
    this.tokenGroups.set(token, group ? this.slotOf(key) : null);
    return group;
  }

  private slotOf(key: string): TokenSlot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { key, index: undefined };
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** Mark `index` the most recently used (the last to be dropped): a count, no reordering. */
  private used(index: GroupIndex): GroupIndex {
    index.used = ++this.clock;
    return index;
  }

  /**
   * The decision `rule` makes in the group of `index`: built once, the same object every time
   * while the group is kept. Each counts 1 of the built cost: tokens × rules of them could
   * otherwise pile up, one request at a time. One that finds no room (its token alone fills
   * the bound) is made for this answer and not kept.
   */
  private decisionBy(index: GroupIndex, rule: Rule): Decision {
    const decisions = (index.decisions ??= new Map());
    const known = decisions.get(rule);
    if (known) return known;
    const decision: Decision = Object.freeze({
      allowed: rule.kind === "allow",
      reason: "rule",
      rule,
      group: index.group,
    });
    if (this.makeRoom(1, index)) {
      this.builtCost += 1;
      decisions.set(rule, decision);
    }
    return decision;
  }

  /**
   * Make room for `cost` more: past the bound, drop the least recently used tokens (never `keep`,
   * the one being answered) down to three quarters of it, so that finding them (a sort) is paid
   * once per quarter of the bound built, not on every request. False when there is no room.
   */
  private makeRoom(cost: number, keep?: GroupIndex): boolean {
    if (this.builtCost + cost <= this.maxBuiltCost) return true;
    const target = Math.floor((this.maxBuiltCost * 3) / 4) - cost;
    const oldestFirst = [...this.built.values()];
    oldestFirst.sort((a, b) => a.used - b.used);
    for (const index of oldestFirst) {
      if (this.builtCost <= target) break;
      if (index !== keep) this.drop(index);
    }
    return this.builtCost + cost <= this.maxBuiltCost;
  }

  /** Forget a token's group, and its shared groups once no token refers to them. */
  private drop(index: GroupIndex): void {
    this.built.delete(index.group.token);
    const slot = this.slots.get(index.group.token);
    if (slot) slot.index = undefined;
    this.builtCost -= 1 + (index.decisions?.size ?? 0);
    const shared = index.shared;
    if (--shared.refs === 0) {
      this.shared.delete(shared.key);
      this.builtCost -= shared.cost;
    }
  }

  /** The merged group of every group naming `token` (null: none), built on first ask. */
  private groupNamed(token: string): GroupIndex | null {
    const known = this.built.get(token);
    if (known) return this.used(known);
    const named = this.named.get(token);
    if (named === undefined) return null;
    const indexes = typeof named === "number" ? [named] : named;
    const key = String(indexes);
    let shared = this.shared.get(key);
    if (shared) {
      // Held before room is made, so making room cannot drop it.
      shared.refs++;
      this.makeRoom(1);
    } else {
      const built = sharedGroups(key, indexes, this.groupsAt(indexes), this.keptLists);
      this.makeRoom(1 + built.cost);
      shared = built;
      this.shared.set(key, shared);
      this.builtCost += shared.cost;
    }
    this.builtCost += 1;
    const agentLines: number[] = [];
    for (const index of indexes) for (const line of this.agentLinesOf(index).get(token) ?? []) agentLines.push(line);
    const group = appliedGroup(token, agentLines, shared.view);
    const index = newGroupIndex(group, shared);
    this.built.set(token, index);
    this.slotOf(token).index = index;
    return this.used(index);
  }

  /**
   * Group `index`'s user-agent lines by the token they name, read once when a token of the group
   * is first asked: reading them again for each token asked was a scan of every line per request
   * (27,000 lines in 500 KiB of one-line groups).
   */
  private agentLinesOf(index: number): Map<string, number[]> {
    let lines = this.agentLinesByGroup.get(index);
    if (!lines) {
      lines = agentLinesByToken(this.robots.groups[index]?.agentLines ?? []);
      this.agentLinesByGroup.set(index, lines);
    }
    return lines;
  }

  /**
   * The trees answering for a set of groups: a lone group's own; a merged list's, built while
   * they fit (mergedTrees) and kept; else each group's own, whose winners `decide` compares
   * (the best of each group's best is the best of their union: `outranks` orders all rules).
   */
  private treesOf(shared: SharedGroups): readonly GroupTrees[] {
    const { indexes, key } = shared;
    if (indexes.length === 1) return [this.treesOfGroup(indexes[0] ?? 0)];
    let merged = this.mergedTrees.get(key);
    if (!merged) {
      // Summed from each group's, known once: counting the merged rules' characters again was
      // O(file) for each set made again (tokens of 8 sets asked in turn).
      let cost = 0;
      for (const index of indexes) cost += this.treeCostOf(index);
      if (this.keptCost + cost > this.maxBuiltCost) return indexes.map((index) => this.treesOfGroup(index));
      merged = this.buildTrees(rulesOf(this.groupsAt(indexes)));
      this.mergedTrees.set(key, merged);
      this.keptCost += cost;
    }
    return [merged];
  }

  private treeCostOf(index: number): number {
    return (this.treeCostOfGroup[index] ??= treeCost(this.robots.groups[index]?.rules ?? []));
  }

  /**
   * A merged list a caller reads (merged-group.ts): kept while it fits, with the merged trees;
   * past that, made for this read and not kept (never held uncounted).
   */
  private keptList<T>(key: string, length: number, make: () => readonly T[]): readonly T[] {
    const known = this.mergedLists.get(key) as readonly T[] | undefined;
    if (known) return known;
    const list = make();
    if (this.keptCost + length <= this.maxBuiltCost) {
      this.mergedLists.set(key, list);
      this.keptCost += length;
    }
    return list;
  }

  private groupsAt(indexes: readonly number[]): Group[] {
    const groups: Group[] = [];
    for (const index of indexes) {
      const group = this.robots.groups[index];
      if (group) groups.push(group);
    }
    return groups;
  }

  private treesOfGroup(index: number): GroupTrees {
    return (this.groupTrees[index] ??= this.buildTrees(this.robots.groups[index]?.rules ?? []));
  }

  /**
   * The other spellings may only ADD refusals, never lift one. Two choices make it so:
   *   - an other spelling ranks by its own length, the octets it matches (RFC 9309 §2.2.2:
   *     the most specific match is the one with the most octets). Ranked as written,
   *     `Allow: /a%27` read as `/a'` (3) would outrank `Disallow: /a'b` (4) on `/a'b`;
   *   - the written reading's refusal stands: with `Disallow: /a` and `Allow: /a%27b`, RFC
   *     9309 and Google refuse `/a'b`, and the allow read as `/a'b` would lift that. The
   *     other spelling exists so that the edge refuses what the origin serves as the same
   *     page (the same promise the path side keeps, path-spellings.ts); it is no licence.
   * So a decision asks the tree of every spelling, and, when that passes and some rule has
   * another spelling, the tree as written. A file without escapes builds one tree.
   */
  private buildTrees(rules: readonly Rule[]): GroupTrees {
    const written: DecidingPattern[] = [];
    const others: DecidingPattern[] = [];
    for (const rule of rules) {
      // RFC 9309 §2.2.2 encodes only non-ASCII and reserved octets, Google's matcher none of
      // the rest: a raw space (or `"`, `<`, …) in a rule matches no request, which carries it
      // percent-encoded (readings.ts). Lint says so (reading-disputed).
      if (rawCharacterOf(rule.pattern) !== undefined) continue;
      written.push(compilePattern(rule, rule.line));
      const directory = this.indexHtml ? indexHtmlDirectory(rule) : undefined;
      if (directory) written.push({ ...compilePattern({ ...rule, pattern: directory }, rule.line), rule });
      const other = this.alsoSpelled?.(canonicalizePath(rule.pattern));
      // The same rule (it reports the rule as written), ranked by its own length (above).
      if (other !== undefined) others.push({ ...compilePattern({ ...rule, pattern: other }, rule.line), rule });
    }
    const budget = this.budget;
    if (others.length === 0) return { every: new RuleTree(written, budget), asWritten: undefined };
    return { every: new RuleTree([...written, ...others], budget), asWritten: new RuleTree(written, budget) };
  }
}

function newGroupIndex(group: AppliedGroup, shared: SharedGroups): GroupIndex {
  return {
    group,
    shared,
    robotsTxt: Object.freeze({ allowed: true, reason: "robots-txt", group }),
    noMatch: Object.freeze({ allowed: true, reason: "no-matching-rule", group }),
    decisions: undefined,
    used: 0,
  };
}

/** The best winner of the trees (as written: `asWritten`, else `every`) on url[start]; null: unsure. */
function bestInPlace(
  all: readonly GroupTrees[],
  asWritten: boolean,
  url: string,
  start: number,
): DecidingPattern | undefined | null {
  let best: DecidingPattern | undefined;
  for (const trees of all) {
    const tree = asWritten ? (trees.asWritten ?? trees.every) : trees.every;
    const winner = tree.findInPlace(url, start);
    if (winner === null) return null;
    if (winner && outranks(winner, best)) best = winner;
  }
  return best;
}

/** The best winner of the trees on the canonical path `text[start, end)`. */
function bestIn(
  all: readonly GroupTrees[],
  asWritten: boolean,
  text: string,
  start: number,
  end: number,
): DecidingPattern | undefined {
  let best: DecidingPattern | undefined;
  for (const trees of all) {
    const tree = asWritten ? (trees.asWritten ?? trees.every) : trees.every;
    const winner = tree.findIn(text, start, end);
    if (winner && outranks(winner, best)) best = winner;
  }
  return best;
}

/** Whether some rule of the trees has another spelling (then the written reading is asked too). */
function anyAsWritten(all: readonly GroupTrees[]): boolean {
  for (const trees of all) if (trees.asWritten) return true;
  return false;
}

/** What a list of rules costs in a tree: its rules and their pattern characters. */
function treeCost(rules: readonly Rule[]): number {
  let cost = rules.length;
  for (const rule of rules) cost += rule.pattern.length;
  return cost;
}

/**
 * A token's group: its own name and lines, and its set's view. Its rules are read through the
 * view on each read (an own, enumerable getter, so copies and comparisons see them).
 */
function appliedGroup(token: string, agentLines: readonly number[], view: MergedView): AppliedGroup {
  return {
    token,
    agentLines,
    get rules() {
      return view.rules;
    },
    extensions: view.extensions,
  };
}

/** Compile a parsed file for matching. */
export function compileRobots(robots: RobotsTxt, options?: MatcherOptions): RobotsMatcher {
  return new RobotsMatcher(robots, options);
}

const ROBOTS_TXT = "/robots.txt";

/**
 * In place: is the path at `url[start]` /robots.txt, with or without a query? Undefined when
 * only its canonical spelling can tell (`/robots%2Etxt`). Once the URL differs from
 * `/robots.txt` at a character canonicalizePath keeps, its canonical path differs there too;
 * and a rewritten character after it never becomes a `?` or the end.
 */
function isRobotsTxtInPlace(url: string, start: number): boolean | undefined {
  // Reads stay inside the URL: an index past its end would give NaN and slow every caller.
  const length = Math.min(ROBOTS_TXT.length, url.length - start);
  for (let i = 0; i < length; i++) {
    const code = url.charCodeAt(start + i);
    if (code !== ROBOTS_TXT.charCodeAt(i)) return isRewritten(code) ? undefined : false;
  }
  if (length < ROBOTS_TXT.length) return false;
  // The path ends here, or a query follows (`?`), or the fragment (`#`).
  const after = start + ROBOTS_TXT.length;
  return after === url.length || url.charCodeAt(after) === 0x3f || url.charCodeAt(after) === 0x23;
}

/** Is `text[start, end)` the path /robots.txt, with or without a query? */
function isRobotsTxt(text: string, start: number, end: number): boolean {
  const after = start + ROBOTS_TXT.length;
  return after <= end && text.startsWith(ROBOTS_TXT, start) && (after === end || text.charCodeAt(after) === 0x3f);
}

/** Google: `allow: /dir/index.htm…` also allows `/dir/$`. */
function indexHtmlDirectory(rule: Rule): string | undefined {
  if (rule.kind !== "allow") return undefined;
  const slash = rule.pattern.lastIndexOf("/");
  if (slash < 0 || !rule.pattern.startsWith("/index.htm", slash)) return undefined;
  return `${rule.pattern.slice(0, slash + 1)}$`;
}

/** For each token, the indexes of the groups naming it, in file order (once per naming). */
function groupsNaming(robots: RobotsTxt): Map<string, number | number[]> {
  const named = new Map<string, number | number[]>();
  robots.groups.forEach((group, index) => {
    for (const token of group.agents) {
      const known = named.get(token);
      if (known === undefined) named.set(token, index);
      else if (typeof known === "number") named.set(token, [known, index]);
      else known.push(index);
    }
  });
  return named;
}

/**
 * What the tokens every group of `indexes` names obey: a view of those groups' rules and
 * extensions, in file order (merged-group.ts). Its references: the groups it is answered from.
 */
function sharedGroups(
  key: string,
  indexes: readonly number[],
  groups: readonly Group[],
  kept: KeptLists,
): SharedGroups {
  const view = mergedView(key, groups, kept);
  const cost = indexes.length === 1 ? 1 : 1 + indexes.length;
  return { key, indexes, view, cost, refs: 1, trees: undefined };
}

/**
 * The line numbers of a group's user-agent lines, by each token they name, in file order; in
 * one pass (filtering every line once per token was minutes of CPU for 500 KiB of one-line
 * groups). The parser's rule (product-token.ts), so a line is listed exactly where it was
 * grouped: `*foo` names no group, not the `*` group; `MJ12bot` is listed under mj12bot and mj.
 */
function agentLinesByToken(lines: readonly { value: string; line: number }[]): Map<string, number[]> {
  const byToken = new Map<string, number[]>();
  for (const { value, line } of lines) {
    for (const name of userAgentNames(value)) {
      const named = byToken.get(name);
      if (named) named.push(line);
      else byToken.set(name, [line]);
    }
  }
  return byToken;
}
