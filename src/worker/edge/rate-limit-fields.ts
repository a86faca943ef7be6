/**
 * RateLimit-Policy / RateLimit (policy/rate-limit-headers.ts) on a crawler answer whose group or
 * rule binds a rate: the edge's own 429s and 503s, and forwarded pages. An origin that states
 * its own RateLimit-Policy (an API with quotas of its own) keeps it: ours is not added.
 */

import type { EdgeRecord } from "../../policy/edge-record.ts";
import { rateLimitFields } from "../../policy/rate-limit-headers.ts";

export function withRateLimit(response: Response, record: EdgeRecord): Response {
  if (!record.rateLimit || response.status === 101 || response.headers.has("ratelimit-policy")) return response;
  const fields = rateLimitFields(record.rateLimit);
  if (fields.length === 0) return response;
  const copy = new Response(response.body, response);
  for (const { name, value } of fields) copy.headers.set(name, value);
  return copy;
}
