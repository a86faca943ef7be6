/**
 * What one isolate remembers between requests, bounded in size and in age: the stored
 * robots.txt per origin, the crawl pause, the crawler IP ranges. Least recently used entries
 * go first once `maxEntries` is reached (a Map keeps insertion order; a hit re-inserts), so a
 * stream of new Host headers cannot grow memory without limit. An entry older than
 * `maxAgeMs` is not returned: the caller re-reads KV to see what other isolates stored.
 */

export interface IsolateMemoryOptions {
  readonly maxEntries: number;
  /** How long a remembered value answers without a re-read. */
  readonly maxAgeMs: number;
}

/** A bounded LRU of values with the time each was remembered. */
export class IsolateMemory<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly at: number }>();
  private readonly options: IsolateMemoryOptions;

  constructor(options: IsolateMemoryOptions) {
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
    this.entries.delete(key);
    this.entries.set(key, { value, at: now });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
