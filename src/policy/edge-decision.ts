/**
 * The one decision: what the edge does with a request, from facts the Worker gathered. Pure,
 * no I/O. The Worker (src/worker/edge/request-path.ts) performs the action; the admin explain, the
 * operator page's tester and `robots-edge explain` call this same function (through
 * explain.ts), so they cannot disagree with the edge.
 *
 * Precedence, top to bottom. docs/decisions.md "Precedence" lists the same steps under the same
 * names, and test/policy/precedence-docs.test.ts holds the two lists equal.
 *   1. nowhere to send: an unusable ORIGIN_URL -> 502; route mode addressed to the Worker
 *      itself (a loop) -> 508; a request carrying the admin token (a misspelt admin path) ->
 *      404, so the operator's secret never reaches the origin (the one place that rule is kept)
 *   2. mode off: MODE=off -> forward, unjudged (a var with a bad value is no kill switch: its
 *      default stands in, src/config/read-config.ts)
 *   3. not served: an authority the edge does not protect (AUTHORITIES) -> forward, unjudged
 *   4. signature: a Web Bot Auth signature (Signature-Input, VERIFY_CRAWLERS not off), checked:
 *      reused -> 429; verified from a trusted signer -> the request IS the crawler the signer
 *      stands for, whatever its User-Agent; failed -> a refuted claim (step 6); from an
 *      untrusted signer -> ignored
 *   5. humans: not a crawler (and not robots.txt) -> forward, unjudged — unless its address is
 *      in a fresh crawler-only published list (DISGUISED_CRAWLERS, disguise.ts): then it is
 *      that crawler in disguise, judged below as it (standing "disguised", claim.ts); under
 *      `report` it skips the pause and pacing and a refusal is only marked
 *   6. verification (claim.ts, "a claim grants nothing it cannot prove"): a refuted claim with
 *      VERIFY_CRAWLERS=block -> 403; with `unknown` it is judged below as an anonymous bot under
 *      `*`. An unverifiable claim is judged below under its group AND under `*`; refused by `*`
 *      alone -> 503 with Retry-After (unproven claim). A claim not proven from an address in a
 *      crawler-only list (DISGUISED_CRAWLERS not off) is judged below as itself AND as that
 *      list's crawler; a refusal of the latter alone stands under `enforce`, is marked under
 *      `report` (disguise.ts claimOrListed)
 *   7. crawl pause: -> 503 (robots.txt too)
 *   8. robots.txt: GET/HEAD /robots.txt in any spelling -> served by the edge
 *   9. policy layers (judge.ts; the live policy is gathered only here): the route's mode (`off`
 *      passes), its rule naming the crawler (`pace` -> 429; `charge` -> 402 with its price unless a
 *      verified signature covers a price header that meets it, then judged on as a pass and
 *      charged, terms-price.ts; a rule `when` a condition holds,
 *      from the isolate's ledger, names it only then; a rule asking for a signature -> 403 with
 *      Accept-Signature when there is none), then robots.txt (unavailable -> 503 unless
 *      FAIL_OPEN; a crawler other than Google's is refused only what every mainstream reading
 *      of the file refuses, readings.ts: the rest passes on, marked would-block). Steps 9 to
 *      12 run on every spelling of the path (path-spellings.ts judgeEverySpelling); the
 *      strictest outcome stands: a pass counts only if every spelling passes
 *  10. usage preferences (USAGE_SIGNALS), for a path robots.txt allows: a `no` covering the
 *      crawler's category -> block; else a pass may carry the path's `Content-Usage` header
 *  11. report: a block under MODE or the route's mode `report` -> forward, marked would-block
 *  12. pacing: for a pass in enforce mode whose group binds it: Visit-time -> 503,
 *      Crawl-delay / Request-rate -> 429
 *
 * Facts that cost I/O are gathered only when the decision reaches them: while one is missing
 * the function answers `{ gather: fact }`, the Worker fetches that fact and asks again.
 * Explain passes every fact up front, the rate state as "not checked". The answer is the one
 * record of what happened (edge-record.ts): the action with its status and Retry-After, the
 * layer and line that decided, the path as judged, and who asked as the decision saw it.
 */

