/** Structured logs: one JSON line per crawler decision (none for humans), and errors. */

import type { Mode } from "../policy/mode.ts";
import type { Verdict } from "../policy/judge.ts";

export interface DecisionLog {
  readonly authority: string;
  readonly method: string;
  readonly url: URL;
  readonly userAgent: string | null;
  readonly tokens: readonly string[];
  readonly verdict: Verdict;
  readonly mode: Mode;
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
      path: entry.url.pathname + entry.url.search,
      judgedPath: verdict.judgedPath,
      userAgent: entry.userAgent,
      tokens: entry.tokens,
      group: verdict.decision?.group?.token ?? null,
      reason: verdict.decision?.reason ?? null,
      rule: rule ? `${rule.kind}: ${rule.pattern}` : null,
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
  console.log(JSON.stringify({ event: "robots-edge.impostor", time: new Date().toISOString(), ...entry }));
}
