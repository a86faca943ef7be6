/**
 * One budget for the isolate's robots.txt memories: the robots.txt memory (robots/cache.ts
 * `memory`), its unsaved entries (`unsaved`, whose KV write failed) and the store's last good
 * values (store.ts `lastGood`). Each had a bound of its own (64 + 64 + 32 MiB: 160 MiB against a
 * 128 MB isolate), so a tenant under a `*.` AUTHORITIES pattern, who controls its robots.txt, or
 * a few of them, could fill all three and take the isolate down. Now their weights are one sum
 * (IsolateMemory's `budget`), held to ROBOTS_MEMORY_BUDGET_BYTES.
 *
 * ROBOTS_MEMORY_BUDGET_BYTES, 64 MiB of the 128 MB: what the robots.txt memory alone was held to,
 * and measured at (bench/robots-memory.bench.ts: the worst shapes' heap stays far under 128 MB;
 * bench/whole-request.bench.ts: 1,000 hosts of ordinary files, ~36 KB weighed each, stay warm,
 * 2-4 KV reads in 630,000 requests, where 32 MiB read KV 76,279 times). The other two memories
 * add little in steady state: a last good value weighs its text only (a few KB for an ordinary
 * file), and an unsaved entry exists only while KV refuses writes. A value two memories hold
 * (the same entry, remembered and unsaved) is counted in each: the sum errs on the upper side.
 * The rest of the isolate (code, policies, crawler lists, requests in flight) keeps the other half.
 *
 * Eviction, when the sum is over: the least recently used entry across `memory` and `lastGood`
 * goes first (one global LRU: each entry carries the budget's use stamp; each memory's oldest is
 * the first of its Map, so a choice costs one look per memory). Both are copies of what KV holds:
 * losing one costs a KV read. `unsaved` entries go only when those two hold nothing more
 * (`precious`): each is the only copy of a fetched file whose KV write failed, and losing it costs
 * an origin fetch and another failing write.
 *
 * ROBOTS_ENTRY_MAX_BYTES, a third of the budget (21.3 MiB): one entry whose compiled matcher is
 * estimated over it is not built (robots/capped-matcher.ts), so no one file outweighs the budget
 * (the value just set is never dropped to make room), and two files at the cap still leave a
 * third of it to every other host. It was three quarters (48 MiB), to admit plain files filling
 * the 500 KiB parse limit with short rules (11,000 rules of ~40 characters in two groups of three
 * user-agents: 37.7 MiB; ~34,000 of ~16 characters in one group: 47.2 MiB); but two files over
 * half the budget can never be held together, so a client asking `a.` and `b.` of one `*.`
 * AUTHORITIES pattern in turn made each load drop the other: every request a 500 KiB KV read, a
 * parse (36-111 ms) and a compile (25-156 ms), and every other tenant pushed out (attack 13,
 * A13-3). Over the cap a site's crawlers get 503s, so it must stay clear of what real sites
 * serve: the largest of the 237 corpus files, www.xuexi.cn's (test/fixtures/corpus/robots/
 * 0297.txt, one group of ~6,600 long Allow lines in its first 500 KiB), is estimated at 15.1 MiB,
 * then SmugMug's (0062.txt) at 10.4 MiB. The synthetic 500 KiB files of short rules above are now
 * over it (robots.txt unavailable, named in GET status with its repair): the price of the bound.
 * Four or more tenant files near the cap asked in turn still exceed the budget together: what
 * bounds that is the new-host budget of `*.` patterns (robots/cache.ts NEW_PATTERN_ENTRIES).
 * What bounds memory is the budget: the least recently used make room for a large file.
 */

/** The robots.txt memories' weights together: see above. */
export const ROBOTS_MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;
/** The most one robots.txt's compiled matcher may be estimated at (compiledMatcherBytes). */
export const ROBOTS_ENTRY_MAX_BYTES = Math.floor(ROBOTS_MEMORY_BUDGET_BYTES / 3);

/** What the budget asks of a memory that draws on it. */
export interface BudgetMember {
  /** The use stamp of its least recently used entry other than `except`; undefined: nothing to drop. */
  oldestStamp(except: unknown): number | undefined;
  /** Drop its least recently used entry other than `except`. */
  dropOldest(except: unknown): void;
  readonly precious: boolean;
}

/** A weight shared by several memories, and the use stamps that order their entries together. */
export class MemoryBudget {
  readonly maxWeight: number;
  private weight = 0;
  private stamps = 0;
  private readonly members: BudgetMember[] = [];

  constructor(maxWeight: number) {
    this.maxWeight = maxWeight;
  }

  join(member: BudgetMember): void {
    this.members.push(member);
  }

  /** A stamp newer than every one before: an entry used now. */
  stamp(): number {
    return ++this.stamps;
  }

  add(weight: number): void {
    this.weight += weight;
  }

  /** Drop the least recently used entries (never `except`, the entry just set) while the sum is over. */
  shed(except: { member: BudgetMember; key: unknown }): void {
    while (this.weight > this.maxWeight) {
      const victim = this.oldest(except, false) ?? this.oldest(except, true);
      if (!victim) return;
      victim.dropOldest(victim === except.member ? except.key : undefined);
    }
  }

  private oldest(except: { member: BudgetMember; key: unknown }, precious: boolean): BudgetMember | undefined {
    let found: { member: BudgetMember; stamp: number } | undefined;
    for (const member of this.members) {
      if (member.precious !== precious) continue;
      const stamp = member.oldestStamp(member === except.member ? except.key : undefined);
      if (stamp !== undefined && (!found || stamp < found.stamp)) found = { member, stamp };
    }
    return found?.member;
  }

  /** What the members' values weigh together. */
  get totalWeight(): number {
    return this.weight;
  }
}

/** The one budget of the robots.txt memories (robots/cache.ts, store.ts). */
export const robotsMemoryBudget = new MemoryBudget(ROBOTS_MEMORY_BUDGET_BYTES);
