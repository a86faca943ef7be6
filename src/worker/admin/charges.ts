/**
 * GET charges[?origin=…&from=…&to=…&operator=…&format=csv]: the origin's charges ledger
 * (worker/charges) for a period (default the last 31 days; `to` exclusive) and one operator or
 * all, as JSON, or CSV with `format=csv` (or `Accept: text/csv`). For invoicing; settling is
 * out of scope (README "State your terms").
 */

import { chargesCsv, readChargePeriod, type ExportedCharge } from "../../policy/charges-export.ts";
import type { ChargeRow } from "../charges/store.ts";
import { MAX_READ } from "../charges/store.ts";
import type { AdminContext } from "./context.ts";
import { jsonResponse } from "../responses.ts";

export async function chargesView(admin: AdminContext, origin: string): Promise<Response> {
  const period = readChargePeriod(admin.url.searchParams, Date.now());
  if (!period.ok) return jsonResponse({ error: period.problems.join("; "), problems: period.problems }, 400);
  const namespace = admin.env.CHARGES;
  const rows = namespace
    ? await namespace.get(namespace.idFromName(origin)).read({ ...period.value, limit: MAX_READ })
    : [];
  const charges = rows.map(exported);
  const csv =
    admin.url.searchParams.get("format") === "csv" || (admin.request.headers.get("accept") ?? "").includes("text/csv");
  if (csv) {
    return new Response(chargesCsv(charges), {
      headers: { "content-type": "text/csv; charset=utf-8", "cache-control": "no-store" },
    });
  }
  return jsonResponse({
    origin,
    from: new Date(period.value.from).toISOString(),
    to: new Date(period.value.to).toISOString(),
    operator: period.value.operator ?? null,
    ...(namespace ? {} : { warning: "no Durable Object is bound as CHARGES (wrangler.toml): nothing is recorded" }),
    ...(rows.length >= MAX_READ && { note: `the first ${MAX_READ} charges of the period; ask for a shorter one` }),
    totals: totalsOf(charges),
    charges,
  });
}

function exported(row: ChargeRow): ExportedCharge {
  const { id: _id, time, ...rest } = row;
  return { time: new Date(time).toISOString(), ...rest };
}

/** Per operator and currency: how many charges, and their sum as written (whole millionths summed, never floats). */
function totalsOf(
  charges: readonly ExportedCharge[],
): { operator: string; currency: string; charges: number; total: string }[] {
  const sums = new Map<string, { operator: string; currency: string; charges: number; micros: number }>();
  for (const charge of charges) {
    const [currency = "", amount = "0"] = charge.price.split(" ");
    const [units = "0", fraction = ""] = amount.split(".");
    const micros = Number(units) * 1_000_000 + Number(fraction.padEnd(6, "0"));
    const key = `${charge.operator}\u0000${currency}`;
    const sum = sums.get(key) ?? { operator: charge.operator, currency, charges: 0, micros: 0 };
    sum.charges += 1;
    sum.micros += micros;
    sums.set(key, sum);
  }
  return [...sums.values()].map(({ operator, currency, charges: count, micros }) => ({
    operator,
    currency,
    charges: count,
    total: `${currency} ${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, "0")}`,
  }));
}
