/**
 * Purposes compiled into the robots.txt the edge serves AND enforces: the origin's file,
 * untouched, after generated lines that say the purposes to every known crawler in its own
 * token. Pure: bytes and a setting in, bytes and notes out. The Worker serves `body` and
 * builds the decision's matcher from the same `body`, so a compliant crawler and the edge read
 * one file (src/worker/robots/purposes-served.ts).
 *
 * What is generated (docs/decisions.md "Purposes"):
 *   - a `User-agent: *` group holding only Content-Usage / Content-Signal lines for the paths
 *     (merged by every reader into the origin's `*` group; it adds no rule). They are stated
 *     there once: a generated named group restates the origin's own usage lines only, since a
 *     copy in every group would multiply the file and its lint's cost (usage lines are checked
 *     against every rule of their group);
 *   - for each crawler a purpose blocks somewhere, a group naming its token that restates the
 *     group it obeyed in the origin's file (its `*` group, or the group of the token it falls
 *     back to), so naming it never opens what that group closed, then `Disallow:` for each
 *     blocked prefix. Crawlers whose groups come out the same share one group.
 *   - a "shield" group for a crawler the purposes leave alone but whose fallback token now has
 *     a generated group (Applebot follows a Googlebot group when none names Applebot): it
 *     restates what that crawler obeyed before, so blocking one never blocks another.
 * A token the origin's file names keeps the owner's group, untouched; notes say where the
 * owner's lines and the purposes disagree.
 *
 * Generated lines come first: a reader that stops at 500 KiB (Google; this parser) still reads
 * them, and the edge enforces what such a reader reads. A served file that would pass
 * MAX_ROBOTS_BYTES is not generated at all (the origin's file is served, with a note).
 *
 * The origin's file follows unchanged but for its lines before its first user-agent line: they
 * apply to no crawler there and would join the last generated group here, so they are served
 * commented out (stray-lines.ts), each at its own line number, with a warning. A UTF-16 origin
 * file (core/text.ts) is not combined with UTF-8 lines: the purposes are not applied to it.
 */

import type { CrawlerCategory } from "../vocabulary.ts";
import { KNOWN_CRAWLERS, PURPOSE_SWITCHES, type KnownCrawler, type PurposeSwitch } from "../agents/operators/tables.ts";
import {
  compilePathPattern,
  compileRobots,
  parseRobotsTxt,
  productToken,
  USAGE_KEYS,
  MAX_ROBOTS_BYTES,
  MatchingTooCostly,
  type AppliedGroup,
  type Decision,
  type RobotsMatcher,
  type Rule,
} from "../core/index.ts";
import { writeRateLines, writeRule, writeUsageLine } from "../core/robots-text.ts";
import { actionFor, blockedPrefixes, categoryBlockedAt, unexpressibleAllows, type Purposes } from "./purposes.ts";
import { commentedOut, strayLines } from "./stray-lines.ts";

/** What the lint says about a setting against an origin file. */
export interface PurposesNote {
  readonly severity: "warning" | "info";
  readonly message: string;
}

export interface ServedRobots {
  /**
   * The file to serve and to enforce: generated lines, then the origin's bytes, its lines
   * before any user-agent line commented out (stray-lines.ts).
   */
  readonly body: Uint8Array;
  /** The generated lines alone ("" when the setting adds nothing). */
  readonly generated: string;
  /** False when the purposes could not be applied and `body` is the origin's file alone. */
  readonly applied: boolean;
  readonly notes: readonly PurposesNote[];
}

/** A crawler the purposes may speak to: a table entry, a purpose switch, or a token the operator named. */
export interface Subject {
  readonly token: string;
  /** Its token, then the tokens it falls back to (the matcher's order). */
  readonly chain: readonly string[];
  readonly obeysGlobalGroup: boolean;
  readonly category: CrawlerCategory;
}

