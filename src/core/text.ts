/**
 * Bytes to text for robots.txt: BOM, the 500 KiB limit, and bytes that are not UTF-8.
 *
 * RFC 9309 §2.5 (parsers MUST read at least 500 KiB; we read exactly that, as Google does)
 * and Google's documentation (test/fixtures/spec, "File format"): a leading BOM is ignored, and
 * characters outside UTF-8 may be skipped. We skip each invalid byte and say on which line.
 * Google's reference skips a partial BOM too (EF or EF BB alone); so do we.
 *
 * UTF-16: RFC 9309 §2.3 wants UTF-8, and Google's reference reads UTF-16 as bytes
 * (a NUL after every ASCII character ends each line, so the file says nothing). A file that
 * starts with a UTF-16 byte-order mark (FF FE little-endian, FE FF big-endian) is plainly
 * meant as text, so we decode it and say so (diagnostic `utf16`): the site's rules count.
 * One more case seen in the corpus (0232.txt): the FF FE mark re-encoded once as UTF-8
 * (C3 BF C3 BE, "ÿþ") before UTF-16LE text. When the next two bytes are an ASCII character
 * in UTF-16LE (a non-zero byte, then 00), that is the same file through one bad conversion;
 * we decode it as UTF-16LE too (diagnostic `utf16-mangled-bom`). The 500 KiB limit counts
 * the bytes as served.
 */

/** RFC 9309 §2.5: content past this many bytes is ignored. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

const BOM = [0xef, 0xbb, 0xbf] as const;

/** The text that will be parsed, and what was lost on the way. */
export interface DecodedRobots {
  readonly text: string;
  /** Input size in bytes before the BOM was skipped and the tail cut. */
  readonly bytes: number;
  readonly truncated: boolean;
  /** 1-based lines that held bytes which are not UTF-8 (each reported once). */
  readonly invalidUtf8Lines: readonly number[];
  /** Set when the body was UTF-16 (see the file comment). */
  readonly utf16?: "le" | "be" | "le-mangled-bom";
}

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

/** Decode a robots.txt body given as bytes or as text (text is measured as UTF-8). */
export function decodeRobots(input: string | Uint8Array): DecodedRobots {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  const utf16 = typeof input === "string" ? undefined : utf16Of(bytes);
  if (utf16) return decodeUtf16(bytes, utf16);
  let start = 0;
  while (start < BOM.length && start < bytes.length && bytes[start] === BOM[start]) start++;
  const truncated = bytes.length > MAX_ROBOTS_BYTES;
  const end = truncated ? characterBoundaryAtOrBefore(bytes, MAX_ROBOTS_BYTES) : bytes.length;
  const body = bytes.subarray(start, end);
  try {
    return { text: fatalDecoder.decode(body), bytes: bytes.length, truncated, invalidUtf8Lines: [] };
  } catch {
    const { kept, invalidUtf8Lines } = dropInvalidUtf8(body);
    return { text: lenientDecoder.decode(kept), bytes: bytes.length, truncated, invalidUtf8Lines };
  }
}

function utf16Of(bytes: Uint8Array): DecodedRobots["utf16"] {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "be";
  const mangled = bytes[0] === 0xc3 && bytes[1] === 0xbf && bytes[2] === 0xc3 && bytes[3] === 0xbe;
  return mangled && (bytes[4] ?? 0) !== 0 && bytes[5] === 0 ? "le-mangled-bom" : undefined;
}

/**
 * Code units to a string by hand: workerd's TextDecoder need not know UTF-16BE. Lone
 * surrogates pass through; path.ts spells them U+FFFD when it percent-encodes.
 */
function utf16Text(bytes: Uint8Array, bigEndian: boolean): string {
  const units: number[] = [];
  let text = "";
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const high = bytes[bigEndian ? i : i + 1] ?? 0;
    const low = bytes[bigEndian ? i + 1 : i] ?? 0;
    units.push((high << 8) | low);
    if (units.length === 4096) text += String.fromCharCode(...units.splice(0));
  }
  return text + String.fromCharCode(...units);
}

/** UTF-16 to text: the mark skipped, cut at 500 KiB on a whole code unit. */
function decodeUtf16(bytes: Uint8Array, utf16: NonNullable<DecodedRobots["utf16"]>): DecodedRobots {
  const start = utf16 === "le-mangled-bom" ? 4 : 2;
  const truncated = bytes.length > MAX_ROBOTS_BYTES;
  const end = truncated ? MAX_ROBOTS_BYTES - ((MAX_ROBOTS_BYTES - start) % 2) : bytes.length;
  const text = utf16Text(bytes.subarray(start, end), utf16 === "be");
  return { text, bytes: bytes.length, truncated, invalidUtf8Lines: [], utf16 };
}

/** Step back over continuation bytes so a cut never splits a character. */
function characterBoundaryAtOrBefore(bytes: Uint8Array, index: number): number {
  let i = index;
  while (i > 0 && isContinuation(bytes[i] ?? 0)) i--;
  return i;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * Copy every well-formed UTF-8 sequence (RFC 3629 §4) and drop every other byte,
 * noting the line of each dropped byte. Only called on input the fast decoder refused.
 */
function dropInvalidUtf8(bytes: Uint8Array): { kept: Uint8Array; invalidUtf8Lines: number[] } {
  const kept = new Uint8Array(bytes.length);
  const invalidUtf8Lines: number[] = [];
  let out = 0;
  let line = 1;
  for (let i = 0; i < bytes.length;) {
    const byte = bytes[i] ?? 0;
    const length = wellFormedSequenceLength(bytes, i);
    if (length === 0) {
      if (invalidUtf8Lines[invalidUtf8Lines.length - 1] !== line) invalidUtf8Lines.push(line);
      i++;
      continue;
    }
    if (byte === 0x0a || (byte === 0x0d && bytes[i + 1] !== 0x0a)) line++;
    kept.set(bytes.subarray(i, i + length), out);
    out += length;
    i += length;
  }
  return { kept: kept.subarray(0, out), invalidUtf8Lines };
}

/** Length of the well-formed sequence starting at `i`, or 0 when the byte there starts none. */
function wellFormedSequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] ?? 0;
  if (b0 < 0x80) return 1;
  const [length, low, high] = sequenceShape(b0);
  if (length === 0) return 0;
  const b1 = bytes[i + 1] ?? 0;
  if (b1 < low || b1 > high) return 0;
  for (let k = 2; k < length; k++) if (!isContinuation(bytes[i + k] ?? 0)) return 0;
  return length;
}

/** For a lead byte: sequence length and the allowed range of the second byte (RFC 3629 §4). */
function sequenceShape(lead: number): readonly [number, number, number] {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return [0, 0, 0];
}

/**
 * Split text into lines at CR LF, LF or a lone CR (RFC 9309 §2.2: EOL = CR / LF / CR LF).
 * A final line break does not start one more (empty) line.
 */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
