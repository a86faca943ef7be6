/**
 * On to the origin. The one place a request leaves the edge, so the one place that decides
 * where it may go.
 *
 * Security (the proxy escape): the target is never resolved from request data.
 * `new URL(path, origin)` treats a path beginning `//` (or `/\`, which WHATWG reads as `//`)
 * as a network-path reference and goes to another host: an open proxy carrying the
 * visitor's cookies. Instead the target is ORIGIN_URL's scheme, host and port followed by
 * the request's path and query copied in as text. `url.pathname` always starts with "/",
 * so whatever follows the origin can only ever be a path. The path forwarded is exactly the
 * path the edge judged (both come from the same parsed `url`).
 *
 * Headers: hop-by-hop headers (RFC 9110 §7.6.1, and any named in `Connection`) are dropped in
 * both directions; headers that name another host or path for the origin to serve
 * (`X-Forwarded-Host`, `X-Original-URL`, `X-Rewrite-URL`) are never passed on from a client:
 * an origin that trusts them would serve another resource than the one judged.
 *
 * The admin token never leaves: a request whose Authorization carries ADMIN_TOKEN
 * (an operator's misspelt admin path, `/__ROBOTS/status`, `/__robots%2Fstatus`) is never given
 * to this function: the decision refuses it (policy/edge-decision.ts step 1, the one place the
 * rule is kept) and its record says the 404, answered by adminTokenKept below.
 */

import { logError } from "../log.ts";
import { errorResponse, jsonResponse } from "../responses.ts";

/**
 * RFC 9110 §7.6.1 and the headers every proxy treats as hop-by-hop. `Upgrade` stays: the
 * runtime itself carries WebSocket upgrades through `fetch`, and a site's WebSockets must keep
 * working behind the edge.
 */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding"];

/**
 * Headers a client's `Connection` may not remove: the client address and Cloudflare's own
 * headers that origins use for logging and rate limits (a client naming them would hide itself).
 */
const PROTECTED_FROM_CONNECTION = /^(cf-|x-forwarded-for$|x-real-ip$|true-client-ip$)/;

/** Client headers that would make an origin serve another host or path than the one judged. */
const UNTRUSTED_CLIENT_HEADERS = ["x-forwarded-host", "x-original-url", "x-rewrite-url", "x-http-method-override"];

/** The URL the request goes to: ORIGIN_URL's origin with the judged path and query as text. */
export function originTarget(originUrl: URL, url: URL): string {
  return `${originUrl.origin}${url.pathname}${url.search}`;
}

/**
 * Proxy mode: the same path on ORIGIN_URL. Route mode: the same URL as parsed (the host is
 * the zone's own, which Cloudflare routed to us). An unreachable origin answers 502.
 */
export async function forward(request: Request, url: URL, originUrl: URL | undefined): Promise<Response> {
  const target = originUrl ? originTarget(originUrl, url) : url.href;
  const outgoing = new Request(target, request);
  dropHopByHop(outgoing.headers);
  for (const name of UNTRUSTED_CLIENT_HEADERS) outgoing.headers.delete(name);
  try {
    // Never follow a redirect here, in either mode: the client gets the 3xx and asks again, so
    // the new URL is judged like any other and the edge never fetches a host for it.
    const response = await fetch(outgoing, { redirect: "manual" });
    return withoutHopByHop(response);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logError("origin", message);
    return errorResponse(`the origin could not be reached (${message})`, 502);
  }
}

/** The 404 for a request carrying the admin token; it does not repeat the token. */
export function adminTokenKept(): Response {
  return jsonResponse(
    {
      error:
        "not found: this request carries the admin token, which is never sent to the origin; the admin API answers only under ADMIN_PREFIX, spelt exactly",
    },
    404,
  );
}

/** Delete the hop-by-hop headers, and every header the Connection header names. */
export function dropHopByHop(headers: Headers): void {
  const named = (headers.get("connection") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "" && name !== "upgrade" && !PROTECTED_FROM_CONNECTION.test(name));
  for (const name of [...HOP_BY_HOP, ...named]) headers.delete(name);
}

function withoutHopByHop(response: Response): Response {
  if (response.status === 101 || response.webSocket) return response;
  const connection = response.headers.get("connection");
  if (connection === null && !HOP_BY_HOP.some((name) => response.headers.has(name))) return response;
  const copy = new Response(response.body, response);
  dropHopByHop(copy.headers);
  return copy;
}
