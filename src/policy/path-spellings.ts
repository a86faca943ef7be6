/**
 * The spellings of a request path that an origin may serve as the same resource, so that a
 * re-spelled URL cannot slip past a rule. An edge concern, not the REP matcher's: robots.txt
 * matching stays exact to RFC 9309 on each spelling; the edge judges every spelling and blocks
 * when any is disallowed, because it cannot know which way this origin reads the URL.
 *
 * Decided and tested (test/policy/path-spellings.test.ts, the e2e bypass table):
 *   - always: dot segments removed (RFC 3986 §5.2.4) and runs of "/" merged — every common
 *     origin serves `/a/../private/`, `/./private/` and `//private/` as `/private/`;
 *     percent-encoded unreserved characters and hex case are handled by canonicalizePath.
 *   - more spellings when the path holds `;` parameters or an encoded slash (`%2F`), one per
 *     way common servers read them:
 *       nginx (static files) decodes `%2F` and keeps `;` as data;
 *       Java servlet containers strip `;…` from each segment up to the next *raw* `/` first,
 *       then decode and resolve dot segments: `/private;%2F../` is `/private/` there;
 *       others decode first and strip parameters after.
 *   - case is kept: paths are case-sensitive (RFC 9309 §2.2.2), so `/Private/` is another
 *     path; an origin on a case-insensitive file system must say so in its robots.txt.
 * The query is left as written (beyond canonicalisation): its meaning is the origin's.
 */

import { canonicalizePath } from "../core/index.ts";

/** The spellings to judge, canonical one first, no duplicates; one element when unambiguous. */
export function enforcementSpellings(pathAndQuery: string): string[] {
  const canonical = canonicalizePath(pathAndQuery);
  const queryAt = canonical.indexOf("?");
  const path = queryAt < 0 ? canonical : canonical.slice(0, queryAt);
  const query = queryAt < 0 ? "" : canonical.slice(queryAt);
  const spellings = new Set([tidyPath(path)]);
  if (path.includes(";") || ENCODED_SLASH.test(path)) {
    spellings.add(tidyPath(decodeSlashes(path))); // nginx
    spellings.add(tidyPath(decodeSlashes(stripParameters(path)))); // servlet containers
    spellings.add(tidyPath(stripParameters(decodeSlashes(path)))); // decode, then strip
  }
  return [...spellings].map((spelling) => spelling + query);
}

const ENCODED_SLASH = /%2F/i;

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

function decodeSlashes(path: string): string {
  return path.replace(/%2F/gi, "/");
}

/** `/a;x=1/b;y` -> `/a/b`: each segment's parameters, up to the next raw `/`. */
function stripParameters(path: string): string {
  return path.replace(/;[^/]*/g, "");
}
