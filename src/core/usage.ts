/**
 * Usage-preference lines in robots.txt: what a site says its content may be used for, beside
 * where crawlers may go. Two syntaxes, both read here into UsageLine (model.ts):
 *
 *   Content-Usage: [path ]<statement>   draft-ietf-aipref-attach-05 §3 (2026-08-18); the
 *       statement is an RFC 9651 Dictionary of `y` / `n` Tokens, vocabulary
 *       draft-ietf-aipref-vocab-07 §6 (2026-08-19): keys are case-sensitive, unknown keys and
 *       parameters are ignored, a repeated key keeps its last value, and a statement that does
 *       not parse leaves every preference unknown.
 *   Content-Signal: [path ]<signals>    contentsignals.org (Cloudflare's Content Signals Policy,
 *       CC0, 2025-09): `search=yes, ai-input=no, ai-train=no`. No grammar is published beyond
 *       "comma-delimited key=value", so it is read leniently: items split on ",", white space
 *       around keys, "=" and values ignored, keys and values compared case-insensitively, and a
 *       bad item costs only itself. Other keys (Cloudflare's `use=reference`) are kept, not
 *       interpreted.
 *
 * The path: attach-05 §3.2 — a value starting with "/" begins with a path, which ends at the
 * first SP or HTAB; any other first character means no path (the line covers every path).
 * Content-Signal paths are read the same way (the issue's choice; contentsignals.org shows
 * none). A `*`-first pattern is therefore not a path, as the draft says; lint explains.
 *
 * Where a line sits: a usage line belongs to the group it is written in, like any rule (RFC
 * 9309 §2.2: only a user-agent line after a rule starts a new group). So lobste.rs's
 * Content-Signal written after its search-engine group's rules, before `User-agent: *`, belongs
 * to that group; lint says so, since it may have been meant for every crawler. A line before
 * any user-agent line applies to no crawler (like a rule there) and is only reported.
 */

import { compilePattern, type CompiledPattern } from "./pattern.ts";
import type { Diagnostic, ExtensionsDraft, OtherLine, Rule, Severity, UsageFormat, UsageLine } from "./model.ts";
import { RuleTree } from "./rule-tree.ts";
import { parseDictionary } from "./structured-dictionary.ts";

/** Field names, compared case-insensitively as every robots.txt field (RFC 9309 §2.2). */
const USAGE_FIELDS: Readonly<Record<string, UsageFormat>> = {
  "content-usage": "content-usage",
  "content-signal": "content-signal",
};

/**
 * The keys each syntax defines, with the document that defines them. Lint reports other
 * keys; the mapping of keys to crawler categories is policy (src/policy/usage-vocabulary.ts).
 */
export const USAGE_KEYS: Readonly<Record<UsageFormat, readonly string[]>> = {
  /**
   * draft-ietf-aipref-vocab-08 (2026-09-13): `train-ai`, `ai-use` (new in -08) and `search`.
   * vocab-07 §6.1 Table 1 had `train-ai` and `search` only, so a vocab-07 file reads as written.
   */
  "content-usage": ["train-ai", "ai-use", "search"],
  /** contentsignals.org (and draft-romm-aipref-contentsignals §4). */
  "content-signal": ["search", "ai-input", "ai-train"],
};

/** Content-Signal keys that are known but carry no yes/no preference (kept as written). */
const CONTENT_SIGNAL_OTHER_KEYS = new Set(["use"]);

/**
 * Content-Signal `use=`: how far a fetcher may use what it takes, narrowest first (Cloudflare's
 * managed robots.txt writes `use=reference`). The values and their order are as the Content
 * Signals update describes them; usage-vocabulary.ts says which crawlers it binds.
 */
export const CONTENT_SIGNAL_USES = ["immediate", "reference", "full"] as const;
export type ContentSignalUse = (typeof CONTENT_SIGNAL_USES)[number];

/** The `use=` a Content-Signal line states, when it states one we can read. */
export function contentSignalUseOf(line: Pick<UsageLine, "format" | "others">): ContentSignalUse | undefined {
  if (line.format !== "content-signal") return undefined;
  const value = line.others.find((other) => other.key === "use")?.value.toLowerCase();
  return CONTENT_SIGNAL_USES.find((use) => use === value);
}

/** The format a field name denotes, or undefined when it is no usage field. */
export function usageFormatOf(field: string): UsageFormat | undefined {
  return USAGE_FIELDS[field.toLowerCase()];
}

type Report = (line: number, code: Diagnostic["code"], severity: Severity, message: string) => void;

/** A group as the parser leaves it: its rules and its extension records (usage still in `others`). */
export interface UsageGroupDraft extends ExtensionsDraft {
  readonly rules: readonly Rule[];
  readonly agentLines: readonly { readonly value: string; readonly line: number }[];
}

/**
 * Move a finished group's usage lines from `others` into `usage`, reading each one, and report
 * what lint should show. `nextGroupLine`: the first line of the next group, if one follows.
 */
