/**
 * A crawl rate, stated before it is enforced: the `RateLimit-Policy` and `RateLimit` fields of
 * the IETF httpapi draft "RateLimit header fields for HTTP", written to
 * draft-ietf-httpapi-ratelimit-headers-10 (27 September 2025; -11 of 23 May 2026 is listed by
 * the datatracker, its text was not at hand: docs/decisions.md "A crawl rate, stated"). Pure.
 *
 * Both are Structured Field Lists (RFC 9651) of Items, each a String naming a quota policy:
 *   RateLimit-Policy: "crawl-delay";q=1;w=10, "request-rate";q=3;w=60
 *       q: the quota (requests, the default quota unit), w: its window in seconds;
 *   RateLimit: "crawl-delay";r=0;t=10
 *       r: what remains of the quota, t: seconds until it is restored.
 * What a robots.txt group or a policy rule binds, as such policies:
 *   - Crawl-delay: N         -> "crawl-delay";q=1;w=N (one request per N seconds)
 *   - Request-rate: n/m      -> "request-rate";q=n;w=m (each rate in force now; a second is
 *                               "request-rate-2", and so on)
 *   - a policy `pace` rule   -> "pace";q=1;w=retryAfter (its 429 asks for one try per retryAfter)
 * The current state (`RateLimit`) is stated where the edge knows it: after a request the
 * Crawl-delay limiter let through, nothing remains until the delay has passed; on a 429 (and a
 * 503 outside Visit-time) nothing remains for Retry-After seconds. A Request-rate's remaining
 * count is not known without the limiter's state, so a pass states its policy only. Visit-time
 * is a window, not a quota the draft can express: its 503 carries the group's rate policies
 * and Retry-After, nothing more.
 */

import type { RateLimits } from "./crawl-rate.ts";

/** One quota policy: a name, a quota of requests, its window in whole seconds. */
export interface QuotaPolicy {
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/** What a crawler answer says of its rate: the policies, and the state of those whose state the edge knows. */
export interface RateStatement {
  readonly policies: readonly QuotaPolicy[];
  /** Per policy known: nothing remains for `reset` seconds. */
  readonly exhausted: readonly { readonly name: string; readonly reset: number }[];
}

/** The policies a group's limits in force state (rateLimitsAt). */
export function quotaPolicies(limits: RateLimits): QuotaPolicy[] {
  const policies: QuotaPolicy[] = [];
  if (limits.minIntervalMs > 0) {
    policies.push({ name: "crawl-delay", quota: 1, windowSeconds: Math.ceil(limits.minIntervalMs / 1000) });
  }
  limits.rates.forEach((rate, index) => {
    const name = index === 0 ? "request-rate" : `request-rate-${index + 1}`;
    policies.push({ name, quota: rate.requests, windowSeconds: Math.max(1, Math.ceil(rate.ms / 1000)) });
  });
  return policies;
}

/** A pass the limiter let through: a Crawl-delay is spent for its whole window; a Request-rate's count is not known. */
export function passStatement(limits: RateLimits): RateStatement {
  const policies = quotaPolicies(limits);
  const delay = policies.find((policy) => policy.name === "crawl-delay");
  return { policies, exhausted: delay ? [{ name: delay.name, reset: delay.windowSeconds }] : [] };
}

/** A refusal for the rate (429) or outside Visit-time (503): nothing remains of any policy until Retry-After. */
export function refusalStatement(limits: RateLimits, retryAfter: number): RateStatement {
  const policies = quotaPolicies(limits);
  return { policies, exhausted: policies.map(({ name }) => ({ name, reset: retryAfter })) };
}

/** A pace rule's 429, as a policy: one try per Retry-After, none left until then. */
export function paceStatement(retryAfter: number): RateStatement {
  return {
    policies: [{ name: "pace", quota: 1, windowSeconds: retryAfter }],
    exhausted: [{ name: "pace", reset: retryAfter }],
  };
}

/** The two fields, serialized, lowercase names (an empty statement states nothing). */
export function rateLimitFields(statement: RateStatement): { readonly name: string; readonly value: string }[] {
  if (statement.policies.length === 0) return [];
  const policy = statement.policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(", ");
  const fields = [{ name: "ratelimit-policy", value: policy }];
  if (statement.exhausted.length > 0) {
    fields.push({
      name: "ratelimit",
      value: statement.exhausted.map((e) => `"${e.name}";r=0;t=${e.reset}`).join(", "),
    });
  }
  return fields;
}
