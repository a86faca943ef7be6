/**
 * Field names: which field a line's key means, as Google's reference parser reads it.
 *
 * RFC 9309 §2.2: field names are case-insensitive. Google's parser (robots.cc) goes further
 * and we follow it, since the keys decide which lines are groups and rules and so which
 * requests Googlebot makes: a key counts as a field when it *starts with* the field's name,
 * compared ASCII case-insensitively ("Disallowed:" is a disallow, `user-agent-x:` a
 * user-agent), and a few frequent misspellings count the same way ("useragent",
 * "user agent", "dissallow", "dissalow", "disalow", "diasllow", "disallaw", "site-map").
 * Nothing else does: "allow" has no typos; "user_agent", "usr-agent", "dis-allow", "alow"
 * name no field. RFC 9309's grammar spells each key exactly and says nothing of a line that
 * misspells one, so there is no conflict to settle: Google's reading decides, because a
 * stricter one would make the edge skip rules Googlebot obeys (and so let through what
 * Googlebot itself would not fetch) or apply a group Googlebot does not.
 * Every inexact reading is reported as a diagnostic, since other crawlers may be stricter.
 *
 * The older extension records (Crawl-delay, Request-rate, Visit-time, Comment,
 * Robot-version) are read the same way, but only after Google's four keys, so they never
 * take a key Google reads as a group or rule line; Google ignores them.
 */

export type Field =
  | "user-agent"
  | "allow"
  | "disallow"
  | "sitemap"
  | "crawl-delay"
  | "request-rate"
  | "visit-time"
  | "comment"
  | "robot-version";

interface FieldSpelling {
  readonly field: Field;
  /** The correct spelling first, then tolerated misspellings. */
  readonly spellings: readonly string[];
}

/** Google's four keys in the order it tries them, then ours (no prefix of one starts another). */
const FIELD_SPELLINGS: readonly FieldSpelling[] = [
  { field: "user-agent", spellings: ["user-agent", "useragent", "user agent"] },
  { field: "allow", spellings: ["allow"] },
  {
    field: "disallow",
    spellings: ["disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"],
  },
  { field: "sitemap", spellings: ["sitemap", "site-map"] },
  { field: "crawl-delay", spellings: ["crawl-delay", "crawldelay", "crawl delay"] },
  { field: "request-rate", spellings: ["request-rate"] },
  { field: "visit-time", spellings: ["visit-time"] },
  { field: "comment", spellings: ["comment"] },
  { field: "robot-version", spellings: ["robot-version"] },
];

/** How a key was read: the field, and whether the key was spelt exactly so. */
export interface FieldReading {
  readonly field: Field;
  readonly exact: boolean;
}

/** Read a key; undefined for keys that name none of our fields (kept as other lines). */
export function readField(key: string): FieldReading | undefined {
  const lower = asciiLowerCase(key);
  for (const { field, spellings } of FIELD_SPELLINGS) {
    for (const spelling of spellings) {
      if (lower.startsWith(spelling)) return { field, exact: lower === field };
    }
  }
  return undefined;
}

/**
 * Lower case for A-Z only: Google compares bytes, so `K` (the Kelvin sign, which
 * toLowerCase turns into `k`) or a dotted `İ` never spell a key.
 */
function asciiLowerCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text;
}
