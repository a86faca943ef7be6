/**
 * Rule 1, kept in this one place: a claim grants nothing it cannot prove. Pure.
 *
 * Who a request says it is (a User-Agent's crawler, a signer's agent) stands in one of these ways
 * (the identity step, identity.ts standingOf, finds which; this file says what each grants):
 *   proven     a trusted signature, or an address check that verified it: judged as claimed
 *   refuted    a failed signature, or an address check that refuted it: an impostor
 *              (VERIFY_CRAWLERS=block answers 403 in edge-decision.ts; `unknown` judges it
 *              as an anonymous bot under `*`)
 *   unproven   a check was due and could not decide (no list loaded yet, the lookup failed or
 *              timed out, no client address, evidence that names another identity): judged
 *              under the claimed crawler's group AND under `*` as an anonymous bot, refused if
 *              either refuses. So it never gets an exemption from `*` (AdsBot, user-triggered
 *              fetchers), an `allow` rule of a policy naming it, or a signer's group. When only
 *              `*` refuses — the claimed group alone would pass — the refusal is a 503 with
 *              Retry-After, not a 403: a real crawler we could not check retries, and nothing
 *              is de-indexed because of our failure.
 *   disguised  not a claim at all: a browser User-Agent from an address in a list its operator
 *              publishes for its crawlers only (policy/disguise.ts). The list is the evidence,
 *              so it is judged as that crawler — its group, policy rules, usage preferences and
 *              pacing — but held to `*` like any crawler: an address never earns an exemption.
 *   as-made    nothing to check with (VERIFY_CRAWLERS=off, or no operator publishes a way to
 *              verify this crawler): the claim selects its robots.txt group and policy rules,
 *              but an exemption from `*` always needs proof, so it is held to `*` like any crawler.
 *   catalogued as-made, for a token the built-in table lacks and a crawler catalogue lists
 *              (agents/catalogue.ts; "catalogued, unverified"): judged as made AND as made with
 *              the catalogue's category, the stricter standing. A catalogue can only restrict:
 *              its category brings the purposes' and `category:` rules' refusals and pacing,
 *              never a pass that the claim without it would not get.
 *
 * A signature whose key we could not get (the trusted signer's set failed, or lacks the keyid:
 * SignatureFact "unverifiable") proves and refutes nothing: our failure is never the visitor's
 *, so the request stands as if unsigned, its User-Agent's claim judged as above.
 * Cloudflare's verified-bot category is no proof of a named crawler either: the
 * address check (agents/verification.ts verifyCrawlerDetailed) never counts it as one.
 */

import type { AgentInfo } from "../agents/classify.ts";
import type { CrawlerCategory, JudgedAs } from "../vocabulary.ts";
import type { GatherRequest } from "./edge-facts.ts";
import { outcomeStrictness, type EdgeOutcome } from "./edge-record.ts";

export type ClaimStanding = "proven" | "refuted" | "unproven" | "disguised" | "as-made" | "catalogued";

/** Whom a claim of each standing is judged as (the record's `identity.judgedAs`; see the file comment). */
export const JUDGED_AS_OF: Readonly<Record<ClaimStanding, JudgedAs>> = {
  proven: "claimed",
  "as-made": "claimed",
  refuted: "anonymous",
  unproven: "claimed-and-anonymous",
  disguised: "disguised",
  catalogued: "catalogued",
};

/** Seconds a crawler refused for an unproven claim is asked to wait: a failed lookup is retried then, a list is fetched every 30 minutes. */
export const UNPROVEN_RETRY_AFTER_SECONDS = 300;

/** The agent a request is judged as, with the category its policies and usage rules use. */
export interface Judged {
  readonly agent: AgentInfo;
  readonly category: CrawlerCategory | undefined;
}

/** An unknown bot with no name: `*` only, no category, no policy rule names it. */
export const ANONYMOUS_BOT: AgentInfo = {
  crawler: true,
  tokens: [],
  known: undefined,
  obeysGlobalGroup: true,
  honoursRateLimits: false,
};

/**
 * Judges the claimant by its standing (see the file comment). `judgeAs` runs the policy layers
 * for one identity; `paced: false` asks it not to consult the rate limiter (the judgement under
 * `*` of an unproven claim only asks whether `*` refuses the path).
 */
export function judgeClaim(
  standing: ClaimStanding,
  claimant: Judged,
  judgeAs: (who: Judged, paced: boolean) => Judgement,
): Judgement {
  switch (standing) {
    case "proven":
      return judgeAs(claimant, true);
    case "refuted":
      return judgeAs({ agent: ANONYMOUS_BOT, category: undefined }, true);
    case "disguised":
    case "as-made":
      return judgeAs({ ...claimant, agent: { ...claimant.agent, obeysGlobalGroup: true } }, true);
    case "unproven":
      return unprovenClaim(judgeAs(claimant, true), judgeAs({ agent: ANONYMOUS_BOT, category: undefined }, false));
    case "catalogued":
      return cataloguedClaim(claimant, judgeAs);
  }
}

/**
 * A catalogue can only restrict: the claim judged as made, and as made with the catalogue's
 * category; the judgement with the category stands only where it is stricter (a refusal, a
 * pace), so an `allow` rule of the category never opens what the claim alone is refused.
 */
function cataloguedClaim(claimant: Judged, judgeAs: (who: Judged, paced: boolean) => Judgement): Judgement {
  const agent = { ...claimant.agent, obeysGlobalGroup: true };
  const asMade = judgeAs({ agent, category: undefined }, true);
  const withCategory = judgeAs({ agent, category: claimant.category }, true);
  if ("gather" in asMade) return asMade;
  if ("gather" in withCategory) return withCategory;
  return outcomeStrictness(withCategory) > outcomeStrictness(asMade) ? withCategory : asMade;
}

/** What the path layers answer for one identity: an outcome, or a fact still to gather (the rate). */
type Judgement = EdgeOutcome | GatherRequest;

/** Refused if either judgement refuses; a 503 when only `*` does (the claimed group alone would pass). */
function unprovenClaim(asClaimed: Judgement, asAnonymous: Judgement): Judgement {
  if (!refuses(asAnonymous)) return asClaimed;
  // A claimed judgement that is only marked (a usage refusal under USAGE_SIGNALS=report) still
  // forwards the request: it stands for a refusal only when `*` too only marks it.
  const claimedRefuses = isReport(asClaimed) ? isReport(asAnonymous) : refuses(asClaimed);
  if (claimedRefuses || "gather" in asAnonymous) return asClaimed;
  switch (asAnonymous.action) {
    case "report":
      return { ...asAnonymous, layer: "unproven-claim" };
    case "block":
    case "unavailable": {
      const retryAfter = Math.max(UNPROVEN_RETRY_AFTER_SECONDS, asAnonymous.retryAfter ?? 0);
      return { ...asAnonymous, action: "unavailable", status: 503, retryAfter, layer: "unproven-claim" };
    }
    default:
      return asClaimed;
  }
}

function isReport(judgement: Judgement): boolean {
  return !("gather" in judgement) && judgement.action === "report";
}

/** Whether an outcome refuses the request (or, under `report`, marks that it would). */
function refuses(judgement: Judgement): boolean {
  if ("gather" in judgement) return false;
  const { action } = judgement;
  return action === "block" || action === "report" || action === "unavailable" || action === "rate-limited";
}
