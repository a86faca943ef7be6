/**
 * What one isolate remembers between requests, bounded in size and in age: the stored
 * robots.txt per origin, the crawl pause, the crawler IP ranges. Least recently used entries
 * go first once `maxEntries` is reached (a Map keeps insertion order; a hit re-inserts), so a
 * stream of new Host headers cannot grow memory without limit. With `weigh`, the values'
 * weights together stay within `maxWeight` too (the newest value is kept whatever it weighs): a
 * count alone bounds memory only when every value is small. An entry older than `maxAgeMs` is
 * not returned: the caller re-reads KV to see what other isolates stored.
 */

export interface IsolateMemoryOptions<V = unknown> {
  readonly maxEntries: number;
  /** How long a remembered value answers without a re-read. */
  readonly maxAgeMs: number;
  /** What a value weighs (e.g. the bytes it holds), for `maxWeight`. */
  readonly weigh?: (value: V) => number;
  readonly maxWeight?: number;
}

/** A bounded LRU of values with the time each was remembered. */
export class IsolateMemory<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly at: number; readonly weight: number }>();
  private readonly options: IsolateMemoryOptions<V>;
  private weight = 0;

  constructor(options: IsolateMemoryOptions<V>) {
    if (!(options.maxEntries >= 1)) throw new RangeError(`maxEntries must be at least 1, got ${options.maxEntries}`);
    this.options = options;
  }

  /** The value remembered for `key` if younger than maxAgeMs at `now`. */
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || now - entry.at >= this.options.maxAgeMs) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
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
    this.entries.set(key, { value, at: now, weight });
    this.weight += weight;
    this.dropBeyondBounds();
  }

  /**
   * Weigh `key`'s value again, when it is still `value`: it grew after it was remembered (a
   * robots.txt's matcher, compiled on first use). The least recently used go beyond the bound.
   */
  reweigh(key: K, value: V): void {
    const entry = this.entries.get(key);
    if (!entry || entry.value !== value) return;
    const weight = this.options.weigh?.(value) ?? 0;
    this.weight += weight - entry.weight;
    this.entries.set(key, { ...entry, weight }); // a Map keeps a key's place when it is set again
    this.dropBeyondBounds();
  }

  private dropBeyondBounds(): void {
    const maxWeight = this.options.maxWeight ?? Infinity;
    while (this.entries.size > this.options.maxEntries || (this.weight > maxWeight && this.entries.size > 1)) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.weight -= this.entries.get(key)?.weight ?? 0;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  /** What the values weigh together (`weigh`; 0 without one). */
  get totalWeight(): number {
    return this.weight;
  }

  get size(): number {
    return this.entries.size;
  }
}
