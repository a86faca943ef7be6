/**
 * `robots-edge purposes <setting.json> [robots.txt]`: the robots.txt the edge would serve for
 * an origin file (none: the origin has no robots.txt) and a purposes setting, on stdout, so an
 * owner can paste it into a site without the edge; the lint's notes on stderr.
 * `robots-edge lint --purposes <setting.json> [robots.txt]`: only what the setting adds (the
 * generated lines) and the notes, as `file: severity: message` lines.
 *
 * The setting is a policy document ({"purposes": […]}, as PUT policy takes) or the bare list.
 */

import { MAX_POLICY_BYTES, parsePolicy } from "../policy/operator-policy.ts";
import { compilePurposes, type ServedRobots } from "../policy/purposes-robots.ts";
import type { Purposes } from "../policy/purposes.ts";
import { CliError, EXIT_NO, EXIT_OK, readRobotsFile, readWhole, write, type Io } from "./io.ts";

interface PurposesOptions {
  readonly json: boolean;
}

export async function purposes(operands: readonly string[], options: PurposesOptions, io: Io): Promise<number> {
  const served = await compileFromArgs("purposes", operands, options, io);
  const { result } = served;
  const text = new TextDecoder().decode(result.body);
  if (served.json) {
    await write(io.stdout, `${JSON.stringify({ served: text, applied: result.applied, notes: result.notes })}\n`);
  } else {
    await write(io.stdout, text);
    await writeNotes(io.stderr, served.setting, result);
  }
  return result.applied ? EXIT_OK : EXIT_NO;
}

export async function lintPurposes(operands: readonly string[], options: PurposesOptions, io: Io): Promise<number> {
  const served = await compileFromArgs("lint --purposes", operands, options, io);
  const { result } = served;
  const warnings = result.notes.filter((note) => note.severity === "warning").length;
  if (served.json) {
    const answer = {
      setting: served.setting,
      generated: result.generated,
      applied: result.applied,
      notes: result.notes,
    };
    await write(io.stdout, `${JSON.stringify(answer)}\n`);
  } else {
    await write(io.stdout, result.generated);
    await writeNotes(io.stdout, served.setting, result);
    await write(io.stderr, `${served.setting}: ${warnings} warning(s), ${result.notes.length} note(s)\n`);
  }
  return result.applied ? EXIT_OK : EXIT_NO;
}

async function compileFromArgs(
  command: string,
  operands: readonly string[],
  { json }: PurposesOptions,
  io: Io,
): Promise<{ setting: string; result: ServedRobots; json: boolean }> {
  const [setting, robots, extra] = operands;
  if (setting === undefined) {
    throw new CliError(`${command} needs a purposes setting: robots-edge ${command} setting.json [robots.txt]`);
  }
  if (extra !== undefined) throw new CliError(`unexpected argument ${JSON.stringify(extra)}`);
  if (setting === "-" && robots === "-") throw new CliError("only one of the setting and robots.txt can be stdin (-)");
  const list = await readSetting(setting, io);
  const origin = robots === undefined ? undefined : await readRobotsFile(robots, io);
  return { setting, result: compilePurposes(origin, list), json };
}

/** The setting's purposes, validated as PUT policy validates them. */
async function readSetting(path: string, io: Io): Promise<Purposes> {
  // Read as PUT policy reads a body: no more than it accepts (a CliError names the file).
  const text = new TextDecoder().decode(
    await readWhole(path, io, MAX_POLICY_BYTES, "the most a policy may be (PUT policy)", "purposes setting"),
  );
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
