// Extension records RFC 9309 leaves to parsers (§2.2.4): Crawl-delay, Request-rate, Visit-time,
// Comment, Robot-version and lines this parser does not interpret, as the server-admin manual
// (test/fixtures/spec) describes them, with the choices extensions.ts names where it is silent.
// Each row is one line inside `User-agent: a` (line 2) and what the group keeps of it.
import { describe, expect, it } from "vitest";
import { parseRobotsTxt, type GroupExtensions } from "../../src/core/index.ts";

const NOTHING = { requestRates: [], comments: [], usage: [], others: [] } as const;

const rows: { line: string; kept: Partial<GroupExtensions>; why: string }[] = [
  { line: "Crawl-delay: 10", kept: { crawlDelay: { seconds: 10, line: 2 } }, why: "whole seconds" },
  { line: "Crawl-delay: 0.5", kept: { crawlDelay: { seconds: 0.5, line: 2 } }, why: "decimals allowed" },
  { line: "Crawl-delay: .5", kept: { crawlDelay: { seconds: 0.5, line: 2 } }, why: "leading point" },
  { line: "Crawl-delay: 1.", kept: { crawlDelay: { seconds: 1, line: 2 } }, why: "trailing point" },
  { line: "crawl-DELAY:3", kept: { crawlDelay: { seconds: 3, line: 2 } }, why: "field name in any case" },
  { line: "Crawl-delay: 10s", kept: {}, why: "no unit on Crawl-delay: an error" },
  { line: "Crawl-delay: 1e3", kept: {}, why: "no exponent" },
  { line: "Request-rate: 1/5", kept: { requestRates: [{ requests: 1, seconds: 5, line: 2 }] }, why: "n/seconds" },
  { line: "Request-rate: 1/5m", kept: { requestRates: [{ requests: 1, seconds: 300, line: 2 }] }, why: "unit m" },
  { line: "Request-rate: 2/1h", kept: { requestRates: [{ requests: 2, seconds: 3600, line: 2 }] }, why: "unit h" },
  {
    line: "Request-rate: 3/10S",
    kept: { requestRates: [{ requests: 3, seconds: 10, line: 2 }] },
    why: "unit in any case",
  },
  { line: "Request-rate: 1 / 10", kept: { requestRates: [{ requests: 1, seconds: 10, line: 2 }] }, why: "spaces" },
  {
    line: "Request-rate: 1/10 0600-0845",
    kept: { requestRates: [{ requests: 1, seconds: 10, window: { start: 360, end: 525 }, line: 2 }] },
    why: "with a UTC window",
  },
  { line: "Request-rate: 0/10", kept: {}, why: "zero requests: an error" },
  { line: "Request-rate: 1/10 2500-2600", kept: {}, why: "a bad window spoils the line" },
  { line: "Visit-time: 0600-0845", kept: { visitTime: { start: 360, end: 525, line: 2 } }, why: "HHMM-HHMM" },
  { line: "Visit-time: 06:00-08:45", kept: { visitTime: { start: 360, end: 525, line: 2 } }, why: "HH:MM-HH:MM" },
  { line: "Visit-time: 2200-0530", kept: { visitTime: { start: 1320, end: 330, line: 2 } }, why: "spans midnight" },
  // en "Timed Access" example: "crawl the site between 11:00pm and 4:30am (GMT)".
  {
    line: "Visit-time: 2300-0430",
    kept: { visitTime: { start: 1380, end: 270, line: 2 } },
    why: "en Timed Access: 23:00 to 04:30 UTC",
  },
  { line: "Visit-time: 2400-0100", kept: { visitTime: { start: 0, end: 60, line: 2 } }, why: "24:00 is midnight" },
  { line: "Visit-time: 2401-0100", kept: {}, why: "past 24:00: an error" },
  { line: "Visit-time: 0660-0700", kept: {}, why: "minute 60: an error" },
  { line: "Comment: be kind", kept: { comments: [{ text: "be kind", line: 2 }] }, why: "kept as text" },
  { line: "Robot-version: 2.0", kept: { robotVersion: { version: "2.0", line: 2 } }, why: "kept as text" },
  {
    line: "Host: example.com",
    kept: { others: [{ field: "Host", value: "example.com", line: 2 }] },
    why: "Yandex Host: kept, not interpreted",
  },
  {
    line: "Clean-param: ref /articles/",
    kept: { others: [{ field: "Clean-param", value: "ref /articles/", line: 2 }] },
    why: "Yandex Clean-param: kept, not interpreted",
  },
  { line: "Noindex: /x", kept: { others: [{ field: "Noindex", value: "/x", line: 2 }] }, why: "unsupported by Google" },
];

describe("extension records in a group", () => {
  it.each(rows)("$line -> $why", ({ line, kept }) => {
    const group = parseRobotsTxt(`User-agent: a\n${line}\n`).groups[0];
    expect(group?.extensions).toEqual({ ...NOTHING, ...kept });
  });
});

describe("extension records outside a group", () => {
  it.each(["Crawl-delay: 5", "Request-rate: 1/5", "Visit-time: 0100-0200"])(
    "%s before any user-agent applies to no crawler, and lint says so",
    (line) => {
      const parsed = parseRobotsTxt(`${line}\nUser-agent: a\nDisallow: /x\n`);
      expect(parsed.groups[0]?.extensions).toEqual(NOTHING);
      expect(parsed.diagnostics).toContainEqual(
        expect.objectContaining({ code: "extension-outside-group", line: 1, severity: "warning" }),
      );
    },
  );
});
