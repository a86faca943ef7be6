/**
 * The origin's lines that belong to no group, made inert in the served file (purposes-robots.ts).
 *
 * In the origin's own file, a line before its first user-agent line (a rule, a crawl-delay, a
 * Content-Usage line, an unknown field) applies to no crawler: RFC 9309 §2.1, Google, urllib
 * and robots-parser all drop it (core/parse.ts "rule-outside-group"). The served file puts the
 * generated groups in front, so that same line would follow the last generated group and join
 * it: a stray `Disallow: /` would close the site to every crawler that group names, a stray
 * `Allow:` would tie and lift a purposes block. Such a line is served commented out (`# ` in
 * front), so it means in the served file what it meant in the origin's: nothing. Pure.
 *
 * Left as they are: blank lines (they end no group and start none), comment lines, and sitemap
 * lines (a sitemap belongs to the file, not to a group, RFC 9309 §2.4). Each line keeps its
 * place and its line break, so the served file has the origin's lines at the origin's numbers
 * (served-lines.ts, one numbering). Lines are split as the parser splits them (CR, LF or
 * CR LF, core/text.ts splitLines); those are ASCII bytes, so the bytes are split unchanged.
 */

import type { RobotsTxt } from "../core/index.ts";

const COMMENT = [0x23, 0x20]; // "# "

/** The 1-based lines of `origin` (parsed as `model`) that would join a group put in front of it. */
export function strayLines(origin: Uint8Array, model: RobotsTxt): number[] {
  const firstAgent = model.groups[0]?.agentLines[0]?.line ?? Number.POSITIVE_INFINITY;
  const sitemaps = new Set(model.sitemaps.map(({ line }) => line));
  const stray: number[] = [];
  forEachLine(origin, (start, end, line) => {
    if (line >= firstAgent) return false;
    if (!sitemaps.has(line) && saysSomething(origin, start, end)) stray.push(line);
    return true;
  });
  return stray;
}

/** `origin` with each of `lines` (ascending, from strayLines) commented out. */
export function commentedOut(origin: Uint8Array, lines: readonly number[]): Uint8Array {
  if (lines.length === 0) return origin;
  const out = new Uint8Array(origin.length + COMMENT.length * lines.length);
  const wanted = new Set(lines);
  let written = 0;
  let copied = 0;
  forEachLine(origin, (start, _end, line) => {
    if (!wanted.has(line)) return line < (lines.at(-1) ?? 0);
    out.set(origin.subarray(copied, start), written);
    written += start - copied;
    out.set(COMMENT, written);
    written += COMMENT.length;
    copied = start;
    return line < (lines.at(-1) ?? 0);
  });
  out.set(origin.subarray(copied), written);
  return out.subarray(0, written + origin.length - copied);
}

/**
 * Calls `visit(start, end, line)` for each line (end excludes its break) until it returns
 * false. A break is CR LF, a lone CR or a lone LF, as splitLines reads them.
 */
function forEachLine(bytes: Uint8Array, visit: (start: number, end: number, line: number) => boolean): void {
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = bytes[i];
    if (i < bytes.length && byte !== 0x0a && byte !== 0x0d) continue;
    if (i === bytes.length && start === i && line > 1) return; // a final break ends the last line
    if (!visit(start, i, line)) return;
    if (byte === 0x0d && bytes[i + 1] === 0x0a) i++;
    start = i + 1;
    line++;
  }
}

/** Not blank and not already a comment: its first byte other than ASCII white space is no `#`. */
function saysSomething(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue;
    return byte !== 0x23;
  }
  return false;
}
