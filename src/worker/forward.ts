/**
 * On to the origin. The edge is a security boundary here: the request's path is copied into
 * the target as a path, never resolved as a URL reference. `new URL("//evil/x", origin)` would
 * be a network-path reference (RFC 3986 §4.2) naming another host — an open proxy carrying the
 * visitor's cookies — and WHATWG reads `/\evil/x` the same way. So the target is always the
 * origin's scheme, host and port (ORIGIN_URL in proxy mode, the request's own authority in
 * route mode) with the request's pathname and search set as components, and it is checked
 * to have kept that authority before anything is fetched. We do not rely on Cloudflare's
 * zone URL normalisation being on.
 */

import { logError } from "./log.ts";
import { errorResponse } from "./responses.ts";

/**
 * The URL to fetch: `base`'s scheme, host and port with `url`'s path and query as they are.
 * Throws a TypeError when the result would name another authority (it cannot, by
 * construction; the check keeps it so if the code around it changes).
 */
export function originTarget(base: URL, url: URL): URL {
  const target = new URL(base.origin);
  // Setting the components keeps them in place: a pathname of "//evil/x" stays a path.
  target.pathname = url.pathname;
  target.search = url.search;
  if (target.origin !== base.origin || target.pathname !== url.pathname) {
    throw new TypeError(`refused to forward ${url.pathname} outside ${base.origin}`);
  }
  return target;
}

/**
 * The request, sent on to `base` (ORIGIN_URL, or in route mode the request's own origin).
 * An origin that cannot be reached answers 502, never an opaque exception.
 */
export async function forward(request: Request, url: URL, base: URL): Promise<Response> {
  try {
    const target = originTarget(base, url);
    return await fetch(new Request(target, request), { redirect: "manual" });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logError("origin", message);
    return errorResponse(`the origin could not be reached (${message})`, 502);
  }
}
