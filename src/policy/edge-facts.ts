/**
 * What the one decision (edge-decision.ts) reads and what it answers: the facts the Worker
 * gathers and the action it performs. Types only, in their own file so that the decision's
 * helpers (claim.ts) can name them without importing the decision itself.
 */

import type { AgentInfo } from "../agents/classify.ts";
import type { CrawlerCategory } from "../agents/crawlers.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import type { RobotsMatcher } from "../core/index.ts";
import type { RateLimits } from "./crawl-rate.ts";
import type { EntryState, Verdict } from "./judge.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy } from "./operator-policy.ts";
import type { ReferralLedger } from "./referral-ledger.ts";
import type { EnforceRates, VerifyCrawlers } from "./settings.ts";
import type { UsageRefusalReason } from "./usage-signals.ts";

/**
 * A Web Bot Auth signature, checked (agents/web-bot-auth): verified from a trusted signer,
 * with the agent it stands for; failed (bad, expired, future, unknown key, malformed…); or
 * from a signer we do not trust (then the User-Agent decides, as without a signature).
 */
export type SignatureFact =
  | { readonly status: "verified"; readonly signer: string; readonly agent: AgentInfo }
  /** Verified, but this isolate saw the same signature (or nonce) before, within its window. */
  | { readonly status: "reused"; readonly signer: string }
  | { readonly status: "failed"; readonly why: string; readonly signer?: string | undefined }
  | { readonly status: "untrusted"; readonly signer?: string | undefined };

/** The limiter's answer, or "not-checked" when the caller only explains. */
export type RateFact =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfter: number } | "not-checked";

export interface EdgeFacts {
  /** ORIGIN_URL is set but unusable: there is nowhere to forward anything. */
  readonly originUnusable: boolean;
  /** Route mode, and the request is addressed to the Worker itself (e.g. plain `wrangler dev`). */
  readonly selfAddressed: boolean;
  readonly mode: Mode;
  /** The request's authority is one the edge protects (AUTHORITIES; always in proxy mode). */
  readonly served: boolean;
  /** GET or HEAD of /robots.txt, in any spelling that means it. */
  readonly isRobotsTxt: boolean;
  /** Path and query of the request, as forwarded. */
  readonly pathAndQuery: string;
  readonly agent: AgentInfo;
  /** The request carries a Web Bot Auth signature to check (Signature-Input; VERIFY_CRAWLERS not off). */
  readonly signed: boolean;
  readonly signature?: SignatureFact | undefined;
  readonly verifyCrawlers: VerifyCrawlers;
  /** Whether the agent's claim needs checking (a verifiable crawler, VERIFY_CRAWLERS not off). */
  readonly needsVerification: boolean;
  /** How the address check came out (verified, refuted, unverifiable), once gathered. */
  readonly verification?: VerificationOutcome | undefined;
  /**
   * Our category for Cloudflare's `verifiedBotCategory` (agents/verification.ts
   * categoryOfCloudflare): the category of a verified crawler our table does not know.
   */
  readonly cloudflareCategory?: CrawlerCategory | undefined;
  /** undefined: not gathered yet; null: no pause. */
  readonly pause?: { readonly retryAfter: number } | null | undefined;
  readonly robots?: RobotsFact | undefined;
  readonly failOpen: boolean;
  readonly blockStatus: number;
  /**
   * The operator's policy in force (the live policy, worker/live-policy.ts): undefined while
   * not gathered, null for none. Asked for only once a crawler's request reaches the policy
   * layers, so humans and robots.txt requests never wait for it.
   */
  readonly policy?: CompiledPolicy | null | undefined;
  /**
   * The origin's recorded crawls and referrals as this isolate holds them, for a policy rule's
   * `crawlsPerReferral` condition; undefined while none are loaded (no condition holds). Never
   * gathered: the Worker refreshes it in the background (worker/activity/ledger-memory.ts).
   */
  readonly ledger?: ReferralLedger | undefined;
  readonly enforceRates: EnforceRates;
  /** USAGE_SIGNALS: what a Content-Usage / Content-Signal `no` does to a crawler it covers. */
  readonly usageSignals: Mode;
  /** USAGE_HEADER: whether a passed crawler response carries the path's `Content-Usage`. */
  readonly usageHeader: boolean;
  /** Whether a rate limiter exists (the CRAWL_RATE binding). */
  readonly rateLimiter: boolean;
  readonly rate?: RateFact | undefined;
  readonly now: number;
}

export interface RobotsFact {
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  /** Seconds until the edge next tries the origin's robots.txt (for a 503's Retry-After). */
  readonly retryAfter: number;
}

/** Why a request goes on unjudged. */
export type ForwardReason = "mode-off" | "not-served" | "human";

/** What the edge does. The Worker turns each kind into exactly one response. */
export type EdgeAction =
  | {
      readonly kind: "gather";
      readonly fact: "signature" | "verification" | "pause" | "robots" | "policy" | "rate";
      readonly limits?: RateLimits;
      readonly group?: string;
    }
  | { readonly kind: "no-origin"; readonly status: 502 }
  | { readonly kind: "self-loop"; readonly status: 508 }
  | { readonly kind: "forward"; readonly why: ForwardReason }
  | { readonly kind: "impostor"; readonly status: 403 }
  | { readonly kind: "serve-robots-txt"; readonly retryAfter: number }
  | {
      readonly kind: "unavailable";
      readonly status: 503;
      readonly retryAfter: number;
      readonly why: UnavailableWhy;
      readonly verdict?: Verdict;
    }
  | { readonly kind: "rate-limited"; readonly status: 429; readonly retryAfter: number; readonly verdict: Verdict }
  /** Web Bot Auth: a reused signature (429), or a route asking for one (403 with Accept-Signature). */
  | { readonly kind: "signature-reused"; readonly status: 429; readonly retryAfter: number }
  | { readonly kind: "signature-required"; readonly status: 403; readonly verdict: Verdict }
  | { readonly kind: "block"; readonly status: number; readonly verdict: Verdict; readonly usage?: UsageRefusalReason }
  | {
      readonly kind: "report";
      readonly verdict: Verdict;
      readonly usage?: UsageRefusalReason;
      /** Marked only because the claim could not be verified: its own group would pass it (claim.ts). */
      readonly unproven?: true;
    }
  | {
      readonly kind: "pass";
      readonly verdict: Verdict;
      readonly pacing?: Pacing;
      /** `Content-Usage` for the response, unless the origin sends its own. */
      readonly contentUsage?: string;
    };

export type UnavailableWhy = "paused" | "robots-unavailable" | "visit-time" | "unproven-claim";

/** For explain: the limits a passed request is held to ("limited if faster than N s"). */
export interface Pacing {
  readonly group: string;
  readonly limits: RateLimits;
}