export function extractGroupUsage(group: UsageGroupDraft, nextGroupLine: number | undefined, report: Report): void {
  const others: OtherLine[] = [];
  for (const other of group.others) {
    const format = usageFormatOf(other.field);
    if (format) group.usage.push(readUsageLine(format, other.value, other.line, report));
    else others.push(other);
  }
  if (group.usage.length === 0) return;
  group.others = others;
  reportContradictions(group, report);
  reportJoinedGroups(group, report);
  if (nextGroupLine !== undefined) reportBetweenGroups(group, nextGroupLine, report);
}

/** Report usage lines written before any user-agent line: they apply to no crawler. */
export function reportUsageOutsideGroups(others: readonly OtherLine[], report: Report): void {
  for (const other of others) {
    if (!usageFormatOf(other.field)) continue;
    report(
      other.line,
      "usage-outside-group",
      "warning",
      `${other.field} before any user-agent line applies to no crawler; put it in a group (e.g. under "User-agent: *")`,
    );
  }
}

/** Read one line's value: its path, then its statement in the line's syntax. */
export function readUsageLine(format: UsageFormat, value: string, line: number, report: Report): UsageLine {
  const { pattern, statement } = splitPath(value);
  const label = format === "content-usage" ? "Content-Usage" : "Content-Signal";
  if (statement === "") {
    report(
      line,
      "usage-syntax",
      "warning",
      `${label} states no preference${pattern ? ` after the path ${pattern}` : ""}`,
    );
    return { format, pattern, statement, preferences: [], others: [], valid: false, line };
  }
  const read = format === "content-usage" ? readContentUsage : readContentSignal;
  return { format, pattern, ...read(statement, line, report), line };
}

/** attach-05 §3.2: a value starting with "/" starts with a path that ends at SP or HTAB. */
function splitPath(value: string): { pattern: string; statement: string } {
  if (!value.startsWith("/")) return { pattern: "", statement: value };
  const end = value.search(/[ \t]/);
  if (end < 0) return { pattern: value, statement: "" };
  return { pattern: value.slice(0, end), statement: value.slice(end).replace(/^[ \t]+/, "") };
}

type Statement = Pick<UsageLine, "statement" | "preferences" | "others" | "valid">;

/** vocab-07 §6.5: an RFC 9651 Dictionary; only `y` / `n` Tokens of known keys are preferences. */
function readContentUsage(statement: string, line: number, report: Report): Statement {
  const reading = parseDictionary(statement);
  if (!reading.ok) {
    const hint = statement.startsWith("*") ? ' (a path starts with "/"; "*" here is read as a key)' : "";
    report(
      line,
      "usage-syntax",
      "warning",
      `Content-Usage ${quote(statement)} is not a structured-field dictionary: ${reading.error}${hint}; every preference is unknown (draft-ietf-aipref-vocab §6.5.1)`,
    );
    return { statement, preferences: [], others: [], valid: false };
  }
  const preferences: UsageLine["preferences"][number][] = [];
  const others: UsageLine["others"][number][] = [];
  for (const [key, member] of reading.members) {
    const known = USAGE_KEYS["content-usage"].includes(key);
    if (known && (member.token === "y" || member.token === "n")) {
      preferences.push({ key, allow: member.token === "y" });
      continue;
    }
    others.push({ key, value: member.raw });
    if (known) {
      report(
        line,
        "usage-invalid-value",
        "warning",
        `Content-Usage ${key} has the value ${quote(member.raw)}; only the tokens y and n state a preference, so it is unknown`,
      );
    } else {
      report(
        line,
        "usage-unknown-key",
        "info",
        `Content-Usage key ${quote(key)} is not in draft-ietf-aipref-vocab-08 (${USAGE_KEYS["content-usage"].join(", ")}); ignored`,
      );
    }
  }
  return { statement, preferences, others, valid: true };
}

/** contentsignals.org: comma-separated `key=yes|no`, read leniently (see the file comment). */
function readContentSignal(statement: string, line: number, report: Report): Statement {
  const values = new Map<string, string>();
  for (const item of statement.split(",")) {
    const text = item.trim();
    const equals = text.indexOf("=");
    if (equals <= 0) {
      if (text !== "")
        report(line, "usage-syntax", "warning", `Content-Signal item ${quote(text)} is not "key=value"; skipped`);
      continue;
    }
    const key = text.slice(0, equals).trim().toLowerCase();
    values.delete(key); // the last value of a key wins, as for Content-Usage
    values.set(key, text.slice(equals + 1).trim());
  }
  const preferences: UsageLine["preferences"][number][] = [];
  const others: UsageLine["others"][number][] = [];
  for (const [key, value] of values) {
    const answer = value.toLowerCase();
    const known = USAGE_KEYS["content-signal"].includes(key);
    if (known && (answer === "yes" || answer === "no")) {
      preferences.push({ key, allow: answer === "yes" });
      continue;
    }
    others.push({ key, value });
    if (known) {
      report(
        line,
        "usage-invalid-value",
        "warning",
        `Content-Signal ${key}=${value}: the value is yes or no; this one is unknown`,
      );
    } else if (key === "use") {
      const use = CONTENT_SIGNAL_USES.find((name) => name === answer);
      report(
        line,
        use ? "usage-content-use" : "usage-invalid-value",
        use ? "info" : "warning",
        use
          ? `Content-Signal use=${use}: how far a fetcher may use this content (${CONTENT_SIGNAL_USES.join(" < ")}); enforced only for crawlers whose operator documents their use (usage-vocabulary.ts)`
          : `Content-Signal use=${value}: the value is one of ${CONTENT_SIGNAL_USES.join(", ")}; this one is unknown`,
      );
    } else if (!CONTENT_SIGNAL_OTHER_KEYS.has(key)) {
      report(
        line,
        "usage-unknown-key",
        "info",
        `Content-Signal key ${quote(key)} is not one of ${USAGE_KEYS["content-signal"].join(", ")}, use; kept, not interpreted`,
      );
    }
  }
  return { statement, preferences, others, valid: values.size > 0 };
}

