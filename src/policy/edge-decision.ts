/**
 * The one decision: what the edge does with a request, from facts the Worker gathered. Pure,
 * no I/O. The Worker (src/worker/edge/request-path.ts) performs the action; the admin explain, the
 * operator page's tester and `robots-edge explain` call this same function (through
 * explain.ts), so they cannot disagree with the edge.
 *
 * Precedence, top to bottom. docs/decisions.md "Precedence" lists the same steps under the same
 * names, and test/policy/precedence-docs.test.ts holds the two lists equal.
 *   1. nowhere to send: an unusable ORIGIN_URL -> 502; route mode addressed to the Worker
 *      itself (a loop) -> 508
 *   2. mode off: MODE=off -> forward, unjudged (a var with a bad value is no kill switch: its
 *      default stands in, src/config/read-config.ts)
 *   3. not served: an authority the edge does not protect (AUTHORITIES) -> forward, unjudged
 *   4. signature: a Web Bot Auth signature (Signature-Input, VERIFY_CRAWLERS not off), checked:
 *      reused -> 429; verified from a trusted signer -> the request IS the crawler the signer
 *      stands for, whatever its User-Agent; failed -> a refuted claim (step 6); from an
 *      untrusted signer -> ignored
 *   5. humans: not a crawler (and not robots.txt) -> forward, unjudged
 *   6. verification (claim.ts, "a claim grants nothing it cannot prove"): a refuted claim with
 *      VERIFY_CRAWLERS=block -> 403; with `unknown` it is judged below as an anonymous bot under
 *      `*`. An unverifiable claim is judged below under its group AND under `*`; refused by `*`
 *      alone -> 503 with Retry-After (unproven claim)
 *   7. crawl pause: -> 503 (robots.txt too)
 *   8. robots.txt: GET/HEAD /robots.txt in any spelling -> served by the edge
 *   9. policy layers (judge.ts; the live policy is gathered only here): the route's mode (`off`
 *      passes), its rule naming the crawler (`pace` -> 429; a rule `when` a condition holds,
 *      from the isolate's ledger, names it only then; a rule asking for a signature -> 403 with
 *      Accept-Signature when there is none), then robots.txt (unavailable -> 503 unless
 *      FAIL_OPEN). Steps 9 to 12 run on every spelling of the path (path-spellings.ts
 *      judgeEverySpelling); the strictest outcome stands: a pass counts only if every
 *      spelling passes
 *  10. usage preferences (USAGE_SIGNALS), for a path robots.txt allows: a `no` covering the
 *      crawler's category -> block; else a pass may carry the path's `Content-Usage` header
 *  11. report: a block under MODE or the route's mode `report` -> forward, marked would-block
 *  12. pacing: for a pass in enforce mode whose group binds it: Visit-time -> 503,
 *      Crawl-delay / Request-rate -> 429
 *
 * Facts that cost I/O are gathered only when the decision reaches them: while one is missing
 * the function answers `{ kind: "gather", fact }`, the Worker fetches that fact and asks
 * again. Explain passes every fact up front, the rate state as "not checked".
 */

import type { AgentInfo } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import { ANONYMOUS_BOT, claimStanding, judgeClaim, type Judged } from "./claim.ts";
import { canonicalizePath, resolveUsage } from "../core/index.ts";
import { bindsRateLines, declaresRateLimits, rateLimitsAt, visitWindow } from "./crawl-rate.ts";
import type { EdgeAction, EdgeFacts, RobotsFact } from "./edge-facts.ts";
import { judgeSpelling, type Verdict } from "./judge.ts";
import { PACE_RETRY_AFTER } from "./operator-policy.ts";
import { judgeEverySpelling } from "./path-spellings.ts";
import { usageGroup, usageVerdict } from "./usage-signals.ts";

