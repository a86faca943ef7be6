/**
 * `robots-edge purposes <setting.json> [robots.txt]`: the robots.txt the edge would serve for
 * an origin file (none: the origin has no robots.txt) and a purposes setting, on stdout, so an
 * owner can paste it into a site without the edge; the lint's notes on stderr.
 * `robots-edge lint --purposes <setting.json> [robots.txt]`: only what the setting adds (the
 * generated lines) and the notes, as `file: severity: message` lines.
 *
 * The setting is a policy document ({"purposes": […]}, as PUT policy takes) or the bare list.
 */

import { readFile } from "node:fs/promises";
import { parsePolicy } from "../policy/operator-policy.ts";
import { compilePurposes, type ServedRobots } from "../policy/purposes-robots.ts";
import type { Purposes } from "../policy/purposes.ts";
import { splitOptions } from "./args.ts";
import { CliError, EXIT_NO, EXIT_OK, readRobotsFile, write, type Io } from "./io.ts";

export async function purposes(args: readonly string[], io: Io): Promise<number> {
  const served = await compileFromArgs("purposes", args, []);
  await write(io.stdout, new TextDecoder().decode(served.result.body));
  await writeNotes(io.stderr, served.setting, served.result);
  return served.result.applied ? EXIT_OK : EXIT_NO;
}

export async function lintPurposes(args: readonly string[], io: Io): Promise<number> {
  const served = await compileFromArgs("lint", args, ["--purposes"]);
  await write(io.stdout, served.result.generated);
  await writeNotes(io.stdout, served.setting, served.result);
  const warnings = served.result.notes.filter((note) => note.severity === "warning").length;
  await write(io.stderr, `${served.setting}: ${warnings} warning(s), ${served.result.notes.length} note(s)\n`);
  return served.result.applied ? EXIT_OK : EXIT_NO;
}

async function compileFromArgs(
  command: string,
  args: readonly string[],
  known: readonly string[],
): Promise<{ setting: string; result: ServedRobots }> {
  const [setting, robots, extra] = splitOptions(command, args, known).operands;
  if (setting === undefined) {
    throw new CliError(
      `${command} needs a purposes setting: robots-edge ${[command, ...known].join(" ")} setting.json [robots.txt]`,
    );
  }
  if (extra !== undefined) throw new CliError(`unexpected argument ${JSON.stringify(extra)}`);
  const list = await readSetting(setting);
  const origin = robots === undefined ? undefined : await readRobotsFile(robots);
  return { setting, result: compilePurposes(origin, list) };
}

/** The setting's purposes, validated as PUT policy validates them. */
async function readSetting(path: string): Promise<Purposes> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(
      `cannot read purposes setting ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const bare = text.trimStart().startsWith("[");
  const parsed = parsePolicy(bare ? `{"purposes": ${text}}` : text);
  if (!parsed.ok) throw new CliError(`${path}: ${parsed.problems.join("; ")}`);
  const list = parsed.value.policy.purposes;
  if (list === undefined) throw new CliError(`${path}: the policy has no "purposes" list`);
  return list;
}

async function writeNotes(stream: NodeJS.WritableStream, setting: string, result: ServedRobots): Promise<void> {
  await write(stream, result.notes.map((note) => `${setting}: ${note.severity}: ${note.message}\n`).join(""));
}
