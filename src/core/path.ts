/**
 * URL paths and rule patterns in one canonical spelling, so that equal things compare equal.
 *
 * RFC 9309 §2.2.2: octets outside US-ASCII are compared percent-encoded (RFC 3986), and a
 * percent-encoded unreserved character is compared decoded. So, on both sides:
 *   - non-ASCII characters become their UTF-8 bytes as %XX (upper-case hex);
 *   - ASCII octets that are neither unreserved nor reserved (space, `"`, `<`, `>`, `\`, `^`,
 *     backquote, `{`, `|`, `}`, controls) become %XX: `Disallow: /my file` is `/my%20file`;
 *   - %xx escapes get upper-case hex;
 *   - %xx escapes of unreserved characters (A-Z a-z 0-9 - . _ ~) are decoded, except a hex
 *     digit that would complete a new escape after a stray `%` (kept as %3X: idempotence);
 *   - a `%` that starts no escape is the octet `%` and stays as written, as Google keeps it:
 *     `Disallow: /query%` matches `/query%20x`, `/%2` is a prefix of `/%2F` (as Google matches them);
 *   - everything else, reserved escapes such as %2F, %2A and %24 included, stays as written
 *     (pattern.ts lets a pattern's %2A and %24 match a literal `*` and `$`).
 * Case of the path itself is kept: paths are case-sensitive (RFC 9309 §2.2.2).
 *
 * Deviations from Google's reference, which only escapes non-ASCII and upper-cases hex, both
 * from RFC 9309 §2.2.2 / RFC 3986 §6.2.2: we also decode unreserved escapes, so `/%70rivate`
 * equals `/private`, and encode other non-reserved ASCII octets, so `/my file` equals
 * `/my%20file`. A pattern's priority is its length in this canonical spelling. Also from the
 * RFC: hex case is ignored on the URL side too (Google upper-cases only the pattern's), and a
 * pattern's %2A / %24 match the URL's `*` / `$` (pattern.ts). A differential run against
 * Google's reference build found no other difference (test/core/percent.test.ts).
 */

const HEX = "0123456789ABCDEF";
const NEEDS_WORK = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;
/**
 * ASCII codes canonicalizePath rewrites (neither reserved nor unreserved), `%` among them
 * (escapes are normalised, and matchablePath spells %2A and %24 as `*` and `$`): 1 = rewritten.
 */
const REWRITTEN = rewrittenTable();

/** The canonical spelling of a path, query or pattern (see the file comment). */
export function canonicalizePath(value: string): string {
  if (!NEEDS_WORK.test(value)) return value;
  let out = "";
  let strayPercentAt = -2; // index in `out` of the last `%` that starts no escape
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x25 /* % */) {
      const byte = hexByteAt(value, i + 1);
      if (byte < 0) {
        strayPercentAt = out.length;
        out += "%";
      } else {
        i += 2;
        const decoded = isUnreserved(byte) && !completesEscape(out, strayPercentAt, byte, value.charCodeAt(i + 1));
        out += decoded ? String.fromCharCode(byte) : percentByte(byte);
      }
    } else if (code < 0x80) {
      out += isReserved(code) || isUnreserved(code) ? value[i] : percentByte(code);
    } else {
      const point = value.codePointAt(i) ?? code;
      const isPair = point > 0xffff;
      out += percentUtf8(isLoneSurrogate(point) ? 0xfffd : point);
      if (isPair) i++;
    }
  }
  return out;
}

/**
 * Would writing `byte` decoded make a stray `%` start an escape? Either the stray `%` is
 * last and `byte` and the next input character are hex digits, or the stray `%` and one hex
 * digit are last and `byte` is a hex digit. Then the escape is kept, so that a second pass
 * reads what the first wrote (`%%341` stays `%%341`, never `%41` and then `A`).
 */
function completesEscape(out: string, strayPercentAt: number, byte: number, next: number): boolean {
  if (hexValue(byte) < 0) return false;
  if (strayPercentAt === out.length - 1) return hexValue(next) >= 0;
  return strayPercentAt === out.length - 2 && hexValue(out.charCodeAt(out.length - 1)) >= 0;
}

/**
 * Path plus query of a URL (absolute, or already a path), without the fragment.
 * Hand-rolled rather than `new URL()`: it runs on every request, and must not throw.
 */
