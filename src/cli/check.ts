/**
 * `robots-edge check`: decisions for URLs, one line each; and `check --jsonl`, the interface
 * other implementations are compared through.
 */

import { compileRobots, parseRobotsTxt, type Decision, type RobotsMatcher } from "../core/index.ts";
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
  writeSafe,
  type Io,
} from "./io.ts";
import { isUrlOrPath, requireUrlOrPath } from "./url-argument.ts";

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
  // A file has few distinct answers: each one's verdict and reason is made terminal-safe once.
  const answerFor = new Map<unknown, readonly [string, string]>();
  const answer = (decision: Decision): readonly [string, string] => {
    // The rule object when a rule decided (one per rule in the compiled file), else reason and group.
    const key = decision.rule ?? noRuleKey(decision);
    let parts = answerFor.get(key);
    if (parts === undefined) {
      parts = [decision.allowed ? "allowed" : "disallowed", terminalSafe(formatReason(decision))];
      answerFor.set(key, parts);
    }
    return parts;
  };
  // Without a deciding rule the answer is its reason and group: one key object per pair, found
  // without building a string per line (half the lines of a typical run decide with no rule).
  const noRuleKeys = new Map<string, Map<unknown, object>>();
  const noRuleKey = (decision: Decision): object => {
    let byGroup = noRuleKeys.get(decision.reason);
    if (byGroup === undefined) noRuleKeys.set(decision.reason, (byGroup = new Map()));
    let key = byGroup.get(decision.group);
    if (key === undefined) byGroup.set(decision.group, (key = {}));
    return key;
  };
  const outputLine = json
    ? (url: string, decision: Decision) => `${terminalSafe(JSON.stringify({ url, ...decisionJson(decision) }))}\n`
    : (url: string, decision: Decision) => {
        const [verdict, reason] = answer(decision);
        // `allowed<TAB>url<TAB>reason`: the verdict first, for `cut -f1`. A tab inside the URL
        // would shift the columns, so it is shown escaped, like a control character.
        return `${verdict}\t${shownUrl(url)}\t${reason}\n`;
      };
  // One string per batch of lines and one write for it: a write per line costs more than the decision.
  const decideAll = (batch: readonly string[], firstLine: number): string => {
    let output = "";
    for (let i = 0; i < batch.length; i++) {
      const url = (batch[i] ?? "").trim();
      if (url === "") continue;
      if (!isUrlOrPath(url)) requireUrlOrPath(url, `stdin line ${firstLine + i}:`);
      const decision = matcher.decide(tokens, url, decideOptions);
      if (!decision.allowed) anyDisallowed = true;
      output += outputLine(url, decision);
    }
    return output;
  };
  if (urls.length > 0) {
    await writeSafe(io.stdout, decideAll(urls, 1));
  } else {
    let lineNumber = 1;
    for await (const batch of stdinLineBatches(io)) {
      await writeSafe(io.stdout, decideAll(batch, lineNumber));
      lineNumber += batch.length;
    }
  }
  return anyDisallowed ? EXIT_NO : EXIT_OK;
}

/**
 * A URL as a column of check's output: control characters and tabs escaped (a tab would shift
 * the columns). Almost every URL has neither, and testing first keeps the copy and the regular
 * expression's replace off the per-line path (bench/cli.bench.ts).
 */
function shownUrl(url: string): string {
  return NEEDS_ESCAPE.test(url) ? terminalSafe(url).replaceAll("\t", "\\u0009") : url;
}

// oxlint-disable-next-line no-control-regex -- finding control characters is the point
const NEEDS_ESCAPE = /[\u0000-\u001f\u007f-\u009f]/;

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
