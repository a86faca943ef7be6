/**
 * robots.txt text -> RobotsTxt model + diagnostics. Never throws on content.
 *
 * Implements RFC 9309 §2.1–2.2 and §2.5 as Google's crawlers read them (test/fixtures/spec):
 *   - lines end in CR, LF or CR LF; `#` starts a comment anywhere; whitespace around keys
 *     and values is ignored; field names are case-insensitive;
 *   - a group is one or more user-agent lines followed by rules; only a user-agent line
 *     that comes after a rule (allow/disallow, even one with an empty path) starts a new
 *     group; sitemap and other lines do not end a group;
 *   - a user-agent line names its whole product token and Google's reading of it
 *     (`googlebot/1.2` -> googlebot; `MJ12bot` -> mj12bot and mj; product-token.ts);
 *   - rules before any user-agent line, and rules with an empty path, apply to nothing.
 * Google-only leniencies we follow (each reported as a diagnostic): field names matched by
 * prefix and a few misspellings (fields.ts); a missing colon when the line is exactly
 * "key value"; `* anything` as a user-agent value still means `*`; lines longer than
 * Google's limit are cut; a NUL byte ends its line.
 */

import { readCrawlDelay, readRequestRate, readVisitTime, type Reading } from "./extensions.ts";
import { readField, type Field } from "./fields.ts";
import type {
  Diagnostic,
  DiagnosticCode,
  ExtensionsDraft,
  Group,
  OtherLine,
  RobotsTxt,
  Rule,
  Severity,
} from "./model.ts";
import { googleProductToken, userAgentNames, userAgentToken } from "./product-token.ts";
import { encodedPattern, rawCharacterName, rawCharacterOf, recordsOf } from "./readings.ts";
import { decodeRobots, MAX_ROBOTS_BYTES, splitLines } from "./text.ts";
import { extractGroupUsage, reportUsageOutsideGroups, usageFormatOf } from "./usage.ts";

/** Google's reference cuts lines here (browsers' 2083-byte URL limit, times 8, less one). */
export const MAX_LINE_LENGTH = 2083 * 8 - 1;

/** Lint output stays readable, and a stored model stays small, on hostile input. */
export const MAX_DIAGNOSTICS = 1000;

/** Parse a robots.txt body (bytes as served, or text). */
export function parseRobotsTxt(input: string | Uint8Array): RobotsTxt {
  const decoded = decodeRobots(input);
  const lines = splitLines(decoded.text);
  const state = new ParseState();
  if (decoded.utf16) {
    const mangled = decoded.utf16 === "le-mangled-bom";
    state.report(
      1,
      mangled ? "utf16-mangled-bom" : "utf16",
      "warning",
      mangled
        ? "UTF-16LE text behind a byte-order mark that was re-encoded as UTF-8 (ÿþ); read as UTF-16LE. Serve UTF-8 (RFC 9309 §2.3): Google reads none of these rules"
        : `the file is UTF-16${decoded.utf16 === "be" ? "BE" : "LE"} (byte-order mark); read as such. Serve UTF-8 (RFC 9309 §2.3): Google reads none of these rules`,
    );
  }
  for (const line of decoded.invalidUtf8Lines) {
    state.report(line, "invalid-utf8", "warning", "bytes that are not UTF-8 were skipped");
  }
  if (decoded.truncated) {
    state.report(
      lines.length,
      "truncated",
      "error",
      `the file is ${decoded.bytes} bytes; only the first ${MAX_ROBOTS_BYTES} are read (RFC 9309 §2.5), the rest is ignored`,
    );
  }
  lines.forEach((text, index) => parseLine(state, text, index + 1));
  return state.finish(decoded.bytes, decoded.truncated, lines.length);
}

interface KeyValue {
  readonly key: string;
  readonly value: string;
  readonly missingColon: boolean;
}