import type { AgentInfo } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import { canonicalizePath, resolveUsage } from "../core/index.ts";
import type { JudgedAs } from "../vocabulary.ts";
import { ANONYMOUS_BOT, claimStanding, judgeClaim, JUDGED_AS_OF, type Judged } from "./claim.ts";
import { claimOrListed, disguiseOutcome, disguiseStep, listedCrawlerStep, reportedOnly } from "./disguise.ts";
import { bindsRateLines, declaresRateLimits, rateLimitsAt, visitWindow } from "./crawl-rate.ts";
import {
  NOT_GATHERED,
  type DisguiseFact,
  type EdgeFacts,
  type GatherRequest,
  type RobotsFact,
  type SignatureFact,
} from "./edge-facts.ts";
import {
  lineOfUsage,
  lineOfVerdict,
  outcome,
  outcomeStrictness,
  type DisputedReading,
  type EdgeOutcome,
  type EdgeRecord,
  type RecordedIdentity,
} from "./edge-record.ts";
import { judgeSpelling, type Verdict } from "./judge.ts";
import { disputedReading } from "./readings.ts";
import { PACE_RETRY_AFTER } from "./operator-policy.ts";
import { judgeEverySpelling } from "./path-spellings.ts";
import {
  paceStatement,
  passStatement,
  quotaPolicies,
  refusalStatement,
  type RateStatement,
} from "./rate-limit-headers.ts";
import { isTermsFile, parsePrice, settlePrice, type ChargeEvidence } from "./terms-price.ts";
import { usageGroup, usageVerdict } from "./usage-signals.ts";

/** The decision's answer: the record of what happened, or a fact it needs first. */
export type EdgeAnswer = EdgeRecord | GatherRequest;

/** Facts in, one record out (see the precedence in the file comment). */
export function decideEdge(facts: EdgeFacts): EdgeAnswer {
  const unjudged = unjudgedOutcome(facts);
  if (unjudged) return recorded(facts, unjudged, "unjudged");

  if (facts.signed && facts.signature === NOT_GATHERED) return { gather: "signature" };
  const signature = signatureOf(facts);
  // httpsig-protocol-01 ("Requesting a Message Signature"): a signature (or nonce) used more
  // often than policy permits may be answered 429. Our policy: once; Retry-After 1, as a new
  // signature is all it takes.
  if (signature?.status === "reused") return recorded(facts, outcome("rate-limited", "signature", 429, 1), "unjudged");
  const signed = signature?.status === "verified" ? signature.agent : undefined;
  // A request that signs is an automated client even when its signature fails (a browser never
  // signs): the failed claim is judged below, never passed as a human's.
  const failedSignature = signature?.status === "failed";
  const stated = signed ?? (failedSignature ? ANONYMOUS_BOT : facts.agent);
  const disguise = disguiseStep(facts, stated);
  if (disguise === "gather") return { gather: "disguise" };
  const disguised = typeof disguise === "object" ? disguise : undefined;
  const claimant = disguised?.agent ?? stated;
  if (!facts.isRobotsTxt && !claimant.crawler) return recorded(facts, outcome("pass", "human", null), "person");
  const reportOnly = disguised !== undefined && facts.disguisedCrawlers === "report";

  // A verified signature is the strongest evidence; a failed one a failed claim. Otherwise the
  // User-Agent's claim is checked against its operator's addresses (identity/verify-crawler.ts).
  const checksAddress = !signed && !failedSignature && facts.needsVerification;
  if (checksAddress && facts.verification === NOT_GATHERED) return { gather: "verification" };
  const standing = disguised ? "disguised" : claimStanding(facts);
  const judgedAs = claimant.crawler ? JUDGED_AS_OF[standing] : "person";
  if (standing === "refuted" && facts.verifyCrawlers === "block") {
    return recorded(facts, outcome("block", "verification", 403), judgedAs);
  }

  if (facts.pause === NOT_GATHERED && !reportOnly) return { gather: "pause" };
  if (facts.pause !== NOT_GATHERED && facts.pause !== "none" && !reportOnly) {
    return recorded(facts, outcome("unavailable", "pause", 503, facts.pause.retryAfter), judgedAs);
  }

  const { robots } = facts;
  if (robots === NOT_GATHERED) return { gather: "robots" };
  if (facts.isRobotsTxt) {
    return recorded(facts, outcome("serve-robots-txt", "robots.txt-file", null, robots.retryAfter), judgedAs);
  }
  // A claim not proven, from an address its operator lists for one crawler only, is judged as
  // that crawler too (disguise.ts): naming another bot sheds nothing.
  const listed = listedCrawlerStep(facts, standing, claimant);
  if (listed === "gather") return { gather: "disguise" };
  if (facts.policy === NOT_GATHERED) return { gather: "policy" };
  const judgement = judgeClaim(standing, { agent: claimant, category: categoryOf(facts) }, (who, withRate) =>
    judged(withRate && !reportOnly ? facts : { ...facts, rate: "not-checked" }, robots, who),
  );
  const own = reportOnly ? reportedOnly(judgement) : judgement;
  if (listed === "none") return "gather" in own ? own : recorded(facts, own, judgedAs);
  const asListed = judgeClaim("disguised", { agent: listed.agent, category: listed.agent.known?.category }, (who) =>
    judged({ ...facts, rate: "not-checked" }, robots, who),
  );
  const treatment = facts.disguisedCrawlers === "report" ? "report" : "enforce";
  const { answer, byList } = claimOrListed(own, asListed, treatment);
  if ("gather" in answer) return answer;
  return byList ? recorded(facts, answer, JUDGED_AS_OF.disguised, listed) : recorded(facts, answer, judgedAs);
}

