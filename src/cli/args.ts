/** Command-line arguments: options apart from operands, and operands checked before use. */

import { CliError } from "./io.ts";

/** `--help` or `-h` anywhere asks for the command's usage, never for a file of that name. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes("--help") || args.includes("-h");
}

/**
 * Operands and the options among `known`; any other argument starting with "-" is a usage
 * error (no URL or path we accept starts with "-"; a file that does can be named ./-x).
 */
export function splitOptions(
  _command: string,
  args: readonly string[],
  known: readonly string[],
): { operands: string[]; options: Set<string> } {
  const operands: string[] = [];
  const options = new Set<string>();
  for (const arg of args) {
    if (!arg.startsWith("-") || arg === "-") operands.push(arg);
    else if (known.includes(arg)) options.add(arg);
    else throw new CliError(`unknown option ${JSON.stringify(arg)}`);
  }
  return { operands, options };
}

const HTTP_URL = /^https?:\/\//i;

/**
 * True for what the edge itself judges: a path starting with "/" or an absolute http(s) URL.
 * Anything else ("search/foo", "not a url") has no answer, so it must not get one.
 */
export function isUrlOrPath(url: string): boolean {
  if (url.startsWith("/")) return true;
  return HTTP_URL.test(url) && URL.canParse(url);
}

/** The argument, or a usage error naming it. */
export function requireUrlOrPath(command: string, url: string, where = "argument"): string {
  if (isUrlOrPath(url)) return url;
  throw new CliError(
    `${where} ${JSON.stringify(url)} is neither an absolute http(s) URL nor a path starting with "/" (write /${url.replace(/^\/*/, "")} for a path)`,
  );
}