export const GENERATED_HEADER = "# robots-edge: lines generated from the site's purposes setting";
export const GENERATED_FOOTER = "# robots-edge: end of generated lines; the origin's robots.txt follows, unchanged";
/** The footer when some of the origin's lines are served commented out. */
export const GENERATED_FOOTER_STRAY =
  "# robots-edge: end of generated lines; the origin's robots.txt follows, its lines before any User-agent line commented out (they apply to no crawler)";
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The served robots.txt for an origin's file (undefined: the origin has none) and a setting. */
export function compilePurposes(
  origin: Uint8Array | string | undefined,
  purposes: Purposes,
  crawlers: readonly KnownCrawler[] = KNOWN_CRAWLERS,
  switches: readonly PurposeSwitch[] = PURPOSE_SWITCHES,
): ServedRobots {
  const originBytes = withoutBom(
    typeof origin === "string" ? new TextEncoder().encode(origin) : (origin ?? new Uint8Array()),
  );
  const originModel = parseRobotsTxt(originBytes);
  const originMatcher = compileRobots(originModel);
  const subjects = subjectsOf(purposes, crawlers, switches);
  const notes: PurposesNote[] = [];
  const usage = usageLines(purposes);
  const tooLarge = (size: string): ServedRobots => ({
    body: originBytes,
    generated: "",
    applied: false,
    notes: [
      ...notes,
      {
        severity: "warning",
        message: `the served file would be ${size} bytes, more than a crawler reads (${MAX_ROBOTS_BYTES}); the origin's file is served alone and the purposes are not applied`,
      },
    ],
  });
  if (originModel.diagnostics.some(({ code }) => code === "utf16" || code === "utf16-mangled-bom"))
    return notApplied(originBytes, [UTF16_NOTE]);
  const stray = strayLines(originBytes, originModel);
  const servedOrigin = commentedOut(originBytes, stray);
  let groups: GeneratedGroup[];
  try {
    groups = generatedGroups(subjects, purposes, originMatcher, notes, MAX_ROBOTS_BYTES - servedOrigin.length);
  } catch (error) {
    if (error instanceof TooLarge) return tooLarge("over " + MAX_ROBOTS_BYTES);
    throw error;
  }
  notes.push(...switchNotes(purposes, switches));
  const generated = generatedText(groups, usage, stray.length > 0);
  // Nothing generated: the origin's file is served as it is, stray lines and all (they join nothing).
  if (generated === "") return { body: originBytes, generated, applied: true, notes };
  const encoded = new TextEncoder().encode(generated);
  if (encoded.length + servedOrigin.length > MAX_ROBOTS_BYTES)
    return tooLarge(String(encoded.length + servedOrigin.length));
  const body = new Uint8Array(encoded.length + servedOrigin.length);
  body.set(encoded);
  body.set(servedOrigin, encoded.length);
  if (stray.length > 0) notes.push(strayNote(stray));
  return { body, generated, applied: true, notes };
}

const UTF16_NOTE: PurposesNote = {
  severity: "warning",
  message:
    "the origin's robots.txt is UTF-16, which Google does not read; generated UTF-8 lines cannot be put in front of it, so the origin's file is served alone and the purposes are not applied (serve it as UTF-8)",
};

function notApplied(origin: Uint8Array, notes: readonly PurposesNote[]): ServedRobots {
  return { body: origin, generated: "", applied: false, notes };
}

/** The warning for the origin's lines served commented out: their numbers, a few of them. */
function strayNote(lines: readonly number[]): PurposesNote {
  const shown = lines.slice(0, 5).join(", ");
  const more = lines.length > 5 ? ` and ${lines.length - 5} more` : "";
  return {
    severity: "warning",
    message: `the origin's robots.txt has lines before its first user-agent line (line ${shown}${more}); they apply to no crawler, and the served file carries them commented out so they cannot join a generated group. Put a user-agent line above them if they are meant to apply`,
  };
}

/** The restated lines passed what a crawler reads: stop early, the setting cannot be applied. */
class TooLarge extends Error {}

/**
 * The origin's bytes without a leading byte order mark, whole or partial (EF, EF BB), as the
 * parser skips it at the start of a file (core/text.ts). Past the generated lines it would be
 * read as text: EF BB 80 is a character there, glued to the origin's first line.
 */
function withoutBom(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < UTF8_BOM.length && bytes[start] === UTF8_BOM[start]) start++;
  return bytes.subarray(start);
}

export function subjectsOf(
  purposes: Purposes,
  crawlers: readonly KnownCrawler[],
  switches: readonly PurposeSwitch[],
): Subject[] {
  const subjects: Subject[] = crawlers.map((crawler) => ({
    token: crawler.token,
    chain: [crawler.token, ...crawler.fallbacks],
    obeysGlobalGroup: crawler.obeysGlobalGroup,
    category: crawler.category,
  }));
  for (const entry of switches) {
    subjects.push({ token: entry.token, chain: [entry.token], obeysGlobalGroup: true, category: entry.category });
  }
  // A token the operator names that no table knows: it is still addressed (and enforced on
  // requests carrying it), as "other" for every category-wide entry.
  const known = new Set(subjects.map((subject) => productToken(subject.token)));
  for (const entry of purposes) {
    for (const name of Object.keys(entry.crawlers)) {
      if (known.has(productToken(name))) continue;
      known.add(productToken(name));
      subjects.push({ token: name, chain: [name], obeysGlobalGroup: true, category: "other" });
    }
  }
  return subjects;
}