/** Steps 1 to 3: nowhere to send, the kill switch, a host not served. Nobody is judged. */
function unjudgedOutcome(facts: EdgeFacts): EdgeOutcome | undefined {
  if (facts.originUnusable) return outcome("error", "origin", 502);
  if (facts.selfAddressed) return outcome("error", "self-loop", 508);
  // Never forward a request carrying the admin token, in any mode, to any host.
  if (facts.carriesAdminToken === true) return outcome("error", "admin-token", 404);
  if (facts.mode === "off") return outcome("pass", "mode-off", null);
  if (!facts.served) return outcome("pass", "not-served", null);
  return undefined;
}

function signatureOf(facts: Pick<EdgeFacts, "signature">): SignatureFact | undefined {
  return facts.signature === NOT_GATHERED ? undefined : facts.signature;
}

/**
 * The claimed crawler's category: our table's first (per product token, cited); Cloudflare's
 * only for a crawler the table does not know, and never for a signer's agent.
 */
function categoryOf(facts: EdgeFacts): Judged["category"] {
  const signature = signatureOf(facts);
  if (signature?.status === "verified") return signature.agent.known?.category;
  const disguised = disguiseOf(facts);
  if (disguised) return disguised.agent.known?.category;
  return facts.agent.known?.category ?? facts.cloudflareCategory;
}

/**
 * The record: the layers' outcome, the path, and who asked as the decision saw it. `listed`:
 * the crawler-only list whose crawler the request was judged as, when that judgement decided
 * over the request's own claim (disguise.ts claimOrListed).
 */
function recorded(facts: EdgeFacts, decided: EdgeOutcome, judgedAs: JudgedAs, listed?: DisguiseFact): EdgeRecord {
  return {
    ...decided,
    path: facts.pathAndQuery,
    judgedPath: decided.judgedPath ?? facts.pathAndQuery,
    identity: listed ? listedIdentity(facts, listed) : identityOf(facts, judgedAs),
  };
}

