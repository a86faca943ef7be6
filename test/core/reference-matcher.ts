// A tiny reference matcher, written apart from src/ so that the compiled matcher can be
// checked against something obviously correct (STYLE.md: "two implementations, one suite").
//
// RFC 9309 §2.2.2 and §2.2.3, nothing else: patterns are taken as given (the caller passes
// them in canonical form), `*` matches any sequence of characters, a `$` that ends the
// pattern anchors it to the end of the path, any other `$` is a literal character. The
// longest matching pattern wins, counted in characters as written (`*` and `$` included);
// on a tie allow wins; no matching pattern means allowed; /robots.txt is always allowed.
// No regular expressions and no indexOf: the set of path positions the pattern can have
// reached, one pattern character at a time; O(pattern × path) per rule at worst, meant to
// be read rather than to be fast.

/** One rule as the reference sees it. */
export interface ReferenceRule {
  readonly kind: "allow" | "disallow";
  readonly pattern: string;
}

/** The reference's answer: allowed or not, and the winning rule when one matched. */
export interface ReferenceDecision {
  readonly allowed: boolean;
  /** The winning rule's kind and pattern length, when a rule matched. */
  readonly winner?: { readonly kind: "allow" | "disallow"; readonly length: number };
}

/**
 * Does `pattern` match `path` from its start?
 * `ends` holds, in ascending order, every position of `path` where the pattern characters
 * read so far can stop: a literal moves each position on by one if the path has that
 * character there; `*` can stop anywhere from the first position on.
 */
export function referenceMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let ends = [0];
  for (const char of body) {
    if (ends.length === 0) return false;
    if (char === "*") {
      const first = ends[0] ?? 0;
      ends = [];
      for (let j = first; j <= path.length; j++) ends.push(j);
    } else {
      ends = ends.filter((j) => j < path.length && path[j] === char).map((j) => j + 1);
    }
  }
  // Anchored: the match must stop at the end of the path; otherwise anywhere will do.
  return anchored ? ends.includes(path.length) : ends.length > 0;
}

/** Decide a path against one group's rules by RFC 9309 §2.2.2. */
export function referenceDecide(rules: readonly ReferenceRule[], path: string): ReferenceDecision {
  if (path === "/robots.txt") return { allowed: true };
  let winner: { kind: "allow" | "disallow"; length: number } | undefined;
  for (const rule of rules) {
    if (!referenceMatches(rule.pattern, path)) continue;
    const length = rule.pattern.length;
    const better =
      winner === undefined ||
      length > winner.length ||
      (length === winner.length && rule.kind === "allow" && winner.kind === "disallow");
    if (better) winner = { kind: rule.kind, length };
  }
  if (winner === undefined) return { allowed: true };
  return { allowed: winner.kind === "allow", winner };
}

// ---------------------------------------------------------------------------------------------
// Google's reading of a whole file, for crawlers whose name is letters, `-` and `_` only,
// written from the behaviour of Google's reference parser (robots.cc), not from src/:
//   - a line is cut at `#`, trimmed of ASCII white space; key and value are split at the first
//     `:`, or, when there is none, at white space if the line is exactly two words;
//   - a key is read by prefix, ASCII case-insensitively, with a few frequent typos;
//   - a user-agent line whose value is `*` (alone or before white space) is the global group;
//     any other value is read up to its first character outside [A-Za-z_-];
//   - consecutive user-agent lines form one group; a rule (even an empty one) closes the list;
//   - every group whose line names the crawler counts (they merge); `*` counts only when none
//     does; the longest matching pattern wins, allow on a tie; /robots.txt is always allowed.
// Kept out on purpose (the generators avoid them): `index.htm` allow rules and %-escapes.

/** The key types Google's parser knows; every other key is "unknown". */
export type ReferenceKey = "user-agent" | "allow" | "disallow" | "sitemap" | "unknown";

