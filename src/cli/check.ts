/**
 * `robots-edge check`: decisions for URLs, one line each; and `check --jsonl`, the interface
 * other implementations are compared through.
 */

import { compileRobots, type Decision, type RobotsMatcher } from "../core/match.ts";
import { MatchingTooCostly } from "../core/match-budget.ts";
import { parseRobotsTxt } from "../core/parse.ts";
import { agentTokens } from "./agent-argument.ts";
import { formatReason } from "./format.ts";
import {
  CliError,
  EXIT_NO,
  EXIT_OK,
  EXIT_USAGE,
  readRobotsFile,
  STDIN,
  stdinLineBatches,
  terminalSafe,
  write,
  type Io,
} from "./io.ts";
import { requireUrlOrPath, urlOrPathTest } from "./url-argument.ts";
import { ByteLines } from "./byte-lines.ts";

/** An answer's bytes around the URL: `verdict<TAB>` and `<TAB>reason<LF>`. */
interface Answer {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
}

/**
 * `check <file> <token> [url…] [--json]`: URLs from the arguments, else (or given `-`) one per
 * line on stdin. A file of `-` is robots.txt from stdin, and then the URLs are arguments.
 */
export async function checkUrls(
  operands: readonly string[],
  { json }: { readonly json: boolean },
  io: Io,
): Promise<number> {
  const [file, agent, ...urlArgs] = operands;
  if (file === undefined || agent === undefined) {
    throw new CliError(
      "check needs a robots.txt file and a user-agent token: robots-edge check robots.txt Googlebot /path",
    );
  }
  const urlsFromStdin = urlArgs.length === 0 || (urlArgs.length === 1 && urlArgs[0] === STDIN);
  if (file === STDIN && urlsFromStdin) {
    throw new CliError(
      'robots.txt comes from stdin ("-"), so the URLs must be arguments: robots-edge check - Googlebot /path',
    );
  }
  const urls = urlsFromStdin ? [] : urlArgs;
  for (const url of urls) requireUrlOrPath(url);
  const { tokens, note, obeysGlobalGroup } = await agentTokens(agent);
  const decideOptions = { obeysGlobalGroup };
  if (note !== undefined) await write(io.stderr, `${note}\n`);
  const matcher = compileRobots(parseRobotsTxt(await readRobotsFile(file, io)));
  let anyDisallowed = false;
  const out = new ByteLines(io.stdout);
  // A matcher returns one shared object per possible decision (core/match.ts), so a file has
  // few: each one's bytes before and after the URL are made once, found by the decision itself.
  const answerFor = new Map<Decision, Answer>();
  const answer = (decision: Decision): Answer => {
    let parts = answerFor.get(decision);
    if (parts === undefined) {
      // `allowed<TAB>url<TAB>reason`: the verdict first, for `cut -f1`.
      const verdict = decision.allowed ? "allowed" : "disallowed";
      parts = { head: Buffer.from(`${verdict}\t`), tail: Buffer.from(`\t${terminalSafe(formatReason(decision))}\n`) };
      answerFor.set(decision, parts);
    }
    return parts;
  };
  const outputLine = json
    ? (url: string, decision: Decision) =>
        out.text(`${terminalSafe(JSON.stringify({ url, ...decisionJson(decision) }))}\n`)
    : (url: string, decision: Decision) => {
        const { head, tail } = answer(decision);
        // A URL of printable ASCII is copied as it is; any other is escaped and encoded.
        if (out.asciiLine(head, url, tail)) return;
        out.bytes(head);
        out.text(shownUrl(url));
        out.bytes(tail);
      };
  const isUrlOrPath = urlOrPathTest();
  // Lines gathered as bytes and written once per batch: a write per line costs more than the decision.
  const decideAll = async (batch: readonly string[], firstLine: number): Promise<void> => {
    for (let i = 0; i < batch.length; i++) {
      const url = (batch[i] ?? "").trim();
      if (url === "") continue;
      if (!isUrlOrPath(url)) requireUrlOrPath(url, `stdin line ${firstLine + i}:`);
      let decision: Decision;
      try {
        decision = matcher.decide(tokens, url, decideOptions);
      } catch (error) {
        if (!(error instanceof MatchingTooCostly)) throw error;
        // The URLs before it are answered; the one that could not be is named, and the run stops.
        await out.flush();
        throw new CliError(`${terminalSafe(url.slice(0, 80))}: not decided: ${error.message}`, { cause: error });
      }
      if (!decision.allowed) anyDisallowed = true;
      outputLine(url, decision);
    }
    await out.flush();
  };
  if (urls.length > 0) {
    await decideAll(urls, 1);
  } else {
    let lineNumber = 1;
    for await (const batch of stdinLineBatches(io)) {
      await decideAll(batch, lineNumber);
      lineNumber += batch.length;
    }
  }
  return anyDisallowed ? EXIT_NO : EXIT_OK;
}

