/**
 * A price for crawling, in Cloudflare's pay-per-crawl vocabulary, pure: a policy rule
 * `{"crawlers": [...], "action": "charge", "price": "USD 0.01"}` (operator-policy.ts) and the
 * request's price headers and Web Bot Auth signature in, what the edge answers out.
 *
 * What Cloudflare's pay per crawl documents (docs/decisions.md "A price"): a crawler the price
 * applies to gets 402 with `crawler-price: USD 0.01`; it pays by sending `crawler-exact-price`
 * (equal to the price) or `crawler-max-price` (at least the price) inside a Web Bot Auth
 * signature, and gets the page with `crawler-charged: USD 0.01`; the errors carry a
 * `crawler-error` code with a fixed status. Here:
 *   - no price header                          -> 402 MissingCrawlerPrice (with crawler-price: the offer)
 *   - both headers                             -> 400 ConflictingPriceHeaders
 *   - a header longer than MAX_PRICE_HEADER_CHARS, or not `CUR 1.23`
 *                                              -> 400 InvalidCrawlerPriceValue (never parsed when too long)
 *   - no verified signature (none, an untrusted signer, verified by address only)
 *                                              -> 400 StrongAuthRequired
 *   - a signature that failed, or a verified one that does not COVER the price header (it
 *     commits to nothing) or the page (`@target-uri`, or `@path` and `@query`: else it pays for
 *     any page), or whose base is longer than MAX_COMMITMENT_CHARS
 *                                              -> 400 InvalidSignature
 *   - a trusted signer's key we could not get  -> 503 + Retry-After: our failure, never the crawler's
 *   - exact price not ours (another currency, another amount) -> 402 InvalidCrawlerExactPrice
 *   - max price below ours (or another currency)              -> 402 InvalidCrawlerMaxPrice
 *   - otherwise: charged the RULE's price (never the crawler's maximum).
 * Amounts are compared as whole millionths, never as floating point.
 */

import type { SignedCommitment } from "../agents/web-bot-auth/verify.ts";

/** Cloudflare's pay-per-crawl `crawler-error` codes this edge answers with (their statuses are Cloudflare's). */
export const CRAWLER_ERRORS = {
  MissingCrawlerPrice: 402,
  ConflictingPriceHeaders: 400,
  InvalidCrawlerPriceValue: 400,
  StrongAuthRequired: 400,
  InvalidSignature: 400,
  InvalidCrawlerExactPrice: 402,
  InvalidCrawlerMaxPrice: 402,
} as const;
export type CrawlerError = keyof typeof CRAWLER_ERRORS;

/** A price header longer than this is not parsed at all ("USD 1000000.000001" is 18). */
export const MAX_PRICE_HEADER_CHARS = 32;
/** The longest signature base kept as a commitment in the charges ledger (a row stays small). */
export const MAX_COMMITMENT_CHARS = 8_192;
/** Retry-After when the signer's keys could not be had (our failure): a minute. */
export const CHARGE_UNVERIFIABLE_RETRY_AFTER = 60;
/** The highest price a rule may state, in whole units of its currency. */
export const MAX_PRICE_UNITS = 1_000;

/** A price: ISO 4217-shaped currency and an amount in millionths of its unit. */
export interface Price {
  readonly currency: string;
  readonly micros: number;
}

/** `USD 0.01`: three capital letters, one space, digits with at most six decimals. */
const PRICE_PATTERN = /^([A-Z]{3}) (\d{1,7})(?:\.(\d{1,6}))?$/;

/** A price as written, or undefined when it is not one (bounded first by the caller or here). */
export function parsePrice(text: string): Price | undefined {
  if (text.length > MAX_PRICE_HEADER_CHARS) return undefined;
  const match = PRICE_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, currency = "", units = "0", fraction = ""] = match;
  return { currency, micros: Number(units) * 1_000_000 + Number(fraction.padEnd(6, "0")) };
}

/** The request's price headers, as sent (null when absent). */
export interface PriceHeaders {
  readonly exact: string | null;
  readonly max: string | null;
}