/** What was claimed (a trusted signer's agent, else the User-Agent's), judged as what, and how it stood. */
function identityOf(facts: EdgeFacts, judgedAs: JudgedAs): RecordedIdentity {
  const signature = signatureOf(facts);
  // A verified or reused signature stands for its signer's agent (a reuse is refused as that agent's).
  const signedAs = signature?.status === "verified" || signature?.status === "reused" ? signature.agent : undefined;
  const claimed = signedAs ?? disguiseOf(facts)?.agent ?? facts.agent;
  return {
    // A request that signs is an automated client, whatever its User-Agent.
    crawler: claimed.crawler || signature?.status === "failed" || signature?.status === "reused",
    tokens: claimed.tokens,
    known: claimed.known?.token ?? null,
    // The trusted signer the signature names, whatever became of it (verified, reused, failed, keys unavailable).
    signer: signature?.status === "untrusted" ? null : (signature?.signer ?? null),
    judgedAs,
    category: categoryOf(facts) ?? null,
    verification: verificationOf(facts),
  };
}

/**
 * A bot judged as the crawler of the list its address is in, that judgement deciding: shown as
 * that crawler, the list the evidence (what it claimed decided nothing).
 */
function listedIdentity(facts: EdgeFacts, listed: DisguiseFact): RecordedIdentity {
  return {
    crawler: true,
    tokens: listed.agent.tokens,
    known: listed.agent.known?.token ?? null,
    signer: null,
    judgedAs: JUDGED_AS_OF.disguised,
    category: listed.agent.known?.category ?? null,
    verification: disguiseOutcome(listed, !facts.agent.crawler),
  };
}

/**
 * A policy rule asking for a signature (`"signature": "required"`) names this crawler, and it
 * has no verified one: 403 with Accept-Signature (httpsig-protocol-01 "Requesting a Message Signature", RFC 9421 §5.1),
 * so an honest agent can sign and retry. Under MODE or the route's mode `report`, only marked.
 */
function signatureRequired(facts: EdgeFacts, verdict: Verdict): EdgeOutcome | undefined {
  if (verdict.policy?.rule?.signature !== "required" || signatureOf(facts)?.status === "verified") return undefined;
  const mode = verdict.policy.route.mode ?? facts.mode;
  if (mode === "off") return undefined;
  if (mode === "report") return { ...judgedBy({ ...verdict, action: "report" }, "report", null), layer: "signature" };
  return { ...judgedBy({ ...verdict, action: "block" }, "block", 403), layer: "signature" };
}

/**
 * The path layers — policy and robots.txt (judge.ts), usage preferences, pacing — on every
 * spelling of the path, the strictest outcome standing (judgeEverySpelling: a pass counts
 * only if every spelling passes every layer).
 */
function judged(facts: EdgeFacts, robots: RobotsFact, who: Judged): EdgeOutcome | GatherRequest {
  return judgeEverySpelling(
    facts.pathAndQuery,
    (spelling) => judgedSpelling(facts, robots, who, spelling),
    outcomeStrictness,
  );
}