function parseLine(state: ParseState, raw: string, line: number): void {
  let text = raw;
  if (text.length > MAX_LINE_LENGTH) {
    state.report(
      line,
      "line-too-long",
      "warning",
      `line is longer than ${MAX_LINE_LENGTH} characters; the rest is ignored`,
    );
    text = text.slice(0, MAX_LINE_LENGTH);
  }
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    // Google's parser reads each line as a C string: a NUL ends it. Keeping the NUL would let
    // `Disallow: /x\0` or `User-agent: *\0` silently switch rules off.
    state.report(line, "nul-byte", "warning", "a NUL byte ends the line here; the rest of the line is ignored");
    text = text.slice(0, nul);
  }
  if (trimAsciiSpace(text) === "") {
    // Only an empty line ends a record for urllib.robotparser (`if not line`, before it strips
    // the line); a line of spaces is skipped there and by robots-parser alike (readings.ts).
    if (raw === "") state.noteBlankLine();
    return;
  }
  const content = trimAsciiSpace(stripComment(text));
  if (content === "") return;
  state.noteFirstContent(content, line);
  const pair = splitKeyValue(content);
  if (!pair) {
    state.report(line, "not-key-value", "warning", `not a "field: value" line; skipped: ${quote(content)}`);
    return;
  }
  if (pair.missingColon) {
    state.report(
      line,
      "missing-colon",
      "warning",
      `no colon after ${quote(pair.key)}; read as "${pair.key}: ${pair.value}" (Google does; others may not)`,
    );
  }
  const reading = readField(pair.key);
  state.noteFieldLine(line, reading?.field === "user-agent", pair);
  if (!reading) {
    state.addOther({ field: pair.key, value: pair.value, line });
    return;
  }
  if (!reading.exact) {
    state.report(
      line,
      "misspelt-field",
      "warning",
      `${quote(pair.key)} is read as "${reading.field}" (Google accepts this spelling; other crawlers may not)`,
    );
  }
  handleField(state, reading.field, pair.value, line);
}

function handleField(state: ParseState, field: Field, value: string, line: number): void {
  switch (field) {
    case "user-agent":
      return state.addUserAgent(value, line);
    case "allow":
    case "disallow":
      return state.addRule(field, value, line);
    case "sitemap":
      return state.addSitemap(value, line);
    default:
      return state.addExtension(field, value, line);
  }
}

function stripComment(text: string): string {
  const hash = text.indexOf("#");
  return hash < 0 ? text : text.slice(0, hash);
}

function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** Trim ASCII white space only, as Google does; U+00A0 and friends are content. */
function trimAsciiSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * `key: value`; or, Google-only, `key value` when the line is exactly two runs of characters
 * other than space and tab: the key ends at the first space or tab, and no space or tab may
 * follow the run of them after it. Both sides are then trimmed of ASCII white space.
 */
