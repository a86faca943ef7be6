/**
 * One record of what happened to a request: what the one decision (edge-decision.ts) returns,
 * and all that anyone is shown of it. The Worker performs it (worker/edge/request-path.ts),
 * and the decision log (worker/log.ts), the activity event (activity.ts), explain
 * (explain.ts), replay (replay.ts) and the page's tester (worker/admin/tester.ts) each render
 * it, never reaching back into the facts, so none of them can say another thing than the edge
 * did. Written in the one vocabulary (src/vocabulary.ts).
 */

import type { VerificationOutcome } from "../agents/verification.ts";
import type { Action, CrawlerCategory, JudgedAs, Layer } from "../vocabulary.ts";
import type { RateLimits } from "./crawl-rate.ts";
import type { GatherRequest } from "./edge-facts.ts";
import type { Verdict } from "./judge.ts";
import type { UsageRefusalReason } from "./usage-signals.ts";
import type { RecordedTerms } from "./terms.ts";
import type { ChargeCommitment, CrawlerError } from "./terms-price.ts";
import type { RateStatement } from "./rate-limit-headers.ts";

/**
 * The line that decided, wherever it is written: a robots.txt rule or usage line (its line
 * number), or a policy route and its rule (their place in the policy, as its problems name
 * them).
 */
export interface DecidingLine {
  readonly source: "robots.txt" | "policy";
  /** The robots.txt line; null for the policy (see `member`). */
  readonly line: number | null;
  /** The policy's route and rule: `routes[1]`, `routes[1].rules[0]`; null for robots.txt. */
  readonly member: string | null;
  /** The line in words: `disallow: /private/`, `content-usage: train-ai`, `policy /blog/: block`. */
  readonly text: string;
}

/**
 * A path the mainstream readings of robots.txt judge differently for a crawler other than
 * Google's (policy/readings.ts): not refused, marked would-block, and why.
 */
export interface DisputedReading {
  /** The rule one reading refuses by (its line as that reading spells it). */
  readonly line: DecidingLine;
  /** Both readings' answers, in words. */
  readonly reason: string;
}

/** Who asked, as the decision saw it. */
export interface RecordedIdentity {
  /** Whether the request is an automated client (a crawler's User-Agent, any signature); false: a person. */
  readonly crawler: boolean;
  /** The product tokens claimed, best first: a trusted signer's agent's, else the User-Agent's. */
  readonly tokens: readonly string[];
  /** The known crawler (our table) the claim names, if any. */
  readonly known: string | null;
  /** The trusted signer whose signature the request carried, if any. */
  readonly signer: string | null;
  /** Whom the decision judged: the crawler as claimed, an anonymous bot, both, a person, nobody. */
  readonly judgedAs: JudgedAs;
  /** The claimed crawler's category: our table's, else Cloudflare's for a crawler it does not know, else a catalogue's. */
  readonly category: CrawlerCategory | null;
  /** How the claim stood, as the decision used it (an unverifiable claim is never shown verified). */
  readonly verification: VerificationOutcome;
  /** The crawler catalogue whose category the claim was judged with (judgedAs "catalogued"), and its date. */
  readonly catalogue?: { readonly name: string; readonly fetchedAt: string; readonly token: string };
}

/** For explain: the limits a passed request is held to ("limited if faster than N s"). */
export interface Pacing {
  readonly group: string;
  readonly limits: RateLimits;
}

