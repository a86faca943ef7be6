/**
 * The answers of a `charge` rule (policy/terms-price.ts), in Cloudflare's pay-per-crawl
 * headers: a refusal says the price (`crawler-price`) and why (`crawler-error`); a page the
 * crawler paid for says what it was charged (`crawler-charged`).
 */

import type { EdgeRecord } from "../../policy/edge-record.ts";
import { ruleHeader, withHeader } from "../responses.ts";

/** 402 / 400 with the price and Cloudflare's error code. */
export function priceResponse(record: EdgeRecord): Response {
  const charge = record.charge;
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "private, no-store",
    "crawler-price": charge?.price ?? "",
  };
  if (charge?.error) headers["crawler-error"] = charge.error;
  if (record.verdict) headers["x-robots-edge"] = ruleHeader("blocked", record.verdict);
  const why = charge?.error ? ` (${charge.error})` : "";
  return new Response(
    `This site charges ${charge?.price ?? ""} for this page to the crawler it names${why}: send crawler-exact-price or crawler-max-price, covered by a Web Bot Auth signature.\n`,
    { status: record.status ?? 402, headers },
  );
}

/**
 * Whether a forwarded answer is one the crawler pays for: only a page the origin answers 2xx.
 * A redirect (3xx) or a not-modified (304) carries no content, and an error page is not the
 * page; none is charged, and none says anything of a charge.
 */
export function isChargeable(record: EdgeRecord, response: Response): boolean {
  return Boolean(record.charge?.charged) && response.status >= 200 && response.status < 300;
}

/** `crawler-charged: USD 0.01` on a page the crawler paid for. */
export function withCharged(response: Response, record: EdgeRecord): Response {
  if (!isChargeable(record, response)) return response;
  return withHeader(response, "crawler-charged", record.charge?.price ?? "");
}
