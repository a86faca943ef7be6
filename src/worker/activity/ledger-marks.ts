/**
 * What the ledger (policy/referral-ledger.ts) needs of a request beyond its decision, added to
 * its activity event: for a person's navigation that the origin answered, the operator whose
 * product referred them (by Referer or `utm_source`, agents/referrers.ts: only the operator's
 * name is kept, never the referrer, the query or anything of the person); for a crawler of a
 * known operator, whether the origin answered it with content (`answered`: only those are its
 * crawls) and the Content-Length of that answer (a length-less, streamed answer counts no
 * bytes: the edge never reads a body to measure it).
 */

import { referringOperator } from "../../agents/referrers.ts";
import type { ActivityEvent } from "../../policy/activity.ts";

/** A Content-Length past this is not believed (2^53: what a count can hold exactly). */
const MAX_COUNTED_BYTES = Number.MAX_SAFE_INTEGER;

export interface RequestOutcome {
  readonly request: Request;
  readonly url: URL;
  /** Whether the edge forwarded the request to the origin (a pass, or a report). */
  readonly forwarded: boolean;
  readonly response: Response;
}

/** The event with its referral or its bytes, when it has one. */
export function withLedgerMarks(activity: ActivityEvent, outcome: RequestOutcome): ActivityEvent {
  if (activity.kind === "human") {
    // A referral is a visit: a navigation, which is a GET. Browsers say which requests are
    // navigations (Fetch Metadata's Sec-Fetch-Mode); one that says otherwise — an image
    // hotlinked on a product's page, that page's script fetching — is nobody visiting. A
    // browser without the field (an older one) is taken at its GET.
    const mode = outcome.request.headers.get("sec-fetch-mode");
    if (outcome.request.method !== "GET" || (mode !== null && mode !== "navigate")) return activity;
    // Only a navigation the origin answered: what the edge answers itself (a
    // browser's GET /robots.txt) costs nothing, so a Referer on it is a referral forged for
    // free; an error of the origin's is nobody's visit either.
    if (!outcome.forwarded || outcome.response.status >= 400) return activity;
    const referredBy = referringOperator(outcome.request.headers.get("referer"), outcome.url.search);
    return referredBy === undefined ? activity : { ...activity, referredBy };
  }
  // A crawl is a GET the origin answered with content: a refusal of the edge's (a
  // pace's own 429, a 403, a 503), a robots.txt fetch, an error and a HEAD (the length of what a
  // GET would have sent, not bytes passed) are none.
  const { status } = outcome.response;
  const answered = outcome.forwarded && outcome.request.method === "GET" && status >= 200 && status < 300;
  if (activity.operator === undefined || !answered) return activity;
  const bytes = contentLength(outcome.response.headers.get("content-length"));
  return { ...activity, answered, ...(bytes !== undefined && { bytes }) };
}

/** A Content-Length value as a number (RFC 9110 §8.6: digits only), or undefined. */
export function contentLength(value: string | null): number | undefined {
  if (value === null || !/^\d{1,16}$/.test(value)) return undefined;
  const bytes = Number(value);
  return bytes <= MAX_COUNTED_BYTES ? bytes : undefined;
}
