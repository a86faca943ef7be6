/**
 * Values of the extension records that RFC 9309 leaves out (§2.2.4 lets parsers keep them):
 * Crawl-delay, Request-rate and Visit-time, as the server-admin manual in test/fixtures/spec
 * describes them. Each reader returns the typed value or a message saying what was expected.
 *
 * Choices where the manual is silent (named here, tested in test/core/extensions.test.ts):
 *   - Crawl-delay: seconds, decimals allowed ("0.5"); negative or non-numeric is an error.
 *   - Request-rate: "n/seconds", seconds may carry a unit s, m or h ("1/5m" = 1 per 300 s),
 *     optionally followed by a window "HHMM-HHMM" (UTC).
 *   - Visit-time: "HHMM-HHMM" in UTC; "HH:MM-HH:MM" is accepted too. A window whose start
 *     is after its end spans midnight ("2200-0530").
 */

import type { TimeWindow } from "./model.ts";

export type Reading<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly expected: string };

const SECONDS = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const RATE = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*(?:\s(.+))?$/i;
const WINDOW = /^(\d{2}):?(\d{2})\s*-\s*(\d{2}):?(\d{2})$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { "": 1, s: 1, m: 60, h: 3600 };

export function readCrawlDelay(value: string): Reading<number> {
  if (!SECONDS.test(value)) return { ok: false, expected: "seconds (a number such as 10 or 0.5)" };
  return { ok: true, value: Number(value) };
}

export function readRequestRate(value: string): Reading<{ requests: number; seconds: number; window?: TimeWindow }> {
  const expected = '"n/seconds" such as 1/10, optionally followed by a window such as 0600-0845';
  const match = RATE.exec(value);
  if (!match) return { ok: false, expected };
  const [, requests = "", period = "", unit = "", windowText] = match;
  const seconds = Number(period) * (UNIT_SECONDS[unit.toLowerCase()] ?? 1);
  if (Number(requests) <= 0 || seconds <= 0) return { ok: false, expected };
  if (windowText === undefined) return { ok: true, value: { requests: Number(requests), seconds } };
  const window = readWindow(windowText.trim());
  if (!window.ok) return { ok: false, expected };
  return { ok: true, value: { requests: Number(requests), seconds, window: window.value } };
}

export function readVisitTime(value: string): Reading<TimeWindow> {
  return readWindow(value);
}

function readWindow(value: string): Reading<TimeWindow> {
  const expected = '"HHMM-HHMM" in UTC, such as 2200-0530';
  const match = WINDOW.exec(value);
  if (!match) return { ok: false, expected };
  const [, h1 = "", m1 = "", h2 = "", m2 = ""] = match;
  const start = minutesOfDay(h1, m1);
  const end = minutesOfDay(h2, m2);
  if (start < 0 || end < 0) return { ok: false, expected };
  return { ok: true, value: { start, end } };
}

function minutesOfDay(hours: string, minutes: string): number {
  const h = Number(hours);
  const m = Number(minutes);
  if (h > 24 || m > 59 || (h === 24 && m !== 0)) return -1;
  return (h * 60 + m) % (24 * 60);
}
