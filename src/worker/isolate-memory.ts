/**
 * What one isolate remembers between requests, bounded in size and in age: the stored
 * robots.txt per origin, the crawl pause, the crawler IP ranges. Least recently used entries
 * go first once `maxEntries` is reached (a Map keeps insertion order; a hit re-inserts), so a
 * stream of new Host headers cannot grow memory without limit. With `weigh` and `budget`, the
 * values' weights count in a budget shared with other memories (memory-budget.ts: the robots.txt
 * memories draw on one), which drops the least recently used across them while the sum is over
 * (never the value just set: memory-budget.ts caps what one may weigh): a count alone bounds
 * memory only when every value is small. An entry older than `maxAgeMs` is not returned: the
 * caller re-reads KV to see what other isolates stored.
 */

import type { BudgetMember, MemoryBudget } from "./memory-budget.ts";

export interface IsolateMemoryOptions<V = unknown> {
  readonly maxEntries: number;
  /** How long a remembered value answers without a re-read. */
  readonly maxAgeMs: number;
  /** What a value weighs (e.g. the bytes it holds), counted in `budget`. */
  readonly weigh?: (value: V) => number;
  /** The budget the weights count in (memory-budget.ts); without one, weights are only counted. */
  readonly budget?: MemoryBudget;
  /** Dropped only when the budget's other memories hold nothing more (memory-budget.ts). */
  readonly precious?: boolean;
}

/** A bounded LRU of values with the time each was remembered. */
export class IsolateMemory<K, V> implements BudgetMember {
  private readonly entries = new Map<
    K,
    { readonly value: V; readonly at: number; readonly weight: number; readonly stamp: number }
  >();
  private readonly options: IsolateMemoryOptions<V>;
  private weight = 0;
  readonly precious: boolean;

  constructor(options: IsolateMemoryOptions<V>) {
    if (!(options.maxEntries >= 1)) throw new RangeError(`maxEntries must be at least 1, got ${options.maxEntries}`);
    this.options = options;
    this.precious = options.precious ?? false;
    options.budget?.join(this);
  }

  /** The value remembered for `key` if younger than maxAgeMs at `now`. */
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || now - entry.at >= this.options.maxAgeMs) return undefined;
    this.entries.delete(key);
    this.entries.set(key, { ...entry, stamp: this.stamp() });
    return entry.value;
  }

  /** The value remembered for `key`, however old (a last resort: nothing is re-read). */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Remember `value` for `key` as of `now`, dropping the least recently used beyond the bound. */
  set(key: K, value: V, now: number): void {
    this.delete(key);
    const weight = this.options.weigh?.(value) ?? 0;
    this.entries.set(key, { value, at: now, weight, stamp: this.stamp() });
    this.addWeight(weight);
    this.dropBeyondBounds(key);
  }

  /**
   * Weigh `key`'s value again, when it is still `value`: it grew after it was remembered (a
   * robots.txt's matcher, compiled on first use). The least recently used go beyond the bound.
   */
  reweigh(key: K, value: V): void {
    const entry = this.entries.get(key);
    if (!entry || entry.value !== value) return;
    const weight = this.options.weigh?.(value) ?? 0;
    this.addWeight(weight - entry.weight);
    this.entries.set(key, { ...entry, weight }); // a Map keeps a key's place when it is set again
    this.dropBeyondBounds(key);
  }

  private dropBeyondBounds(kept: K): void {
    while (this.entries.size > this.options.maxEntries) this.dropOldest(kept);
    this.options.budget?.shed({ member: this, key: kept });
  }

  private stamp(): number {
    return this.options.budget?.stamp() ?? 0;
  }

  private addWeight(weight: number): void {
    this.weight += weight;
    this.options.budget?.add(weight);
  }

  /** The least recently used key other than `except` (a Map keeps the order of use: a hit re-inserts). */
  private oldestKey(except: unknown): K | undefined {
    for (const key of this.entries.keys()) if (key !== except) return key;
    return undefined;
  }

  /** The use stamp of the least recently used entry other than `except` (memory-budget.ts). */
  oldestStamp(except: unknown): number | undefined {
    const key = this.oldestKey(except);
    return key === undefined ? undefined : this.entries.get(key)?.stamp;
  }

  /** Drop the least recently used entry other than `except` (memory-budget.ts). */
  dropOldest(except: unknown): void {
    const key = this.oldestKey(except);
    if (key !== undefined) this.delete(key);
  }

  delete(key: K): void {
    this.addWeight(-(this.entries.get(key)?.weight ?? 0));
    this.entries.delete(key);
  }

  clear(): void {
    this.addWeight(-this.weight);
    this.entries.clear();
  }

  /** What the values weigh together (`weigh`; 0 without one). */
  get totalWeight(): number {
    return this.weight;
  }

  get size(): number {
    return this.entries.size;
  }
}