function splitKeyValue(content: string): KeyValue | undefined {
  const colon = content.indexOf(":");
  if (colon >= 0) {
    const key = trimAsciiSpace(content.slice(0, colon));
    return key === "" ? undefined : { key, value: trimAsciiSpace(content.slice(colon + 1)), missingColon: false };
  }
  const gap = content.search(/[ \t]/);
  if (gap < 0) return undefined;
  let valueStart = gap;
  while (content.charCodeAt(valueStart) === 0x20 || content.charCodeAt(valueStart) === 0x09) valueStart++;
  const rest = content.slice(valueStart);
  if (/[ \t]/.test(rest)) return undefined;
  const key = trimAsciiSpace(content.slice(0, gap));
  return key === "" ? undefined : { key, value: trimAsciiSpace(rest), missingColon: true };
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/**
 * What the lines between two user-agent lines make of the record before them in the record
 * reading's two parsers (readings.ts): "empty" (a group with no rule), "none" (no group: its
 * crawlers fall to `*`), or undefined (the parser reads on to the next user-agent line).
 */
interface RecordGap {
  urllib?: PriorRecord;
  robotsParser?: PriorRecord;
}

type PriorRecord = "empty" | "none";

interface AgentLineDraft {
  value: string;
  line: number;
  recordAfter?: number;
  gap?: RecordGap;
}

interface GroupDraft extends ExtensionsDraft {
  agents: string[];
  agentLines: AgentLineDraft[];
  rules: Rule[];
}

/** urllib.robotparser: these fields make an entry of the user-agent lines before them (state 2). */
const URLLIB_ENTRY_FIELDS = new Set(["crawl-delay", "request-rate"]);

/** The parser's running state: the groups so far and whether user-agent lines are open. */
class ParseState {
  private readonly groups: GroupDraft[] = [];
  private readonly sitemaps: { url: string; line: number }[] = [];
  private readonly others: OtherLine[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private suppressedDiagnostics = 0;
  private current: GroupDraft | undefined;
  /**
   * The names the current group holds, to skip a repeated one in constant time: `agents.includes`
   * made a group of N user-agent lines cost N² (500 KiB of them, one group: 780 ms to parse).
   */
  private currentNames = new Set<string>();
  /** True from a user-agent line until the next rule: more user-agent lines join the group. */
  private collectingAgents = false;
  private seenContent = false;
  private globalGroupLines: number[] = [];
  /**
   * The record reading (readings.ts): whether a blank line or a field other than user-agent
   * came since the last user-agent line, and the last field line before the current one.
   */
  private recordEnded = false;
  private previousFieldLine = 0;
  private lastFieldLine = 0;
  private gap: RecordGap = {};
  /** robots-parser: a field line (with a colon) since the last user-agent line; a crawl-delay among them. */
  private gapField = false;
  private gapDelay = false;

  noteBlankLine(): void {
    this.recordEnded = true;
    // urllib.robotparser drops user-agent lines that no entry field followed (`state == 1`).
    this.gap.urllib ??= "none";
  }

  /** Called for each `field: value` line before it is handled. */
  noteFieldLine(line: number, isUserAgent: boolean, pair: KeyValue): void {
    this.previousFieldLine = this.lastFieldLine;
    this.lastFieldLine = line;
    if (isUserAgent) return;
    this.recordEnded = true;
    const key = pair.key.toLowerCase();
    // Both parsers skip a line without a colon. robots-parser: any other field ends its run.
    if (pair.missingColon) return;
    if (URLLIB_ENTRY_FIELDS.has(key)) this.gap.urllib ??= "empty";
    this.gapField = true;
    if (key === "crawl-delay") this.gapDelay = true;
  }

  /** The gap since the last user-agent line, as each parser reads it; starts the next gap. */
  private takeGap(): RecordGap {
    const gap: RecordGap = { ...this.gap };
    if (this.gapField) gap.robotsParser = this.gapDelay ? "empty" : "none";
    this.gap = {};
    this.gapField = false;
    this.gapDelay = false;
    return gap;
  }

  report(line: number, code: DiagnosticCode, severity: Severity, message: string): void {
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) {
      this.suppressedDiagnostics++;
      return;
    }
    this.diagnostics.push({ line, code, severity, message });
  }

  noteFirstContent(content: string, line: number): void {
    if (this.seenContent) return;
    this.seenContent = true;
    if (/^<(?:!doctype|html|head|body|\?xml)\b/i.test(content)) {
      this.report(
        line,
        "html-content",
        "error",
        "the file looks like an HTML page, not robots.txt; only its valid robots.txt lines are used",
      );
    }
  }

  addUserAgent(value: string, line: number): void {
    const joinsRecords = this.current !== undefined && this.collectingAgents && this.recordEnded;
    this.recordEnded = false;
    const gap = this.takeGap();
    if (!this.current || !this.collectingAgents) {
      this.current = newGroupDraft();
      this.currentNames = new Set();
      this.groups.push(this.current);
      this.collectingAgents = true;
    }
    this.current.agentLines.push(
      joinsRecords ? { value, line, recordAfter: this.previousFieldLine, gap } : { value, line },
    );
    const agent = userAgentToken(value);
    if (agent === "*") {
      this.globalGroupLines.push(line);
    } else if (agent === "") {
      this.report(
        line,
        "agent-empty",
        "warning",
        `user-agent ${quote(value)} has no product token (letters, digits, "-", "_", "."); it matches no crawler`,
      );
      return;
    } else if (agent !== value.toLowerCase()) {
      this.reportInexactAgent(value, agent, line);
    }
    this.reportGoogleReading(value, agent, line);
    for (const name of userAgentNames(value)) {
      if (this.currentNames.has(name)) continue;
      this.currentNames.add(name);
      this.current.agents.push(name);
    }
  }

  /** Lint: a line whose name Google's parser cuts short also binds the crawler of the cut name. */
  private reportGoogleReading(value: string, agent: string, line: number): void {
    const google = googleProductToken(value);
    if (google === "" || google === agent) return;
    this.report(
      line,
      "agent-google-reading",
      "info",
      `user-agent ${quote(value)} names "${agent}" and, as Google's parser reads only its leading letters, "-" and "_", also "${google}": a crawler named ${google} obeys this group`,
    );
  }

  private reportInexactAgent(value: string, agent: string, line: number): void {
    const isVersionOrStar = /^[A-Za-z0-9._-]+(?:\/\S*|\*)$/.test(value);
    const severity = isVersionOrStar ? "info" : "warning";
    this.report(
      line,
      "agent-not-product-token",
      severity,
      `user-agent ${quote(value)} is matched as its product token "${agent}"`,
    );
  }

  addRule(kind: "allow" | "disallow", pattern: string, line: number): void {
    if (!this.current) {
      this.report(
        line,
        "rule-outside-group",
        "error",
        `${kind} before any user-agent line applies to no crawler; add a user-agent line above it`,
      );
      return;
    }
    this.collectingAgents = false;
    if (pattern === "") {
      this.report(line, "empty-rule", "info", `${kind} with an empty path is ignored (RFC 9309 §2.2.2)`);
      return;
    }
    this.reportRawCharacter(this.current, kind, pattern, line);
    if (!pattern.startsWith("/") && !pattern.startsWith("*")) {
      this.report(
        line,
        "path-not-rooted",
        "error",
        `${kind} path ${quote(pattern)} starts with neither "/" nor "*", so it matches no URL; did you mean "/${pattern}"?`,
      );
    }
    this.current.rules.push({ kind, pattern, line });
  }

  /** Lint: a rule with a character no request carries raw matches nothing for us, something for others (readings.ts). */
  private reportRawCharacter(group: GroupDraft, kind: string, pattern: string, line: number): void {
    const raw = rawCharacterOf(pattern);
    if (raw === undefined) return;
    const encoded = encodedPattern(pattern);
    this.report(
      line,
      "reading-disputed",
      "error",
      `${kind}: ${pattern} holds ${rawCharacterName(raw)}, which no request carries (clients send it percent-encoded): RFC 9309 and Google's matcher never match this rule, urllib.robotparser and robots-parser encode it and match ${encoded}. For ${crawlersOf(group.agentLines)}, the edge applies it to no crawler (crawlers other than Google's are marked would-block where those readers apply it). Fix: write "${kind}: ${encoded}"`,
    );
  }

  addSitemap(url: string, line: number): void {
    if (url === "") return;
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) {
      this.report(line, "sitemap-not-absolute", "warning", `sitemap ${quote(url)} is not an absolute URL`);
    }
    this.sitemaps.push({ url, line });
  }

  addOther(other: OtherLine): void {
    // Content-Usage / Content-Signal are read when the file is finished (usage.ts).
    if (!usageFormatOf(other.field))
      this.report(
        other.line,
        "unknown-field",
        "info",
        `field ${quote(other.field)} is not interpreted; kept as written`,
      );
    (this.current ? this.current.others : this.others).push(other);
  }

  addExtension(field: Field, value: string, line: number): void {
    const group = this.current;
    if (!group) {
      this.report(
        line,
        "extension-outside-group",
        "warning",
        `${field} before any user-agent line applies to no crawler`,
      );
      this.others.push({ field, value, line });
      return;
    }
    switch (field) {
      case "crawl-delay":
        return this.setOnce(group, "crawlDelay", field, readCrawlDelay(value), line, (seconds) => ({ seconds, line }));
      case "visit-time":
        return this.setOnce(group, "visitTime", field, readVisitTime(value), line, (window) => ({ ...window, line }));
      case "request-rate": {
        const rate = this.checked(field, readRequestRate(value), line);
        if (rate) group.requestRates.push({ ...rate, line });
        return;
      }
      case "comment":
        group.comments.push({ text: value, line });
        return;
      case "robot-version":
        return this.setOnce(group, "robotVersion", field, { ok: true, value }, line, (version) => ({ version, line }));
    }
  }

  /** First value wins within a group, as in Google's handling of crawl-delay. */
  private setOnce<K extends "crawlDelay" | "visitTime" | "robotVersion", T>(
    group: GroupDraft,
    key: K,
    field: Field,
    reading: Reading<T>,
    line: number,
    build: (value: T) => GroupDraft[K],
  ): void {
    const value = this.checked(field, reading, line);
    if (value === undefined) return;
    if (group[key] !== undefined) {
      this.report(
        line,
        "duplicate-value",
        "warning",
        `a second ${field} in the same group; the first one (line ${group[key]?.line}) is used`,
      );
      return;
    }
    group[key] = build(value);
  }

  private checked<T>(field: Field, reading: Reading<T>, line: number): T | undefined {
    if (reading.ok) return reading.value;
    this.report(line, "invalid-value", "error", `cannot read ${field}: expected ${reading.expected}`);
    return undefined;
  }

  /**
   * Lint: a group whose user-agent lines RFC 9309 and Google join across a blank line or another
   * field, while the record reading (readings.ts) starts a new group there: the crawlers named
   * before the break get this group's disallow rules only in our reading. One error per record
   * that loses them, at its first user-agent line, naming its crawlers and the fix.
   */
  private reportJoinedRecords(group: GroupDraft): void {
    const disallow = group.rules.find((rule) => rule.kind === "disallow" && rawCharacterOf(rule.pattern) === undefined);
    if (!disallow) return;
    const records = recordsOf(finishGroup(group));
    // A crawler the last record names too gets these rules in both readings (`*` twice, merged).
    const named = new Set(records.at(-1)?.flatMap(({ value }) => userAgentNames(value)));
    records.slice(0, -1).forEach((all, i) => {
      const record = all.filter(({ value }) => !userAgentNames(value).every((name) => named.has(name)));
      const first = record[0];
      const after = records[i + 1]?.[0]?.recordAfter;
      if (!first || after === undefined) return;
      const theirs =
        records[i + 1]?.[0]?.priorRecord === "none"
          ? "read them under the rules of user-agent * instead"
          : "give them no such rule";
      this.report(
        first.line,
        "reading-disputed",
        "error",
        `for ${crawlersOf(record)}, RFC 9309 and Google's parser read on from line ${first.line} to the rules below (only an allow or disallow line ends a group's user-agent lines), so "disallow: ${disallow.pattern}" (line ${disallow.line}) applies to them; urllib.robotparser, robots-parser and the 1996 draft end their group at line ${after} (a blank line or another field comes before the next user-agent line) and ${theirs}. The edge refuses them only what both readings refuse, except Google's crawlers, held to Google's reading. Fix: add "Disallow:" after line ${after} if the rules below are not meant for them; if they are, repeat the rules under their own user-agent line`,
      );
    });
  }

  finish(bytes: number, truncated: boolean, lines: number): RobotsTxt {
    const report = this.report.bind(this);
    this.groups.forEach((group, i) => extractGroupUsage(group, this.groups[i + 1]?.agentLines[0]?.line, report));
    reportUsageOutsideGroups(this.others, report);
    for (const group of this.groups) this.reportJoinedRecords(group);
    for (const line of this.globalGroupLines.slice(1)) {
      this.report(
        line,
        "repeated-global-group",
        "warning",
        `another "user-agent: *" line (first at line ${this.globalGroupLines[0]}); their groups are merged`,
      );
    }
    if (this.suppressedDiagnostics > 0) {
      this.diagnostics.push({
        line: 0,
        code: "too-many-diagnostics",
        severity: "info",
        message: `${this.suppressedDiagnostics} more diagnostics not shown`,
      });
    }
    this.diagnostics.sort((a, b) => a.line - b.line);
    return {
      groups: this.groups.map(finishGroup),
      sitemaps: this.sitemaps,
      others: this.others,
      diagnostics: this.diagnostics,
      bytes,
      truncated,
      lines,
    };
  }
}

