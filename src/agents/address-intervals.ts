/**
 * Published crawler ranges compiled into one structure that answers, for any address, which
 * crawler-only list holds it ("crawlers in disguise"). The check runs on every
 * browser request, so it must cost well under a microsecond: CIDRs become disjoint, sorted
 * intervals of 32-bit words in typed arrays (IPv4: one word, IPv6: four), and a lookup is
 * one parse of the address and one binary search — O(log n), no allocation beyond the parse.
 *
 * Compiled once per load of the lists (worker/identity/disguised.ts), never per request.
 * Do no harm is built in: an address that is ALSO in a mixed list (one a person's fetch may
 * come from, an operator's address list: src/agents/operators/), or in two operators' crawler-only lists, belongs to nobody, so
 * such stretches are dropped at compile time.
 *
 * Addresses are read strictly in the forms Cloudflare writes into CF-Connecting-IP: dotted
 * decimal IPv4, IPv6 hex groups with at most one `::` (and an optional dotted tail). An
 * IPv4-mapped IPv6 address (::ffff:a.b.c.d) is looked up as its IPv4 address. Anything else
 * is no address (not found).
 */

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
  const v4 = new Edges(1);
  const v6 = new Edges(WORDS_V6);
  const scratch = new Uint32Array(WORDS_V6);
  for (const list of lists) {
    const owner = list.crawlerOnly ? names.indexOf(list.name) : MIXED;
    for (const cidr of list.cidrs) {
      const bits = parseCidr(cidr, scratch);
      if (bits === undefined) continue;
      if (bits.family === 4) v4.addCidr(scratch, bits.length, owner);
      else v6.addCidr(scratch, bits.length, owner);
    }
  }
  return new CompiledIndex(names, v4.disjoint(names.length), v6.disjoint(names.length));
}

const MIXED = -1;
const PREFIX_LENGTH = /^\d{1,3}$/;

function grow<T extends Uint32Array | Int8Array | Int16Array | Uint8Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(length);
  bigger.set(array);
  return bigger;
}

/** `address/bits` into `words` (IPv4: words[0]); its family and prefix length, or undefined. */
function parseCidr(cidr: string, words: Uint32Array): { family: 4 | 6; length: number } | undefined {
  const slash = cidr.indexOf("/");
  const bitsText = slash < 0 ? "" : cidr.slice(slash + 1);
  if (!PREFIX_LENGTH.test(bitsText)) return undefined;
  const length = Number(bitsText);
  const address = cidr.slice(0, slash);
  if (address.includes(":")) return parseIPv6(address, words) && length <= 128 ? { family: 6, length } : undefined;
  const v4 = parseIPv4(address);
  if (v4 === undefined || length > 32) return undefined;
  words[0] = v4;
  return { family: 4, length };
}

/** The compiled stretches of one family: words per stretch (start, end inclusive) and owners. */
interface Stretches {
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly owners: Uint8Array;
}

/**
 * One family's interval edges, in typed arrays (no object per CIDR: a list at its bound,
 * MAX_RANGE_PREFIXES per list, must compile in a Worker's CPU budget). Each CIDR adds an edge
 * at its first address (+1 for its owner) and one just past its last (-1); past the family's
 * last address is flagged rather than written.
 */
class Edges {
  private readonly width: number;
  private words: Uint32Array;
  private deltas: Int8Array;
  private owners: Int16Array;
  private pastEnd: Uint8Array;
  private count = 0;

  constructor(width: number) {
    this.width = width;
    this.words = new Uint32Array(64 * width);
    this.deltas = new Int8Array(64);
    this.owners = new Int16Array(64);
    this.pastEnd = new Uint8Array(64);
  }

