/**
 * Structured logs: one JSON line per crawler decision (none for humans), and errors.
 * A log line is bounded whatever a client sends: the User-Agent and paths are cut to
 * MAX_LOGGED_CHARS, and query strings (which may carry personal data or tokens) are left
 * out unless the operator sets LOG_QUERY=true.
 */

import type { VerificationOutcome } from "../agents/verification.ts";
import type { Mode } from "../policy/mode.ts";
import type { Verdict } from "../policy/judge.ts";

export const MAX_LOGGED_CHARS = 512;

/** What was decided: a verdict, or an edge answer that came before one (a crawl pause). */
export type LoggedOutcome = Pick<Verdict, "judgedPath" | "decision"> & {
  readonly action: string;
  /** "unproven-claim": refused only by `*`, because the claim could not be verified (policy/claim.ts). */
  readonly layer: Verdict["layer"] | "usage-signal" | "unproven-claim";
  /** A usage-signal refusal: the preference and its line. */
  readonly usage?: { readonly format: string; readonly key: string; readonly line: number } | undefined;
};

export interface DecisionLog {
  readonly authority: string;
  readonly method: string;
  readonly url: URL;
  readonly userAgent: string | null;
  readonly tokens: readonly string[];
  readonly verdict: LoggedOutcome;
  readonly mode: Mode;
  readonly logQuery: boolean;
  /** The trusted Web Bot Auth signer that verified the request, if one did. */
  readonly signer?: string | undefined;
  /** How the crawler was verified, or why not (policy/edge-decision.ts verificationOf). */
  readonly verification?: VerificationOutcome | undefined;
  /**
   * A browser User-Agent judged as a crawler in disguise (policy/disguise.ts): the crawler-only
   * list its address is in, and DISGUISED_CRAWLERS (report: the action is what it would have been).
   */
  readonly disguised?: { readonly source: string; readonly treatment: Mode } | undefined;
}

/** At most MAX_LOGGED_CHARS characters, with a mark where the rest was cut. */
export function bounded(text: string): string {
  return text.length <= MAX_LOGGED_CHARS ? text : `${text.slice(0, MAX_LOGGED_CHARS)}…`;
}

function loggedPath(pathAndQuery: string, logQuery: boolean): string {
  const queryAt = pathAndQuery.indexOf("?");
  return bounded(logQuery || queryAt < 0 ? pathAndQuery : pathAndQuery.slice(0, queryAt));
}

export function logDecision(entry: DecisionLog): void {
  const { verdict } = entry;
  const rule = verdict.decision?.rule;
  console.log(
    JSON.stringify({
      event: "robots-edge.decision",
      time: new Date().toISOString(),
      mode: entry.mode,
      action: verdict.action,
      layer: verdict.layer,
      authority: entry.authority,
      method: entry.method,
      path: loggedPath(entry.url.pathname + entry.url.search, entry.logQuery),
      judgedPath: loggedPath(verdict.judgedPath, entry.logQuery),
      userAgent: entry.userAgent === null ? null : bounded(entry.userAgent),
      tokens: entry.tokens.slice(0, 8).map(bounded),
      signer: entry.signer ?? null,
      disguised: entry.disguised ?? null,
      verification: entry.verification ? loggedVerification(entry.verification) : null,
      group: verdict.decision?.group?.token ?? null,
      reason: verdict.decision?.reason ?? null,
      rule: verdict.usage
        ? `${verdict.usage.format}: ${verdict.usage.key}`
        : rule
          ? bounded(`${rule.kind}: ${rule.pattern}`)
          : null,
      line: verdict.usage?.line ?? rule?.line ?? null,
    }),
  );
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