function judgedSpelling(
  facts: EdgeFacts,
  robots: RobotsFact,
  who: Judged,
  spelling: string,
): EdgeOutcome | GatherRequest {
  const { agent } = who;
  const verdict = judgeSpelling(
    {
      mode: facts.mode,
      failOpen: facts.failOpen,
      state: robots.state,
      matcher: robots.matcher,
      tokens: agent.tokens,
      obeysGlobalGroup: agent.obeysGlobalGroup,
      pathAndQuery: facts.pathAndQuery,
      policy: facts.policy === "none" || facts.policy === NOT_GATHERED ? undefined : facts.policy,
      category: who.category,
      operator: agent.known?.operator,
      ledger: facts.ledger,
    },
    spelling,
  );
  const unsigned = signatureRequired(facts, verdict);
  if (unsigned) return unsigned;
  // Step 9a: a `charge` rule naming the crawler (terms-price.ts): paid, it is judged on as a pass and charged.
  if (verdict.policy?.rule?.action === "charge" && verdict.action === "block") {
    return priced(facts, verdict, spelling, (passed) => usage(facts, who, passed));
  }
  // Step 9b: refuse only what the crawler itself reads (policy/readings.ts).
  const disputed = verdict.decision && disputedReading(robots.matcher, verdict.decision, agent, spelling);
  if (disputed) return markedDisputed(usage(facts, who, { ...verdict, action: "pass" }), disputed);
  switch (verdict.action) {
    case "block":
      return judgedBy(verdict, "block", verdict.blockStatus ?? facts.blockStatus);
    case "report":
      return judgedBy(verdict, "report", null);
    case "unavailable":
      return { ...judgedBy(verdict, "unavailable", 503, robots.retryAfter), layer: "robots-unavailable" };
    case "rate-limited":
      // A policy rule's `pace`: 429 with the rule's Retry-After, stated as a RateLimit policy too.
      return statingRate(
        judgedBy(verdict, "rate-limited", 429, verdict.policy?.rule?.retryAfter ?? PACE_RETRY_AFTER),
        paceStatement(verdict.policy?.rule?.retryAfter ?? PACE_RETRY_AFTER),
      );
    case "pass":
      return usage(facts, who, verdict);
  }
}

/**
 * A `charge` rule's price against the request's price headers and signature (terms-price.ts):
 * 402 / 400 with Cloudflare's crawler-error, 503 when the signer's keys could not be had (our
 * failure), or the layers after the policy on a pass, charged when they let it through.
 * robots.txt and the terms files are never charged.
 */
function priced(
  facts: EdgeFacts,
  verdict: Verdict,
  spelling: string,
  judgeOn: (passed: Verdict) => EdgeOutcome | GatherRequest,
): EdgeOutcome | GatherRequest {
  const passed = { ...verdict, action: "pass" as const };
  const text = verdict.policy?.rule?.price ?? "";
  const price = parsePrice(text);
  // A rule whose price cannot be read was refused by validation; never charge by a guess.
  if (!price || isTermsFile(spelling)) return judgeOn(passed);
  const settlement = settlePrice(price, facts.priceHeaders ?? NO_PRICE_HEADERS, chargeEvidence(facts));
  if (!settlement.settled) {
    const action = settlement.status === 503 ? "unavailable" : "block";
    const refusedBy = judgedBy(verdict, action, settlement.status, settlement.retryAfter);
    return { ...refusedBy, layer: "charge", charge: { price: text, charged: null, error: settlement.error } };
  }
  const answer = judgeOn(passed);
  if ("gather" in answer || answer.action !== "pass") return answer;
  return { ...answer, charge: { price: text, charged: settlement.commitment, error: null } };
}

const NO_PRICE_HEADERS = { exact: null, max: null } as const;

/** What the request's signature proves, for a charge: a verified one's commitment, or why there is none. */
function chargeEvidence(facts: EdgeFacts): ChargeEvidence {
  const signature = signatureOf(facts);
  switch (signature?.status) {
    case "verified":
      return {
        status: "verified",
        signer: signature.signer,
        operator: signature.agent.known?.operator ?? signature.signer,
        commitment: signature.commitment,
      };
    case "failed":
      return { status: "failed" };
    case "unverifiable":
      return { status: "unverifiable" };
    default:
      return { status: "none" };
  }
}

/**
 * A path the readings of robots.txt dispute, judged on as a pass (usage preferences and pacing
 * still apply): a pass is forwarded marked would-block, naming the disputed rule and why.
 */
function markedDisputed(answer: EdgeOutcome | GatherRequest, disputed: DisputedReading): EdgeOutcome | GatherRequest {
  if ("gather" in answer) return answer;
  if (answer.action !== "pass") return { ...answer, reading: disputed };
  return { ...answer, action: "report", line: disputed.line, reading: disputed };
}

