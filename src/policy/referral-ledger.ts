/**
 * What each operator takes and gives back, per hour: its crawlers' requests (and the bytes the
 * edge passed them) beside the people its products referred (agents/referrers.ts). Pure data
 * and arithmetic: the activity buffer counts (activity-batch.ts), the ActivityLog object stores
 * (worker/activity/store.ts), the Worker keeps a copy per isolate (worker/activity/ledger-memory.ts)
 * for the policy's `crawlsPerReferral` condition (operator-policy.ts), evaluated here.
 *
 * Counted, never identified: an operator name (from our tables only, so a client can add to a
 * listed operator's count but never make a new key) and numbers. Crawls are what the condition
 * says: GET requests of the operator's crawlers (never its user-triggered fetchers,
 * agents/operators/tables.ts isUserTriggered: any user of the product causes those) that the origin
 * answered with content (2xx), kept per crawler category; a refusal of any kind (a pace's own
 * 429, a 403, a 503), a robots.txt fetch and a refuted claim are no crawl. `verified` are those
 * whose claim was proven (the condition counts only these: a ratio built on claims anyone can
 * forge would let anyone pace a real crawler). Referrals are navigations the origin answered
 * (worker/activity/ledger-marks.ts), per operator (no category).
 */

import type { CrawlerCategory } from "../vocabulary.ts";

/** One operator's counts in one hour: what a batch carries and the store keeps. */
export interface OperatorCount {
  readonly hour: number;
  readonly operator: string;
  /**
   * The category of the crawler whose crawls these are. Absent on referrals (a person has
   * none) and on counts stored before categories were kept (an older release counted every
   * request: those are shown, never fed to a condition).
   */
  readonly category?: CrawlerCategory | undefined;
  /** Requests of its crawlers whose claim was not refuted. */
  readonly crawls: number;
  /** Of those, the ones whose claim was proven (verified). */
  readonly verified: number;
  /** Content-Length of what the edge forwarded to those crawlers, where the origin said it. */
  readonly bytes: number;
  /** People who arrived from one of its products (Referer or utm_source). */
  readonly referrals: number;
}

export type OperatorTotals = Omit<OperatorCount, "hour" | "operator">;

/** Zero counts: the totals of an operator nothing was recorded for. */
export const NO_COUNTS: OperatorTotals = { crawls: 0, verified: 0, bytes: 0, referrals: 0 };

/** The days a condition may look back: the store keeps 30 days of hours. */
export const MAX_LEDGER_DAYS = 30;

/**
 * An origin's recorded counts as the isolate holds them: per operator, per day back from
 * `asOf` (index 0: the 24 hours up to and including asOf's hour, 1: the 24 before, …).
 * Memory: operators of the tables × MAX_LEDGER_DAYS entries, whatever the traffic.
 */
export interface ReferralLedger {
  /** When the counts were read (ms): the condition's "last N days" end here. */
  readonly asOf: number;
  /**
   * Per operator and category (ledgerKey), MAX_LEDGER_DAYS × COUNTED numbers (crawls, verified,
   * bytes, referrals per day), newest day first.
   */
  readonly days: ReadonlyMap<string, Float64Array>;
}

/** The numbers kept per day, in this order. */
const COUNTED = ["crawls", "verified", "bytes", "referrals"] as const;

/** A day-aggregated row, as the store reads it. */
export interface LedgerDayRow extends OperatorTotals {
  readonly operator: string;
  /** As OperatorCount's: absent for referrals and for counts of an older release. */
  readonly category?: CrawlerCategory | undefined;
  /** 0 for the last 24 hours, 1 for the 24 before, … */
  readonly daysAgo: number;
}

/** The ledger of rows read at `asOf`; rows past MAX_LEDGER_DAYS are left out. */
export function ledgerOf(rows: readonly LedgerDayRow[], asOf: number): ReferralLedger {
  const days = new Map<string, Float64Array>();
  for (const row of rows) {
    if (!Number.isInteger(row.daysAgo) || row.daysAgo < 0 || row.daysAgo >= MAX_LEDGER_DAYS) continue;
    const key = ledgerKey(row.operator, row.category);
    let slots = days.get(key);
    if (!slots) {
      slots = new Float64Array(MAX_LEDGER_DAYS * COUNTED.length);
      days.set(key, slots);
    }
    COUNTED.forEach((name, k) => {
      if (slots) slots[row.daysAgo * COUNTED.length + k] = (slots[row.daysAgo * COUNTED.length + k] ?? 0) + row[name];
    });
  }
  return { asOf, days };
}

/** The ledger's key of an operator's counts in a category ("" : referrals, older counts). */
function ledgerKey(operator: string, category: CrawlerCategory | undefined): string {
  return `${operator}\n${category ?? ""}`;
}

/**
 * An operator's totals over the last `days` days of the ledger: of its crawlers in `category`
 * when one is given (and its referrals beside them), else of all its counts.
 */
export function totalsOver(
  ledger: ReferralLedger,
  operator: string,
  days: number,
  category?: CrawlerCategory | undefined,
): OperatorTotals {
  const sums = [0, 0, 0, 0];
  for (const [key, slots] of ledger.days) {
    const [owner = "", kept = ""] = key.split("\n");
    if (owner !== operator) continue;
    // With a category, other categories' crawls are left out; referrals (kept per operator) never.
    const crawlsCount = category === undefined || kept === category;
    for (let day = 0; day < Math.min(days, MAX_LEDGER_DAYS); day++) {
      for (let k = 0; k < COUNTED.length; k++) {
        if (COUNTED[k] !== "referrals" && !crawlsCount) continue;
        sums[k] = (sums[k] ?? 0) + (slots[day * COUNTED.length + k] ?? 0);
      }
    }
  }
  const [crawls = 0, verified = 0, bytes = 0, referrals = 0] = sums;
  return { crawls, verified, bytes, referrals };
}

export function addCounts(a: OperatorTotals, b: OperatorTotals): OperatorTotals {
  return {
    crawls: a.crawls + b.crawls,
    verified: a.verified + b.verified,
    bytes: a.bytes + b.bytes,
    referrals: a.referrals + b.referrals,
  };
}

/**
 * The policy's condition: the operator's verified crawls, by its crawlers of the category of the
 * crawler the rule names (a rule naming `category:ai-search` counts the operator's ai-search
 * crawls; a rule naming a token, that crawler's category), per referral over the last `days`
 * days exceed `above`.
 */
export interface CrawlsPerReferral {
  readonly above: number;
  readonly days: number;
}

/**
 * Whether the condition holds for the operator. Do no harm: with no ledger loaded yet, or a
 * crawler of no known operator, it does not. No referral counts as one, so N verified crawls
 * and none given back hold once N > above.
 */
export function crawlsPerReferralHolds(
  condition: CrawlsPerReferral,
  subject: { readonly operator?: string | undefined; readonly category: CrawlerCategory | undefined },
  ledger: ReferralLedger | undefined,
): boolean {
  const { operator, category } = subject;
  if (!ledger || operator === undefined || category === undefined) return false;
  const totals = totalsOver(ledger, operator, condition.days, category);
  return totals.verified > condition.above * Math.max(totals.referrals, 1);
}

/** crawls : referrals as a number (null when nobody was referred: the ratio is not a number then). */
export function crawlsPerReferral(totals: Pick<OperatorTotals, "crawls" | "referrals">): number | null {
  return totals.referrals === 0 ? null : Math.round((totals.crawls / totals.referrals) * 10) / 10;
}
