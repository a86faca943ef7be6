/** The CLI's contact with the outside: streams passed in, so commands run in tests too. */

import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";

export interface Io {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** Exit statuses (shared/STYLE.md): 0 fine, 1 a documented "no" (disallowed, lint errors), 2 misuse or I/O. */
export const EXIT_OK = 0;
export const EXIT_NO = 1;
export const EXIT_USAGE = 2;

/** A usage or I/O problem, with a message that says what to fix. */
export class CliError extends Error {}

/** The bytes of a robots.txt file, or a CliError naming the file and the cause. */
export async function readRobotsFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot read robots.txt file ${JSON.stringify(path)}: ${reason}`);
  }
}

/** Lines of standard input, one at a time, without their line ends. */
export function stdinLines(io: Io): AsyncIterable<string> {
  return createInterface({ input: io.stdin, crlfDelay: Infinity });
}

/** Write text, waiting when the stream asks us to (large outputs to a slow pipe). */
export async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once("drain", resolve));
}
