/**
 * Crawlers in disguise: a request with a browser's User-Agent whose address is in a list its
 * operator publishes for its crawlers ONLY (an address list's use, agents/operators/) is that
 * operator's crawler. And a request that claims some other bot (a tool's User-Agent, a made-up token,
 * another operator's crawler it cannot prove) from such an address is judged both as what it
 * claims and as the list's crawler, the stricter standing: it cannot shed that crawler's group
 * by naming another. Pure: the Worker looks the address up in the compiled lists (identity/disguised.ts)
 * and hands the decision a DisguiseFact; the identity step (identity.ts) says whether a request
 * is in disguise or comes from such a list, and this file what the decision does with the
 * list's judgement beside the claim's own.
 *
 * A disguise is not a claim (the User-Agent claims a person): it is evidence, from a loaded,
 * fresh, crawler-only list. Do no harm: no list, a stale list, a mixed list, no address, or
 * DISGUISED_CRAWLERS=off all mean "a person", never "refused".
 *   enforce  judged as that crawler (claim.ts standing "disguised"): its group, policy rules,
 *            usage preferences and pacing, on every spelling of the path
 *   report   judged the same way, but the request passes: a refusal becomes a report (marked
 *            would-block, recorded and logged as what it would have been), nothing is paced or
 *            paused, and no header is added to a pass
 * The record says it: `identity.judgedAs` "disguised", the list as the verification's evidence.
 */

import type { GatherRequest } from "./edge-facts.ts";
import { outcomeStrictness, type EdgeOutcome } from "./edge-record.ts";

/**
 * The stricter of a claim's own judgement and its judgement as the list's crawler
 * (identity.ts listedCrawlerStep), and whether the list's decided. Only a refusal of the list's judgement
 * counts (its robots.txt group, policy rules, usage preferences, Visit-time): the request is
 * paced by its own judgement alone, the limiter asked once. Under DISGUISED_CRAWLERS=report the
 * list's refusal only marks (reportedOnly): the request goes on, recorded as would-block. On a
 * tie the claim's own judgement stands.
 */
export function claimOrListed(
  own: EdgeOutcome | GatherRequest,
  asListed: EdgeOutcome | GatherRequest,
  treatment: "enforce" | "report",
): { readonly answer: EdgeOutcome | GatherRequest; readonly byList: boolean } {
  const listed = treatment === "report" ? reportedOnly(asListed) : asListed;
  if ("gather" in listed || listed.action === "pass") return { answer: own, byList: false };
  return outcomeStrictness(listed) > outcomeStrictness(own)
    ? { answer: listed, byList: true }
    : { answer: own, byList: false };
}

/**
 * DISGUISED_CRAWLERS=report: what the crawler would get, only recorded. A refusal becomes a
 * report of it (the request goes on, marked would-block; the layer and line that would have
 * refused stay); a pass goes on as is, without pacing or a Content-Usage header (nothing a
 * person would not have had).
 */
export function reportedOnly(answer: EdgeOutcome | GatherRequest): EdgeOutcome | GatherRequest {
  if ("gather" in answer) return answer;
  switch (answer.action) {
    case "report":
      return answer;
    case "block":
    case "unavailable":
    case "rate-limited":
      return { ...answer, action: "report", status: null, retryAfter: null };
    default:
      // A pass, or an action a path layer never answers: the request goes on as a person's would.
      return { ...answer, action: "pass", status: null, retryAfter: null, pacing: null, contentUsage: null };
  }
}
