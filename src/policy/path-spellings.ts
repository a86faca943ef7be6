/**
 * The spellings of a request path that an origin may serve as the same resource, so that a
 * re-spelled URL cannot slip past a rule. Used by the edge, not by the REP matcher itself
 * (robots.txt matching stays exact to RFC 9309 on each spelling).
 *
 * Decided and tested (test/core/normalize.test.ts, test/e2e bypass table):
 *   - always: dot segments removed (RFC 3986 §5.2.4) and runs of "/" merged — every common
 *     origin serves `/a/../private/`, `/./private/` and `//private/` as `/private/`;
 *     percent-encoded unreserved characters and hex case are handled by canonicalizePath.
 *   - a second spelling when the path holds `;` parameters or an encoded slash (`%2F`):
 *     some origins strip `;jsessionid=…`-style parameters (Java servers) or decode `%2F`
 *     (nginx's static files), others do not. The edge judges both spellings and blocks when
 *     either is disallowed: it cannot know which way this origin reads the URL.
 *   - case is kept: paths are case-sensitive (RFC 9309 §2.2.2), so `/Private/` is another
 *     path; an origin on a case-insensitive file system must say so in its robots.txt.
 * The query is left as written (beyond canonicalisation): its meaning is the origin's.
 */

import { canonicalizePath } from "./path.ts";

/** The spellings to judge, canonical one first; one element when there is no ambiguity. */
export function enforcementSpellings(pathAndQuery: string): string[] {
  const canonical = canonicalizePath(pathAndQuery);
  const queryAt = canonical.indexOf("?");
  const path = queryAt < 0 ? canonical : canonical.slice(0, queryAt);
  const query = queryAt < 0 ? "" : canonical.slice(queryAt);
  const plain = tidyPath(path);
  const spellings = [plain + query];
  if (path.includes(";") || /%2F/i.test(path)) {
    const originRead = tidyPath(stripParameters(path.replace(/%2F/gi, "/")));
    if (originRead !== plain) spellings.push(originRead + query);
  }
  return spellings;
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
