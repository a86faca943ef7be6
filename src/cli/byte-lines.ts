/**
 * Output assembled as bytes: `check` writes one line per URL, and building those lines as
 * JavaScript strings cost more than deciding them (a 12 MB rope flattened and encoded again
 * for each write; bench/cli.bench.ts). Parts that repeat (a verdict, a reason) are encoded once
 * by the caller; each URL is encoded straight into the buffer.
 */

import { writeSafe } from "./io.ts";

/** Bytes gathered before a write: large enough that writes are few, small enough to stream. */
const CAPACITY = 256 * 1024;

export class ByteLines {
  private buffer = Buffer.allocUnsafe(CAPACITY);
  private length = 0;
  private readonly stream: NodeJS.WritableStream;

  constructor(stream: NodeJS.WritableStream) {
    this.stream = stream;
  }

  /** Bytes encoded beforehand (a verdict, a reason). */
  bytes(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.buffer.length) this.grow(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /**
   * `head`, `text` and `tail` in a row when `text` is printable ASCII only (U+0020–U+007E),
   * copied byte for byte; false, with nothing written, when it holds any other character
   * (the caller then escapes or encodes it).
   */
  asciiLine(head: Uint8Array, text: string, tail: Uint8Array): boolean {
    const size = head.length + text.length + tail.length;
    if (this.length + size > this.buffer.length) this.grow(size);
    const buffer = this.buffer;
    let at = this.length + head.length;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code > 0x7e) return false;
      buffer[at++] = code;
    }
    buffer.set(head, this.length);
    buffer.set(tail, at);
    this.length = at + tail.length;
    return true;
  }

  /** Text, encoded as UTF-8 into the buffer (a UTF-16 unit never takes more than 3 bytes). */
  text(text: string): void {
    if (this.length + text.length * 3 > this.buffer.length) this.grow(text.length * 3);
    this.length += this.buffer.write(text, this.length, "utf8");
  }

  /** Writes what is gathered, waiting when the stream asks us to. */
  async flush(): Promise<void> {
    if (this.length === 0) return;
    // The stream may hold on to the bytes until they are written: the next lines get a new buffer.
    const gathered = this.buffer.subarray(0, this.length);
    this.buffer = Buffer.allocUnsafe(CAPACITY);
    this.length = 0;
    await writeSafe(this.stream, gathered);
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + needed));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}
