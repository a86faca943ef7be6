/**
 * Published crawler ranges compiled into one structure that answers, for any address, which
 * crawler-only list holds it (issue 24, "crawlers in disguise"). The check runs on every
 * browser request, so it must cost well under a microsecond: CIDRs become disjoint, sorted
 * intervals of 32-bit words in typed arrays (IPv4: one word, IPv6: four), and a lookup is
 * one parse of the address and one binary search — O(log n), no allocation beyond the parse.
 *
 * Compiled once per load of the lists (worker/identity/disguised.ts), never per request.
 * Do no harm is built in: an address that is ALSO in a mixed list (one a person's fetch may
 * come from, range-uses.ts), or in two operators' crawler-only lists, belongs to nobody, so
 * such stretches are dropped at compile time.
 *
 * Addresses are read strictly in the forms Cloudflare writes into CF-Connecting-IP: dotted
 * decimal IPv4, IPv6 hex groups with at most one `::` (and an optional dotted tail). An
 * IPv4-mapped IPv6 address (::ffff:a.b.c.d) is looked up as its IPv4 address. Anything else
 * is no address (not found).
 */

import ipaddr from "ipaddr.js";

/** One list to compile: its name, its CIDRs, and whether it is crawler-only (else it excludes). */
export interface RangeListInput {
  readonly name: string;
  readonly cidrs: readonly string[];
  readonly crawlerOnly: boolean;
}

/** The compiled lists: which crawler-only list holds an address, if exactly one does and no mixed one. */
export interface AddressIndex {
  /** The name of the crawler-only list holding the address, or undefined. */
  lookup(address: string): string | undefined;
  /** Disjoint intervals kept (IPv4 and IPv6). */
  readonly intervals: number;
  /** Bytes held by the typed arrays and the names: the structure's memory. */
  readonly bytes: number;
}

/** Compile lists into one AddressIndex (see the file comment). Invalid CIDRs are skipped. */
export function compileAddressIndex(lists: readonly RangeListInput[]): AddressIndex {
  const names = [...new Set(lists.filter((list) => list.crawlerOnly).map((list) => list.name))];
  const v4: Interval[] = [];
  const v6: Interval[] = [];
  for (const list of lists) {
    const owner = list.crawlerOnly ? names.indexOf(list.name) : MIXED;
    for (const cidr of list.cidrs) {
      const interval = intervalOf(cidr, owner);
      if (interval) (interval.family === 4 ? v4 : v6).push(interval);
    }
  }
  return new CompiledIndex(names, disjoint(v4), disjoint(v6));
}

const MIXED = -1;

interface Interval {
  readonly family: 4 | 6;
  readonly start: bigint;
  /** Inclusive. */
  readonly end: bigint;
  /** Index into the crawler-only names, or MIXED. */
  readonly owner: number;
}

function intervalOf(cidr: string, owner: number): Interval | undefined {
  let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    parsed = ipaddr.parseCIDR(cidr);
  } catch {
    return undefined;
  }
  const [address, bits] = parsed;
  const width = address.kind() === "ipv4" ? 32 : 128;
  const value = address.toByteArray().reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
  const size = 1n << BigInt(width - bits);
  const start = value - (value % size);
  return { family: width === 32 ? 4 : 6, start, end: start + size - 1n, owner };
}

/** An owned stretch of addresses after the sweep: exactly one crawler-only owner, no mixed list. */
interface Segment {
  readonly start: bigint;
  end: bigint;
  readonly owner: number;
}

/**
 * Sweep the intervals' edges in address order, keeping how many intervals of each owner cover
 * the stretch between two edges; a stretch is kept when exactly one crawler-only owner and no
 * mixed list covers it. Adjacent stretches of the same owner merge. O(n log n) in the CIDRs.
 */
function disjoint(intervals: readonly Interval[]): Segment[] {
  const edges = intervals.flatMap((interval) => [
    { at: interval.start, delta: 1, owner: interval.owner },
    { at: interval.end + 1n, delta: -1, owner: interval.owner },
  ]);
  edges.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const covering = new Map<number, number>();
  const segments: Segment[] = [];
  for (let i = 0; i < edges.length;) {
    const at = edges[i]?.at ?? 0n;
    for (; i < edges.length && edges[i]?.at === at; i++) {
      const edge = edges[i];
      if (!edge) continue;
      const count = (covering.get(edge.owner) ?? 0) + edge.delta;
      if (count === 0) covering.delete(edge.owner);
      else covering.set(edge.owner, count);
    }
    const next = edges[i]?.at;
    const [owner] = covering.keys();
    if (next === undefined || covering.size !== 1 || owner === undefined || owner === MIXED) continue;
    const last = segments.at(-1);
    if (last && last.owner === owner && last.end + 1n === at) last.end = next - 1n;
    else segments.push({ start: at, end: next - 1n, owner });
  }
  return segments;
}

const WORDS_V6 = 4;

class CompiledIndex implements AddressIndex {
  private readonly names: readonly string[];
  private readonly v4Starts: Uint32Array;
  private readonly v4Ends: Uint32Array;
  private readonly v4Owners: Uint8Array;
  /** Four words per interval, most significant first. */
  private readonly v6Starts: Uint32Array;
  private readonly v6Ends: Uint32Array;
  private readonly v6Owners: Uint8Array;
  /** The parsed address, reused by every lookup (one isolate runs one request's code at a time). */
  private readonly words = new Uint32Array(WORDS_V6);
  readonly intervals: number;
  readonly bytes: number;

