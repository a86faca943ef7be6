/** `robots-edge lint <file|-> [--json]`: diagnostics one per line (or one JSON object); exit 1 when any is an error. */

import { parseRobotsTxt, type Diagnostic } from "../core/index.ts";
import { formatDiagnostic } from "./format.ts";
import { CliError, EXIT_NO, EXIT_OK, inputName, readRobotsFile, write, type Io } from "./io.ts";

export async function lint(operands: readonly string[], { json }: { readonly json: boolean }, io: Io): Promise<number> {
  const [file, extra] = operands;
  if (file === undefined) throw new CliError("lint needs a robots.txt file: robots-edge lint robots.txt");
  if (extra !== undefined) throw new CliError(`unexpected argument ${JSON.stringify(extra)} (one file per call)`);
  const name = inputName(file);
  const bytes = await readRobotsFile(file, io);
  const binary = binaryReason(bytes);
  const robots = binary === undefined ? parseRobotsTxt(bytes) : undefined;
  const diagnostics: readonly Diagnostic[] = robots?.diagnostics ?? [];
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error").length + (binary ? 1 : 0);
  const warnings = diagnostics.filter((diagnostic) => diagnostic.severity === "warning").length;
  const groups = robots?.groups.length ?? 0;
  if (json) {
    const notText = binary === undefined ? {} : { notText: `not a text file (${binary}); a robots.txt is plain text` };
    await write(io.stdout, `${JSON.stringify({ file: name, errors, warnings, groups, ...notText, diagnostics })}\n`);
  } else if (binary !== undefined) {
    await write(io.stderr, `${name}: error: not a text file (${binary}); a robots.txt is plain text\n`);
  } else {
    await write(io.stdout, diagnostics.map((diagnostic) => `${formatDiagnostic(name, diagnostic)}\n`).join(""));
    await write(io.stderr, `${name}: ${errors} error(s), ${warnings} warning(s), ${groups} group(s)\n`);
  }
  return errors > 0 ? EXIT_NO : EXIT_OK;
}

/** Bytes inspected, as git does before calling a file binary. */
const SNIFF_BYTES = 8000;
/** Share of control bytes that no text has but random (compressed, image, executable) bytes do: ~11 %. */
const BINARY_CONTROL_SHARE = 0.05;
/** Fewer than this is a typo in a short text file (`User-agent: *\0`), which lint reports as such. */
const BINARY_MIN_CONTROLS = 4;

/**
 * Why these bytes are not text, or undefined. A UTF-16 file (with its byte-order mark) is
 * text despite its NULs; a stray NUL in a text file is a lint finding, not a binary file:
 * what counts is the share of control bytes (C0 but tab, LF, CR, FF; and DEL).
 */
function binaryReason(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return undefined;
  let controls = 0;
  for (const byte of head) {
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) || byte === 0x7f) controls++;
  }
  if (controls < BINARY_MIN_CONTROLS || controls / head.length < BINARY_CONTROL_SHARE) return undefined;
  return `${controls} control bytes in its first ${head.length}`;
}
