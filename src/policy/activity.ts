/**
 * What the operator's activity view records of one decision: pure, no I/O. A rendering of the
 * decision's record (edge-record.ts): each record gives at most one activity event; the recorder
 * (worker/activity/recorder.ts) buckets them per hour and keeps the most recent crawler
 * requests. What is kept, and what is not (docs/operating.md "Activity"):
 *   - crawlers: hour, product token, category, verified state, action, deciding layer, and
 *     for the recent list the method, the path WITHOUT its query, and the deciding line;
 *   - people: one number per hour, nothing else;
 *   - never a query string, an address, a cookie or a header value.
 */

import {
  COUNTED_ACTIONS,
  isOneOf,
  LAYERS,
  VERIFICATION_STATUSES,
  type Action,
  type CountedAction,
  type CrawlerCategory,
  type Layer,
} from "../vocabulary.ts";
import { agentForTokens } from "../agents/classify.ts";
import { isUserTriggered } from "../agents/operators/tables.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import type { EdgeOutcome, EdgeRecord } from "./edge-record.ts";

/**
 * The claim's truth as the decision used it (src/vocabulary.ts VERIFICATION_STATUSES),
 * "unchecked" when the request claimed no crawler that can be verified, or "disguised": it
 * claimed a person (a browser User-Agent) from a crawler-only list's address (disguise.ts).
 */
export const VERIFIED_STATES = [...VERIFICATION_STATUSES, "unchecked", "disguised"] as const;
export type VerifiedState = (typeof VERIFIED_STATES)[number];

/**
 * The names activity stores are the vocabulary's own (src/vocabulary.ts), so stored data reads
 * as it was written. Names an earlier version stored, by version, read back as what they meant;
 * any other unknown stored name is a listed problem, never another value (worker/activity/store.ts).
 *   version 1: action `rateLimited` (now `rate-limited`); verified `impostor` (now `refuted`)
 */
export const STORED_NAMES = {
  actions: COUNTED_ACTIONS,
  layers: LAYERS,
  verified: VERIFIED_STATES,
  legacy: {
    actions: { rateLimited: "rate-limited" } as Readonly<Record<string, CountedAction>>,
    verified: { impostor: "refuted" } as Readonly<Record<string, VerifiedState>>,
  },
} as const;

/** Records of requests the edge did not judge (MODE=off, a host it does not protect): not activity. */
const UNRECORDED_LAYERS: ReadonlySet<Layer> = new Set(["mode-off", "not-served"]);

/** The name recorded for a crawler that gives no product token (an anonymous bot). */
export const UNNAMED = "(unnamed)";

/** Longest path kept (characters); longer ones are cut with a mark, like the decision log. */
export const MAX_RECORDED_PATH = 512;
const MAX_RECORDED_TOKEN = 64;
const MAX_RECORDED_TOKENS = 4;
const MAX_RECORDED_METHOD = 16;

/** How a decision came out, in the activity view's words: the record's action, layer and line; also what replay compares. */
export interface RecordedOutcome {
  readonly action: Action;
  readonly layer: Layer;
  /** The robots.txt line that decided (a rule, or a usage preference), when one did. */
  readonly line: number | null;
  /** The deciding line in words: `disallow: /private/`, `policy /articles/: block`, `Content-Usage: train-ai`. */
  readonly rule: string | null;
}

/** One crawler request, as recorded. */
export interface CrawlerEvent extends RecordedOutcome {
  readonly action: CountedAction;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** The product token it was judged by (first of `tokens`), or UNNAMED. */
  readonly token: string;
  /** Its product tokens, best first (at most 4): what replay judges it by again. */
  readonly tokens: readonly string[];
  readonly category: CrawlerCategory | null;
  readonly verified: VerifiedState;
  readonly method: string;
  /** The request's path, without the query. */
  readonly path: string;
  /** A robots.txt violation: robots.txt disallows the path for a crawler that claims to obey it. */
  readonly violation: boolean;
}

export type ActivityEvent =
  | {
      readonly kind: "crawler";
      readonly event: CrawlerEvent;
      /**
       * The operator of a crawler our table knows (agents/operators/tables.ts) whose crawls it counts as;
       * absent for a user-triggered fetcher (isUserTriggered): a person's fetch is no crawl.
       */
      readonly operator?: string;
      /** The Content-Length of what the edge forwarded to it, when known (the Worker adds it). */
      readonly bytes?: number;
      /**
       * The origin answered it with content: a GET the edge forwarded and the origin answered
       * 2xx (the Worker adds it). Only these count as the operator's crawls (referral-ledger.ts).
       */
      readonly answered?: boolean;
    }
  | {
      readonly kind: "human";
      readonly time: number;
      /** The operator whose product referred this person (agents/referrers.ts); only its name is kept. */
      readonly referredBy?: string;
    };

/**
 * The activity event of one record, or undefined when nothing is recorded: requests the edge
 * did not judge. A person is one count, whatever happened.
 */
export function activityOf(record: EdgeRecord, method: string, time: number): ActivityEvent | undefined {
  const { action, identity } = record;
  if (UNRECORDED_LAYERS.has(record.layer) || !isOneOf(COUNTED_ACTIONS, action)) return undefined;
  if (!identity.crawler) return { kind: "human", time };
  const outcome = { ...recordedOutcomeOf(record), action };
  const tokens = identity.tokens.slice(0, MAX_RECORDED_TOKENS).map((token) => token.slice(0, MAX_RECORDED_TOKEN));
  // The operator of the crawler our table knows, whose crawls it counts as (referral-ledger.ts);
  // none for a user-triggered fetcher, which any user of the product sets off.
  const known = identity.known === null ? undefined : agentForTokens([identity.known]).known;
  const operator = known && !isUserTriggered(known) ? known.operator : undefined;
  return {
    kind: "crawler",
    ...(operator !== undefined && { operator }),
    event: {
      ...outcome,
      time,
      token: tokens[0] ?? UNNAMED,
      tokens,
      category: identity.category,
      verified: identity.judgedAs === "disguised" ? "disguised" : verifiedStateOf(identity.verification),
      method: method.slice(0, MAX_RECORDED_METHOD),
      path: recordedPath(record.path),
      // A known crawler's operator documents that it obeys robots.txt; an unknown bot claims nothing.
      violation:
        outcome.layer === "robots.txt" &&
        (outcome.action === "block" || outcome.action === "report") &&
        identity.known !== null,
    },
  };
}

/** The record's verification in the activity view's words: an unverifiable claim is never "verified". */
export function verifiedStateOf(verification: VerificationOutcome): VerifiedState {
  return verification.why === "not-claimed" ? "unchecked" : verification.status;
}

/** The path of a path-and-query, bounded; the query may hold personal data and is never kept. */
export function recordedPath(pathAndQuery: string): string {
  const queryAt = pathAndQuery.indexOf("?");
  const path = queryAt < 0 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
  return path.length <= MAX_RECORDED_PATH ? path : `${path.slice(0, MAX_RECORDED_PATH)}…`;
}

/** The record's action, layer and deciding line, as activity keeps them (the line's text bounded). */
export function recordedOutcomeOf(record: EdgeOutcome): RecordedOutcome {
  const { line } = record;
  return {
    action: record.action,
    layer: record.layer,
    line: line?.line ?? null,
    rule: line ? line.text.slice(0, MAX_RECORDED_PATH) : null,
  };
}

/** The start of the hour a time falls in (ms): the aggregates' bucket. */
export function hourOf(time: number): number {
  return time - (time % 3_600_000);
}
