/**
 * The `robots-edge` command line, over the core only (no Worker code).
 * Exit statuses: 0 success; 1 a documented "no" (a URL disallowed, lint errors, config
 * errors); 2 usage or I/O errors, with what failed and how to fix it.
 * Commands are imported when called: `check` must not pay for explain's crawler table at start-up.
 */

import { readFileSync } from "node:fs";
import { wantsHelp } from "./args.ts";
import { CliError, EXIT_OK, EXIT_USAGE, write, type Io } from "./io.ts";

type Command = (args: readonly string[], io: Io) => Promise<number>;

interface CommandEntry {
  readonly usage: string;
  readonly run: Command;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: {
    usage: `  robots-edge check <robots.txt|-> <user-agent token> [url ...|-] [--json]
      One line per URL (arguments, or stdin one per line): "allowed" or "disallowed",
      a tab, the URL judged, a tab, then the deciding rule ("disallow: /x (line 7)") or
      the reason; --json: one JSON object per line {"url", "allowed", "rule", "reason",
      "group"}. A URL is an absolute http(s) URL or a path starting with "/". Given a
      whole User-Agent header instead of a token, its product tokens are derived as the
      edge does (named on stderr). robots.txt "-" reads it from stdin (URLs then as
      arguments). Exit 1 when any URL is disallowed.
  robots-edge check --jsonl
      stdin: JSON lines {"robots": "<robots.txt text>", "ua": "<token>", "url": "<url>"}
      stdout: one JSON line per input, in order: {"allowed", "rule", "reason", "group"}.
`,
    run: async (args, io) => {
      const { checkJsonLines, checkUrls } = await import("./check.ts");
      return args[0] === "--jsonl" && args.length === 1 ? checkJsonLines(io) : checkUrls(args, io);
    },
  },
  lint: {
    usage: `  robots-edge lint <robots.txt|-> [--json]
      Diagnostics, one per line: file:line: severity: message [code]; --json: one object
      {"file", "errors", "warnings", "groups", "diagnostics"}. Exit 1 on errors (a binary
      file is one).
  robots-edge lint --purposes <setting.json> [robots.txt]
      What a purposes setting generates for this origin file, and where it and the
      owner's lines disagree.
`,
    run: async (args, io) => (await import("./lint.ts")).lint(args, io),
  },
  purposes: {
    usage: `  robots-edge purposes <setting.json> [robots.txt]
      The robots.txt the edge serves for this origin file (none: the origin has none) and
      a purposes setting ({"purposes": […]} or the bare list): the generated lines, then
      the file unchanged. Notes on stderr; exit 1 when the setting cannot be applied.
`,
    run: async (args, io) => (await import("./purposes.ts")).purposes(args, io),
  },
  explain: {
    usage: `  robots-edge explain <robots.txt|-> "<User-Agent header>" <url> [--json]
      Crawler or human, tokens, group, deciding rule and line, decision, and what the edge
      would do (as the admin API's explain). Exit 1 when the edge would block.
`,
    run: async (args, io) => (await import("./explain.ts")).explain(args, io),
  },
  config: {
    usage: `  robots-edge config check [wrangler.toml|-] [--env NAME] [--json]
      Every var and binding validated as the Worker would, plus deploy traps: a var the
      Worker never reads, routes inside any table, a placeholder KV namespace id, a
      compatibility_date newer than the installed workerd, ADMIN_TOKEN as a var; notes how
      to see the ADMIN_TOKEN secret. Each problem with its fix; --json: one object
      {"file", "env", "errors", "warnings", "findings"}. Exit 1 on errors.
`,
    run: async (args, io) => (await import("./config-check.ts")).configCommand(args, io),
  },
};

export const USAGE = `usage:
${Object.values(COMMANDS)
  .map((command) => command.usage)
  .join("")}  robots-edge --version [--json]
  robots-edge <command> --help
`;

/** Run one command; returns the exit status. Never throws. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    await write(name === undefined ? io.stderr : io.stdout, USAGE);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === "--version" || name === "-v") {
    const json = args.includes("--json");
    await write(
      io.stdout,
      json ? `${JSON.stringify({ version: packageVersion() })}\n` : `robots-edge ${packageVersion()}\n`,
    );
    return EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    await write(io.stderr, `robots-edge: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (wantsHelp(args)) {
    await write(io.stdout, `usage:\n${command.usage}`);
    return EXIT_OK;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    await write(io.stderr, `robots-edge ${name}: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const version = typeof manifest === "object" && manifest !== null ? (manifest as { version?: unknown }).version : "";
  return typeof version === "string" ? version : "unknown";
}