/**
 * A URL that is not printable ASCII, as a column of check's output: control characters escaped,
 * tabs and line feeds too (a tab would shift the columns, a line feed start a line with no
 * verdict; the URL parser drops both, so such a URL is accepted). Printable ASCII is copied as
 * it stands (byte-lines.ts asciiLine) and never comes here.
 */
function shownUrl(url: string): string {
  return terminalSafe(url).replaceAll("\t", "\\u0009").replaceAll("\n", "\\u000a");
}

/** Parsed files reused across lines: differential runs repeat one robots.txt for many URLs. */
const MATCHER_CACHE_SIZE = 64;

/**
 * `check --jsonl`: `{"robots", "ua", "url"}` per input line -> one JSON line per input, in
 * order. A line that cannot be read gets `{"error": …}` in its place and the exit status is 2.
 */
export async function checkJsonLines(io: Io): Promise<number> {
  const cache = new Map<string, RobotsMatcher>();
  let status = EXIT_OK;
  let lineNumber = 0;
  let pending = "";
  for await (const batch of stdinLineBatches(io))
    for (const line of batch) {
      lineNumber++;
      if (line.trim() === "") continue;
      let output: string;
      try {
        output = JSON.stringify(decisionJson(decideJsonLine(line, lineNumber, cache)));
      } catch (error) {
        status = EXIT_USAGE;
        output = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
      }
      pending += `${output}\n`;
      if (pending.length > 64 * 1024) {
        await write(io.stdout, pending);
        pending = "";
      }
    }
  await write(io.stdout, pending);
  return status;
}

function decideJsonLine(line: string, lineNumber: number, cache: Map<string, RobotsMatcher>): Decision {
  const input = parseJson(line, lineNumber);
  const field = (name: string): string => {
    const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[name] : undefined;
    if (typeof value !== "string") throw new TypeError(`line ${lineNumber}: "${name}" must be a string`);
    return value;
  };
  const robots = field("robots");
  const matcher = cachedMatcher(robots, cache);
  return matcher.decide([field("ua")], field("url"));
}

function parseJson(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new TypeError(`line ${lineNumber}: not a JSON object (${error instanceof Error ? error.message : error})`, {
      cause: error,
    });
  }
}

function cachedMatcher(robots: string, cache: Map<string, RobotsMatcher>): RobotsMatcher {
  let matcher = cache.get(robots);
  if (!matcher) {
    matcher = compileRobots(parseRobotsTxt(robots));
    if (cache.size >= MATCHER_CACHE_SIZE) cache.delete(cache.keys().next().value ?? "");
    cache.set(robots, matcher);
  }
  return matcher;
}

/** The JSON form of a decision: `allowed`, the deciding rule (or null), the reason, the group. */
function decisionJson(decision: Decision) {
  return {
    allowed: decision.allowed,
    rule: decision.rule ?? null,
    reason: decision.reason,
    group: decision.group?.token ?? null,
  };
}
