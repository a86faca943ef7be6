/**
 * Where in the submitted text a policy problem is: the line of the JSON member a problem
 * names (`routes[1].rules[0].action` -> the line of that `"action"`), for the policy editor.
 * Pure. parsePolicy (operator-policy.ts) keeps reporting plain strings that start with the
 * member's path; this file only finds that path in the text, so the two cannot disagree on
 * what is wrong, only on where, and an unknown path falls back to its nearest parent's line.
 *
 * The scanner below never throws and never recurses (a body of 64 KiB of `[` cannot exhaust
 * the stack): it walks tokens once, keeping a stack of the containers it is in. Paths are
 * recorded only MAX_PATH_DEPTH containers deep: a policy's deepest member is
 * `routes[0].rules[0].crawlers[0]`, and paths of every depth of a deeply nested body would
 * cost memory quadratic in its length.
 */

const MAX_PATH_DEPTH = 8;

/** A problem, with the line of the submitted text it is about (1-based). */
export interface LocatedProblem {
  readonly line: number;
  readonly problem: string;
}

interface Container {
  readonly kind: "object" | "array";
  readonly path: string;
  index: number;
  key: string | undefined;
  awaitingKey: boolean;
}

/** Each member's path (`routes[0].mode`, as parsePolicy names it) and the line it starts on. */
export function jsonMemberLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: Container[] = [];
  let line = 1;
  const valuePath = (): string => {
    const top = stack.at(-1);
    if (!top) return "";
    if (top.kind === "array") return `${top.path}[${top.index}]`;
    return top.path === "" ? (top.key ?? "") : `${top.path}.${top.key ?? ""}`;
  };
  const value = (): string => {
    if (stack.length > MAX_PATH_DEPTH) return "";
    const path = valuePath();
    if (!lines.has(path)) lines.set(path, line);
    return path;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\n") line++;
    else if (char === '"') {
      const end = stringEnd(text, i);
      const top = stack.at(-1);
      if (top?.kind === "object" && top.awaitingKey) {
        top.key = decodeKey(text.slice(i, end + 1));
        top.awaitingKey = false;
        value();
      } else value();
      i = end;
    } else if (char === "{" || char === "[") {
      const path = value();
      stack.push({
        kind: char === "{" ? "object" : "array",
        path,
        index: 0,
        key: undefined,
        awaitingKey: char === "{",
      });
    } else if (char === "}" || char === "]") stack.pop();
    else if (char === ",") {
      const top = stack.at(-1);
      if (top?.kind === "array") top.index++;
      else if (top) top.awaitingKey = true;
    } else if (char !== undefined && !/[\s:]/.test(char)) {
      value();
      while (i + 1 < text.length && !/[\s,:\]}[{"]/.test(text[i + 1] ?? "")) i++;
    }
  }
  return lines;
}

/** The index of the closing quote of the string opening at `start` (or the text's end). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"' || text[i] === "\n") return i;
  }
  return text.length - 1;
}

function decodeKey(quoted: string): string {
  try {
    const key: unknown = JSON.parse(quoted);
    return typeof key === "string" ? key : quoted;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** A problem's path: the leading `routes[0].rules[1].action` (`purposes[0].ai-training`) of parsePolicy's wording. */
const LEADING_PATH = /^[A-Za-z_$][\w$]*(?:\[\d+\]|\.[A-Za-z_$][\w$-]*)*/;
/** V8's JSON.parse says where it stopped: "... in JSON at position 42 (line 3 column 5)". */
const JSON_POSITION = /at position (\d+)/;

/** Each problem of parsePolicy(text) with the line it is about (line 1 when it names none). */
export function locateProblems(text: string, problems: readonly string[]): LocatedProblem[] {
  const lines = jsonMemberLines(text);
  return problems.map((problem) => ({ line: lineOf(problem, text, lines), problem }));
}

function lineOf(problem: string, text: string, lines: Map<string, number>): number {
  const position = problem.startsWith("not JSON") ? JSON_POSITION.exec(problem)?.[1] : undefined;
  if (position !== undefined) return lineAtOffset(text, Number(position));
  let path = LEADING_PATH.exec(problem)?.[0];
  while (path) {
    const line = lines.get(path);
    if (line !== undefined) return line;
    path = parentPath(path);
  }
  return lines.get("") ?? 1;
}

function parentPath(path: string): string | undefined {
  const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
  return cut > 0 ? path.slice(0, cut) : undefined;
}

function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) if (text[i] === "\n") line++;
  return line;
}
