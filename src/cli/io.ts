/** The CLI's contact with the outside: streams passed in, so commands run in tests too. */

import { fstatSync, readSync, ReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { MAX_ROBOTS_BYTES } from "../core/index.ts";
import { CliError } from "./cli-error.ts";

export interface Io {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** The environment the commands read (`robots-edge policy`: the edge and token); process.env when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How `robots-edge policy` reaches an edge; the global fetch when absent (tests hand in a Worker's). */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/** Exit statuses (shared/STYLE.md): 0 fine, 1 a documented "no" (disallowed, lint errors), 2 misuse or I/O. */
export const EXIT_OK = 0;
export const EXIT_NO = 1;
export const EXIT_USAGE = 2;

/** A usage or I/O problem (its own file, so the edge-facing commands need none of Node's modules). */
export { CliError };

/** The file operand that means standard input, as in most Unix tools. */
export const STDIN = "-";

/**
 * The bytes of a robots.txt file (`-`: stdin) that count, or a CliError naming the file and the
 * cause. RFC 9309 §2.5: a crawler reads at most 500 KiB, so no more is read (`/dev/zero` or a
 * 300 MB file cost that much and no more), and stderr says so when the input was longer. One
 * byte past the limit is kept, as the Worker's origin fetch keeps it (robots/origin-fetch.ts):
 * the parser then cuts where it would cut the whole file and lint reports the cut.
 */
export async function readRobotsFile(path: string, io: Io): Promise<Uint8Array> {
  const { bytes } = await readAtMost(path, io, MAX_ROBOTS_BYTES + 1, "robots.txt file");
  if (bytes.length > MAX_ROBOTS_BYTES) {
    await write(
      io.stderr,
      `robots-edge: ${inputName(path)} is larger than ${MAX_ROBOTS_BYTES} bytes; only the first ${MAX_ROBOTS_BYTES} are read (RFC 9309 §2.5)\n`,
    );
  }
  return bytes;
}

/**
 * A file (`-`: stdin) that must be whole to mean anything (a JSON setting, a wrangler.toml):
 * read up to `limit` bytes, refused past them with a CliError naming `what` limits it.
 */
export async function readWhole(path: string, io: Io, limit: number, what: string, kind: string): Promise<Uint8Array> {
  const { bytes, longer } = await readAtMost(path, io, limit, kind);
  if (longer) {
    throw new CliError(`${kind} ${JSON.stringify(inputName(path))} is larger than ${limit} bytes, ${what}; not read`);
  }
  return bytes;
}

/** Up to `limit` bytes of a file or stdin, and whether more followed; never reads further. */
async function readAtMost(
  path: string,
  io: Io,
  limit: number,
  kind: string,
): Promise<{ bytes: Uint8Array; longer: boolean }> {
  try {
    return path === STDIN ? await stdinAtMost(io, limit) : await fileAtMost(path, limit);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot read ${kind} ${JSON.stringify(path)}: ${reason}`);
  }
}

async function fileAtMost(path: string, limit: number): Promise<{ bytes: Uint8Array; longer: boolean }> {
  const handle = await open(path, "r");
  try {
    // One byte more than the limit tells "exactly the limit" from "longer".
    const buffer = Buffer.alloc(limit + 1);
    let size = 0;
    while (size < buffer.length) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    return { bytes: buffer.subarray(0, Math.min(size, limit)), longer: size > limit };
  } finally {
    await handle.close();
  }
}

async function stdinAtMost(io: Io, limit: number): Promise<{ bytes: Uint8Array; longer: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    size += bytes.length;
    // Leaving the loop stops reading: the rest of stdin is never taken in.
    if (size > limit) break;
  }
  const all = Buffer.concat(chunks);
  return { bytes: all.subarray(0, Math.min(size, limit)), longer: size > limit };
}

/** How a file operand is named in output: `-` is "stdin". */
export function inputName(path: string): string {
  return path === STDIN ? "stdin" : path;
}

/**
 * Lines of standard input split at LF, in batches: one array per chunk read. A CR before the
 * LF stays on the line (callers trim). Batches instead of one await per line: readline's
 * per-line promise and event cost more than the decision itself when 200,000 URLs stream
 * through `check`.
 */
export async function* stdinLineBatches(io: Io): AsyncIterable<string[]> {
  // The unfinished line, in pieces: a chunk without a line feed is only kept, so a line of
  // many megabytes costs its length once, not once per chunk (joining and splitting it again
  // for every chunk grew with the square of its length).
  const rest: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of stdinChunks(io)) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (!text.includes("\n")) {
      rest.push(text);
      continue;
    }
    const lines = (rest.join("") + text).split("\n");
    rest.length = 0;
    rest.push(lines.pop() ?? "");
    yield lines;
  }
  const last = rest.join("") + decoder.decode();
  if (last !== "") yield [last];
}

/** Bytes read at a time from a file on standard input: as much as a pipe holds. */
const FILE_BLOCK = 64 * 1024;

/**
 * Standard input in chunks. A regular file (`check … < urls.txt`) is read here, synchronously,
 * from its current offset: Node's stream reads a file through libuv's thread pool, and waiting
 * for those round trips was a tenth of `check`'s time over 200,000 URLs (bench/cli.bench.ts).
 * Anything else (a pipe, a terminal, a test's stream) is read as the stream it is.
 */
async function* stdinChunks(io: Io): AsyncIterable<Uint8Array | string> {
  if (!isUntouchedFileOnStdin(io.stdin)) {
    yield* io.stdin;
    return;
  }
  for (;;) {
    const block = Buffer.allocUnsafe(FILE_BLOCK);
    const read = readSync(STDIN_FD, block, 0, FILE_BLOCK, null);
    if (read === 0) return;
    yield block.subarray(0, read);
  }
}

/** Is this the process's own stdin, a regular file that no one has read from yet? */
function isUntouchedFileOnStdin(stream: NodeJS.ReadableStream): boolean {
  // Node makes process.stdin an fs.ReadStream when descriptor 0 is a file; bytesRead 0: nothing taken yet.
  if (stream !== process.stdin || !(stream instanceof ReadStream) || stream.bytesRead !== 0) return false;
  try {
    return fstatSync(STDIN_FD).isFile();
  } catch {
    return false;
  }
}

const STDIN_FD = 0;

// C0 controls but tab and line feed, DEL, and the C1 controls (U+0080–U+009F, which some
// terminals also obey): a robots.txt or a URL must never move the cursor or retitle a window.
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text with every control character but tab and newline shown as `\u00XX` (valid inside JSON strings too). */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Write text (control characters escaped), waiting when the stream asks us to (large outputs to a slow pipe). */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return writeSafe(stream, terminalSafe(text));
}

/** `write` for text or bytes already passed through terminalSafe (check's hot path escapes each rule once). */
export async function writeSafe(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once("drain", resolve));
}
