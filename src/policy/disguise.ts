/**
 * Crawlers in disguise: a request with a browser's User-Agent whose address is in a
 * list its operator publishes for its crawlers ONLY (agents/range-uses.ts) is that operator's
 * crawler. And a request that claims some other bot (a tool's User-Agent, a made-up token,
 * another operator's crawler it cannot prove) from such an address is judged both as what it
 * claims and as the list's crawler, the stricter standing: it cannot shed that crawler's group
 * by naming another. Pure: the Worker looks the address up in the compiled lists (identity/disguised.ts)
 * and hands the decision a DisguiseFact; this file says what the decision does with it.
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

import type { AgentInfo } from "../agents/classify.ts";
import { rangeSourceOf, type VerificationOutcome } from "../agents/verification.ts";
import type { ClaimStanding } from "./claim.ts";
import { NOT_GATHERED, type DisguiseFact, type EdgeFacts, type GatherRequest } from "./edge-facts.ts";
import { outcomeStrictness, type EdgeOutcome } from "./edge-record.ts";

export type DisguiseFacts = Pick<EdgeFacts, "agent" | "isRobotsTxt" | "disguisedCrawlers" | "disguise">;

/**
 * Whether a request whose claimant is `stated` is a crawler in disguise: "gather" while the
 * address is not looked up, "person" when it is not (or the check is off, or it is no browser,
 * or a signature stands for someone else), else the fact.
 */
export function disguiseStep(facts: DisguiseFacts, stated: AgentInfo): "gather" | "person" | DisguiseFact {
  if (stated !== facts.agent || stated.crawler || facts.isRobotsTxt) return "person";
  if ((facts.disguisedCrawlers ?? "off") === "off") return "person";
  if (facts.disguise === NOT_GATHERED) return "gather";
  return facts.disguise === "none" ? "person" : facts.disguise;
}

/**
 * Whether a crawler claim that is not proven comes from a crawler-only list, and so must also be
 * judged as that list's crawler: "gather" while the address is not looked up, "none" when it
 * need not be (robots.txt, the check off) or is in no such list, else the fact.
 *   - A refuted claim counts: under VERIFY_CRAWLERS=unknown it is judged under `*`, which may be
 *     laxer than the group of the crawler whose address it comes from.
 *   - A claim proven only by Cloudflare's verified-bot category counts too: the category says
 *     some verified bot of that kind asked, not which one (evidence must name the identity it
 *     proves); an address in a crawler-only list does name one.
 *   - One exception, for do no harm: under VERIFY_CRAWLERS=off (claims taken as made) a claim
 *     of a crawler the list itself is published for is judged as itself alone: a real
 *     Googlebot-Image comes from Google's common crawlers' list, which names Googlebot first,
 *     and must not be held to its sibling's group. With verification on, that list proves it.
 */
export function listedCrawlerStep(
  facts: Pick<
    EdgeFacts,
    "isRobotsTxt" | "disguisedCrawlers" | "disguise" | "verifyCrawlers" | "verification" | "signature"
  >,
  standing: ClaimStanding,
  claimant: AgentInfo,
): "gather" | "none" | DisguiseFact {
  if (standing === "disguised" || facts.isRobotsTxt) return "none";
  if (standing === "proven" && !provenByCategoryAlone(facts)) return "none";
  if ((facts.disguisedCrawlers ?? "off") === "off") return "none";
  if (facts.disguise === NOT_GATHERED) return "gather";
  if (facts.disguise === "none") return "none";
  return facts.verifyCrawlers === "off" && listIsFor(facts.disguise.source, claimant) ? "none" : facts.disguise;
}

/** A claim proven by nothing but Cloudflare's category: no signature, no address check naming the crawler. */
function provenByCategoryAlone(facts: Pick<EdgeFacts, "verification" | "signature">): boolean {
  if (facts.signature !== NOT_GATHERED && facts.signature?.status === "verified") return false;
  return facts.verification !== NOT_GATHERED && facts.verification.method === "cloudflare";
}

/** Whether the list named `source` is the one the claimed crawler is verified against (it is published for it). */
function listIsFor(source: string, claimant: AgentInfo): boolean {
  const token = claimant.known?.token;
  return token !== undefined && rangeSourceOf(token) === source;
}

/**
 * The stricter of a claim's own judgement and its judgement as the list's crawler
 * (listedCrawlerStep), and whether the list's decided. Only a refusal of the list's judgement
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
 * The evidence, in the one vocabulary of identity (agents/verification.ts VerificationOutcome).
 * `asBrowser`: the request said it was a browser (a disguise); else it claimed another bot.
 */
export function disguiseOutcome(disguise: DisguiseFact, asBrowser = true): VerificationOutcome {
  const token = disguise.agent.tokens[0] ?? disguise.source;
  const list = `the ${disguise.source} list, which its operator publishes for its crawlers only`;
  return {
    status: "verified",
    method: "ip-list",
    evidence: disguise.source,
    why: null,
    reason: asBrowser
      ? `a browser User-Agent from ${list}: ${token} in disguise`
      : `an address in ${list}: ${token}, whatever its User-Agent claims`,
  };
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
