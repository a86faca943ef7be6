/**
 * Asks the crawler's rate limiter (a Durable Object, edge/crawl-rate-object.ts) whether one more
 * request may go now. Whether to ask at all, and what a refusal means, is decided in
 * policy/edge-decision.ts.
 */

import type { AgentInfo } from "../../agents/classify.ts";
import type { RateLimits } from "../../policy/crawl-rate.ts";
import type { VerificationOutcome } from "../../agents/verification.ts";
import type { RateFact } from "../../policy/edge-facts.ts";
import { crawlRateKey } from "./crawl-rate-object.ts";
import type { EdgeContext } from "./context.ts";

export async function checkCrawlRate(
  edge: EdgeContext,
  pacing: { group: string; limits: RateLimits; agent: AgentInfo; verification: VerificationOutcome },
  now: number,
): Promise<RateFact> {
  const limiter = edge.env.CRAWL_RATE;
  if (!limiter) return { allowed: true };
  // A refuted claim is limited with the anonymous clients of its network, never as the crawler
  // it claims; an unverifiable one with the others making it from its network (crawlRateKey).
  const refuted = pacing.verification.status === "refuted";
  const subject = {
    knownToken: refuted ? undefined : pacing.agent.known?.token,
    proven: pacing.verification.status === "verified",
    address: edge.request.headers.get("cf-connecting-ip"),
  };
  const stub = limiter.get(limiter.idFromName(crawlRateKey(edge.authority, pacing.group, subject)));
  const result = await stub.check(pacing.limits, now);
  return result.allowed ? { allowed: true } : { allowed: false, retryAfter: result.retryAfter };
}
