/**
 * Structured logs: one JSON line per crawler decision (none for humans), or with LOG_FORMAT=line
 * (npm run dev) one short line a person reads at a terminal, both rendered from the one record;
 * and errors. A log line is bounded whatever a client sends: the User-Agent and paths are cut to
 * MAX_LOGGED_CHARS, and query strings (which may carry personal data or tokens) are left
 * out unless the operator sets LOG_QUERY=true.
 */

import type { VerificationOutcome } from "../agents/verification.ts";
import type { EdgeRecord } from "../policy/edge-record.ts";
import { rateLimitFields } from "../policy/rate-limit-headers.ts";
import type { Mode } from "../policy/mode.ts";
import type { LogFormat } from "../policy/settings.ts";
import { LAYER_LABELS } from "../vocabulary.ts";

export const MAX_LOGGED_CHARS = 512;

/** The request around a record: what the log line says besides the record itself. */
export interface LoggedRequest {
  readonly authority: string;
  readonly method: string;
  readonly userAgent: string | null;
  readonly mode: Mode;
  readonly logQuery: boolean;
  readonly format: LogFormat;
}

/** At most MAX_LOGGED_CHARS characters, with a mark where the rest was cut. */
export function bounded(text: string): string {
  return text.length <= MAX_LOGGED_CHARS ? text : `${text.slice(0, MAX_LOGGED_CHARS)}…`;
}

function loggedPath(pathAndQuery: string, logQuery: boolean): string {
  const queryAt = pathAndQuery.indexOf("?");
  return bounded(logQuery || queryAt < 0 ? pathAndQuery : pathAndQuery.slice(0, queryAt));
}

/** The decision's record as one log line, in the format LOG_FORMAT asks for. */
export function logDecision(record: EdgeRecord, request: LoggedRequest): void {
  console.log(request.format === "line" ? decisionLine(record, request) : decisionJson(record, request));
}

/** A short line's parts are cut shorter than MAX_LOGGED_CHARS: the line is read at a terminal, one per request. */
const LINE_PART_CHARS = 80;

function short(text: string): string {
  return text.length <= LINE_PART_CHARS ? text : `${text.slice(0, LINE_PART_CHARS)}…`;
}

/**
 * The record as one line for a person at a terminal (npm run dev): the status the edge answered
 * (or its action when the origin answered), who, the path, and what decided, e.g.
 * `403 GPTBot /blog/ disallow: / (line 12)`. The JSON line has all of it; this has what a person
 * scans for. Every part comes from the record, as in the JSON. What a client chose reaches the
 * terminal only as a product token (token characters) or a parsed URL path (percent-encoded), so
 * no control character from a request is printed raw.
 */
export function decisionLine(record: EdgeRecord, request: Pick<LoggedRequest, "logQuery">): string {
  const { identity, line } = record;
  const answer = record.status === null ? record.action : String(record.status);
  const who = short(identity.tokens[0] ?? identity.known ?? "crawler");
  const path = short(loggedPath(record.path, request.logQuery));
  const spelled =
    record.judgedPath === record.path ? "" : ` (as ${short(loggedPath(record.judgedPath, request.logQuery))})`;
  const where = line === null ? "" : line.line !== null ? ` (line ${line.line})` : ` (${line.member})`;
  const why = line === null ? LAYER_LABELS[record.layer] : `${short(line.text)}${where}`;
  // Nothing to say when the claim stood as made, or nobody was judged (the admin token's 404).
  const judged =
    identity.judgedAs === "claimed" || identity.judgedAs === "unjudged" ? "" : ` [judged as ${identity.judgedAs}]`;
  return `${answer} ${who} ${path}${spelled} ${why}${judged}${chargeWords(record)}`;
}

/** A price applied (policy/terms-price.ts), in words: ` [charged USD 0.01]`, ` [price USD 0.01: MissingCrawlerPrice]`. */
function chargeWords({ charge }: EdgeRecord): string {
  if (!charge) return "";
  return charge.charged
    ? ` [charged ${charge.price}]`
    : ` [price ${charge.price}${charge.error ? `: ${charge.error}` : ""}]`;
}

