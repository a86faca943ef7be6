/**
 * GET/HEAD /robots.txt, answered by the edge from the store, for everyone:
 *   stored copy -> 200 text/plain, the origin's exact bytes (first 500 KiB);
 *   origin has none (4xx) -> 404; unavailable with nothing stored, or a pause -> 503.
 * Cache-Control: public, for as long as the copy has left before a refresh, at most an hour,
 * so downstream caches never hold it much longer than the edge does.
 */

import type { LoadedRobots } from "./cache.ts";
import { fromBase64 } from "./entry.ts";
import { unavailableResponse } from "../responses.ts";

const MAX_DOWNSTREAM_AGE = 3600;

export function robotsTxtResponse(robots: LoadedRobots, method: string, retryAfter: number, now: number): Response {
  const { entry } = robots;
  if (entry.state === "unavailable" || (entry.state === "ok" && !entry.copy)) {
    return unavailableResponse(
      retryAfter,
      "robots.txt is temporarily unavailable: the origin could not be reached.",
      "robots-unavailable",
    );
  }
  const maxAge = Math.max(0, Math.min(MAX_DOWNSTREAM_AGE, Math.floor((entry.expiresAt - now) / 1000)));
  if (entry.state === "none") {
    return new Response(method === "HEAD" ? null : "No robots.txt at this origin: every URL may be crawled.\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": `public, max-age=${maxAge}` },
    });
  }
  const body = entry.copy ? fromBase64(entry.copy.bodyBase64) : new Uint8Array();
  const headers = new Headers({
    "content-type": "text/plain; charset=utf-8",
    "cache-control": `public, max-age=${maxAge}`,
    "content-length": String(body.length),
    "x-robots-edge": "served",
  });
  if (entry.copy?.etag) headers.set("etag", entry.copy.etag);
  if (entry.copy?.lastModified) headers.set("last-modified", entry.copy.lastModified);
  return new Response(method === "HEAD" ? null : body, { status: 200, headers });
}
