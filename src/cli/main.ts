/**
 * The `robots-edge` command line, over the core only (no Worker code).
 * Exit statuses: 0 success; 1 a documented "no" (a URL disallowed, lint errors, config
 * errors); 2 usage or I/O errors, with what failed and how to fix it.
 * Commands are imported when called: `check` must not pay for explain's crawler table at start-up.
 */

import { readFileSync } from "node:fs";
import { parseCommandLine, type CommandLine, type CommandOptions } from "./command-line.ts";
import { CliError, EXIT_OK, EXIT_USAGE, write, type Io } from "./io.ts";

interface CommandEntry {
  readonly usage: string;
  /** Reads the arguments (`--help`/`-h` among them: the usage, never a file of that name) and runs. */
  readonly run: (args: readonly string[], io: Io) => Promise<number>;
}

const JSON_OPTION = { json: { type: "boolean", default: false } } as const;
const HELP_OPTION = { help: { type: "boolean", short: "h", default: false } } as const;

/** A command: its usage, the options it declares (every other one is a usage error), and what it does. */
function command<const O extends CommandOptions>(
  usage: string,
  options: O,
  run: (line: CommandLine<O>, io: Io) => Promise<number>,
): CommandEntry {
  return {
    usage,
    run: async (args, io) => {
      const line = parseCommandLine(args, { ...options, ...HELP_OPTION });
      // The help option is every command's: a generic O cannot show it in the parsed type.
      if ((line.values as { help?: boolean }).help) {
        await write(io.stdout, `usage:\n${usage}`);
        return EXIT_OK;
      }
      return run(line as CommandLine<O>, io);
    },
  };
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: command(
    `  robots-edge check <robots.txt|-> <user-agent token> [url ...|-] [--json]
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
    { ...JSON_OPTION, jsonl: { type: "boolean", default: false } },
    async ({ values, positionals }, io) => {
      const { checkJsonLines, checkUrls } = await import("./check.ts");
      if (!values.jsonl) return checkUrls(positionals, values, io);
      if (positionals.length > 0 || values.json) {
        throw new CliError(
          "--jsonl takes its cases on stdin and nothing else: robots-edge check --jsonl < cases.jsonl",
        );
      }
      return checkJsonLines(io);
    },
  ),
  lint: command(
    `  robots-edge lint <robots.txt|-> [--json]
      Diagnostics, one per line: file:line: severity: message [code]; --json: one object
      {"file", "errors", "warnings", "groups", "diagnostics"}. Exit 1 on errors (a binary
      file is one).
  robots-edge lint --purposes <setting.json> [robots.txt]
      What a purposes setting generates for this origin file, and where it and the
      owner's lines disagree.
`,
    { ...JSON_OPTION, purposes: { type: "boolean", default: false } },
    async ({ values, positionals }, io) => {
      if (values.purposes) return (await import("./purposes.ts")).lintPurposes(positionals, values, io);
      return (await import("./lint.ts")).lint(positionals, values, io);
    },
  ),
  purposes: command(
    `  robots-edge purposes <setting.json> [robots.txt]
      The robots.txt the edge serves for this origin file (none: the origin has none) and
      a purposes setting ({"purposes": […]} or the bare list): the generated lines, then
      the file (its lines before any user-agent line commented out: they apply to no crawler).
      Notes on stderr; exit 1 when the setting cannot be applied.
`,
    JSON_OPTION,
    async ({ values, positionals }, io) => (await import("./purposes.ts")).purposes(positionals, values, io),
  ),
  explain: command(
    `  robots-edge explain <robots.txt|-> "<User-Agent header>" <url> [--json]
      Crawler or human, tokens, group, deciding rule and line, decision, and what the edge
      would do (as the admin API's explain). Exit 1 when the edge would block.
`,
    JSON_OPTION,
    async ({ values, positionals }, io) => (await import("./explain.ts")).explain(positionals, values, io),
  ),
  charges: command(
    `  robots-edge charges <edge URL> [--from DATE] [--to DATE] [--operator NAME] [--origin URL] [--prefix /__robots/] [--csv]
      The edge's charges ledger (pay per crawl), for a period (default the last 31 days;
      --to exclusive) and one operator or all, from its admin API (GET charges), as JSON or
      CSV on stdout. The admin token from ROBOTS_EDGE_TOKEN. Settlement is not done here.
`,
    {
      from: { type: "string" },
      to: { type: "string" },
      operator: { type: "string" },
      origin: { type: "string" },
      prefix: { type: "string" },
      csv: { type: "boolean", default: false },
    },
    async ({ values, positionals }, io) => (await import("./charges.ts")).charges(positionals, values, io),
  ),
  config: command(
    `  robots-edge config check [wrangler.toml|-] [--env NAME] [--json]
      Every var and binding validated as the Worker would, plus deploy traps: a var the
      Worker never reads, routes inside any table, a placeholder KV namespace id, a
      compatibility_date newer than the installed workerd, ADMIN_TOKEN as a var; notes how
      to see the ADMIN_TOKEN secret. Each problem with its fix; --json: one object
      {"file", "env", "errors", "warnings", "findings"}. Exit 1 on errors.
`,
    { ...JSON_OPTION, env: { type: "string" } },
    async ({ values, positionals }, io) => (await import("./config-check.ts")).configCommand(positionals, values, io),
  ),
  policy: command(
    `  robots-edge policy pull [file] [--edge URL] [--token TOKEN] [--json]
      The edge's default and per-host policies, as one policy file
      (schema/policy-file.schema.json); no file: stdout.
  robots-edge policy plan <file> [--urls FILE] [--allow-search-changes] [--json]
      Validates the file, then per policy it names: the change, and the decisions that
      would flip (replay of the recorded traffic; with --urls, each URL or path of FILE
      asked of every search crawler and every crawler the policies name), by crawler.
      Exit 1 when a search crawler would be refused what it is let through today.
  robots-edge policy apply <file> [--urls FILE] [--allow-search-changes] [--json]
      The plan, the same check, then each changed policy saved with If-Match (a conflict
      saves nothing for that host; exit 1); prints the new versions.
      The edge: --edge (the site, or its admin prefix) or ROBOTS_EDGE_URL; the ADMIN_TOKEN:
      --token or ROBOTS_EDGE_TOKEN.
`,
    {
      ...JSON_OPTION,
      edge: { type: "string" },
      token: { type: "string" },
      urls: { type: "string" },
      "allow-search-changes": { type: "boolean", default: false },
    },
    async ({ values, positionals }, io) => (await import("./policy-command.ts")).policyCommand(positionals, values, io),
  ),
};

const USAGE = `usage:
${Object.values(COMMANDS)
  .map((entry) => entry.usage)
  .join("")}  robots-edge --version [--json]
  robots-edge <command> --help
`;

/** `robots-edge`, `robots-edge --help`, `robots-edge --version [--json]`: options before any command. */
const TOP_LEVEL: CommandEntry = {
  usage: USAGE,
  run: async (argv, io) => {
    const { values, positionals } = parseCommandLine(argv, {
      ...HELP_OPTION,
      ...JSON_OPTION,
      version: { type: "boolean", short: "v", default: false },
    });
    if (values.help) return writeUsage(io.stdout, EXIT_OK);
    if (positionals.length > 0) throw new CliError("the command comes first: robots-edge <command> [options]");
    if (!values.version) return writeUsage(io.stderr, EXIT_USAGE);
    const version = packageVersion();
    await write(io.stdout, values.json ? `${JSON.stringify({ version })}\n` : `robots-edge ${version}\n`);
    return EXIT_OK;
  },
};

/** Run one command; returns the exit status. Never throws. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === "help") return writeUsage(io.stdout, EXIT_OK);
  const topLevel = name === undefined || name.startsWith("-");
  const entry = topLevel ? TOP_LEVEL : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    await write(io.stderr, `robots-edge: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    return await entry.run(topLevel ? argv : args, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    await write(io.stderr, `robots-edge${topLevel ? "" : ` ${name}`}: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

async function writeUsage(stream: NodeJS.WritableStream, status: number): Promise<number> {
  await write(stream, USAGE);
  return status;
}

function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const version = typeof manifest === "object" && manifest !== null ? (manifest as { version?: unknown }).version : "";
  return typeof version === "string" ? version : "unknown";
}