/** Facts in, one action out (see the precedence in the file comment). */
export function decideEdge(facts: EdgeFacts): EdgeAction {
  if (facts.originUnusable) return { kind: "no-origin", status: 502 };
  if (facts.selfAddressed) return { kind: "self-loop", status: 508 };
  if (facts.mode === "off") return { kind: "forward", why: "mode-off" };
  if (!facts.served) return { kind: "forward", why: "not-served" };

  if (facts.signed && facts.signature === undefined) return { kind: "gather", fact: "signature" };
  const signatureAnswer = reusedSignature(facts);
  if (signatureAnswer) return signatureAnswer;
  const signed = facts.signature?.status === "verified" ? facts.signature.agent : undefined;
  // A request that signs is an automated client even when its signature fails (a browser never
  // signs): the failed claim is judged below, never passed as a human's.
  const failedSignature = facts.signature?.status === "failed";
  const claimant = signed ?? (failedSignature ? ANONYMOUS_BOT : facts.agent);
  if (!facts.isRobotsTxt && !claimant.crawler) return { kind: "forward", why: "human" };

  // A verified signature is the strongest evidence; a failed one a failed claim. Otherwise the
  // User-Agent's claim is checked against its operator's addresses (identity/verify-crawler.ts).
  const checksAddress = !signed && !failedSignature && facts.needsVerification;
  if (checksAddress && facts.verification === undefined) return { kind: "gather", fact: "verification" };
  const standing = claimStanding(facts);
  if (standing === "refuted" && facts.verifyCrawlers === "block") return { kind: "impostor", status: 403 };

  if (facts.pause === undefined) return { kind: "gather", fact: "pause" };
  if (facts.pause) return { kind: "unavailable", status: 503, retryAfter: facts.pause.retryAfter, why: "paused" };

  if (!facts.robots) return { kind: "gather", fact: "robots" };
  if (facts.isRobotsTxt) return { kind: "serve-robots-txt", retryAfter: facts.robots.retryAfter };
  if (facts.policy === undefined) return { kind: "gather", fact: "policy" };
  // Our table's category first (per product token, cited); Cloudflare's only for a crawler the
  // table does not know, and never for a signer's agent.
  const category = claimant.known?.category ?? (signed ? undefined : facts.cloudflareCategory);
  const { robots } = facts;
  return judgeClaim(standing, { agent: claimant, category }, (who, withRate) =>
    judged(withRate ? facts : { ...facts, rate: "not-checked" }, robots, who),
  );
}

/**
 * httpsig-protocol-01 ("Requesting a Message Signature"): a signature (or nonce) used more often than policy permits may be
 * answered 429, asking for a fresh one. Our policy: once. Retry-After 1: a new signature is
 * all it takes.
 */
function reusedSignature(facts: EdgeFacts): EdgeAction | undefined {
  if (facts.signature?.status !== "reused") return undefined;
  return { kind: "signature-reused", status: 429, retryAfter: 1 };
}

/**
 * A policy rule asking for a signature (`"signature": "required"`) names this crawler, and it
 * has no verified one: 403 with Accept-Signature (httpsig-protocol-01 "Requesting a Message Signature", RFC 9421 §5.1),
 * so an honest agent can sign and retry. Under MODE or the route's mode `report`, only marked.
 */
function signatureRequired(facts: EdgeFacts, verdict: Verdict): EdgeAction | undefined {
  if (verdict.policy?.rule?.signature !== "required" || facts.signature?.status === "verified") return undefined;
  const mode = verdict.policy.route.mode ?? facts.mode;
  if (mode === "off") return undefined;
  if (mode === "report") return { kind: "report", verdict: { ...verdict, action: "report" } };
  return { kind: "signature-required", status: 403, verdict: { ...verdict, action: "block" } };
}

/**
 * The path layers — policy and robots.txt (judge.ts), usage preferences, pacing — on every
 * spelling of the path, the strictest outcome standing (judgeEverySpelling: a pass counts
 * only if every spelling passes every layer).
 */
function judged(facts: EdgeFacts, robots: RobotsFact, who: Judged): EdgeAction {
  return judgeEverySpelling(
    facts.pathAndQuery,
    (spelling) => judgedSpelling(facts, robots, who, spelling),
    actionStrictness,
  );
}

function judgedSpelling(facts: EdgeFacts, robots: RobotsFact, who: Judged, spelling: string): EdgeAction {
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
      policy: facts.policy ?? undefined,
      category: who.category,
      operator: agent.known?.operator,
      ledger: facts.ledger,
    },
    spelling,
  );
  const unsigned = signatureRequired(facts, verdict);
  if (unsigned) return unsigned;
  switch (verdict.action) {
    case "block":
      return { kind: "block", status: verdict.blockStatus ?? facts.blockStatus, verdict };
    case "report":
      return { kind: "report", verdict };
    case "unavailable":
      return { kind: "unavailable", status: 503, retryAfter: robots.retryAfter, why: "robots-unavailable", verdict };
    case "pace":
      return {
        kind: "rate-limited",
        status: 429,
        retryAfter: verdict.policy?.rule?.retryAfter ?? PACE_RETRY_AFTER,
        verdict,
      };
    case "pass":
      return usage(facts, who, verdict);
  }
}

/**
 * How strict one spelling's outcome is: a refusal (block, then 503, then 429) over a fact still
 * to gather (a pass may yet be limited) over a report over a pass; a pass held to a rate over
 * one that is not, so re-spelling a path into a route in `report` or `off` cannot shed pacing.
 */
