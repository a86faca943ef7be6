/**
 * The spellings of a request path that an origin may serve as the same resource, so that a
 * re-spelled URL cannot slip past a rule. An edge concern, not the REP matcher's: robots.txt
 * matching stays exact to RFC 9309 on each spelling, and the edge blocks when ANY spelling is
 * disallowed, since it cannot know how this origin reads a URL.
 *
 * Decided and tested (test/policy/path-spellings.test.ts, test/e2e bypass table):
 *   - always: dot segments removed (RFC 3986 §5.2.4) and runs of "/" merged — every common
 *     origin serves `/a/../private/`, `/./private/` and `//private/` as `/private/`;
 *     percent-encoded unreserved characters and hex case are handled by canonicalizePath.
 *   - `;` parameters and encoded slashes (`%2F`): origins differ, so each reading is judged:
 *       · parameters kept, `%2F` kept (most servers);
 *       · `%2F` decoded first, then parameters dropped (nginx-style decoding in front of an
 *         app that drops `;jsessionid=…`);
 *       · parameters dropped on the RAW path, each up to the next raw "/", then `%2F` decoded
 *         and dot segments resolved — what Java servlet containers do, so
 *         `/private;%2F../` is `/private/` and `/private;x=%2F..%2F/r` is `/private/r`.
 *   - reserved-character escapes other than `%2F`, `%3F` and `%23` (`%3A`, `%27`, `%40`…):
 *     RFC 3986 §2.2 makes `/wiki/Special%3AX` and `/wiki/Special:X` different URLs, but
 *     MediaWiki and most origins decode them and serve one page, and LinkChecker sends every
 *     `:` as `%3A`. So every reading above is also judged on the path with those escapes
 *     decoded. `%2F` has its own readings; `%3F` and `%23` decoded would end the path, and
 *     an origin that did so would serve a different path anyway (the rest became a query).
 *     The rule side keeps the same promise (ruleSpelling): a rule that writes the character
 *     escaped (`Disallow: /wiki/Talk:Bureaucrats%27_noticeboard`, from a real file) also
 *     matches the path that sends it literally (`'`), the origin serving both as one page. The
 *     edge compiles every rule set it enforces so (enforcementMatcher, enforcementRoutes);
 *     the engine and `robots-edge check` keep RFC 9309's answer, where they differ.
 *   - any reading starting with `//` also in its network-path reading: an origin that
 *     resolves the request target as a URL reference (`new URL(target, base)` in many
 *     frameworks) reads `//host/private/` as `/private/` on host, and one that decodes `%2F`
 *     first reads `/%2Fhost/private/` so too; the edge judges that path as well.
 *   - case is kept: paths are case-sensitive (RFC 9309 §2.2.2), so `/Private/` is another
 *     path; an origin on a case-insensitive file system must say so in its robots.txt.
 * The query is left as written (beyond canonicalisation): its meaning is the origin's.
 */

import {
  canonicalizePath,
  compileRobots,
  indexPathPatterns,
  type PathPatternIndex,
  type RobotsMatcher,
  type RobotsTxt,
} from "../core/index.ts";

/** The spellings to judge, canonical one first, without repeats; one when there is no ambiguity. */
export function enforcementSpellings(pathAndQuery: string): readonly string[] {
  // One decision asks several times for the same path (each fact it gathers, each side of a
  // replay): the last answer is kept, so a long path is canonicalised and read once.
  if (last?.pathAndQuery !== pathAndQuery) last = { pathAndQuery, spellings: spellingsOf(pathAndQuery) };
  return last.spellings;
}

let last: { readonly pathAndQuery: string; readonly spellings: readonly string[] } | undefined;

function spellingsOf(pathAndQuery: string): readonly string[] {
  const canonical = canonicalizePath(pathAndQuery);
  const queryAt = canonical.indexOf("?");
  const path = queryAt < 0 ? canonical : canonical.slice(0, queryAt);
  const query = queryAt < 0 ? "" : canonical.slice(queryAt);
  const readings = originReadings(path);
  const decoded = decodeReserved(path);
  if (decoded !== path) readings.push(...originReadings(decoded));
  return [...new Set(readings.map(tidyPath))].map((spelling) => spelling + query);
}

/** How origins may read one raw path (before dot segments and repeated slashes are resolved). */
function originReadings(path: string): string[] {
  const readings = [path];
  if (path.includes(";") || ENCODED_SLASH.test(path)) {
    readings.push(stripParameters(decodeSlashes(path)), decodeSlashes(stripParameters(path)));
  }
  const networkPaths = readings.filter((reading) => reading.startsWith("//")).map(networkPathReading);
  return [...readings, ...networkPaths];
}

