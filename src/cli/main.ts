/**
 * The `robots-edge` command line, over the core only (no Worker code).
 * Exit statuses: 0 success; 1 a documented "no" (a URL disallowed, lint errors);
 * 2 usage or I/O errors, with what failed and how to fix it.
 */

import { checkJsonLines, checkUrls } from "./check.ts";
import { explain } from "./explain.ts";
import { CliError, EXIT_OK, EXIT_USAGE, write, type Io } from "./io.ts";
import { lint } from "./lint.ts";

export const USAGE = `usage:
  robots-edge check <robots.txt> <user-agent token> [url ...]
      One line per URL (arguments, or stdin one per line): "allowed" or "disallowed",
      a tab, then the deciding rule ("disallow: /x (line 7)") or the reason.
      Exit 1 when any URL is disallowed.
  robots-edge check --jsonl
      stdin: JSON lines {"robots": "<robots.txt text>", "ua": "<token>", "url": "<url>"}
      stdout: one JSON line per input, in order: {"allowed", "rule", "reason", "group"}.
  robots-edge lint <robots.txt>
      Diagnostics, one per line: file:line: severity: message [code]. Exit 1 on errors.
  robots-edge explain <robots.txt> "<User-Agent header>" <url> [--json]
      Crawler or human, tokens, group, deciding rule and line, decision, and what the edge
      would do (as the admin API's explain). Exit 1 when the edge would block.
`;

type Command = (args: readonly string[], io: Io) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  check: (args, io) => (args[0] === "--jsonl" && args.length === 1 ? checkJsonLines(io) : checkUrls(args, io)),
  lint,
  explain,
};

/** Run one command; returns the exit status. Never throws. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    await write(name === undefined ? io.stderr : io.stdout, USAGE);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = COMMANDS[name];
  if (!command) {
    await write(io.stderr, `robots-edge: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    await write(io.stderr, `robots-edge ${name}: ${error.message}\n`);
    return EXIT_USAGE;
  }
}
