/**
 * The parsed form of a robots.txt file: plain data, no behaviour, safe to JSON-encode.
 *
 * RFC 9309 §2.1 (groups, rules) and §2.2.4 (other records such as Sitemap), plus the older
 * extension records (Crawl-delay, Request-rate, Visit-time, Comment, Robot-version) that
 * the server-admin manual in test/fixtures/spec describes. Line numbers are 1-based and count
 * CR, LF and CR LF as one line break each, as the spec does.
 */

/** An allow or disallow rule, exactly as written (trimmed), with where it was written. */
export interface Rule {
  readonly kind: "allow" | "disallow";
  /** The path pattern as written in the file; `*` and a final `$` are wildcards. */
  readonly pattern: string;
  readonly line: number;
}

/** A time window in minutes after midnight UTC; `start > end` means it spans midnight. */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

/** `Request-rate: n/seconds [HHMM-HHMM]`. */
export interface RequestRate {
  readonly requests: number;
  readonly seconds: number;
  readonly window?: TimeWindow;
  readonly line: number;
}

/** A line with a field this parser does not interpret (Host, Clean-param…). */
export interface OtherLine {
  /** The field name as written (case kept). */
  readonly field: string;
  readonly value: string;
  readonly line: number;
}

/** Which syntax a usage-preference line is written in (usage.ts). */
export type UsageFormat = "content-usage" | "content-signal";

/** One interpreted preference of a usage line: a vocabulary key and its y/n (yes/no). */
export interface UsagePreference {
  readonly key: string;
  /** True for `y` / `yes`, false for `n` / `no`. */
  readonly allow: boolean;
}

/**
 * A `Content-Usage` (AIPREF, draft-ietf-aipref-attach) or `Content-Signal` (contentsignals.org)
 * line of a group: which paths it covers and what it says about them.
 */
export interface UsageLine {
  readonly format: UsageFormat;
  /** The path pattern as written; "" when the line has none and so covers every path. */
  readonly pattern: string;
  /** The statement of preference as written (the value after the path). */
  readonly statement: string;
  /** Keys of the vocabulary with a y/n (yes/no) value; for a repeated key, its last value. */
  readonly preferences: readonly UsagePreference[];
  /** Keys kept but not interpreted (unknown keys, `use=`, values other than y/n), as written. */
  readonly others: readonly { readonly key: string; readonly value: string }[];
  /**
   * False when the statement cannot be read: a Content-Usage statement that is not an RFC 9651
   * dictionary, a Content-Signal with no `key=value` item. Every preference is then unknown.
   */
  readonly valid: boolean;
  readonly line: number;
}

/** The extension records of one group, typed where the format is known. */
export interface GroupExtensions {
  readonly crawlDelay?: { readonly seconds: number; readonly line: number };
  readonly requestRates: readonly RequestRate[];
  readonly visitTime?: TimeWindow & { readonly line: number };
  readonly comments: readonly { readonly text: string; readonly line: number }[];
  readonly robotVersion?: { readonly version: string; readonly line: number };
  /** Content-Usage and Content-Signal lines, in file order. */
  readonly usage: readonly UsageLine[];
  readonly others: readonly OtherLine[];
}

/** GroupExtensions while they are being built (by the parser) or merged (by the matcher). */
export interface ExtensionsDraft {
  crawlDelay?: { seconds: number; line: number };
  requestRates: RequestRate[];
  visitTime?: TimeWindow & { line: number };
  comments: { text: string; line: number }[];
  robotVersion?: { version: string; line: number };
  usage: UsageLine[];
  others: OtherLine[];
}

/**
 * One group as it stands in the file: its user-agent lines, then its rules.
 * Groups naming the same agent are NOT merged here (the file is kept as written);
 * the matcher merges them (RFC 9309 §2.2.1).
 */
export interface Group {
  /**
   * The tokens its user-agent lines name, lower-cased (product-token.ts `userAgentNames`:
   * each line's whole name, then Google's reading when it differs); `*` for the global group.
   * Empty tokens are dropped.
   */
  readonly agents: readonly string[];
  /**
   * The user-agent lines as written, for display and lint. `recordAfter`: this line comes
   * after a blank line or another field, so the record reading (readings.ts) starts a new
   * group here, RFC 9309 and Google do not; the previous record's last line is `recordAfter`.
   * `priorRecord` (set with `recordAfter`): that reading gives the previous record an empty
   * group ("empty": a crawl-delay ended it) or none ("none": its crawlers fall to `*`).
   */
  readonly agentLines: readonly {
    readonly value: string;
    readonly line: number;
    readonly recordAfter?: number;
    readonly priorRecord?: "empty" | "none";
  }[];
  readonly rules: readonly Rule[];
  readonly extensions: GroupExtensions;
}

export type Severity = "error" | "warning" | "info";

/** Why a line was skipped or looks suspicious: what lint prints. */
export interface Diagnostic {
  /** 1-based line number; 0 for the file as a whole. */
  readonly line: number;
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
}

export type DiagnosticCode =
  | "html-content"
  | "invalid-utf8"
  | "utf16"
  | "utf16-mangled-bom"
  | "truncated"
  | "line-too-long"
  | "nul-byte"
  | "not-key-value"
  | "missing-colon"
  | "misspelt-field"
  | "unknown-field"
  | "rule-outside-group"
  | "extension-outside-group"
  | "path-not-rooted"
  | "empty-rule"
  | "agent-not-product-token"
  | "agent-empty"
  | "agent-google-reading"
  | "repeated-global-group"
  | "invalid-value"
  | "duplicate-value"
  | "sitemap-not-absolute"
  | "usage-syntax"
  | "usage-unknown-key"
  | "usage-invalid-value"
  | "usage-content-use"
  | "usage-contradicts-rules"
  | "usage-outside-group"
  | "usage-between-groups"
  | "usage-joins-groups"
  | "reading-disputed"
  | "too-many-diagnostics";

/** The whole file. */
export interface RobotsTxt {
  readonly groups: readonly Group[];
  readonly sitemaps: readonly { readonly url: string; readonly line: number }[];
  /** Unknown lines that appear before any user-agent line. */
  readonly others: readonly OtherLine[];
  readonly diagnostics: readonly Diagnostic[];
  /** Size of the input in bytes, before truncation. */
  readonly bytes: number;
  /** True when the input was longer than MAX_ROBOTS_BYTES and the rest was ignored. */
  readonly truncated: boolean;
  readonly lines: number;
}