const ENCODED_SLASH = /%2F/i;
/** Reserved characters (RFC 3986 §2.2) but `/`, `?` and `#`, escaped; canonical hex is upper case. */
const ENCODED_RESERVED = /%(3A|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/g;

function decodeReserved(path: string): string {
  if (!path.includes("%")) return path;
  return path.replace(ENCODED_RESERVED, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * A rule's other spelling at the edge: its canonical pattern with the reserved escapes decoded
 * that the path side decodes (decodeReserved), in the path part only (before `?`), so that
 * the path's decoded reading meets it. It may only add refusals (match.ts buildTrees).
 * `%2A` and `%24` stay: in a pattern they already match a literal `*` and `$` (RFC 9309
 * §2.2.3), and decoded they would become a wildcard and an anchor.
 */
export function ruleSpelling(canonicalPattern: string): string | undefined {
  // Only the path part: the path side leaves the query as written (its meaning is the
  // origin's), and in a query `%26` is a value's `&`, not a separator (`q=a%26b` is not
  // `q=a&b`), `%2B` a `+`, not a space.
  const queryAt = canonicalPattern.indexOf("?");
  const path = queryAt < 0 ? canonicalPattern : canonicalPattern.slice(0, queryAt);
  if (!path.includes("%")) return undefined;
  const decoded = path.replace(ENCODED_RESERVED, (escape, hex: string) =>
    hex === "2A" || hex === "24" ? escape : String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return decoded === path ? undefined : decoded + canonicalPattern.slice(path.length);
}

/** A robots.txt compiled as the edge enforces it: each rule also in its ruleSpelling. */
export function enforcementMatcher(robots: RobotsTxt): RobotsMatcher {
  return compileRobots(robots, { alsoSpelled: ruleSpelling });
}

/** The operator policy's route patterns indexed as the edge enforces them (ruleSpelling). */
export function enforcementRoutes(patterns: readonly string[]): PathPatternIndex {
  return indexPathPatterns(patterns, ruleSpelling);
}

function decodeSlashes(path: string): string {
  return path.replace(/%2F/gi, "/");
}

/** `//host/rest` read as a URL reference: the authority goes, `/rest` stays (or `/`). */
function networkPathReading(path: string): string {
  const authorityStart = path.search(/[^/]/);
  if (authorityStart < 0) return "/";
  const pathStart = path.indexOf("/", authorityStart);
  return pathStart < 0 ? "/" : path.slice(pathStart);
}

/** Merge repeated slashes, then remove `.` and `..` segments. */
export function tidyPath(path: string): string {
  return removeDotSegments(path.replace(/\/{2,}/g, "/"));
}

/** RFC 3986 §5.2.4 for an absolute path; never climbs above the root. */
export function removeDotSegments(path: string): string {
  if (!path.includes(".")) return path;
  const output: string[] = [];
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] ?? "";
    const isLast = i === segments.length - 1;
    if (segment === ".") {
      if (isLast) output.push("");
    } else if (segment === "..") {
      output.pop();
      if (isLast) output.push("");
    } else {
      output.push(segment);
    }
  }
  return `/${output.join("/")}`;
}

/** `/a;x=1/b;y` -> `/a/b`: the parameters some servers drop from each segment. */
function stripParameters(path: string): string {
  return path.replace(/;[^/]*/g, "");
}

/**
 * "Every layer judges every spelling", in one place: each spelling of the path is judged on
 * its own, through every layer `judgeOne` runs (policy route, robots.txt, usage preferences,
 * pacing), and the strictest outcome wins; among equals, the earliest spelling (canonical
 * first). So a pass — a route with mode `off`, an `allow` rule, no usage refusal — counts
 * only if it holds for EVERY spelling: a route chosen by one spelling cannot lift what
 * another spelling of the same resource is refused. A layer added inside `judgeOne` is judged
 * on every spelling without doing anything for it.
 */
export function judgeEverySpelling<Outcome>(
  pathAndQuery: string,
  judgeOne: (spelling: string) => Outcome,
  strictness: (outcome: Outcome) => number,
): Outcome {
  const [canonical = "/", ...others] = enforcementSpellings(pathAndQuery);
  let strictest = judgeOne(canonical);
  let level = strictness(strictest);
  for (const spelling of others) {
    const outcome = judgeOne(spelling);
    const outcomeLevel = strictness(outcome);
    if (outcomeLevel > level) [strictest, level] = [outcome, outcomeLevel];
  }
  return strictest;
}
