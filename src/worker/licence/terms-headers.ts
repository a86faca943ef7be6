/**
 * The site's terms on the wire (policy/terms.ts decides them; this only writes what the record
 * says): RSL's `Link: <licence>; rel="license"; type="application/rsl+xml"`, TDMRep's
 * `tdm-reservation: 1` and `tdm-policy`, and the 401 of a route that requires a licence with
 * RSL CAP's `WWW-Authenticate: License error="…"`. What the origin says itself wins: its own
 * `rel="license"` link or `tdm-reservation` is left as it is.
 */

import type { EdgeRecord } from "../../policy/edge-record.ts";
import type { RecordedTerms } from "../../policy/terms.ts";

const TEXT = "text/plain; charset=utf-8";

/** `Link` for a licence file (RSL 1.0, "Adding RSL to HTTP Headers"). */
export function licenceLink(url: string): string {
  return `<${url}>; rel="license"; type="application/rsl+xml"`;
}

/** A response with the record's terms added (a copy; origin headers are immutable). */
export function withTermsHeaders(response: Response, terms: RecordedTerms | undefined): Response {
  if (!terms || response.status === 101) return response;
  const link = terms.licence !== null && !/rel="?license"?/i.test(response.headers.get("link") ?? "");
  const tdm = terms.tdmReservation && !response.headers.has("tdm-reservation");
  if (!link && !tdm) return response;
  const copy = new Response(response.body, response);
  if (link && terms.licence !== null) copy.headers.append("link", licenceLink(terms.licence));
  if (tdm) {
    copy.headers.set("tdm-reservation", "1");
    if (terms.tdmPolicy !== null) copy.headers.set("tdm-policy", terms.tdmPolicy);
  }
  return copy;
}

/** What WWW-Authenticate says per check (RSL CAP: `error` as RFC 6750 §3.1 names them). */
const CHALLENGES = {
  missing: ["invalid_request", "a licence token is required here: Authorization: License <token>"],
  malformed: ["invalid_request", "the Authorization: License header is malformed or too long"],
  refused: ["invalid_token", "the licence server did not confirm this token for this site"],
} as const;

/** 401 for a route requiring a licence: the challenge, and where the licence is. */
export function licenceRequiredResponse(record: EdgeRecord): Response {
  const check = record.terms?.licenceCheck;
  const [error, description] = CHALLENGES[check === "malformed" || check === "refused" ? check : "missing"];
  const headers = new Headers({
    "content-type": TEXT,
    "cache-control": "private, no-store",
    "www-authenticate": `License error="${error}", error_description="${description}"`,
    "x-robots-edge": `blocked; licence=${check ?? "missing"}`,
  });
  if (record.terms?.licence) headers.set("link", licenceLink(record.terms.licence));
  const where = record.terms?.licence ? ` The licence: ${record.terms.licence}` : "";
  return new Response(`This content requires a licence (RSL): ${description}.${where}\n`, { status: 401, headers });
}
