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
 *
 * Bounded: the robots.txt behind these fields is the origin's, not ours to trust. The limits
 * stated are the ones enforced, already bounded where they are made (crawl-rate.ts
 * rateLimitsAt: at most MAX_ENFORCED_RATES Request-rate lines, the ones that bind, every
 * number at most 15 digits as RFC 9651 Integers must be). The draft lets a server list the
 * policies it chooses, so the fields are capped again here, whoever built the statement: at
 * most MAX_STATED_POLICIES items and MAX_FIELD_BYTES a field, the rest left unstated (a field
 * past a few KB is what proxies and clients drop or refuse: 8 KiB is a common limit for a
 * field, and Cloudflare caps a response's headers in total). A rate counted by a token bucket
 * (more than MAX_STORED_TIMES requests) is stated as its line says: the edge never refuses a
 * crawler that keeps to it.
 */

import { MAX_ENFORCED_RATES, type RateLimits } from "./crawl-rate.ts";

/** Items a field states at most: a Crawl-delay and the enforced Request-rate lines (or a pace). */
export const MAX_STATED_POLICIES = 1 + MAX_ENFORCED_RATES;
/** Bytes a field's value holds at most (an item is at most ~50 bytes: this never cuts a bounded statement). */
export const MAX_FIELD_BYTES = 1024;

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

/** The two fields, serialized, lowercase names (an empty statement states nothing); bounded. */
export function rateLimitFields(statement: RateStatement): { readonly name: string; readonly value: string }[] {
  const policy = boundedList(statement.policies.map((p) => [p.name, `"${p.name}";q=${p.quota};w=${p.windowSeconds}`]));
  if (policy.items.length === 0) return [];
  const fields = [{ name: "ratelimit-policy", value: policy.items.join(", ") }];
  const exhausted = statement.exhausted.filter(({ name }) => policy.names.has(name));
  const state = boundedList(exhausted.map((e) => [e.name, `"${e.name}";r=0;t=${e.reset}`]));
  if (state.items.length > 0) fields.push({ name: "ratelimit", value: state.items.join(", ") });
  return fields;
}

/** Items in order while they fit: at most MAX_STATED_POLICIES, at most MAX_FIELD_BYTES joined. */
function boundedList(items: readonly (readonly [string, string])[]): { items: string[]; names: Set<string> } {
  const kept: string[] = [];
  const names = new Set<string>();
  let bytes = 0;
  for (const [name, item] of items) {
    const added = item.length + (kept.length > 0 ? 2 : 0);
    if (kept.length === MAX_STATED_POLICIES || bytes + added > MAX_FIELD_BYTES) break;
    kept.push(item);
    names.add(name);
    bytes += added;
  }
  return { items: kept, names };
}