/** What the signature proved, as the charge needs it. */
export type ChargeEvidence =
  | {
      readonly status: "verified";
      readonly signer: string;
      /** The crawler's operator (our table's, else the signer): whom the charge is invoiced to. */
      readonly operator: string;
      readonly commitment: SignedCommitment | undefined;
    }
  | { readonly status: "failed" | "unverifiable" | "none" };

/** What a verified crawler committed to and was charged: the charges ledger's row (worker/charges). */
export interface ChargeCommitment {
  readonly operator: string;
  readonly signer: string;
  readonly keyid: string;
  /** The price header the signature covered, and its value. */
  readonly header: "crawler-exact-price" | "crawler-max-price";
  readonly offered: string;
  readonly base: string;
  readonly signature: string;
}

/** How a priced request settles. */
export type Settlement =
  | { readonly settled: true; readonly commitment: ChargeCommitment }
  | {
      readonly settled: false;
      readonly status: number;
      readonly error: CrawlerError | null;
      readonly retryAfter: number | null;
    };

function refused(error: CrawlerError): Settlement {
  return { settled: false, status: CRAWLER_ERRORS[error], error, retryAfter: null };
}

/** Settle a request against a price (see the file comment for the order of the checks). */
export function settlePrice(price: Price, headers: PriceHeaders, evidence: ChargeEvidence): Settlement {
  const { exact, max } = headers;
  if (exact === null && max === null) return refused("MissingCrawlerPrice");
  if (exact !== null && max !== null) return refused("ConflictingPriceHeaders");
  const header = exact !== null ? "crawler-exact-price" : "crawler-max-price";
  const offered = (exact ?? max) as string;
  const offer = parsePrice(offered);
  if (!offer) return refused("InvalidCrawlerPriceValue");
  if (evidence.status === "unverifiable") {
    return { settled: false, status: 503, error: null, retryAfter: CHARGE_UNVERIFIABLE_RETRY_AFTER };
  }
  if (evidence.status !== "verified")
    return refused(evidence.status === "none" ? "StrongAuthRequired" : "InvalidSignature");
  const { commitment } = evidence;
  // A price header the signature does not cover is anyone's word: it commits the signer to nothing.
  // A signature that does not name the page is a payment for any page: whoever saw it once (an
  // origin log, a proxy) could send it to every priced path within its window, billed to the
  // signer (the reuse memory keys it by target, so each new path would be a new use).
  if (
    !commitment ||
    !commitment.covered.includes(header) ||
    !namesTarget(commitment.covered) ||
    commitment.base.length > MAX_COMMITMENT_CHARS
  ) {
    return refused("InvalidSignature");
  }
  const enough =
    offer.currency === price.currency &&
    (header === "crawler-exact-price" ? offer.micros === price.micros : offer.micros >= price.micros);
  if (!enough) return refused(header === "crawler-exact-price" ? "InvalidCrawlerExactPrice" : "InvalidCrawlerMaxPrice");
  return {
    settled: true,
    commitment: {
      operator: evidence.operator,
      signer: evidence.signer,
      keyid: commitment.keyid,
      header,
      offered,
      base: commitment.base,
      signature: commitment.signature,
    },
  };
}

/**
 * Whether the covered components name the page paid for: `@target-uri`, or `@path` AND `@query`.
 * `@query` is asked for always, not only when the request has a query: a request without one
 * signs it as `?` (RFC 9421 §2.2.7), which costs the signer nothing, and a path-only signature
 * could otherwise be resent with any query appended (`/paid/a?x=2`), a new target each time.
 * One rule that needs nothing of the request keeps the check here, pure.
 */
function namesTarget(covered: readonly string[]): boolean {
  return covered.includes("@target-uri") || (covered.includes("@path") && covered.includes("@query"));
}

/**
 * Paths never charged, whoever asks: robots.txt (served by the edge before any rule, so never
 * here) and the terms files a crawler must read to learn the terms.
 */
export function isTermsFile(path: string): boolean {
  const pathname = path.split("?")[0] ?? path;
  return pathname === "/robots.txt" || pathname === "/.well-known/tdmrep.json" || pathname === "/license.xml";
}
