/**
 * The words robots-edge tells what happened in, each list declared once with its type derived
 * from it: what the edge did (ACTIONS), what decided it (LAYERS), how a claim stood and was
 * judged (VERIFICATION_STATUSES, EVIDENCE_METHODS, NOT_VERIFIED_REASONS, JUDGED_AS), and what a
 * crawler fetches for (CRAWLER_CATEGORIES).
 *
 * The decision's record (policy/edge-record.ts) is written in these words; the log line,
 * activity, explain, replay, the tester and the operator page render it in the same words. The
 * page gets them from the Worker as data (GET status `vocabulary`), never as a copy of its own.
 * Imports nothing, so every layer (agents, policy, the Worker, the CLI) may read it.
 *
 * Adding a word is an edit here; the type checker then names every place that must say what
 * the new word means (each `Record<Action, …>` and exhaustive switch).
 */

/** What the edge did with a request: the response it made, or that it forwarded the request. */
export const ACTIONS = [
  /** Forwarded to the origin: allowed, or never judged (a person, MODE=off, a host not served). */
  "pass",
  /** Forwarded, marked `x-robots-edge: would-block` (MODE or a route's mode `report`). */
  "report",
  /** Refused with the block status (403 unless BLOCK_STATUS or the route says otherwise). */
  "block",
  /** 503 with Retry-After: a pause, robots.txt unknown, outside Visit-time, a claim we could not check. */
  "unavailable",
  /** 429 with Retry-After: a crawl rate, a reused signature, or a policy rule that paces (`"action": "pace"`). */
  "rate-limited",
  /** The edge answered GET/HEAD /robots.txt itself, with the file it enforces. */
  "serve-robots-txt",
  /** The edge cannot or may not forward: 502 (no usable ORIGIN_URL), 508 (it would call itself), 404 (the admin token). */
  "error",
] as const;
export type Action = (typeof ACTIONS)[number];

/** What the activity view counts: every action but `error` (a request the edge cannot forward is never judged). */
export const COUNTED_ACTIONS = ACTIONS.filter((action): action is CountedAction => action !== "error");
export type CountedAction = Exclude<Action, "error">;

/** The actions in a word for a person (the operator page's chart and tables). */
export const ACTION_LABELS: Readonly<Record<Action, string>> = {
  pass: "Pass",
  report: "Report",
  block: "Block",
  unavailable: "503",
  "rate-limited": "429",
  "serve-robots-txt": "robots.txt",
  error: "Error",
};

/**
 * What decided an action. Listed by what each judges; the ORDER in which they apply is written
 * only in policy/edge-decision.ts's header and docs/decisions.md "Precedence".
 */
export const LAYERS = [
  /** ORIGIN_URL is set but unusable: 502. */
  "origin",
  /** Route mode, addressed to the Worker itself: 508. */
  "self-loop",
  /** The request carries the admin token (a misspelt admin path): 404, never sent to the origin. */
  "admin-token",
  /** MODE=off: forwarded unjudged. */
  "mode-off",
  /** A host the edge does not protect (AUTHORITIES): forwarded unjudged. */
  "not-served",
  /** Not a crawler: forwarded unjudged. */
  "human",
  /** Web Bot Auth: a reused signature (429), or a policy rule asking for one (403, its line). */
  "signature",
  /** A refuted claim under VERIFY_CRAWLERS=block: 403. */
  "verification",
  /** A claim that could not be verified, refused by `*` alone: 503 (marked under `report`). */
  "unproven-claim",
  /** A crawl pause: 503. */
  "pause",
  /** /robots.txt, served by the edge. */
  "robots.txt-file",
  /** The operator's policy: a route's mode or a rule naming the crawler (its route is the line). */
  "policy",
  /** A robots.txt rule (its line), or no rule matching the path (no line). */
  "robots.txt",
  /** Nothing known of the origin's robots.txt: 503 until the next attempt. */
  "robots-unavailable",
  /** Nothing to judge by: no robots.txt at the origin, or FAIL_OPEN while it is unknown. */
  "none",
  /** A usage preference (Content-Usage / Content-Signal line) refusing the crawler's category. */
  "usage-signal",
  /** Outside the group's Visit-time window: 503. */
  "visit-time",
  /** A policy `charge` rule's price, unpaid: 402 (or 400 / 503) with crawler-price (policy/terms-price.ts). */
  "charge",
  /** The group's Crawl-delay / Request-rate: 429. */
  "rate",
  /** A route requiring an RSL licence: 401 without a confirmed token, 503 when the licence server fails. */
  "licence",
] as const;
export type Layer = (typeof LAYERS)[number];

