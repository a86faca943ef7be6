/**
 * Fetching an origin's robots.txt the way RFC 9309 §2.3 and Google (test/fixtures/spec, "Handling
 * HTTP status codes") say crawlers fetch it:
 *   2xx                      -> the body (500 KiB and one byte read; the rest never downloaded)
 *   3xx                      -> follow, up to 5 redirects; a 6th counts as 404
 *   4xx except 429           -> no robots.txt: no restriction
 *   5xx, 429, timeout, network error -> unavailable (a complete disallow, temporarily)
 * Redirects are followed by hand so the hop limit is ours, and a Location on another
 * authority is followed too (RFC 9309 §2.3.1.2: the target's robots.txt applies); what it
 * serves must still read as a robots.txt (robots/entry.ts) before it can replace a copy.
 *
 * The fetch identifies itself (ROBOTS_FETCH_USER_AGENT): WAFs answer requests without a
 * User-Agent 403, which would read as "no robots.txt" and switch enforcement off.
 */

import { MAX_ROBOTS_BYTES } from "../../core/index.ts";

export const MAX_REDIRECTS = 5;

/** The version in package.json (a test keeps them equal; the Worker bundle does not read package.json). */
export const VERSION = "0.1.0";
/** Where an origin's operator reads what this fetcher is. */
export const PROJECT_URL = "https://github.com/robots-edge/robots-edge";
/** Product token, version and a contact URL, as crawlers identify themselves (RFC 9309 §2.2.1, RFC 9110 §10.1.5). */
export const ROBOTS_FETCH_USER_AGENT = `robots-edge/${VERSION} (+${PROJECT_URL})`;

export type OriginFetch =
  | {
      readonly kind: "ok";
      readonly status: number;
      readonly body: Uint8Array;
      readonly etag: string | undefined;
      readonly lastModified: string | undefined;
      /** Seconds from Cache-Control max-age / s-maxage, when the origin sent one. */
      readonly maxAge: number | undefined;
    }
  | { readonly kind: "none"; readonly status: number; readonly reason: string }
  | { readonly kind: "unavailable"; readonly status: number | undefined; readonly reason: string };

/** GET robots.txt from `url`, following redirects; never throws. */
export async function fetchRobotsTxt(url: URL, timeoutMs: number): Promise<OriginFetch> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await fetch(target, {
        redirect: "manual",
        signal,
        headers: { accept: "text/plain, */*", "user-agent": ROBOTS_FETCH_USER_AGENT },
      });
      const location = response.headers.get("location");
      if (isRedirect(response.status) && location) {
        await response.body?.cancel();
        if (hop === MAX_REDIRECTS)
          return { kind: "none", status: response.status, reason: `more than ${MAX_REDIRECTS} redirects` };
        target = new URL(location, target);
        continue;
      }
      return await classify(response);
    }
  } catch (error) {
    const reason = signal.aborted ? `timed out after ${timeoutMs} ms` : `network error: ${messageOf(error)}`;
    return { kind: "unavailable", status: undefined, reason };
  }
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

async function classify(response: Response): Promise<OriginFetch> {
  const { status } = response;
  if (status >= 200 && status < 300) {
    return {
      kind: "ok",
      status,
      // One byte past the limit tells the parser the file was longer (a lint error); the
      // store keeps and serves only the first MAX_ROBOTS_BYTES.
      body: await readLimited(response, MAX_ROBOTS_BYTES + 1),
      etag: response.headers.get("etag") ?? undefined,
      lastModified: response.headers.get("last-modified") ?? undefined,
      maxAge: maxAgeOf(response.headers.get("cache-control")),
    };
  }
  await response.body?.cancel();
  if (status === 429 || status >= 500) return { kind: "unavailable", status, reason: `origin answered ${status}` };
  if (status >= 400) return { kind: "none", status, reason: `origin answered ${status}: no robots.txt` };
  return { kind: "unavailable", status, reason: `unexpected status ${status}` };
}

/** The first `limit` bytes of the body; the rest is not downloaded (RFC 9309 §2.5). */
export async function readLimited(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= limit) await reader.cancel();
  const body = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, body.length - offset);
    body.set(part, offset);
    offset += part.length;
    if (offset === body.length) break;
  }
  return body;
}

/** max-age (or s-maxage, which a shared cache like ours honours first), in seconds. */
export function maxAgeOf(cacheControl: string | null): number | undefined {
  if (!cacheControl) return undefined;
  const directive = (name: string) => new RegExp(`(?:^|[,\\s])${name}\\s*=\\s*"?(\\d+)`, "i").exec(cacheControl)?.[1];
  const value = directive("s-maxage") ?? directive("max-age");
  if (value !== undefined) return Number(value);
  return /(?:^|[,\s])(?:no-store|no-cache)(?:$|[,\s])/i.test(cacheControl) ? 0 : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A published list's JSON (crawler address lists, crawler catalogues), fetched as our crawler
 * and read to at most `maxBytes`; throws with what status shows as the last error (an HTTP
 * status, too large, not JSON).
 */
export async function fetchBoundedJson(url: string, timeoutMs: number, maxBytes: number): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: "application/json", "user-agent": ROBOTS_FETCH_USER_AGENT },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const body = await readLimited(response, maxBytes + 1);
  if (body.byteLength > maxBytes) throw new Error(`refused: larger than ${maxBytes} bytes`);
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error("the answer is not JSON");
  }
}