/**
 * The decision's record as one JSON line: its action, layer, line, path and identity, in the vocabulary's words.
 * Exported for bench/log-line.bench.ts and bench/load.ts, which measure what the line costs the Worker.
 */
export function decisionJson(record: EdgeRecord, request: LoggedRequest): string {
  const { identity, line } = record;
  return JSON.stringify({
    event: "robots-edge.decision",
    time: new Date().toISOString(),
    mode: request.mode,
    action: record.action,
    status: record.status,
    retryAfter: record.retryAfter,
    layer: record.layer,
    authority: request.authority,
    method: request.method,
    path: loggedPath(record.path, request.logQuery),
    judgedPath: loggedPath(record.judgedPath, request.logQuery),
    userAgent: request.userAgent === null ? null : bounded(request.userAgent),
    tokens: identity.tokens.slice(0, 8).map(bounded),
    judgedAs: identity.judgedAs,
    category: identity.category,
    signer: identity.signer,
    verification: loggedVerification(identity.verification),
    // The catalogue whose category a catalogued claim was judged with (its name, date and token).
    ...(identity.catalogue && { catalogue: identity.catalogue }),
    group: record.verdict?.decision?.group?.token ?? null,
    reason: record.verdict?.decision?.reason ?? null,
    rule: line ? bounded(line.text) : null,
    line: line?.line ?? null,
    member: line?.member ?? null,
    // The site's terms as the response said them (policy/terms.ts): the licence link and check, the TDM reservation.
    terms: record.terms ?? null,
    // A price applied (terms-price.ts) and the rate stated (rate-limit-headers.ts): present only when there is one.
    ...(record.charge && {
      charge: { price: record.charge.price, charged: record.charge.charged !== null, error: record.charge.error },
    }),
    ...(record.rateLimit && {
      rateLimit: rateLimitFields(record.rateLimit).map(({ name, value }) => `${name}: ${value}`),
    }),
  });
}

/** A signer or PTR name may come from the client's side: bounded like every client string. */
function loggedVerification(outcome: VerificationOutcome): VerificationOutcome {
  const evidence = outcome.evidence === null ? null : bounded(outcome.evidence);
  return { ...outcome, evidence, reason: bounded(outcome.reason) };
}

export function logError(where: string, message: string): void {
  console.error(JSON.stringify({ event: "robots-edge.error", time: new Date().toISOString(), where, message }));
}

export interface ImpostorLog {
  readonly userAgent: string | null;
  readonly address: string | null;
  readonly claimed: string;
  readonly treatment: string;
  /** How the claim was found false (cloudflare, ip-list, reverse-dns), and why, in one line. */
  readonly method?: string | null;
  readonly reason?: string;
}

/** A valid-looking signature from a signer we do not trust: judged by its User-Agent instead. */
export function logUntrustedSignature(signer: string, userAgent: string | null): void {
  console.log(
    JSON.stringify({
      event: "robots-edge.untrusted-signature",
      time: new Date().toISOString(),
      signer: bounded(signer),
      userAgent: userAgent === null ? null : bounded(userAgent),
    }),
  );
}

/** A request that claimed a crawler it does not come from. */
export function logImpostor(entry: ImpostorLog): void {
  const userAgent = entry.userAgent === null ? null : bounded(entry.userAgent);
  console.log(JSON.stringify({ event: "robots-edge.impostor", time: new Date().toISOString(), ...entry, userAgent }));
}

/**
 * Config problems, at most once a minute per isolate rather than once per request (an
 * isolate has one configuration; a different list of problems is logged at once).
 */
const CONFIG_LOG_INTERVAL_MS = 60_000;
let configLogged = { text: "", at: -Infinity };

export function logConfigProblems(problems: readonly string[], now: number): void {
  if (problems.length === 0) return;
  const text = problems.join("; ");
  if (text === configLogged.text && now - configLogged.at < CONFIG_LOG_INTERVAL_MS) return;
  configLogged = { text, at: now };
  logError("config", text);
}