  addCidr(address: Uint32Array, length: number, owner: number): void {
    this.reserve(this.count + 2);
    const first = this.count * this.width;
    const past = first + this.width;
    for (let i = 0; i < this.width; i++) {
      const covered = Math.min(32, Math.max(0, length - 32 * i));
      const mask = covered === 0 ? 0 : (0xffffffff << (32 - covered)) >>> 0;
      this.words[first + i] = ((address[i] ?? 0) & mask) >>> 0;
      this.words[past + i] = ((address[i] ?? 0) | ~mask) >>> 0;
    }
    // The end edge is one past the last address: add one, carrying.
    let carry = 1;
    for (let i = this.width - 1; i >= 0 && carry; i--) {
      const word = (this.words[past + i] ?? 0) + 1;
      this.words[past + i] = word >>> 0;
      carry = word > 0xffffffff ? 1 : 0;
    }
    this.set(this.count, 1, owner, 0);
    this.set(this.count + 1, -1, owner, carry);
    this.count += 2;
  }

  /**
   * Sweep the edges in address order, counting the intervals of each owner that cover the
   * stretch up to the next edge; keep a stretch covered by exactly one crawler-only owner and
   * no mixed list, merging it into the stretch before when that one has the same owner.
   * O(n log n) in the CIDRs.
   */
  disjoint(owners: number): Stretches {
    const order = Uint32Array.from({ length: this.count }, (_, i) => i);
    order.sort((a, b) => this.compare(a, b));
    const covering = new Int32Array(owners + 1); // the last slot counts mixed lists
    let ownersCovering = 0;
    const out = { starts: new Uint32Array(this.words.length), ends: new Uint32Array(this.words.length) };
    const outOwners = new Uint8Array(this.count);
    let kept = 0;
    let previousKept = false;
    for (let k = 0; k < order.length;) {
      const at = order[k] ?? 0;
      if (this.pastEnd[at]) break; // nothing after the family's last address
      for (; k < order.length && this.compare(order[k] ?? 0, at) === 0; k++) {
        const edge = order[k] ?? 0;
        const slot = (this.owners[edge] ?? 0) === MIXED ? owners : (this.owners[edge] ?? 0);
        const before = covering[slot] ?? 0;
        const after = before + (this.deltas[edge] ?? 0);
        covering[slot] = after;
        ownersCovering += Number(after > 0) - Number(before > 0);
      }
      const owner = ownersCovering === 1 && !(covering[owners] ?? 0) ? covering.findIndex((n) => n > 0) : -1;
      const next = k < order.length ? (order[k] ?? 0) : -1;
      if (owner < 0 || next < 0) {
        previousKept = false;
        continue;
      }
      if (!(previousKept && outOwners[kept - 1] === owner)) {
        out.starts.set(this.words.subarray(at * this.width, (at + 1) * this.width), kept * this.width);
        outOwners[kept++] = owner;
      }
      this.writeBefore(next, out.ends, (kept - 1) * this.width);
      previousKept = true;
    }
    const size = kept * this.width;
    return { starts: out.starts.slice(0, size), ends: out.ends.slice(0, size), owners: outOwners.slice(0, kept) };
  }

  /** The address just before edge `edge` (its words minus one; the family's last address when past the end). */
  private writeBefore(edge: number, target: Uint32Array, offset: number): void {
    if (this.pastEnd[edge]) {
      target.fill(0xffffffff, offset, offset + this.width);
      return;
    }
    let borrow = 1;
    for (let i = this.width - 1; i >= 0; i--) {
      const word = (this.words[edge * this.width + i] ?? 0) - borrow;
      target[offset + i] = word >>> 0;
      borrow = word < 0 ? 1 : 0;
    }
  }

