/**
 * The charges ledger as the operator exports it for invoicing (GET charges, `robots-edge
 * charges`): a period and an operator read from the query, and the rows as JSON or CSV. Pure.
 * Settlement (invoices, payment) is out of scope: this is the account to invoice from.
 */

import { invalid, valid, type Validated } from "./validated.ts";

/** One exported charge (worker/charges/store.ts ChargeRow, the time as ISO 8601). */
export interface ExportedCharge {
  readonly time: string;
  readonly operator: string;
  readonly crawler: string;
  readonly signer: string;
  readonly keyid: string;
  readonly path: string;
  readonly price: string;
  readonly header: string;
  readonly offered: string;
  readonly base: string;
  readonly signature: string;
}

export const CHARGE_COLUMNS = [
  "time",
  "operator",
  "crawler",
  "signer",
  "keyid",
  "path",
  "price",
  "header",
  "offered",
  "base",
  "signature",
] as const satisfies readonly (keyof ExportedCharge)[];

/** The default period: the last 31 days. */
export const DEFAULT_PERIOD_DAYS = 31;
const DAY_MS = 86_400_000;

export interface ChargePeriod {
  readonly from: number;
  readonly to: number;
  readonly operator: string | undefined;
}

/** `from` / `to` (an ISO date or date-time; `to` exclusive) and `operator` from a query; problems named. */
export function readChargePeriod(params: { get(name: string): string | null }, now: number): Validated<ChargePeriod> {
  const problems: string[] = [];
  const time = (name: string, fallback: number): number => {
    const text = params.get(name);
    if (text === null) return fallback;
    const value = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(value))
      problems.push(
        `${name} must be a date (2026-11-01) or a UTC date-time (2026-11-01T00:00:00Z), got ${JSON.stringify(text)}`,
      );
    return value;
  };
  const to = time("to", now + 1);
  const from = time("from", now - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (problems.length === 0 && from >= to) problems.push("from must be before to");
  const operator = params.get("operator") ?? undefined;
  if (operator !== undefined && (operator.length === 0 || operator.length > 200)) {
    problems.push("operator must be an operator's name, as GET charges shows it");
  }
  return problems.length > 0 ? invalid(problems) : valid({ from, to, operator });
}

/** The rows as CSV (RFC 4180: CRLF, quoted where needed), a header line first. */
export function chargesCsv(rows: readonly ExportedCharge[]): string {
  const lines = [
    CHARGE_COLUMNS.join(","),
    ...rows.map((row) => CHARGE_COLUMNS.map((column) => csvField(row[column])).join(",")),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * One field: quoted when it holds a comma, quote or line break (the signature base does). A
 * value a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`: a base64 signature
 * may start with `+`) is prefixed with `'` (OWASP "CSV injection"); the JSON export carries
 * every value exactly.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