/** The crawlers user-agent lines name, as written: `bingbot, msnbot`; `*` said as what it means. */
function crawlersOf(agentLines: readonly { readonly value: string }[]): string {
  const names = agentLines.map(({ value }) => (value === "*" ? "* (every crawler without a group of its own)" : value));
  return names.length > 0 ? names.join(", ") : "no crawler";
}

function newGroupDraft(): GroupDraft {
  return { agents: [], agentLines: [], rules: [], requestRates: [], comments: [], usage: [], others: [] };
}

function finishGroup(draft: GroupDraft): Group {
  const { agents, agentLines, rules, ...extensions } = draft;
  return { agents, agentLines: agentLines.map((agentLine, i) => finishAgentLine(agentLines, i)), rules, extensions };
}

/**
 * A user-agent line as stored: where the record reading starts a new group, how it reads the
 * record before (`priorRecord`). Each parser reads from that record's gap on until a gap
 * decides; a record no gap decides for a parser joins the group's rules there. The record
 * reading takes the more permissive of the two: an empty group if either gives one (it refuses
 * nothing), else no group (its crawlers fall to `*`).
 */
function finishAgentLine(agentLines: readonly AgentLineDraft[], index: number): Group["agentLines"][number] {
  const { value, line, recordAfter, gap } = agentLines[index] as AgentLineDraft;
  if (recordAfter === undefined || gap === undefined) return { value, line };
  const later = agentLines.slice(index).map((agentLine) => agentLine.gap ?? {});
  const urllib = later.find((g) => g.urllib !== undefined)?.urllib;
  const robotsParser = later.find((g) => g.robotsParser !== undefined)?.robotsParser;
  // Neither parser breaks here (only lines without a colon came between): one record.
  if (urllib === undefined && robotsParser === undefined) return { value, line };
  const priorRecord: PriorRecord = urllib === "empty" || robotsParser === "empty" ? "empty" : "none";
  return { value, line, recordAfter, priorRecord };
}
