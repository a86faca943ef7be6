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
 *   - a path starting with `//` also in its network-path reading: an origin that resolves
 *     the request target as a URL reference (`new URL(target, base)` in many frameworks)
 *     reads `//host/private/` as `/private/` on host; the edge judges that path too.
 *   - case is kept: paths are case-sensitive (RFC 9309 §2.2.2), so `/Private/` is another
 *     path; an origin on a case-insensitive file system must say so in its robots.txt.
 * The query is left as written (beyond canonicalisation): its meaning is the origin's.
 */

import { canonicalizePath } from "../core/index.ts";

/** The spellings to judge, canonical one first, without repeats; one when there is no ambiguity. */
export function enforcementSpellings(pathAndQuery: string): string[] {
  const canonical = canonicalizePath(pathAndQuery);
  const queryAt = canonical.indexOf("?");
  const path = queryAt < 0 ? canonical : canonical.slice(0, queryAt);
  const query = queryAt < 0 ? "" : canonical.slice(queryAt);
  const paths = [tidyPath(path)];
  if (path.includes(";") || ENCODED_SLASH.test(path)) {
    paths.push(tidyPath(stripParameters(decodeSlashes(path))));
    paths.push(tidyPath(decodeSlashes(stripParameters(path))));
  }
  if (path.startsWith("//")) paths.push(tidyPath(networkPathReading(path)));
  return [...new Set(paths)].map((spelling) => spelling + query);
}

const ENCODED_SLASH = /%2F/i;

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
