/**
 * What the one decision (edge-decision.ts) reads, in three kinds: the operator's settings, the
 * facts of the request itself (known when it arrives, at no cost), and the facts the Worker
 * gathers only when the decision asks for them (each costs I/O). A gathered fact that has not
 * been gathered yet says so, NOT_GATHERED, and its absence says so too ("none"): never
 * `undefined` against `null`. In their own file so that the decision's helpers (claim.ts, identity.ts) can
 * name them without importing the decision itself. What the decision answers is the record
 * (edge-record.ts).
 */

import type { CataloguedFact } from "../agents/catalogue.ts";
import type { AgentInfo } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import type { RequestAccount, RobotsMatcher } from "../core/index.ts";
import type { CrawlerCategory } from "../vocabulary.ts";
import type { RateLimits } from "./crawl-rate.ts";
import type { SignedCommitment } from "../agents/web-bot-auth/verify.ts";
import type { PriceHeaders } from "./terms-price.ts";
import type { EntryState } from "./judge.ts";
import type { Mode } from "./mode.ts";
import type { CompiledPolicy } from "./operator-policy.ts";
import type { ReferralLedger } from "./referral-ledger.ts";
import type { EnforceRates, VerifyCrawlers } from "./settings.ts";
import type { LicenceFact, LicenceQuestion, LicenceToken } from "./terms.ts";

/** The crawler-only list holding the request's address, and the crawler it names (disguise.ts). */
export interface DisguiseFact {
  /** The range source (agents/operators/tables.ts RANGE_SOURCES name), e.g. "gptbot". */
  readonly source: string;
  /** The crawler the list is for, as its own User-Agent would classify it. */
  readonly agent: AgentInfo;
}

/**
 * A Web Bot Auth signature, checked (agents/web-bot-auth): verified from a trusted signer,
 * with the agent it stands for; failed (bad, expired, future, unknown key, malformed…); or
 * from a signer we do not trust (then the User-Agent decides, as without a signature).
 */
export type SignatureFact =
  | {
      readonly status: "verified";
      readonly signer: string;
      readonly agent: AgentInfo;
      /** What the signature covered and its base: a price header's proof (terms-price.ts). */
      readonly commitment?: SignedCommitment | undefined;
    }
  /** Verified, but this isolate saw the same signature (or nonce) before, within its window. */
  | { readonly status: "reused"; readonly signer: string; readonly agent: AgentInfo }
  | { readonly status: "failed"; readonly why: string; readonly signer?: string | undefined }
  /**
   * A trusted signer's key we could not get (its set failed, or lacks the keyid): proves and
   * refutes nothing, so the request is judged as if unsigned (our failure is never
   * the visitor's); the record still names the signer and why.
   */
  | { readonly status: "unverifiable"; readonly signer: string; readonly why: string }
  | { readonly status: "untrusted"; readonly signer?: string | undefined };

/** The limiter's answer, or "not-checked" when the caller only explains. */
export type RateFact =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfter: number } | "not-checked";

/** A fact the decision has not asked for yet: the Worker gathers it when asked (`{ gather }`). */
export const NOT_GATHERED = "not-gathered";
export type NotGathered = typeof NOT_GATHERED;

/** The operator's settings a decision depends on (src/config/read-config.ts reads them). */
export interface EdgeSettings {
  /** ORIGIN_URL is set but unusable: there is nowhere to forward anything. */
  readonly originUnusable: boolean;
  readonly mode: Mode;
  readonly verifyCrawlers: VerifyCrawlers;
  readonly failOpen: boolean;
  readonly blockStatus: number;
  readonly enforceRates: EnforceRates;
  /** USAGE_SIGNALS: what a Content-Usage / Content-Signal `no` does to a crawler it covers. */
  readonly usageSignals: Mode;
  /** USAGE_HEADER: whether a passed crawler response carries the path's `Content-Usage`. */
  readonly usageHeader: boolean;
  /** Whether a rate limiter exists (the CRAWL_RATE binding). */
  readonly rateLimiter: boolean;
  /**
   * DISGUISED_CRAWLERS (disguise.ts): a browser User-Agent from a crawler-only published range
   * is judged as that crawler (enforce), recorded as it (report), or a person (off). Absent
   * where no address is looked up (replay, the CLI): off.
   */
  readonly disguisedCrawlers?: Mode | undefined;
}

