// The commands the docs show running against `npm run dev`'s demo, with the answers they
// document, so a test can run them and the docs cannot drift. Pure: the markdown in, steps out.
//
// The convention (CONTRIBUTING.md "Documented commands"): a fenced block whose info string is
// `sh demo`; each line starting with "$ " is a command (run by bash, the demo at
// http://127.0.0.1:8787), the lines after it up to the next command are its documented output.
// A line of just "..." stands for any number of lines.

export interface DocumentedCommand {
  /** Where it is written: "docs/operating.md:42". */
  readonly where: string;
  readonly command: string;
  readonly expected: readonly string[];
}

const FENCE_OPEN = /^```sh demo\s*$/;
const FENCE_CLOSE = /^```\s*$/;
export const ANY_LINES = "...";

/** Every `sh demo` block's commands in one markdown file, in order. */
export function documentedCommands(file: string, markdown: string): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  const lines = markdown.split("\n");
  let inBlock = false;
  let current: { where: string; command: string; expected: string[] } | undefined;
  const flush = () => {
    if (current) commands.push(current);
    current = undefined;
  };
  lines.forEach((line, index) => {
    if (!inBlock) {
      inBlock = FENCE_OPEN.test(line);
      return;
    }
    if (FENCE_CLOSE.test(line)) {
      flush();
      inBlock = false;
    } else if (line.startsWith("$ ")) {
      flush();
      current = { where: `${file}:${index + 1}`, command: line.slice(2), expected: [] };
    } else if (current) {
      current.expected.push(line);
    }
  });
  return commands;
}

const trim = (line: string) => line.trimEnd();

/**
 * Whether `actual` output lines are the documented ones: equal line by line (trailing spaces
 * aside), where a documented "..." line matches any number of lines, none included.
 */
export function matchesDocumented(expected: readonly string[], actual: readonly string[]): boolean {
  const match = (e: number, a: number): boolean => {
    if (e === expected.length) return a === actual.length;
    if (trim(expected[e] ?? "") === ANY_LINES) {
      for (let skip = a; skip <= actual.length; skip++) if (match(e + 1, skip)) return true;
      return false;
    }
    return a < actual.length && trim(expected[e] ?? "") === trim(actual[a] ?? "") && match(e + 1, a + 1);
  };
  return match(0, 0);
}

/** Output text as the lines a doc would show: no trailing empty line. */
export function outputLines(text: string): string[] {
  const lines = text.split("\n");
  while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
  return lines;
}