/** What a path layer's verdict makes the edge do, with the line it names. */
function judgedBy(
  verdict: Verdict,
  action: EdgeOutcome["action"],
  status: number | null,
  retryAfter: number | null = null,
): EdgeOutcome {
  return {
    action,
    status,
    retryAfter,
    layer: verdict.layer,
    line: lineOfVerdict(verdict),
    judgedPath: verdict.judgedPath,
    verdict,
    usage: null,
    pacing: null,
    contentUsage: null,
    reading: null,
  };
}

/**
 * The usage-signal layer, for a path robots.txt allows (policy/usage-signals.ts). Its own
 * switch, USAGE_SIGNALS; under MODE or a route's mode `report` a refusal is only marked.
 */
function usage(facts: EdgeFacts, { agent, category }: Judged, verdict: Verdict): EdgeOutcome | GatherRequest {
  const matcher = facts.robots === NOT_GATHERED ? undefined : facts.robots.matcher;
  const group = usageGroup(matcher, verdict.decision, agent.obeysGlobalGroup);
  if (verdict.layer !== "robots.txt" || !group) return paced(facts, agent, verdict, undefined);
  const resolution = resolveUsage(group, verdict.judgedPath, { allowed: true });
  // The route's mode (else MODE) may soften a refusal to a report; USAGE_SIGNALS=off silences it.
  const inForce = verdict.policy?.route.mode ?? facts.mode;
  const mode = facts.usageSignals === "off" ? "off" : inForce === "report" ? "report" : facts.usageSignals;
  const signal = usageVerdict(resolution, { category, mode, tokens: agent.tokens });
  const refusal = signal.refusal;
  if ((signal.action === "refuse" || signal.action === "report") && refusal) {
    const refused =
      signal.action === "refuse"
        ? judgedBy(verdict, "block", verdict.blockStatus ?? facts.blockStatus)
        : judgedBy(verdict, "report", null);
    return { ...refused, layer: "usage-signal", line: lineOfUsage(refusal), usage: refusal };
  }
  return paced(facts, agent, verdict, facts.usageHeader ? signal.header : undefined);
}

/** Visit-time and the rate lines of the crawler's group, for a pass in enforce mode. */
function paced(
  facts: EdgeFacts,
  agent: AgentInfo,
  verdict: Verdict,
  contentUsage: string | undefined,
): EdgeOutcome | GatherRequest {
  const pass = { ...judgedBy(verdict, "pass", null), contentUsage: contentUsage || null };
  const group = verdict.decision?.group;
  const mode = verdict.policy?.route.mode ?? facts.mode;
  if (!group || mode !== "enforce" || !facts.rateLimiter) return pass;
  if (!bindsRateLines(facts.enforceRates, group.token, agent)) return pass;
  const window = group.extensions.visitTime;
  const visit = window ? visitWindow(window, facts.now) : undefined;
  // Each answer states the rate it is held to (rate-limit-headers.ts), so a polite crawler slows down before a 429.
  const limits = rateLimitsAt(group, facts.now);
  if (visit && !visit.open) {
    const closed = { ...judgedBy(verdict, "unavailable", 503, visit.retryAfter), layer: "visit-time" as const };
    return statingRate(closed, refusalStatement(limits, visit.retryAfter));
  }
  if (!declaresRateLimits(group)) return pass;
  if (facts.rate === NOT_GATHERED) return { gather: "rate", limits, group: group.token };
  if (facts.rate === "not-checked") {
    return statingRate(
      { ...pass, pacing: { group: group.token, limits } },
      { policies: quotaPolicies(limits), exhausted: [] },
    );
  }
  if (facts.rate.allowed) return statingRate(pass, passStatement(limits));
  const limited = { ...judgedBy(verdict, "rate-limited", 429, facts.rate.retryAfter), layer: "rate" as const };
  return statingRate(limited, refusalStatement(limits, facts.rate.retryAfter));
}

/** The outcome with the rate it states, when there is one to state. */
function statingRate(answer: EdgeOutcome, rateLimit: RateStatement): EdgeOutcome {
  return rateLimit.policies.length > 0 ? { ...answer, rateLimit } : answer;
}