/** What the request itself says, known when it arrives. */
export interface RequestFacts {
  /** Route mode, and the request is addressed to the Worker itself (e.g. plain `wrangler dev`). */
  readonly selfAddressed: boolean;
  /**
   * The request's Authorization carries ADMIN_TOKEN (worker/admin-token.ts carriesToken): an
   * operator's misspelt admin path. Absent where there is no request (explain, replay): false.
   */
  readonly carriesAdminToken?: boolean;
  /**
   * The request's matching account (core/match-budget.ts), shared by every decideEdge call of
   * one request: the Worker asks again after each fact it gathers, and each call's own budget
   * let one request spend several (attack 14, A14-3). Absent: each call has its own.
   */
  readonly matchingAccount?: RequestAccount;
  /** The request's authority is one the edge protects (AUTHORITIES; always in proxy mode). */
  readonly served: boolean;
  /** GET or HEAD of /robots.txt, in any spelling that means it. */
  readonly isRobotsTxt: boolean;
  /** Path and query of the request, as forwarded. */
  readonly pathAndQuery: string;
  readonly agent: AgentInfo;
  /** The request carries a Web Bot Auth signature to check (Signature-Input; VERIFY_CRAWLERS not off). */
  readonly signed: boolean;
  /** Whether the agent's claim needs checking (a verifiable crawler, VERIFY_CRAWLERS not off). */
  readonly needsVerification: boolean;
  /**
   * Our category for Cloudflare's `verifiedBotCategory` (agents/verification.ts
   * categoryOfCloudflare): the category of a verified crawler our table does not know.
   */
  readonly cloudflareCategory: CrawlerCategory | undefined;
  /** `Authorization: License <token>`, read bounded (terms.ts licenceTokenOf); absent: none. */
  readonly licenceToken?: LicenceToken;
  /**
   * `crawler-exact-price` / `crawler-max-price` as sent, for a `charge` rule (terms-price.ts).
   * Absent where there is no request (explain, replay): none sent.
   */
  readonly priceHeaders?: PriceHeaders | undefined;
  readonly now: number;
}

/** What the Worker gathers when the decision asks (I/O), each NOT_GATHERED until then. */
export interface GatheredFacts {
  /** The signature, checked (asked for only when `signed`). */
  readonly signature: SignatureFact | NotGathered;
  /** How the address check came out (asked for only when `needsVerification`). */
  readonly verification: VerificationOutcome | NotGathered;
  /** The crawler-only list holding a browser's address (asked for only when DISGUISED_CRAWLERS is on). */
  readonly disguise: DisguiseFact | "none" | NotGathered;
  readonly pause: { readonly retryAfter: number } | "none" | NotGathered;
  readonly robots: RobotsFact | NotGathered;
  /**
   * The operator's policy in force (the live policy, worker/live-policy.ts). Asked for only
   * once a crawler's request reaches the policy layers, so humans and robots.txt requests
   * never wait for it.
   */
  readonly policy: CompiledPolicy | "none" | NotGathered;
  readonly rate: RateFact | NotGathered;
  /** The licence server's answer on the request's token (asked for only on a route requiring a licence); absent: not gathered. */
  readonly licence?: LicenceFact | NotGathered;
}

/**
 * What the isolate already holds, handed over without I/O and never gathered: absent means
 * nothing is held (and what depends on it does not happen: do no harm).
 */
export interface HeldFacts {
  /**
   * The origin's recorded crawls and referrals as this isolate holds them, for a policy rule's
   * `crawlsPerReferral` condition (referral-ledger.ts); the Worker refreshes it in the
   * background (worker/activity/ledger-memory.ts).
   */
  readonly ledger?: ReferralLedger | undefined;
  /**
   * The crawler catalogue entry for the User-Agent's claim, when the built-in table lacks its
   * token and a catalogue (CRAWLER_CATALOGUES) lists it (agents/catalogue.ts cataloguedOf):
   * its category, judged as "catalogued" (claim.ts). Absent: no catalogue lists it.
   */
  readonly catalogued?: CataloguedFact | undefined;
}

export type EdgeFacts = EdgeSettings & RequestFacts & GatheredFacts & HeldFacts;

/** The facts a request starts with: nothing gathered yet. */
export const NOTHING_GATHERED: GatheredFacts = {
  signature: NOT_GATHERED,
  verification: NOT_GATHERED,
  disguise: NOT_GATHERED,
  pause: NOT_GATHERED,
  robots: NOT_GATHERED,
  policy: NOT_GATHERED,
  rate: NOT_GATHERED,
};

export interface RobotsFact {
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  /** Seconds until the edge next tries the origin's robots.txt (for a 503's Retry-After). */
  readonly retryAfter: number;
}

/** A fact the decision needs before it can answer: the Worker gathers it and asks again. */
export interface GatherRequest {
  readonly gather: keyof GatheredFacts;
  /** For `rate`: the limits and the group they come from. */
  readonly limits?: RateLimits;
  readonly group?: string;
  /** For `rate`: who is paced, as the identity step found it (identity.ts pacedSubject). */
  readonly subject?: PacedSubject;
  /** For `licence`: the server to ask and the resource the token must cover. */
  readonly licence?: LicenceQuestion;
}

/** Who a crawl-rate limiter is about, besides the origin, the group and the client's network. */
export interface PacedSubject {
  /** The crawler table's token when the request names a known crawler (claimed or proven); none for a refuted claim. */
  readonly knownToken: string | undefined;
  /** Whether the claim is proven (a verified address, a trusted signer's signature, a crawler-only list). */
  readonly proven: boolean;
}