/** One generated group: its tokens, why it exists, and its lines after the user-agent lines. */
interface GeneratedGroup {
  readonly tokens: string[];
  readonly why: string;
  readonly lines: readonly string[];
}

function generatedGroups(
  subjects: readonly Subject[],
  purposes: Purposes,
  originMatcher: RobotsMatcher,
  notes: PurposesNote[],
  budget: number,
): GeneratedGroup[] {
  const ownerNamed = (token: string) => originMatcher.groupFor([token], { obeysGlobalGroup: false }) !== undefined;
  const lines = linesMemo(budget);
  const bodies: Bodies = new Map();
  for (const subject of subjects) {
    const blocked = blockedPrefixes(purposes, subject.token, subject.category);
    if (blocked.length === 0) continue;
    if (ownerNamed(subject.token)) {
      notes.push(...ownerDisagreements(subject, blocked, originMatcher));
      continue;
    }
    for (const { path, under } of unexpressibleAllows(purposes, subject.token, subject.category)) {
      notes.push({
        severity: "warning",
        message: `${subject.token}: "allow" on ${path} cannot re-open ${under}, blocked for ${subject.category}; it stays blocked`,
      });
    }
    bodies.set(productToken(subject.token), {
      token: subject.token,
      lines: lines(baselineOf(subject, originMatcher), blocked),
      why: whyBlocked(subject, purposes, blocked),
    });
  }
  addShields(subjects, originMatcher, ownerNamed, lines, bodies);
  return groupByLines(subjects, bodies);
}

/** Generated bodies by product token: the token as written, its lines, why it exists. */
type Bodies = Map<string, { readonly token: string; readonly lines: readonly string[]; readonly why: string }>;
type LinesOf = (baseline: AppliedGroup | undefined, blocked: readonly string[]) => readonly string[];

/**
 * blockingLines, computed once per (baseline group, blocked prefixes): most crawlers share
 * both, and a large `*` group restated for each of them would cost a table's worth of copies.
 */
function linesMemo(budget: number): LinesOf {
  const memo = new Map<AppliedGroup | undefined, Map<string, readonly string[]>>();
  let spent = 0;
  return (baseline, blocked) => {
    const byBlocked = memo.get(baseline) ?? new Map<string, readonly string[]>();
    memo.set(baseline, byBlocked);
    const key = blocked.join("\n");
    const known = byBlocked.get(key);
    if (known) return known;
    const computed = blockingLines(baseline, blocked);
    // Each distinct body is written at least once: past the budget, stop restating.
    spent += computed.reduce((sum, line) => sum + line.length + 1, 0);
    if (spent > budget) throw new TooLarge();
    byBlocked.set(key, computed);
    return computed;
  };
}

/**
 * Crawlers left alone whose fallback now has a generated group would follow that group: give
 * each its own group restating what it obeyed. Repeated until nothing changes (a shield is a
 * new group others may fall back to); each token is added at most once, so it ends.
 */
function addShields(
  subjects: readonly Subject[],
  originMatcher: RobotsMatcher,
  ownerNamed: (token: string) => boolean,
  lines: LinesOf,
  bodies: Bodies,
): void {
  const generated = (token: string) => bodies.get(productToken(token))?.token;
  let changed = true;
  while (changed) {
    changed = false;
    for (const subject of subjects) {
      if (generated(subject.token) !== undefined || ownerNamed(subject.token)) continue;
      const first = subject.chain.find((token) => ownerNamed(token) || generated(token) !== undefined);
      const through = first === undefined ? undefined : generated(first);
      if (through === undefined) continue;
      bodies.set(productToken(subject.token), {
        token: subject.token,
        lines: lines(baselineOf(subject, originMatcher), []),
        why: `${subject.token} would otherwise follow the generated ${through} group; it keeps the rules it had`,
      });
      changed = true;
    }
  }
}