// robots.cc: each key and the typos it accepts, all compared as prefixes.
const REFERENCE_KEY_PREFIXES: readonly (readonly [ReferenceKey, readonly string[]])[] = [
  ["user-agent", ["user-agent", "useragent", "user agent"]],
  ["allow", ["allow"]],
  ["disallow", ["disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"]],
  ["sitemap", ["sitemap", "site-map"]],
];

/** ASCII-only lower case, as the reference's byte comparisons are: `K` (U+212A) stays. */
function asciiLower(text: string): string {
  let out = "";
  for (const char of text) out += char >= "A" && char <= "Z" ? String.fromCharCode(char.charCodeAt(0) + 32) : char;
  return out;
}

/** The key type Google's parser gives a (trimmed) key. */
export function referenceKey(key: string): ReferenceKey {
  const lower = asciiLower(key);
  for (const [type, prefixes] of REFERENCE_KEY_PREFIXES) {
    if (prefixes.some((prefix) => lower.slice(0, prefix.length) === prefix)) return type;
  }
  return "unknown";
}

function isWhite(char: string | undefined): boolean {
  return char === " " || char === "\t" || char === "\n" || char === "\v" || char === "\f" || char === "\r";
}

function isBlank(char: string | undefined): boolean {
  return char === " " || char === "\t";
}

function trimWhite(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isWhite(text[start])) start++;
  while (end > start && isWhite(text[end - 1])) end--;
  return text.slice(start, end);
}

/** Key and value of one line, or undefined when the line holds no directive. */
function referenceKeyValue(raw: string): { key: string; value: string } | undefined {
  const hash = raw.indexOf("#");
  const line = trimWhite(hash < 0 ? raw : raw.slice(0, hash));
  if (line === "") return undefined;
  let sep = line.indexOf(":");
  if (sep < 0) {
    // Exactly two runs of non-blank characters, separated by spaces or tabs.
    let space = 0;
    while (space < line.length && !isBlank(line[space])) space++;
    if (space === line.length) return undefined;
    let valueStart = space;
    while (isBlank(line[valueStart])) valueStart++;
    if (Array.from(line.slice(valueStart)).some(isBlank)) return undefined;
    sep = space;
  }
  const key = trimWhite(line.slice(0, sep));
  return key === "" ? undefined : { key, value: trimWhite(line.slice(sep + 1)) };
}

/** The name Google's parser reads from a user-agent value: leading letters, `-` and `_`. */
export function referenceAgentName(value: string): string {
  let end = 0;
  while (end < value.length && /[A-Za-z_-]/.test(value[end] ?? "")) end++;
  return asciiLower(value.slice(0, end));
}

/** May a crawler named `agent` (letters, `-`, `_`) fetch `path`, as Google's parser reads the file? */
export function referenceGoogleAllowed(robotsTxt: string, agent: string, path: string): boolean {
  const specific: ReferenceRule[] = [];
  const global: ReferenceRule[] = [];
  let inSpecific = false;
  let inGlobal = false;
  let rulesStarted = false;
  let everSpecific = false;
  for (const raw of robotsTxt.split(/\r\n|\r|\n/)) {
    const pair = referenceKeyValue(raw);
    if (!pair) continue;
    const type = referenceKey(pair.key);
    if (type === "user-agent") {
      if (rulesStarted) inSpecific = inGlobal = rulesStarted = false;
      if (pair.value[0] === "*" && (pair.value.length === 1 || isWhite(pair.value[1]))) inGlobal = true;
      else if (referenceAgentName(pair.value) === asciiLower(agent)) inSpecific = everSpecific = true;
    } else if ((type === "allow" || type === "disallow") && (inSpecific || inGlobal)) {
      rulesStarted = true;
      if (pair.value === "") continue;
      (inSpecific ? specific : global).push({ kind: type, pattern: pair.value });
    }
  }
  return referenceDecide(everSpecific ? specific : global, path).allowed;
}
