/**
 * The POLICY var's two shapes: a plain policy document (the default policy, as it has always
 * been read) or `{"default": {…}, "hosts": {"shop.example": {…}}}`, a default and a policy per
 * host. The per-host shape wraps documents; each document is validated by parsePolicy unchanged
 * (operator-policy.ts), so whatever a policy may hold, a host's may too.
 *
 * Told apart by their keys: a plain document needs `routes` or `purposes`; an object with
 * `default` or `hosts` and neither of those is the per-host shape.
 */

import { canonicalHostName } from "./host-names.ts";
import { parsePolicy, type CompiledPolicy } from "./operator-policy.ts";
import { invalid, valid, type Validated } from "./validated.ts";

export interface PolicySet {
  readonly default: CompiledPolicy | undefined;
  /** Per canonical host name (exact or `*.`), its version-0 policy. */
  readonly hosts: ReadonlyMap<string, CompiledPolicy>;
  /** A host entry that could not be used, each dropped alone (the rest stands): named in status. */
  readonly hostProblems: readonly string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Is this parsed JSON the per-host shape? */
export function isPerHostShape(value: unknown): value is { default?: unknown; hosts?: unknown } {
  if (!isObject(value)) return false;
  if ("routes" in value || "purposes" in value) return false;
  return "default" in value || "hosts" in value;
}

/**
 * A policy text in either shape: the default, each host's, and the host entries refused. The
 * default's problems refuse the whole (as a bad POLICY always has); a host's refuse that host only.
 */
export function parsePolicySet(json: string): Validated<PolicySet> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  if (!isPerHostShape(value)) {
    const plain = parsePolicy(json);
    return plain.ok ? valid({ default: plain.value, hosts: new Map(), hostProblems: [] }) : plain;
  }
  const problems: string[] = [];
  const unknownKeys = Object.keys(value).filter((key) => key !== "default" && key !== "hosts");
  if (unknownKeys.length > 0) problems.push(`unknown key(s) ${unknownKeys.join(", ")}: only "default" and "hosts"`);
  const defaultPolicy = value.default === undefined ? undefined : parsePolicy(JSON.stringify(value.default));
  if (defaultPolicy && !defaultPolicy.ok) problems.push(...defaultPolicy.problems.map((p) => `default: ${p}`));
  if (value.hosts !== undefined && !isObject(value.hosts)) problems.push('"hosts" must be an object of host → policy');
  if (problems.length > 0) return invalid(problems);
  const hosts = new Map<string, CompiledPolicy>();
  const hostProblems: string[] = [];
  for (const [given, document] of Object.entries(isObject(value.hosts) ? value.hosts : {})) {
    const host = canonicalHostName(given);
    const policy = parsePolicy(JSON.stringify(document));
    if (!host.ok) {
      hostProblems.push(...host.problems);
    } else if (hosts.has(host.value)) {
      hostProblems.push(`hosts: ${given} is ${host.value} spelled again; the first stands`);
    } else if (policy.ok) {
      hosts.set(host.value, policy.value);
    } else {
      hostProblems.push(...policy.problems.map((problem) => `hosts.${given}: ${problem}`));
    }
  }
  return valid({ default: defaultPolicy?.ok ? defaultPolicy.value : undefined, hosts, hostProblems });
}