  private compare(a: number, b: number): number {
    const pastA = this.pastEnd[a] ?? 0;
    const pastB = this.pastEnd[b] ?? 0;
    if (pastA || pastB) return pastA - pastB;
    for (let i = 0; i < this.width; i++) {
      const difference = (this.words[a * this.width + i] ?? 0) - (this.words[b * this.width + i] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  }

  private set(edge: number, delta: number, owner: number, pastEnd: number): void {
    this.deltas[edge] = delta;
    this.owners[edge] = owner;
    this.pastEnd[edge] = pastEnd;
  }

  private reserve(edges: number): void {
    if (edges <= this.deltas.length) return;
    const size = Math.max(edges, this.deltas.length * 2);
    this.words = grow(this.words, size * this.width);
    this.deltas = grow(this.deltas, size);
    this.owners = grow(this.owners, size);
    this.pastEnd = grow(this.pastEnd, size);
  }
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

  constructor(names: readonly string[], v4: Stretches, v6: Stretches) {
    if (names.length > 255) throw new RangeError("at most 255 crawler-only lists can be compiled");
    this.names = names;
    this.v4Starts = v4.starts;
    this.v4Ends = v4.ends;
    this.v4Owners = v4.owners;
    this.v6Starts = v6.starts;
    this.v6Ends = v6.ends;
    this.v6Owners = v6.owners;
    this.intervals = v4.owners.length + v6.owners.length;
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

/** Sign of (stored interval edge at `offset`) - (address). */
function compareWords(stored: Uint32Array, offset: number, address: Uint32Array): number {
  for (let word = 0; word < WORDS_V6; word++) {
    const difference = (stored[offset + word] ?? 0) - (address[word] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Dotted decimal, four parts of 1–3 digits each up to 255, without a leading zero (`020`
 * is octal 16 to some parsers, ipaddr.js among them: one address must not be read two ways);
 * undefined otherwise.
 */
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
    } else if (code >= 48 && code <= 57 && digits < 3 && !(digits === 1 && part === 0)) {
      part = part * 10 + (code - 48);
      digits++;
    } else {
      return undefined;
    }
  }
  return parts === 4 ? value : undefined;
}

/** Scratch for parseIPv6's groups (one parse at a time: the isolate runs one request's code at once). */
const GROUPS = new Uint16Array(8);

/**
 * IPv6 text into four 32-bit words (most significant first); false when it is not one. Hex
 * groups of 1–4 digits, at most one `::`, an optional dotted IPv4 tail; no zone (`%eth0`).
 * One pass over the characters, no allocation but the dotted tail's slice: it runs per request.
 */
export function parseIPv6(text: string, words: Uint32Array): boolean {
  const n = text.length;
  let count = 0;
  let gapAt = -1;
  let i = 0;
  if (n >= 2 && text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    gapAt = 0;
    i = 2;
  }
  while (i < n) {
    const start = i;
    let value = 0;
    let digits = 0;
    for (let digit = hexValue(text.charCodeAt(i)); digit >= 0 && i < n; digit = hexValue(text.charCodeAt(++i))) {
      value = value * 16 + digit;
      digits++;
    }
    if (i < n && text.charCodeAt(i) === DOT) {
      const v4 = count <= 6 ? parseIPv4(text.slice(start)) : undefined;
      if (v4 === undefined) return false;
      GROUPS[count++] = Math.floor(v4 / 65536);
      GROUPS[count++] = v4 % 65536;
      break;
    }
    if (digits === 0 || digits > 4 || count === 8) return false;
    GROUPS[count++] = value;
    if (i === n) break;
    if (text.charCodeAt(i) !== COLON || ++i === n) return false;
    if (text.charCodeAt(i) === COLON) {
      if (gapAt >= 0) return false;
      gapAt = count;
      i++;
    }
  }
  if (gapAt < 0 ? count !== 8 : count > 7) return false;
  const zeros = 8 - count;
  for (let word = 0; word < WORDS_V6; word++) {
    words[word] = ((groupAt(2 * word, gapAt, zeros) << 16) | groupAt(2 * word + 1, gapAt, zeros)) >>> 0;
  }
  return true;
}

const COLON = 58;
const DOT = 46;

/** The group at position `at` of the full eight, with `zeros` groups inserted at `gapAt`. */
function groupAt(at: number, gapAt: number, zeros: number): number {
  if (gapAt < 0 || at < gapAt) return GROUPS[at] ?? 0;
  if (at < gapAt + zeros) return 0;
  return GROUPS[at - zeros] ?? 0;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}