/** What decided, in words for a person, where no single line says it (the page's recent list). */
export const LAYER_LABELS: Readonly<Record<Layer, string>> = {
  origin: "no usable ORIGIN_URL",
  "self-loop": "the Worker would call itself",
  "admin-token": "carries the admin token, not forwarded",
  "mode-off": "MODE=off",
  "not-served": "host not protected",
  human: "not a crawler",
  signature: "Web Bot Auth signature",
  verification: "failed verification",
  "unproven-claim": "claim not verifiable, * refuses",
  pause: "crawl pause",
  "robots.txt-file": "robots.txt served",
  policy: "operator policy",
  "robots.txt": "no rule matched",
  "robots-unavailable": "robots.txt unavailable",
  none: "no robots.txt",
  "usage-signal": "usage preference",
  "visit-time": "outside Visit-time",
  charge: "price not paid",
  rate: "crawl rate",
  licence: "licence required",
};

/**
 * What checking a claim can come out as: the one vocabulary of a claim's truth.
 *   verified      evidence that names the claimed identity: a trusted signature, the address
 *                 in the operator's list, a forward-confirmed host name of that crawler's class,
 *                 Cloudflare's verified category equal to the claimed crawler's
 *   refuted       the claim is false (an impostor): not in a loaded list, a failed signature,
 *                 Cloudflare's `verifiedBot: false`, a host name of someone else
 *   unverifiable  nothing proves or refutes it: no list loaded yet, the lookup failed or timed
 *                 out, no client address, VERIFY_CRAWLERS=off, evidence that names no identity
 *                 of this crawler. Never treated as verified (policy/claim.ts).
 */
export const VERIFICATION_STATUSES = ["verified", "refuted", "unverifiable"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** How a claim can be checked by the client's address. */
export const VERIFICATION_METHODS = ["cloudflare", "ip-list", "reverse-dns"] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** The evidence that verified (or refuted) a crawler: a signature, or a check of its address. */
export const EVIDENCE_METHODS = ["signature", ...VERIFICATION_METHODS] as const;
export type EvidenceMethod = (typeof EVIDENCE_METHODS)[number];

/** Why a crawler claim is not verified: nothing to verify, switched off, no way to check, or refuted. */
export const NOT_VERIFIED_REASONS = [
  "not-claimed",
  "verify-off",
  "no-address",
  "no-list",
  "not-looked-up",
  "lookup-failed",
  "refuted",
] as const;
export type NotVerifiedWhy = (typeof NOT_VERIFIED_REASONS)[number];

/**
 * Whom the decision judged (policy/claim.ts): nobody (the request went on unjudged), a person,
 * the crawler as claimed (proven, or nothing to check it with), an anonymous bot under `*` (a
 * refuted claim), or both (a claim that could not be verified: refused if either refuses); or
 * "disguised": a browser User-Agent from an address in a list its operator publishes for its
 * crawlers only, judged as that crawler (policy/disguise.ts); or "catalogued": a claim the
 * built-in table lacks and a crawler catalogue lists, judged as made and with the catalogue's
 * category, the stricter standing (agents/catalogue.ts: a catalogue can only restrict).
 */
export const JUDGED_AS = [
  "unjudged",
  "person",
  "claimed",
  "anonymous",
  "claimed-and-anonymous",
  "disguised",
  "catalogued",
] as const;
export type JudgedAs = (typeof JUDGED_AS)[number];

/** What a crawler fetches for, as far as its operator says: the one list (policies, signers, usage, purposes). */
export const CRAWLER_CATEGORIES = [
  "search-engine",
  "ai-training",
  "ai-assistant",
  "ai-search",
  "seo-tool",
  "social-preview",
  "monitoring",
  "archiver",
  "other",
] as const;
export type CrawlerCategory = (typeof CRAWLER_CATEGORIES)[number];

/** Whether a name is one of the categories. */
export function isCrawlerCategory(name: string): name is CrawlerCategory {
  return (CRAWLER_CATEGORIES as readonly string[]).includes(name);
}

/** Whether a value is one of a list's words (a stored or submitted value, checked before use). */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** Every list, as the Worker hands it to the operator page (GET status `vocabulary`). */
export const VOCABULARY = {
  actions: ACTIONS,
  countedActions: COUNTED_ACTIONS,
  actionLabels: ACTION_LABELS,
  layers: LAYERS,
  layerLabels: LAYER_LABELS,
  verificationStatuses: VERIFICATION_STATUSES,
  evidenceMethods: EVIDENCE_METHODS,
  notVerifiedReasons: NOT_VERIFIED_REASONS,
  judgedAs: JUDGED_AS,
  crawlerCategories: CRAWLER_CATEGORIES,
} as const;
