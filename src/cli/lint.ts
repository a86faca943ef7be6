/** `robots-edge lint <file>`: diagnostics one per line; exit 1 when any is an error. */

import { parseRobotsTxt } from "../core/index.ts";
import { formatDiagnostic } from "./format.ts";
import { CliError, EXIT_NO, EXIT_OK, readRobotsFile, write, type Io } from "./io.ts";

export async function lint(args: readonly string[], io: Io): Promise<number> {
  const [file] = args;
  if (file === undefined) throw new CliError("lint needs a robots.txt file: robots-edge lint robots.txt");
  const robots = parseRobotsTxt(await readRobotsFile(file));
  const lines = robots.diagnostics.map((diagnostic) => `${formatDiagnostic(file, diagnostic)}\n`);
  await write(io.stdout, lines.join(""));
  const errors = robots.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const warnings = robots.diagnostics.filter((diagnostic) => diagnostic.severity === "warning").length;
  await write(io.stderr, `${file}: ${errors} error(s), ${warnings} warning(s), ${robots.groups.length} group(s)\n`);
  return errors > 0 ? EXIT_NO : EXIT_OK;
}
