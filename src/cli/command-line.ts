/**
 * A command's arguments, read by Node's own `parseArgs` (strict: an option the command does not
 * declare is a usage error; `--name=value` and `--name value` alike; `--` ends the options, so a
 * file named `-x` is `-- -x`). What is ours is the wording of its errors, below.
 */

import type { ParseArgsOptionsConfig } from "node:util";
import { CliError } from "./io.ts";

// Not `import … from "node:util"`: an ES import of util builds its whole namespace, which runs
// util's lazy getters: 7 ms of a ~40 ms `check` start-up (median of 9 runs, Node 24), against
// 0.2 ms for the module object Node has already loaded.
const { parseArgs } = process.getBuiltinModule("node:util");

/** A command's options, as parseArgs declares them. */
export type CommandOptions = ParseArgsOptionsConfig;

/** What parseArgs makes of `args` under `options`: typed values (defaults applied) and the operands. */
export type CommandLine<O extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>;

/** The options and operands of `args`; a CliError saying which argument is wrong and how. */
export function parseCommandLine<const O extends CommandOptions>(args: readonly string[], options: O): CommandLine<O> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) throw error;
    throw new CliError(wrongOption(args, options) ?? (error as Error).message, { cause: error });
  }
}

/**
 * Our wording of a parseArgs error: it carries no option name as data, and its text (single
 * quotes, an unclosed quote in Node 24) is not the CLI's documented `unknown option "--x"`.
 * The same parse, not strict, names the first option that the strict one refused.
 */
function wrongOption(args: readonly string[], options: CommandOptions): string | undefined {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const declared = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (declared === undefined) {
      const known = Object.keys(options).map((name) => `--${name}`);
      return `unknown option ${JSON.stringify(token.rawName)} (this command takes ${known.join(", ")})`;
    }
    // Strict parseArgs refuses a value that looks like an option (`--env --json`, not `--env -`).
    const optionLike = !token.inlineValue && token.value !== undefined && /^-./.test(token.value);
    const missing = token.value === undefined || optionLike;
    if (declared.type === "string" && missing)
      return `${token.rawName} needs a value (${token.rawName} VALUE or ${token.rawName}=VALUE)`;
    if (declared.type === "boolean" && token.value !== undefined) return `${token.rawName} takes no value`;
  }
  return undefined;
}