/** What the edge does and what decided it, before the decision adds who asked (the layers' answer). */
export interface EdgeOutcome {
  readonly action: Action;
  /** The status the edge answers with itself; null when it forwards (the origin's status stands). */
  readonly status: number | null;
  /** Seconds, for a 503 or 429; null otherwise. */
  readonly retryAfter: number | null;
  readonly layer: Layer;
  readonly line: DecidingLine | null;
  /** The spelling of the path that decided (path-spellings.ts); the request's own when none differs. */
  readonly judgedPath: string | null;
  /** What the policy and robots.txt layers found on that spelling (route, group, rule), when they judged. */
  readonly verdict: Verdict | null;
  /** A usage preference that refused the crawler, with its line. */
  readonly usage: UsageRefusalReason | null;
  /** A pass held to rate lines whose limiter was not asked (explain): the limits it is held to. */
  readonly pacing: Pacing | null;
  /** `Content-Usage` the edge adds to a passed response, unless the origin sends its own. */
  readonly contentUsage: string | null;
  /** The readings of robots.txt disagree on this path for this crawler: not refused, marked (policy/readings.ts). */
  readonly reading: DisputedReading | null;
  /** What the site's terms added (terms.ts): the licence link, its check, the TDM reservation; absent where the policy states none. */
  readonly terms?: RecordedTerms;
  /** A `charge` rule's price applied (terms-price.ts): charged, or refused with its crawler-error. Absent: no price. */
  readonly charge?: ChargeOutcome;
  /** The rate the crawler's group or rule binds, stated as RateLimit-Policy / RateLimit (rate-limit-headers.ts). Absent: none binds. */
  readonly rateLimit?: RateStatement;
}

/** What a `charge` rule made of the request: the price, and the commitment charged or the error answered. */
export interface ChargeOutcome {
  /** The rule's price, as written (`USD 0.01`): `crawler-price`, or `crawler-charged` when charged. */
  readonly price: string;
  /** Charged: what the signer committed to (the ledger's row); else null. */
  readonly charged: ChargeCommitment | null;
  /** Refused: Cloudflare's `crawler-error` code (null for our own 503). */
  readonly error: CrawlerError | null;
}

/** The one record: what happened, what decided it, on which path, and who asked. */
export interface EdgeRecord extends EdgeOutcome {
  /** The request's path and query, as forwarded. */
  readonly path: string;
  readonly judgedPath: string;
  readonly identity: RecordedIdentity;
}

const NOTHING_DECIDED = {
  retryAfter: null,
  line: null,
  judgedPath: null,
  verdict: null,
  usage: null,
  pacing: null,
  contentUsage: null,
  reading: null,
} as const;

/** An outcome no line decided: a layer answered alone (a pause, the mode, a person). */
export function outcome(action: Action, layer: Layer, status: number | null, retryAfter?: number): EdgeOutcome {
  return { ...NOTHING_DECIDED, action, layer, status, retryAfter: retryAfter ?? null };
}

/** The line a path layer's verdict names: a robots.txt rule, or a policy route and its rule. */
export function lineOfVerdict(verdict: Verdict): DecidingLine | null {
  const { policy } = verdict;
  if (verdict.layer === "policy" && policy) {
    const { route, rule } = policy;
    return {
      source: "policy",
      line: null,
      member: rule ? `routes[${policy.routeIndex}].rules[${policy.ruleIndex}]` : `routes[${policy.routeIndex}]`,
      text: `policy ${route.pattern}: ${rule ? rule.action : `mode ${route.mode ?? "off"}`}`,
    };
  }
  const rule = verdict.decision?.rule;
  return rule ? { source: "robots.txt", line: rule.line, member: null, text: `${rule.kind}: ${rule.pattern}` } : null;
}

/** The line of a usage preference that refused. */
export function lineOfUsage(usage: UsageRefusalReason): DecidingLine {
  return { source: "robots.txt", line: usage.line, member: null, text: `${usage.format}: ${usage.key}` };
}

/**
 * How strict an outcome is, for choosing the strictest of several (the spellings of a path,
 * path-spellings.ts; a claim and a crawler-only list, disguise.ts): a refusal (block, then 503,
 * then 429) over a fact still to gather (a pass may yet be limited) over a report over a pass; a
 * pass held to a rate over one that is not, so re-spelling a path into a route in `report` or
 * `off` cannot shed pacing.
 */
export function outcomeStrictness(answer: EdgeOutcome | GatherRequest): number {
  if ("gather" in answer) return 3;
  switch (answer.action) {
    case "block":
      return 6;
    case "unavailable":
      return 5;
    case "rate-limited":
      return 4;
    case "report":
      return 2;
    case "pass":
      // A charged pass over a free one: the spelling a price binds is never shed.
      return answer.pacing || answer.charge ? 1 : 0;
    default:
      // Actions a path layer never answers; should one appear, it counts as a refusal, never a pass.
      return 6;
  }
}