/** Crawlers whose lines (the same memoised array) and reason agree share one group. */
function groupByLines(subjects: readonly Subject[], bodies: Bodies): GeneratedGroup[] {
  const groups = new Map<readonly string[], Map<string, GeneratedGroup>>();
  const all: GeneratedGroup[] = [];
  for (const subject of subjects) {
    const body = bodies.get(productToken(subject.token));
    if (!body) continue;
    const byWhy = groups.get(body.lines) ?? new Map<string, GeneratedGroup>();
    groups.set(body.lines, byWhy);
    const group = byWhy.get(body.why);
    if (group) group.tokens.push(subject.token);
    else {
      const created = { tokens: [subject.token], why: body.why, lines: body.lines };
      byWhy.set(body.why, created);
      all.push(created);
    }
  }
  return all;
}

/** The group a crawler obeyed in the origin's file: its fallback's, or `*`, or none. */
function baselineOf(subject: Subject, originMatcher: RobotsMatcher): AppliedGroup | undefined {
  return originMatcher.groupFor(subject.chain, { obeysGlobalGroup: subject.obeysGlobalGroup });
}

/**
 * The lines of a group that obeys `baseline` everywhere except `blocked`, where it is refused.
 * Restated rules entirely inside a blocked prefix are left out (they could only re-open it);
 * a restated Allow that may match inside a blocked prefix and is at least as long is outranked
 * by padding the Disallow with trailing `*`, which changes no match but counts in a rule's
 * length (RFC 9309 §2.2.2: the longest match wins; Google counts `*` too).
 */
function blockingLines(baseline: AppliedGroup | undefined, blocked: readonly string[]): string[] {
  const inside = (rule: Rule) => blocked.some((prefix) => literalPrefix(rule.pattern).startsWith(prefix));
  const kept = (baseline?.rules ?? []).filter((rule) => !inside(rule));
  const lines: string[] = [];
  if (baseline && baseline.token !== "*" && kept.length > 0)
    lines.push(`# restated from the origin's User-agent: ${baseline.token} group`);
  else if (kept.length > 0)
    lines.push("# restated from the origin's User-agent: * group (a named group does not inherit it)");
  // Loops, not push(...list): the origin's group may hold 128,000 lines, past the call stack.
  for (const rule of kept) lines.push(writeRule(rule));
  for (const prefix of blocked) lines.push(writeRule({ kind: "disallow", pattern: padded(prefix, kept) }));
  if (baseline) {
    for (const line of writeRateLines(baseline.extensions)) lines.push(line);
    for (const usage of baseline.extensions.usage) lines.push(writeUsageLine(usage));
  }
  // A group with no rule would join the next group's user-agent lines: an empty Disallow
  // (allows everything, RFC 9309 §2.2.2) ends it.
  if (!lines.some((line) => line.startsWith("Disallow:") || line.startsWith("Allow:"))) lines.push("Disallow:");
  return lines;
}

function padded(prefix: string, kept: readonly Rule[]): string {
  const length = compilePathPattern(prefix).specificity;
  let longest = -1;
  for (const rule of kept) {
    if (rule.kind !== "allow" || !prefix.startsWith(literalPrefix(rule.pattern))) continue;
    longest = Math.max(longest, compilePathPattern(rule.pattern).specificity);
  }
  return longest < length ? prefix : prefix + "*".repeat(longest + 1 - length);
}

/** The part of a pattern every match starts with: up to its first `*` or `$`. */
function literalPrefix(pattern: string): string {
  const cut = pattern.search(/[*$]/);
  return cut < 0 ? pattern : pattern.slice(0, cut);
}

function whyBlocked(subject: Subject, purposes: Purposes, blocked: readonly string[]): string {
  const named = purposes.some((entry) =>
    Object.keys(entry.crawlers).some((name) => productToken(name) === productToken(subject.token)),
  );
  const by = named ? "named in purposes" : subject.category;
  return `${by}: blocked on ${blocked.join(" ")}`;
}

/** Where the owner's own group for a token lets it in on a prefix the purposes block. */
function ownerDisagreements(
  subject: Subject,
  blocked: readonly string[],
  originMatcher: RobotsMatcher,
): PurposesNote[] {
  return blocked.flatMap((prefix) => {
    let decision: Decision;
    try {
      decision = originMatcher.decide([subject.token], prefix, { obeysGlobalGroup: false });
    } catch (error) {
      // A note only (the owner's group wins either way): a file too costly to match on this
      // prefix (core/match-budget.ts) must not cost the site its served robots.txt.
      if (!(error instanceof MatchingTooCostly)) throw error;
      const message = `${subject.token}: whether the origin's own group allows ${prefix}, where purposes block ${subject.category}, could not be checked (${error.message}); the owner's group wins and nothing is generated for ${subject.token}`;
      return [{ severity: "warning" as const, message }];
    }
    if (!decision.allowed) return [];
    const lines = decision.group?.agentLines.join(", ") ?? "?";
    return [
      {
        severity: "warning" as const,
        message: `${subject.token}: the origin's own group (user-agent line ${lines}) allows ${prefix}, where purposes block ${subject.category}; the owner's group wins and nothing is generated for ${subject.token}`,
      },
    ];
  });
}

