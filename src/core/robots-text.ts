/**
 * Parsed lines written back as robots.txt text, for files the edge composes (a group restated
 * under another user-agent). Each writer emits what the parser reads back as the same line:
 * `writeRule(rule)` parsed is `rule` again (field names in the spec's casing; values as written).
 */

import type { GroupExtensions, RequestRate, Rule, TimeWindow, UsageLine } from "./model.ts";

/** `Allow: /path` or `Disallow: /path`. */
export function writeRule(rule: Pick<Rule, "kind" | "pattern">): string {
  return `${rule.kind === "allow" ? "Allow" : "Disallow"}: ${rule.pattern}`;
}

/** `Content-Usage: /path train-ai=n` or `Content-Signal: …`, as the line was written. */
export function writeUsageLine(line: Pick<UsageLine, "format" | "pattern" | "statement">): string {
  const field = line.format === "content-usage" ? "Content-Usage" : "Content-Signal";
  return line.pattern === "" ? `${field}: ${line.statement}` : `${field}: ${line.pattern} ${line.statement}`;
}

/** The rate lines of a group (Crawl-delay, Request-rate, Visit-time), which bind who obeys it. */
export function writeRateLines(extensions: GroupExtensions): string[] {
  const lines: string[] = [];
  if (extensions.crawlDelay) lines.push(`Crawl-delay: ${extensions.crawlDelay.seconds}`);
  for (const rate of extensions.requestRates) lines.push(`Request-rate: ${writeRate(rate)}`);
  if (extensions.visitTime) lines.push(`Visit-time: ${writeWindow(extensions.visitTime)}`);
  return lines;
}

function writeRate(rate: RequestRate): string {
  const base = `${rate.requests}/${rate.seconds}s`;
  return rate.window ? `${base} ${writeWindow(rate.window)}` : base;
}

function writeWindow(window: TimeWindow): string {
  return `${clock(window.start)}-${clock(window.end)}`;
}

function clock(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return String(hours).padStart(2, "0") + String(minutes % 60).padStart(2, "0");
}
