/**
 * Asks the crawler's rate limiter (a Durable Object, edge/crawl-rate-object.ts) whether one more
 * request may go now. Whether to ask at all, and what a refusal means, is decided in
 * policy/edge-decision.ts.
 */

import type { RateLimits } from "../../policy/crawl-rate.ts";
import type { PacedSubject, RateFact } from "../../policy/edge-facts.ts";
import { logError } from "../log.ts";
import { noteObjectProblems } from "../object-problems.ts";
import { crawlRateKey, type RateAnswer } from "./crawl-rate-object.ts";
import type { EdgeContext } from "./context.ts";

export async function checkCrawlRate(
  edge: EdgeContext,
  pacing: { group: string; limits: RateLimits; subject: PacedSubject },
  now: number,
): Promise<RateFact> {
  const limiter = edge.env.CRAWL_RATE;
  if (!limiter) return { allowed: true };
  // Who is paced, as the identity step found it (policy/identity.ts pacedSubject): a refuted
  // claim names no crawler, so it is limited with the anonymous clients of its network; an
  // unverifiable one with the others making it from its network (crawlRateKey).
  const subject = { ...pacing.subject, address: edge.request.headers.get("cf-connecting-ip") };
  const name = crawlRateKey(edge.authority, pacing.group, subject);
  let result: RateAnswer;
  try {
    result = await limiter.get(limiter.idFromName(name)).check(pacing.limits, now);
  } catch (error) {
    // The limiter failed (reset, overloaded, its storage gone): our fault, never the crawler's.
    // It goes unpaced rather than refused: a pace is the site's request for a slower crawl,
    // and a limiter that cannot answer must not turn it into a site that refuses (Google
    // reads lasting 429/503s as a reason to crawl less, and drops pages). Logged and shown.
    const problem = `the crawl-rate limiter did not answer (${String(error)}): requests pass unpaced until it does`;
    logError("rate", `${name}: ${problem}`);
    noteObjectProblems(`crawl rate ${name}`, [problem]);
    return { allowed: true };
  }
  noteObjectProblems(`crawl rate ${name}`, result.problems ?? []);
  return result.allowed ? { allowed: true } : { allowed: false, retryAfter: result.retryAfter };
}