/** What a training block does for crawlers that also serve search, said once per switch. */
function switchNotes(purposes: Purposes, switches: readonly PurposeSwitch[]): PurposesNote[] {
  return switches.flatMap((entry) => {
    const blocked = blockedPrefixes(purposes, entry.token, entry.category);
    if (blocked.length === 0) return [];
    const named = purposes.some((purpose) => actionFor(purpose, entry.governs, "search-engine") === "block");
    return [
      {
        severity: "info" as const,
        message:
          `${entry.governs} fetches for search and, through ${entry.token}, for ${entry.category}: a group for ${entry.token} asks ${entry.operator} not to use what ${entry.governs} fetches on ${blocked.join(" ")} for it. ` +
          (named
            ? `${entry.governs} itself is blocked only where the setting blocks it.`
            : `${entry.governs} itself is not blocked (that would take the site out of search); name it ("${entry.governs}": "block") to block it.`),
      },
    ];
  });
}

/** Content-Usage and Content-Signal lines for each entry's path, from the categories it settles. */
function usageLines(purposes: Purposes): string[] {
  const paths = [...new Set(purposes.map((entry) => entry.path))].toSorted(
    (a, b) => a.length - b.length || a.localeCompare(b),
  );
  const lines: string[] = [];
  for (const path of paths) {
    const said = (category: CrawlerCategory) => categoryBlockedAt(purposes, category, path);
    const usage = contentUsage(said);
    const signal = contentSignal(said);
    if (usage) lines.push(writeUsageLine({ format: "content-usage", pattern: path, statement: usage }));
    if (signal) lines.push(writeUsageLine({ format: "content-signal", pattern: path, statement: signal }));
  }
  return lines;
}

type Said = (category: CrawlerCategory) => boolean | undefined;

/** AIPREF keys (USAGE_KEYS["content-usage"]): `train-ai` is training, `search` is search engines. */
function contentUsage(said: Said): string {
  const keys: Record<string, CrawlerCategory> = { "train-ai": "ai-training", search: "search-engine" };
  return USAGE_KEYS["content-usage"]
    .flatMap((key) => {
      const category = keys[key];
      const blocked = category === undefined ? undefined : said(category);
      return blocked === undefined ? [] : [`${key}=${blocked ? "n" : "y"}`];
    })
    .join(", ");
}

/** contentsignals.org keys: `ai-input` covers AI search and assistants (usage-vocabulary.ts). */
function contentSignal(said: Said): string {
  const input = [said("ai-search"), said("ai-assistant")];
  const values: Record<string, boolean | undefined> = {
    search: said("search-engine"),
    "ai-input": input.includes(true) ? true : input.includes(false) ? false : undefined,
    "ai-train": said("ai-training"),
  };
  return USAGE_KEYS["content-signal"]
    .flatMap((key) => {
      const blocked = values[key];
      return blocked === undefined ? [] : [`${key}=${blocked ? "no" : "yes"}`];
    })
    .join(", ");
}

function generatedText(groups: readonly GeneratedGroup[], usage: readonly string[], stray: boolean): string {
  if (groups.length === 0 && usage.length === 0) return "";
  const out = [GENERATED_HEADER, ""];
  if (usage.length > 0) {
    out.push("# usage preferences, merged into the origin's User-agent: * group (named groups do not inherit them)");
    out.push("User-agent: *");
    for (const line of usage) out.push(line);
    out.push("Disallow:", "");
  }
  // Loops, not push(...lines): a group restating the origin's may hold 128,000 lines.
  for (const group of groups) {
    out.push(`# ${group.why}`);
    for (const token of group.tokens) out.push(`User-agent: ${token}`);
    for (const line of group.lines) out.push(line);
    out.push("");
  }
  out.push(stray ? GENERATED_FOOTER_STRAY : GENERATED_FOOTER, "", "");
  return out.join("\n");
}
