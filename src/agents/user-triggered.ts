/**
 * Fetchers that act for a person: each request is one user's ask (a link opened in an
 * assistant, a feed added, a page read aloud), so one product's requests are many people's,
 * not one crawler's schedule. Whoever paces such a fetcher must pace each user apart: one
 * limiter for the product would let one user's fetch 429 every other user's. The
 * pacing shell (worker/edge/crawl-rate-object.ts crawlRateKey) keys them by client network,
 * even when proven.
 *
 * Which fetchers those are is decided once, by the crawler table's own rule (operators/tables.ts
 * `isUserTriggered`: an AI assistant's fetcher, or one Google lists among its user-triggered
 * fetchers, its `docs` citing the operator's page). The referral ledger (what counts as the
 * operator's crawl) asks the same rule, so pacing and counting never disagree on who acts for a
 * person. A token not here is paced as a crawler (its own limiter once proven).
 */

import { productToken } from "../core/product-token.ts";
import { isUserTriggered as actsForAPerson, KNOWN_CRAWLERS } from "./operators/tables.ts";

export const USER_TRIGGERED_FETCHERS: readonly string[] = KNOWN_CRAWLERS.filter(actsForAPerson).map(
  (crawler) => crawler.token,
);

const USER_TRIGGERED = new Set(USER_TRIGGERED_FETCHERS.map(productToken));

/** Whether a known crawler's token names a fetcher that acts for a person (see the file comment). */
export function isUserTriggered(token: string | undefined): boolean {
  return token !== undefined && USER_TRIGGERED.has(productToken(token));
}
