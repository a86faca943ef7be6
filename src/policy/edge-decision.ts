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
 *  13. terms (terms.ts): the licence link and TDM reservation on the answer; on a pass, a
 *      route requiring a licence -> 401 without a token the licence server confirms, 503 when
 *      it fails or an exempt crawler's claim is unproven
 *
 * Who asked (steps 4 to 6: the signature, a disguise, the address check, the standing of the
 * claim, the crawler-only list a claim not proven comes from) is found by one pure step,
 * identity.ts identify; this function judges the Identity it answers and reads no identity
 * fact itself. claim.ts says what each standing grants, disguise.ts what a list's judgement
 * does beside the claim's own.
 *
 * Facts that cost I/O are gathered only when the decision reaches them: while one is missing
 * the function answers `{ gather: fact }`, the Worker fetches that fact and asks again.
 * Explain passes every fact up front, the rate state as "not checked". The answer is the one
 * record of what happened (edge-record.ts): the action with its status and Retry-After, the
 * layer and line that decided, the path as judged, and who asked as the decision saw it.
 */

import type { AgentInfo } from "../agents/classify.ts";
import { canonicalizePath, resolveUsage, withinOneRequestBudget } from "../core/index.ts";
import { judgeClaim, type Judged } from "./claim.ts";
import { claimOrListed, reportedOnly } from "./disguise.ts";
import { bindsRateLines, declaresRateLimits, rateLimitsAt, visitWindow } from "./crawl-rate.ts";
import { NOT_GATHERED, type DisguiseFact, type EdgeFacts, type GatherRequest, type RobotsFact } from "./edge-facts.ts";
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
import {
  identify,
  identityAsGathered,
  listedIdentity,
  pacedSubject,
  recordedIdentity,
  type Identity,
} from "./identity.ts";
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
import { withTerms, type TermsSubject } from "./terms.ts";

/** The decision's answer: the record of what happened, or a fact it needs first. */
export type EdgeAnswer = EdgeRecord | GatherRequest;

/**
 * Facts in, one record out (see the precedence in the file comment). All the robots.txt
 * matching one call does — every spelling, both readings, usage lines — spends ONE matching
 * budget (core/match-budget.ts withinOneRequestBudget; attack 13, A13-2): past it the core
 * throws MatchingTooCostly to the edge's fail-safe. Synchronous, so the scope is safe.
 */
export function decideEdge(facts: EdgeFacts): EdgeAnswer {
  return withinOneRequestBudget(() => decidedEdge(facts), facts.matchingAccount);
}

function decidedEdge(facts: EdgeFacts): EdgeAnswer {
  const unjudged = unjudgedOutcome(facts);
  if (unjudged) return recorded(facts, unjudged, identityAsGathered(facts, "unjudged"));

  // Steps 4 to 6 ask for the identity facts in their order (identity.ts identify).
  const identity = identify(facts);
  if ("gather" in identity) return identity;
  // httpsig-protocol-01 ("Requesting a Message Signature"): a signature (or nonce) used more
  // often than policy permits may be answered 429. Our policy: once; Retry-After 1, as a new
  // signature is all it takes.
  if (identity.signature?.status === "reused") {
    return recorded(facts, outcome("rate-limited", "signature", 429, 1), identity);
  }
  if (identity.judgedAs === "person" && !facts.isRobotsTxt) {
    return recorded(facts, outcome("pass", "human", null), identity);
  }
  const { standing, claimant } = identity;
  const reportOnly = identity.disguise !== undefined && facts.disguisedCrawlers === "report";
  if (standing === "refuted" && facts.verifyCrawlers === "block") {
    return recorded(facts, outcome("block", "verification", 403), identity);
  }

  if (facts.pause === NOT_GATHERED && !reportOnly) return { gather: "pause" };
  if (facts.pause !== NOT_GATHERED && facts.pause !== "none" && !reportOnly) {
    return recorded(facts, outcome("unavailable", "pause", 503, facts.pause.retryAfter), identity);
  }

  const { robots } = facts;
  if (robots === NOT_GATHERED) return { gather: "robots" };
  if (facts.isRobotsTxt) {
    return recorded(facts, outcome("serve-robots-txt", "robots.txt-file", null, robots.retryAfter), identity);
  }
  // A claim not proven, from an address its operator lists for one crawler only, is judged as
  // that crawler too (disguise.ts): naming another bot sheds nothing.
  const { listed } = identity;
  if (listed === NOT_GATHERED) return { gather: "disguise" };
  if (facts.policy === NOT_GATHERED) return { gather: "policy" };
  const judgement = judgeClaim(standing, { agent: claimant, category: identity.category }, (who, withRate) =>
    pacedAs(identity, facts, judged(withRate && !reportOnly ? facts : { ...facts, rate: "not-checked" }, robots, who)),
  );
  const own = reportOnly ? reportedOnly(judgement) : judgement;
  const asClaimed: TermsSubject = { standing, agent: claimant, category: identity.category };
  if (listed === "none") {
    return "gather" in own
      ? own
      : termsRecorded(facts, own, reportOnly, asClaimed, (it) => recorded(facts, it, identity));
  }
  const asListed = judgeClaim("disguised", { agent: listed.agent, category: listed.agent.known?.category }, (who) =>
    judged({ ...facts, rate: "not-checked" }, robots, who),
  );
  const treatment = facts.disguisedCrawlers === "report" ? "report" : "enforce";
  const { answer, byList } = claimOrListed(own, asListed, treatment);
  if ("gather" in answer) return answer;
  return byList
    ? termsRecorded(facts, answer, false, asListedSubject(listed), (it) =>
        recordedAs(facts, it, listedIdentity(listed, facts)),
      )
    : termsRecorded(facts, answer, false, asClaimed, (it) => recorded(facts, it, identity));
}