export function pathAndQuery(url: string): string {
  if (url.charCodeAt(0) === 0x2f /* / */) {
    const hash = url.indexOf("#");
    return hash < 0 ? url : url.slice(0, hash);
  }
  // The path starts at the first `/` or `?` after the authority, the fragment at the first `#`
  // after that: one short scan of the authority, one search for `#` (this runs per decision).
  let i = authorityStart(url);
  let code = 0;
  while (i < url.length) {
    code = url.charCodeAt(i);
    if (code === 0x2f /* / */ || code === 0x3f /* ? */ || code === 0x23 /* # */) break;
    i++;
  }
  if (i === url.length || code === 0x23) return "/";
  const hash = url.indexOf("#", i);
  const path = hash < 0 ? url.slice(i) : url.slice(i, hash);
  return code === 0x3f ? `/${path}` : path;
}

/**
 * Where the path of `url` starts, when it can be matched where it stands: the index of the
 * `/` that starts it. -1 when pathAndQuery would build a new string (no path, or a query or
 * fragment straight after the authority): those few URLs take the general route.
 * Same scan as pathAndQuery; the differential tests hold the two routes equal.
 */
export function pathStartInPlace(url: string): number {
  if (url.length === 0) return -1;
  if (url.charCodeAt(0) === 0x2f /* / */) return 0;
  for (let i = authorityStart(url); i < url.length; i++) {
    const code = url.charCodeAt(i);
    // A host is mostly letters, all above `?`: one comparison passes them.
    if (code > 0x3f) continue;
    if (code === 0x2f /* / */) return i;
    if (code === 0x3f /* ? */ || code === 0x23 /* # */) return -1;
  }
  return -1;
}

/**
 * Where the path (and query) starting at `start` ends, the first `#` or the URL's end, when
 * every character before it is already in canonical, matchable spelling (so canonicalizePath
 * and matchablePath would return it unchanged); else -1. One pass, one table look-up a
 * character: the common case never builds the canonical path at all.
 */
export function canonicalPathEnd(url: string, start: number): number {
  for (let i = start; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 0x23 /* # */) return i;
    if (isRewritten(code)) return -1;
  }
  return url.length;
}

/** Would canonicalizePath or matchablePath rewrite this character (a `%` included)? */
export function isRewritten(code: number): boolean {
  return code >= 0x80 || REWRITTEN[code] === 1;
}

/** Index just past `scheme://` (RFC 3986 §3.1), or 0 when the URL does not start with one. */
function authorityStart(url: string): number {
  if (!isAlpha(url.charCodeAt(0))) return 0;
  for (let i = 1; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 0x3a /* : */) {
      return i + 2 < url.length && url.charCodeAt(i + 1) === 0x2f && url.charCodeAt(i + 2) === 0x2f ? i + 3 : 0;
    }
    if (!isAlpha(code) && !isDigit(code) && code !== 0x2b && code !== 0x2d && code !== 0x2e) return 0;
  }
  return 0;
}

function isAlpha(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function hexByteAt(value: string, i: number): number {
  if (i + 1 >= value.length) return -1;
  const high = hexValue(value.charCodeAt(i));
  const low = hexValue(value.charCodeAt(i + 1));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

function rewrittenTable(): Uint8Array {
  const table = new Uint8Array(0x80);
  for (let code = 0; code < 0x80; code++) table[code] = isReserved(code) || isUnreserved(code) ? 0 : 1;
  return table;
}

/** RFC 3986 §2.2 reserved = gen-delims / sub-delims. */
function isReserved(code: number): boolean {
  return ":/?#[]@!$&'()*+,;=".includes(String.fromCharCode(code));
}

/** RFC 3986 §2.3 unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(byte: number): boolean {
  return isAlpha(byte) || isDigit(byte) || byte === 0x2d || byte === 0x2e || byte === 0x5f || byte === 0x7e;
}

function isLoneSurrogate(point: number): boolean {
  return point >= 0xd800 && point <= 0xdfff;
}

function percentByte(byte: number): string {
  return `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
}

function percentUtf8(point: number): string {
  if (point < 0x800) return percentByte(0xc0 | (point >> 6)) + percentByte(0x80 | (point & 63));
  if (point < 0x10000) {
    return (
      percentByte(0xe0 | (point >> 12)) + percentByte(0x80 | ((point >> 6) & 63)) + percentByte(0x80 | (point & 63))
    );
  }
  return (
    percentByte(0xf0 | (point >> 18)) +
    percentByte(0x80 | ((point >> 12) & 63)) +
    percentByte(0x80 | ((point >> 6) & 63)) +
    percentByte(0x80 | (point & 63))
  );
}
