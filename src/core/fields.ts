/**
 * Field names: which field a line's key means, as Google's reference parser reads it.
 *
 * RFC 9309 §2.2: field names are case-insensitive. Google (robots.cc, ParsedRobotsKey)
 * goes further and we follow it: a key counts as a field when it *starts with* the field's
 * name ("Disallowed:" is a disallow), and a few frequent misspellings are accepted
 * ("useragent", "dissalow", "site-map", …). Every such reading is reported as a diagnostic,
 * since crawlers other than Google's may not be as lenient.
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

/** In the order Google tries them: "allow" before "disallow" cannot clash (prefix test). */
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
  const lower = key.toLowerCase();
  for (const { field, spellings } of FIELD_SPELLINGS) {
    for (const spelling of spellings) {
      if (lower.startsWith(spelling)) return { field, exact: lower === field };
    }
  }
  return undefined;
}
