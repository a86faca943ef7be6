/**
 * The activity view's "what each operator gives back": per operator, over the chosen window,
 * its crawls (and how many were verified), the bytes the edge passed them, the people its
 * products referred, and crawls per referral, with a series per bucket for the chart. Pure;
 * it allocates per operator of our tables and bucket only.
 */

import { bucketStarts } from "./activity-summary.ts";
import { addCounts, crawlsPerReferral, NO_COUNTS, type OperatorCount, type OperatorTotals } from "./referral-ledger.ts";

export interface OperatorActivity extends OperatorTotals {
  readonly operator: string;
  /** crawls : referrals, one decimal; null when nobody was referred. */
  readonly crawlsPerReferral: number | null;
  /** One entry per bucket of the window (zeros included). */
  readonly series: readonly ({ readonly start: string } & Pick<OperatorTotals, "crawls" | "referrals">)[];
}

/** The operators' rows of the window, most crawls first (then most referrals, then by name). */
export function summarizeOperators(
  rows: readonly (OperatorCount & { readonly bucket: number })[],
  window: { readonly fromHour: number; readonly toHour: number },
  bucketMs: number,
): OperatorActivity[] {
  const starts = bucketStarts(window.fromHour, window.toHour, bucketMs);
  const at = new Map(starts.map((start, i) => [start, i]));
  const operators = new Map<string, { totals: OperatorTotals; series: OperatorTotals[] }>();
  for (const row of rows) {
    const i = at.get(row.bucket);
    if (i === undefined) continue;
    let entry = operators.get(row.operator);
    if (!entry) {
      entry = { totals: NO_COUNTS, series: starts.map(() => NO_COUNTS) };
      operators.set(row.operator, entry);
    }
    entry.totals = addCounts(entry.totals, row);
    entry.series[i] = addCounts(entry.series[i] ?? NO_COUNTS, row);
  }
  return [...operators]
    .map(([operator, { totals, series }]) => ({
      operator,
      ...totals,
      crawlsPerReferral: crawlsPerReferral(totals),
      series: series.map((counts, i) => ({
        start: new Date(starts[i] ?? 0).toISOString(),
        crawls: counts.crawls,
        referrals: counts.referrals,
      })),
    }))
    .toSorted((a, b) => b.crawls - a.crawls || b.referrals - a.referrals || a.operator.localeCompare(b.operator));
}