function actionStrictness(action: EdgeAction): number {
  switch (action.kind) {
    case "block":
    case "signature-required":
      return 6;
    case "unavailable":
      return 5;
    case "rate-limited":
      return 4;
    case "gather":
      return 3;
    case "report":
      return 2;
    case "pass":
      return action.pacing ? 1 : 0;
    default:
      // Kinds a path layer never answers; should one appear, it counts as a refusal, never a pass.
      return 6;
  }
}

/**
 * The usage-signal layer, for a path robots.txt allows (policy/usage-signals.ts). Its own
 * switch, USAGE_SIGNALS; under MODE or a route's mode `report` a refusal is only marked.
 */
function usage(facts: EdgeFacts, { agent, category }: Judged, verdict: Verdict): EdgeAction {
  const group = usageGroup(facts.robots?.matcher, verdict.decision, agent.obeysGlobalGroup);
  if (verdict.layer !== "robots.txt" || !group) return paced(facts, agent, verdict, undefined);
  const resolution = resolveUsage(group, verdict.judgedPath, { allowed: true });
  // The route's mode (else MODE) may soften a refusal to a report; USAGE_SIGNALS=off silences it.
  const inForce = verdict.policy?.route.mode ?? facts.mode;
  const mode = facts.usageSignals === "off" ? "off" : inForce === "report" ? "report" : facts.usageSignals;
  const signal = usageVerdict(resolution, { category, mode, tokens: agent.tokens });
  if (signal.action === "refuse" && signal.refusal) {
    return { kind: "block", status: verdict.blockStatus ?? facts.blockStatus, verdict, usage: signal.refusal };
  }
  if (signal.action === "report" && signal.refusal) return { kind: "report", verdict, usage: signal.refusal };
  return paced(facts, agent, verdict, facts.usageHeader ? signal.header : undefined);
}

/** Visit-time and the rate lines of the crawler's group, for a pass in enforce mode. */
function paced(facts: EdgeFacts, agent: AgentInfo, verdict: Verdict, contentUsage: string | undefined): EdgeAction {
  const pass = { kind: "pass", verdict, ...(contentUsage && { contentUsage }) } as const;
  const group = verdict.decision?.group;
  const mode = verdict.policy?.route.mode ?? facts.mode;
  if (!group || mode !== "enforce" || !facts.rateLimiter) return pass;
  if (!bindsRateLines(facts.enforceRates, group.token, agent)) return pass;
  const window = group.extensions.visitTime;
  const visit = window ? visitWindow(window, facts.now) : undefined;
  if (visit && !visit.open) {
    return { kind: "unavailable", status: 503, retryAfter: visit.retryAfter, why: "visit-time", verdict };
  }
  if (!declaresRateLimits(group)) return pass;
  const limits = rateLimitsAt(group, facts.now);
  if (facts.rate === undefined) return { kind: "gather", fact: "rate", limits, group: group.token };
  if (facts.rate === "not-checked") return { ...pass, pacing: { group: group.token, limits } };
  if (facts.rate.allowed) return pass;
  return { kind: "rate-limited", status: 429, retryAfter: facts.rate.retryAfter, verdict };
}

/** `/robots.txt` in any spelling that means it (`/%72obots.txt`: RFC 9309 §2.2.2 equivalence). */
export function isRobotsTxtPath(pathname: string): boolean {
  return pathname === "/robots.txt" || canonicalizePath(pathname) === "/robots.txt";
}

/**
 * How the request's crawler was verified, or why not, from the facts: a trusted signer's
 * signature, a failed one, the address check (Cloudflare, a list, reverse DNS), or why nothing
 * was checked. The one value the decision log, explain, activity and the page's tester show:
 * what the decision used (claim.ts), so an unverifiable claim is never shown as verified.
 */
export function verificationOf(
  facts: Pick<EdgeFacts, "agent" | "signature" | "verifyCrawlers" | "needsVerification" | "verification">,
): VerificationOutcome {
  const { signature } = facts;
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
  if (facts.verifyCrawlers === "off" && facts.agent.crawler && facts.agent.known) {
    return unverifiable("verify-off", "VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *");
  }
  if (!facts.needsVerification) {
    return unverifiable(
      "not-claimed",
      facts.agent.crawler ? "claims no crawler that can be verified" : "not a crawler",
    );
  }
  return facts.verification ?? unverifiable("not-looked-up", "the address was not checked");
}

function unverifiable(why: NonNullable<VerificationOutcome["why"]>, reason: string): VerificationOutcome {
  return { status: "unverifiable", method: null, evidence: null, why, reason };
}