/**
 * Step 13, the site's terms (terms.ts): the licence link and TDM reservation on the answer, and
 * a route's required licence (401, or 503 when the licence server fails us). A crawler in
 * disguise under `report` is told nothing: its answer is recorded as it is.
 */
function termsRecorded(
  facts: EdgeFacts,
  answer: EdgeOutcome,
  reportOnly: boolean,
  who: TermsSubject,
  record: (answer: EdgeOutcome) => EdgeRecord,
): EdgeAnswer {
  const termed = reportOnly ? answer : withTerms(facts, answer, who);
  if ("gather" in termed) return termed;
  return record(termed);
}

function asListedSubject(listed: DisguiseFact): TermsSubject {
  return { standing: "disguised", agent: listed.agent, category: listed.agent.known?.category };
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

/** The record: the layers' outcome, the path, and who asked as the identity step found it. */
function recorded(facts: EdgeFacts, decided: EdgeOutcome, identity: Identity): EdgeRecord {
  return recordedAs(facts, decided, recordedIdentity(identity, facts));
}

function recordedAs(facts: EdgeFacts, decided: EdgeOutcome, identity: RecordedIdentity): EdgeRecord {
  return { ...decided, path: facts.pathAndQuery, judgedPath: decided.judgedPath ?? facts.pathAndQuery, identity };
}

/** A request for the limiter's answer carries who is paced (the Worker names the limiter from it). */
function pacedAs(
  identity: Identity,
  facts: EdgeFacts,
  answer: EdgeOutcome | GatherRequest,
): EdgeOutcome | GatherRequest {
  return "gather" in answer && answer.gather === "rate"
    ? { ...answer, subject: pacedSubject(identity, facts) }
    : answer;
}

/**
 * A policy rule asking for a signature (`"signature": "required"`) names this crawler, and it
 * has no verified one: 403 with Accept-Signature (httpsig-protocol-01 "Requesting a Message Signature", RFC 9421 §5.1),
 * so an honest agent can sign and retry. Under MODE or the route's mode `report`, only marked.
 */
function signatureRequired(facts: EdgeFacts, verdict: Verdict): EdgeOutcome | undefined {
  if (verdict.policy?.rule?.signature !== "required") return undefined;
  if (facts.signature !== NOT_GATHERED && facts.signature.status === "verified") return undefined;
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
  const signature = facts.signature === NOT_GATHERED ? undefined : facts.signature;
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
  // Off, and no header to send: nothing here would be used, so the lines are not matched (A13-8).
  if (facts.usageSignals === "off" && !facts.usageHeader) return paced(facts, agent, verdict, undefined);
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
