/** How decisions and diagnostics read on a terminal: one line each, tab-separated where parsed. */

import type { Decision, Diagnostic, Rule } from "../core/index.ts";

/** `disallow: /pattern (line N)`. */
export function formatRule(rule: Rule): string {
  return `${rule.kind}: ${rule.pattern} (line ${rule.line})`;
}

/** The deciding rule, or why no rule decided. */
export function formatReason(decision: Decision): string {
  switch (decision.reason) {
    case "rule":
      return decision.rule ? formatRule(decision.rule) : "rule";
    case "no-matching-rule":
      return `no matching rule in group "${decision.group?.token ?? "?"}"`;
    case "no-group":
      return "no group applies to this crawler";
    case "robots-txt":
      return "/robots.txt is always allowed";
  }
}

/** `file:line: severity: message [code]`, as compilers print. */
export function formatDiagnostic(file: string, diagnostic: Diagnostic): string {
  return `${file}:${diagnostic.line}: ${diagnostic.severity}: ${diagnostic.message} [${diagnostic.code}]`;
}