/**
 * A `y` / `yes` on paths the group never lets a crawler fetch contradicts the group: usage
 * preferences apply only to paths that may be crawled (attach-05 §3.1), so it never applies.
 * "Never fetchable" is judged conservatively: the line's literal head is disallowed and no
 * allow rule could match a path under it.
 */
function reportContradictions(group: UsageGroupDraft, report: Report): void {
  const patterns = group.rules.map((rule, order) => compilePattern(rule, order));
  const tree = new RuleTree(patterns);
  for (const usage of group.usage) {
    const allowing = usage.preferences.filter((preference) => preference.allow);
    if (allowing.length === 0) continue;
    const head = literalHead(usage.pattern === "" ? "/" : usage.pattern);
    if (tree.find(head)?.allow !== false || patterns.some((p) => p.allow && mayMatchUnder(p, head))) continue;
    const [field, yes] = usage.format === "content-usage" ? ["Content-Usage", "y"] : ["Content-Signal", "yes"];
    const said = `${field} ${allowing.map(({ key }) => `${key}=${yes}`).join(", ")}`;
    report(
      usage.line,
      "usage-contradicts-rules",
      "warning",
      `${said} covers ${usage.pattern || "every path"}, which this group disallows; a preference applies only to paths crawlers may fetch, so it never applies`,
    );
  }
}

function literalHead(pattern: string): string {
  const compiled = compilePattern({ kind: "disallow", pattern, line: 0 }, 0);
  return compiled.head;
}

/** Could an allow pattern match some path that starts with `head`? */
function mayMatchUnder(pattern: CompiledPattern, head: string): boolean {
  if (pattern.head.startsWith(head)) return true;
  return pattern.segments.length > 0 && head.startsWith(pattern.head);
}

/**
 * attach-05 §3 makes Content-Usage a rule, which would end a run of user-agent lines; Google's
 * reference (and so every crawler deployed today) ends it only at allow/disallow. We keep
 * Google's grouping, so Allow/Disallow mean what crawlers read, and warn: user-agent lines
 * after a usage line, with no rule between, join its group and share its preferences.
 */
function reportJoinedGroups(group: UsageGroupDraft, report: Report): void {
  const firstRule = group.rules.reduce((first, rule) => Math.min(first, rule.line), Number.POSITIVE_INFINITY);
  for (const usage of group.usage) {
    const joined = group.agentLines.filter(({ line }) => line > usage.line && line < firstRule);
    if (joined.length === 0) continue;
    report(
      usage.line,
      "usage-joins-groups",
      "warning",
      `user-agent ${joined.map(({ value, line }) => `${value} (line ${line})`).join(", ")} comes after this line with no allow/disallow between, so it joins this group and these preferences apply to it too; add a rule (e.g. "Allow: /") before it to start a new group`,
    );
  }
}

/**
 * Lobste.rs's case: a usage line set apart from its group — a gap (blank or comment lines)
 * after the group's last other line, and another before the next group — reads as if meant
 * for every crawler, yet belongs to the group above it. The model keeps no blank lines, so
 * the gaps are seen in the line numbers.
 */
function reportBetweenGroups(group: UsageGroupDraft, nextGroupLine: number, report: Report): void {
  const agents = group.agentLines.map(({ value }) => value).join(", ");
  for (const usage of group.usage) {
    const others = groupLines(group).filter((line) => line !== usage.line);
    const detached = others.every((line) => line < usage.line - 1) && nextGroupLine > usage.line + 1;
    if (!detached) continue;
    report(
      usage.line,
      "usage-between-groups",
      "info",
      `this line stands after the group for ${agents} and belongs to that group only (RFC 9309 §2.2: only a user-agent line after a rule starts a group); to state it for every crawler, write it in each group`,
    );
  }
}

function groupLines(group: UsageGroupDraft): number[] {
  return [
    ...group.agentLines.map(({ line }) => line),
    ...group.rules.map(({ line }) => line),
    ...group.requestRates.map(({ line }) => line),
    ...group.comments.map(({ line }) => line),
    ...group.others.map(({ line }) => line),
    ...group.usage.map(({ line }) => line),
    group.crawlDelay?.line ?? 0,
    group.visitTime?.line ?? 0,
    group.robotVersion?.line ?? 0,
  ];
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
