/**
 * Which verified signatures were already used, so a reuse can be answered 429
 * (draft-ietf-webbotauth-httpsig-protocol-01 §4.4; RFC 9421 §7.2.2). Pure: the caller keeps
 * one per isolate and passes the clock.
 *
 * Each use is remembered until its signature expires (plus the clock skew): after that the
 * verifier refuses the signature anyway. Memory is bounded: at most `capacity` uses (each key
 * is bounded by verify.ts: signer URL plus a SHA-256 of the nonce, or of the signature and target);
 * when full, the oldest use is forgotten first, so a flood of fresh signatures can make the
 * memory miss an old reuse but never grow it. What per-isolate memory cannot see is said in
 * docs/decisions.md ("Web Bot Auth").
 */

export const DEFAULT_REUSE_CAPACITY = 10_000;
/** Expired entries swept per remembered use: keeps the sweep O(1) per request. */
const SWEEP_PER_USE = 4;

export class ReuseMemory {
  private readonly capacity: number;
  /** reuse key -> when it may be forgotten (ms); insertion order is age order. */
  private readonly uses = new Map<string, number>();

  constructor(capacity = DEFAULT_REUSE_CAPACITY) {
    this.capacity = capacity;
  }

  /** Records a use; true when the same key was used before and its signature is still valid. */
  used(key: string, forgetAtMs: number, nowMs: number): boolean {
    const known = this.uses.get(key);
    if (known !== undefined && known > nowMs) return true;
    this.sweep(nowMs);
    this.uses.delete(key);
    if (this.uses.size >= this.capacity) this.forgetOldest();
    this.uses.set(key, forgetAtMs);
    return false;
  }

  get size(): number {
    return this.uses.size;
  }

  clear(): void {
    this.uses.clear();
  }

  private sweep(nowMs: number): void {
    let checked = 0;
    for (const [key, forgetAt] of this.uses) {
      if (checked++ >= SWEEP_PER_USE) return;
      if (forgetAt <= nowMs) this.uses.delete(key);
    }
  }

  private forgetOldest(): void {
    const oldest = this.uses.keys().next();
    if (!oldest.done) this.uses.delete(oldest.value);
  }
}