  constructor(names: readonly string[], v4: readonly Segment[], v6: readonly Segment[]) {
    if (names.length > 255) throw new RangeError("at most 255 crawler-only lists can be compiled");
    this.names = names;
    this.v4Starts = Uint32Array.from(v4, (segment) => Number(segment.start));
    this.v4Ends = Uint32Array.from(v4, (segment) => Number(segment.end));
    this.v4Owners = Uint8Array.from(v4, (segment) => segment.owner);
    this.v6Starts = new Uint32Array(v6.length * WORDS_V6);
    this.v6Ends = new Uint32Array(v6.length * WORDS_V6);
    this.v6Owners = Uint8Array.from(v6, (segment) => segment.owner);
    v6.forEach((segment, i) => {
      writeWords(this.v6Starts, i * WORDS_V6, segment.start);
      writeWords(this.v6Ends, i * WORDS_V6, segment.end);
    });
    this.intervals = v4.length + v6.length;
    const arrays = [this.v4Starts, this.v4Ends, this.v4Owners, this.v6Starts, this.v6Ends, this.v6Owners];
    this.bytes =
      arrays.reduce((sum, array) => sum + array.byteLength, 0) + names.reduce((sum, name) => sum + 2 * name.length, 0);
  }

  lookup(address: string): string | undefined {
    const words = this.words;
    if (address.includes(":")) {
      if (!parseIPv6(address, words)) return undefined;
      // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address it carries.
      if (words[0] === 0 && words[1] === 0 && words[2] === 0xffff) return this.lookupV4(words[3] ?? 0);
      return this.lookupV6(words);
    }
    const v4 = parseIPv4(address);
    return v4 === undefined ? undefined : this.lookupV4(v4);
  }

  /** The last interval starting at or before the address; found if it ends at or after it. */
  private lookupV4(value: number): string | undefined {
    const starts = this.v4Starts;
    let low = 0;
    let high = starts.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if ((starts[middle] ?? 0) <= value) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found < 0 || (this.v4Ends[found] ?? 0) < value) return undefined;
    return this.names[this.v4Owners[found] ?? 0];
  }

  private lookupV6(words: Uint32Array): string | undefined {
    let low = 0;
    let high = this.v6Owners.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (compareWords(this.v6Starts, middle * WORDS_V6, words) <= 0) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found < 0 || compareWords(this.v6Ends, found * WORDS_V6, words) < 0) return undefined;
    return this.names[this.v6Owners[found] ?? 0];
  }
}

function writeWords(target: Uint32Array, offset: number, value: bigint): void {
  for (let word = 0; word < WORDS_V6; word++) {
    target[offset + word] = Number((value >> BigInt(32 * (WORDS_V6 - 1 - word))) & 0xffffffffn);
  }
}

/** Sign of (stored interval edge at `offset`) - (address). */
function compareWords(stored: Uint32Array, offset: number, address: Uint32Array): number {
  for (let word = 0; word < WORDS_V6; word++) {
    const difference = (stored[offset + word] ?? 0) - (address[word] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Dotted decimal, four parts of 1–3 digits each up to 255; undefined otherwise. */
export function parseIPv4(text: string): number | undefined {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46; // a final "." closes the last part
    if (code === 46) {
      if (digits === 0 || part > 255) return undefined;
      value = value * 256 + part;
      parts++;
      part = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57 && digits < 3) {
      part = part * 10 + (code - 48);
      digits++;
    } else {
      return undefined;
    }
  }
  return parts === 4 ? value : undefined;
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/**
 * IPv6 text into four 32-bit words (most significant first); false when it is not one. Hex
 * groups of 1–4 digits, at most one `::`, an optional dotted IPv4 tail; no zone (`%eth0`).
 */
export function parseIPv6(text: string, words: Uint32Array): boolean {
  const gap = text.indexOf("::");
  if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) return false;
  const head = gap < 0 ? text : text.slice(0, gap);
  const tail = gap < 0 ? "" : text.slice(gap + 2);
  const before = head === "" ? [] : head.split(":");
  const after = tail === "" ? [] : tail.split(":");
  const groups = groupsOf(gap < 0 ? before : after);
  if (!groups) return false;
  const leading = gap < 0 ? [] : groupsOf(before, false);
  if (!leading) return false;
  const count = leading.length + groups.length;
  if (gap < 0 ? count !== 8 : count > 7) return false;
  const all = [...leading, ...Array<number>(8 - count).fill(0), ...groups];
  for (let word = 0; word < WORDS_V6; word++) {
    words[word] = (((all[2 * word] ?? 0) << 16) | (all[2 * word + 1] ?? 0)) >>> 0;
  }
  return true;
}

/** Hex groups as numbers; the last may be a dotted IPv4 address (two groups) when allowed. */
function groupsOf(parts: readonly string[], dottedTail = true): number[] | undefined {
  const groups: number[] = [];
  for (const [i, part] of parts.entries()) {
    if (dottedTail && i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIPv4(part);
      if (v4 === undefined) return undefined;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (HEX_GROUP.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}
