/**
 * Structured logs: one JSON line per crawler decision (none for humans), and errors.
 * A log line is bounded whatever a client sends: the User-Agent and paths are cut to
 * MAX_LOGGED_CHARS, and query strings (which may carry personal data or tokens) are left
 * out unless the operator sets LOG_QUERY=true.
 */

import type { Mode } from "../policy/mode.ts";
import type { Verdict } from "../policy/judge.ts";

export const MAX_LOGGED_CHARS = 512;

/** What was decided: a verdict, or an edge answer that came before one (a crawl pause). */
export type LoggedOutcome = Pick<Verdict, "layer" | "judgedPath" | "decision"> & { readonly action: string };

export interface DecisionLog {
  readonly authority: string;
  readonly method: string;
  readonly url: URL;
  readonly userAgent: string | null;
  readonly tokens: readonly string[];
  readonly verdict: LoggedOutcome;
  readonly mode: Mode;
  readonly logQuery: boolean;
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
      group: verdict.decision?.group?.token ?? null,
      reason: verdict.decision?.reason ?? null,
      rule: rule ? bounded(`${rule.kind}: ${rule.pattern}`) : null,
      line: rule?.line ?? null,
    }),
  );
}

export function logError(where: string, message: string): void {
  console.error(JSON.stringify({ event: "robots-edge.error", time: new Date().toISOString(), where, message }));
}

export interface ImpostorLog {
  readonly userAgent: string | null;
  readonly address: string | null;
  readonly claimed: string;
  readonly treatment: string;
}

/** A request that claimed a crawler it does not come from. */
export function logImpostor(entry: ImpostorLog): void {
  const userAgent = entry.userAgent === null ? null : bounded(entry.userAgent);
  console.log(JSON.stringify({ event: "robots-edge.impostor", time: new Date().toISOString(), ...entry, userAgent }));
}
