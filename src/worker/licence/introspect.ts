/**
 * The licence server's word on a crawler's `Authorization: License <token>`: RSL's Open
 * Licence Protocol token introspection (OLP `/introspect`, built on RFC 7662), asked of the
 * server the operator's policy names (`licence.server`), never of a host a request names.
 *
 *   POST <server>/introspect
 *   Content-Type: application/x-www-form-urlencoded
 *   Authorization: Basic <LICENCE_SERVER_CREDENTIALS, client_id:client_secret>   (when set)
 *   token=<token>&resource=<the route's resource on this site>
 *
 * The answer (RFC 7662 §2.2) confirms a token only when `active` is true, its `exp` (seconds)
 * is still ahead, and any `aud` or `resource` it names covers this site's resource: a server
 * that says "active" of a token issued for another site, or of one whose own expiry has
 * passed, is not believed. Anything else we cannot read — a hang past INTROSPECT_TIMEOUT_MS, a
 * network error, a status other than 200, a body that is not such JSON, or larger than
 * MAX_ANSWER_BYTES — is our failure (edge/own-fault.ts licenceServerFault): 503 with
 * Retry-After to the crawler, a named fault in GET status, never a refusal.
 *
 * Answers are kept per isolate (no client can buy our quota): a confirmation until the
 * token's `exp` and at most CONFIRMED_TTL_MS, a refusal for REFUSED_TTL_MS, keyed by server,
 * resource and a SHA-256 of the token (the token itself is never held); at most MAX_CACHED
 * answers, the oldest dropped first. At most MAX_IN_FLIGHT questions are asked at once per
 * isolate: a flood of made-up tokens costs the licence server that many, and the rest a 503.
 */

import type { LicenceFact, LicenceQuestion } from "../../policy/terms.ts";
import { licenceServerAnswered, licenceServerFault } from "../edge/own-fault.ts";

export const INTROSPECT_TIMEOUT_MS = 2_500;
export const CONFIRMED_TTL_MS = 5 * 60_000;
export const REFUSED_TTL_MS = 60_000;
export const MAX_CACHED = 2_000;
export const MAX_IN_FLIGHT = 16;
export const MAX_ANSWER_BYTES = 16 * 1024;

interface Cached {
  readonly fact: LicenceFact;
  readonly until: number;
}

const answers = new Map<string, Cached>();
let inFlight = 0;

/** Forget every answer (tests: each starts as a new isolate would). */
export function clearLicenceMemory(): void {
  answers.clear();
  inFlight = 0;
}

/** The server's answer on `token` for `question`, from memory when it is still good. */
export async function checkLicence(
  question: LicenceQuestion,
  token: string,
  site: string,
  credentials: string | undefined,
  now = Date.now(),
): Promise<LicenceFact> {
  const resource = question.resource.startsWith("/") ? `${site}${question.resource}` : question.resource;
  const key = `${question.server}\n${resource}\n${await sha256(token)}`;
  const cached = answers.get(key);
  if (cached && cached.until > now) return cached.fact;
  if (inFlight >= MAX_IN_FLIGHT) {
    return licenceServerFault(question.server, `more than ${MAX_IN_FLIGHT} token checks at once in this isolate`);
  }
  inFlight++;
  try {
    const answer = await introspect(question.server, token, resource, credentials);
    if ("fault" in answer) return licenceServerFault(question.server, answer.fault);
    licenceServerAnswered(question.server);
    const fact = judged(answer.body, resource, site, now);
    remember(key, fact, now, answer.body);
    return fact;
  } finally {
    inFlight--;
  }
}

type Introspected = { readonly body: Record<string, unknown> } | { readonly fault: string };

async function introspect(
  server: string,
  token: string,
  resource: string,
  credentials: string | undefined,
): Promise<Introspected> {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
  if (credentials) headers.set("authorization", `Basic ${btoa(credentials)}`);
  let response: Response;
  try {
    response = await fetch(`${server}/introspect`, {
      method: "POST",
      headers,
      body: new URLSearchParams({ token, resource }).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(INTROSPECT_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      fault: timedOut ? `gave no answer within ${INTROSPECT_TIMEOUT_MS} ms` : `could not be reached (${String(error)})`,
    };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { fault: `answered ${response.status}` };
  }
  const text = await boundedText(response);
  if (text === undefined) return { fault: `answered more than ${MAX_ANSWER_BYTES} bytes` };
  try {
    const body: unknown = JSON.parse(text);
    if (
      typeof body !== "object" ||
      body === null ||
      Array.isArray(body) ||
      typeof (body as { active?: unknown }).active !== "boolean"
    ) {
      return { fault: "answered no RFC 7662 introspection response (an object with a boolean `active`)" };
    }
    return { body: body as Record<string, unknown> };
  } catch {
    return { fault: "answered something that is not JSON" };
  }
}

/** RFC 7662 §2.2, judged against this site: see the file comment. */
function judged(body: Record<string, unknown>, resource: string, site: string, now: number): LicenceFact {
  if (body["active"] !== true) return { status: "refused", why: "the licence server says the token is not active" };
  const exp = body["exp"];
  if (exp !== undefined && (typeof exp !== "number" || exp * 1000 <= now)) {
    return { status: "refused", why: "the token has expired" };
  }
  for (const member of ["aud", "resource"] as const) {
    const named = body[member];
    if (named === undefined) continue;
    const list = Array.isArray(named) ? named : [named];
    if (!list.some((value) => typeof value === "string" && covers(value, resource, site))) {
      return { status: "refused", why: `the token was issued for another site or resource (${member})` };
    }
  }
  return { status: "confirmed" };
}

/**
 * A named resource covers ours when it is this site, or ours, or a prefix of ours cut at a path
 * segment: it ends in `/`, or ours goes on with `/` after it. A licence for `/prem` is not one
 * for `/premium/`, nor `/premium-lite/` one for `/premium/`.
 */
function covers(named: string, resource: string, site: string): boolean {
  if (named === site || named === `${site}/`) return true;
  if (!named.startsWith(site) || !resource.startsWith(named)) return false;
  return resource.length === named.length || named.endsWith("/") || resource[named.length] === "/";
}

function remember(key: string, fact: LicenceFact, now: number, body: Record<string, unknown>): void {
  const exp = typeof body["exp"] === "number" ? body["exp"] * 1000 : Infinity;
  const until = fact.status === "confirmed" ? Math.min(exp, now + CONFIRMED_TTL_MS) : now + REFUSED_TTL_MS;
  answers.delete(key);
  answers.set(key, { fact, until });
  if (answers.size > MAX_CACHED) answers.delete(answers.keys().next().value as string);
}

async function boundedText(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}
