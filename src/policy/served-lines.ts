/**
 * One numbering for the robots.txt the edge serves with purposes (purposes-robots.ts): the
 * generated lines come first, then the origin's file, line for line (its lines before any
 * user-agent line commented out in place, stray-lines.ts: no line added or removed). Every report of a line (the
 * X-Robots-Edge header, the 403 body, the log, activity, explain, the tester, GET robots and
 * the page) cites
 *   - a line of the origin's file by its number in the origin's file ("line 25"), the number
 *     the site owner sees in their own file and editor, whatever the purposes add above it;
 *   - a generated line n (the n-th line of the served file, since they come first) as `g<n>`
 *     ("generated line 3"); in JSON, where a line is a number, as -n.
 * docs/decisions.md "One numbering". Pure.
 *
 * The served file's model is renumbered once, when it is compiled (robots/purposes-served.ts):
 * what the matcher decides with already carries the cited numbers, so nothing downstream
 * converts. Renumbering keeps what line order decides: generated lines stay before the origin's
 * (negative below positive). Among generated lines -n reverses the order, which no tie can
 * meet: a generated group's rules are all generated (a token the origin names gets no generated
 * group), and the generated usage lines of one format have distinct paths.
 */

import type { RobotsTxt } from "../core/index.ts";

/** How many lines of the served file the generated text takes (it ends with a line break). */
export function generatedLineCount(generated: string): number {
  let count = 0;
  for (let at = generated.indexOf("\n"); at >= 0; at = generated.indexOf("\n", at + 1)) count++;
  return count;
}

/** The served line number (1-based) as it is cited; 0 (the whole file) stays 0. */
export function citedLine(servedLine: number, generatedLines: number): number {
  if (servedLine <= 0) return servedLine;
  return servedLine <= generatedLines ? -servedLine : servedLine - generatedLines;
}

/** The served file's model with every line as it is cited (see the file comment). */
export function withCitedLines(model: RobotsTxt, generatedLines: number): RobotsTxt {
  if (generatedLines === 0) return model;
  // Every line number in the model is a `line` member (model.ts); a JSON walk reaches them all.
  return JSON.parse(JSON.stringify(model), (key, value: unknown) =>
    key === "line" && typeof value === "number" ? citedLine(value, generatedLines) : value,
  ) as RobotsTxt;
}

/** A cited line for a header: `25`, or `g3` for a generated line. */
export function lineLabel(line: number): string {
  return line < 0 ? `g${-line}` : String(line);
}

/** A cited line in words: `line 25`, or `generated line 3`. */
export function lineWords(line: number): string {
  return line < 0 ? `generated line ${-line}` : `line ${line}`;
}