/** `/robots.txt` in any spelling that means it (`/%72obots.txt`: RFC 9309 §2.2.2 equivalence). */
export function isRobotsTxtPath(pathname: string): boolean {
  return pathname === "/robots.txt" || canonicalizePath(pathname) === "/robots.txt";
}

/**
 * How the request's crawler was verified, or why not, from the facts: a trusted signer's
 * signature, a failed one, the address check (Cloudflare, a list, reverse DNS), or why nothing
 * was checked. What the record's identity carries (the decision log, explain, activity and the
 * page's tester show it from there): what the decision used (claim.ts), so an unverifiable
 * claim is never shown as verified.
 */
export function verificationOf(
  facts: Pick<EdgeFacts, "agent" | "signature" | "verifyCrawlers" | "needsVerification" | "verification"> &
    Partial<Pick<EdgeFacts, "isRobotsTxt" | "disguisedCrawlers" | "disguise">>,
): VerificationOutcome {
  const signature = signatureOf(facts);
  if (signature?.status === "verified") {
    const token = signature.agent.tokens[0] ?? "its agent";
    return {
      status: "verified",
      method: "signature",
      evidence: signature.signer,
      why: null,
      reason: `Web Bot Auth signature of ${signature.signer}, a trusted signer standing for ${token}`,
    };
  }
  if (signature?.status === "failed") {
    const of = signature.signer ? ` of ${signature.signer}` : "";
    return {
      status: "refuted",
      method: "signature",
      evidence: null,
      why: "refuted",
      reason: `signature${of} failed: ${signature.why}`,
    };
  }
  const disguised = disguiseOf(facts);
  if (disguised) return disguiseOutcome(disguised);
  // Keys we could not get: judged as unsigned; the address check decided, if one was made.
  if (signature?.status === "unverifiable" && (!facts.needsVerification || facts.verification === NOT_GATHERED)) {
    return unverifiable(
      "lookup-failed",
      `cannot check the Web Bot Auth signature of ${signature.signer}: ${signature.why}`,
    );
  }
  if (facts.verifyCrawlers === "off" && facts.agent.crawler && facts.agent.known) return UNVERIFIABLE.verifyOff;
  if (!facts.needsVerification) return facts.agent.crawler ? UNVERIFIABLE.noClaim : UNVERIFIABLE.notACrawler;
  if (facts.verification === NOT_GATHERED) return UNVERIFIABLE.notLookedUp;
  return facts.verification;
}

/** The disguise the decision acted on, if any: a browser from a crawler-only list, the check on. */
export function disguiseOf(
  facts: Pick<EdgeFacts, "agent" | "signature"> &
    Partial<Pick<EdgeFacts, "isRobotsTxt" | "disguisedCrawlers" | "disguise">>,
): DisguiseFact | undefined {
  const signature = signatureOf(facts);
  const stated =
    signature?.status === "verified" ? signature.agent : signature?.status === "failed" ? undefined : facts.agent;
  if (!stated) return undefined;
  const step = disguiseStep(
    {
      agent: facts.agent,
      isRobotsTxt: facts.isRobotsTxt ?? false,
      disguisedCrawlers: facts.disguisedCrawlers,
      disguise: facts.disguise ?? NOT_GATHERED,
    },
    stated,
  );
  return typeof step === "object" ? step : undefined;
}

function unverifiable(why: NonNullable<VerificationOutcome["why"]>, reason: string): VerificationOutcome {
  return Object.freeze({ status: "unverifiable", method: null, evidence: null, why, reason });
}

/** The outcomes that name no evidence, made once: most requests' record carries one of them. */
const UNVERIFIABLE = {
  verifyOff: unverifiable("verify-off", "VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *"),
  noClaim: unverifiable("not-claimed", "claims no crawler that can be verified"),
  notACrawler: unverifiable("not-claimed", "not a crawler"),
  notLookedUp: unverifiable("not-looked-up", "the address was not checked"),
} as const;
