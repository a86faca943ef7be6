/**
 * The rules and extensions of a set of groups (RFC 9309 §2.2.1: groups naming the same token are
 * merged), as a view over the groups' own lists rather than a copy of them.
 *
 * A copy was O(file) for every set made: 8 sets of 7 groups over 500 KiB of records are ~7 times
 * the file, the matcher's bound holds ~2, so tokens of the 8 sets asked in turn copied 112,000
 * references on every request (18 ms), and a spread `push(...list)` of 128,000 records threw
 * (RangeError: the call stack). Deciding reads none of these lists (the trees do), so a view costs
 * O(groups) to make; a list is made only when something reads it (the edge's rate limits and
 * usage lines, explain, the admin pages):
 *   - when at most one of the groups has entries, it is that group's own list, no copy (and the
 *     same array every time, so what callers key on it, crawl-rate.ts's WeakMap, keeps hitting);
 *   - else the concatenation, which the matcher keeps while it fits its bound (KeptLists) and
 *     makes again for each read past it: never held uncounted.
 */

import type { Group, GroupExtensions, Rule } from "./model.ts";

/** The lists a set of groups concatenates, in file order. */
export type ListName = "rules" | "requestRates" | "comments" | "usage" | "others";

/** Where merged lists are kept while they fit (RobotsMatcher): the kept one, or `make()`'s. */
export interface KeptLists {
  list<T>(key: string, length: number, make: () => readonly T[]): readonly T[];
}

/** What every token of one set of groups obeys: its rules and extensions, read on demand. */
export interface MergedView {
  readonly rules: readonly Rule[];
  readonly extensions: GroupExtensions;
}

/**
 * The view of the groups `groups` (file order; `key` names the set). A lone group is its own
 * view. Single-valued records are the first group's that has one (Google: the first
 * crawl-delay), read now (O(groups)); lists on each read.
 */
export function mergedView(key: string, groups: readonly Group[], kept: KeptLists): MergedView {
  const only = groups.length === 1 ? groups[0] : undefined;
  if (only) return { rules: only.rules, extensions: only.extensions };
  const list = <T>(name: ListName, pick: (group: Group) => readonly T[]) =>
    concatenated(`${name}:${key}`, groups, pick, kept);
  const extensions: GroupExtensions = {
    crawlDelay: firstOf(groups, (group) => group.extensions.crawlDelay),
    visitTime: firstOf(groups, (group) => group.extensions.visitTime),
    robotVersion: firstOf(groups, (group) => group.extensions.robotVersion),
    get requestRates() {
      return list("requestRates", (group) => group.extensions.requestRates);
    },
    get comments() {
      return list("comments", (group) => group.extensions.comments);
    },
    get usage() {
      return list("usage", (group) => group.extensions.usage);
    },
    get others() {
      return list("others", (group) => group.extensions.others);
    },
  };
  return {
    get rules() {
      return list("rules", (group) => group.rules);
    },
    extensions,
  };
}

/** The rules of `groups` in file order, copied (the merged trees are built from them once). */
export function rulesOf(groups: readonly Group[]): Rule[] {
  return concatenation(groups, (group) => group.rules);
}

function firstOf<T>(groups: readonly Group[], pick: (group: Group) => T | undefined): T | undefined {
  for (const group of groups) {
    const value = pick(group);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The groups' lists end to end: the one list with entries itself, else a copy (kept while it fits). */
function concatenated<T>(
  key: string,
  groups: readonly Group[],
  pick: (group: Group) => readonly T[],
  kept: KeptLists,
): readonly T[] {
  let filled: readonly T[] | undefined;
  let length = 0;
  let lists = 0;
  for (const group of groups) {
    const list = pick(group);
    if (list.length === 0) continue;
    filled = list;
    length += list.length;
    lists++;
  }
  if (lists === 0) return groups[0] ? pick(groups[0]) : [];
  if (lists === 1 && filled) return filled;
  return kept.list(key, length, () => concatenation(groups, pick));
}

/** A loop, not `push(...list)`: a spread of a file-sized list overflows the call stack. */
function concatenation<T>(groups: readonly Group[], pick: (group: Group) => readonly T[]): T[] {
  const all: T[] = [];
  for (const group of groups) for (const item of pick(group)) all.push(item);
  return all;
}
