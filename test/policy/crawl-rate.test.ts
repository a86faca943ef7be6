// Crawl-delay, Request-rate and Visit-time as the edge enforces them (pure; time as data).
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { checkRate, rateLimitsAt, visitWindow, type RateLimits, type RateState } from "../../src/policy/crawl-rate.ts";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 22, hh, mm, ss);

/** Feed requests at the given second offsets; the answers, as [allowed, retryAfter]. */
function run(limits: RateLimits, seconds: number[]): [boolean, number][] {
  let state: RateState = { recent: [] };
  return seconds.map((second) => {
    const result = checkRate(state, limits, T0 + second * 1000);
    state = result.state;
    return [result.allowed, result.retryAfter];
  });
}

describe("checkRate", () => {
  it.each([
    {
      name: "Crawl-delay: 10",
      limits: { minIntervalMs: 10_000, rates: [] },
      seconds: [0, 1, 9.5, 10, 25],
      expected: [
        [true, 0],
        [false, 9],
        [false, 1],
        [true, 0],
        [true, 0],
      ],
    },
    {
      name: "Request-rate: 2/10",
      limits: { minIntervalMs: 0, rates: [{ requests: 2, ms: 10_000 }] },
      seconds: [0, 1, 2, 10, 11, 11.5],
      expected: [
        [true, 0],
        [true, 0],
        [false, 8],
        [true, 0],
        [true, 0],
        [false, 9],
      ],
    },
    {
      name: "both: the stricter wait",
      limits: { minIntervalMs: 5_000, rates: [{ requests: 1, ms: 20_000 }] },
      seconds: [0, 6, 20],
      expected: [
        [true, 0],
        [false, 14],
        [true, 0],
      ],
    },
    {
      name: "refused requests do not count",
      limits: { minIntervalMs: 10_000, rates: [] },
      seconds: [0, 5, 6, 7, 10],
      expected: [
        [true, 0],
        [false, 5],
        [false, 4],
        [false, 3],
        [true, 0],
      ],
    },
  ])("$name", ({ limits, seconds, expected }) => {
    expect(run(limits, seconds)).toEqual(expected);
  });
});

describe("visitWindow (UTC)", () => {
  it.each([
    {
      window: { start: 22 * 60, end: 5 * 60 + 30 },
      now: at(23, 0),
      open: true,
      retryAfter: 0,
      why: "inside, before midnight",
    },
    {
      window: { start: 22 * 60, end: 5 * 60 + 30 },
      now: at(3, 0),
      open: true,
      retryAfter: 0,
      why: "inside, after midnight",
    },
    {
      window: { start: 22 * 60, end: 5 * 60 + 30 },
      now: at(12, 0),
      open: false,
      retryAfter: 10 * 3600,
      why: "opens at 22:00",
    },
    {
      window: { start: 22 * 60, end: 5 * 60 + 30 },
      now: at(5, 30),
      open: false,
      retryAfter: 16.5 * 3600,
      why: "the end is exclusive",
    },
    {
      window: { start: 6 * 60, end: 8 * 60 + 45 },
      now: at(5, 59, 30),
      open: false,
      retryAfter: 30,
      why: "seconds count",
    },
    { window: { start: 6 * 60, end: 8 * 60 + 45 }, now: at(7, 0), open: true, retryAfter: 0, why: "same-day window" },
  ])("$why", ({ window, now, open, retryAfter }) => {
    expect(visitWindow(window, now)).toEqual({ open, retryAfter });
  });
});

describe("rateLimitsAt", () => {
  const group = compileRobots(
    parseRobotsTxt("User-agent: *\nCrawl-delay: 2.5\nRequest-rate: 1/5\nRequest-rate: 10/1m 0600-0845\n"),
  ).groupFor(["x"]);
  it.each([
    {
      now: at(7, 0),
      rates: [
        { requests: 1, ms: 5000 },
        { requests: 10, ms: 60_000 },
      ],
      why: "windowed rate inside its window",
    },
    { now: at(12, 0), rates: [{ requests: 1, ms: 5000 }], why: "windowed rate outside its window" },
  ])("$why", ({ now, rates }) => {
    expect(group && rateLimitsAt(group, now)).toEqual({ minIntervalMs: 2500, rates });
  });
});

// The server manual's (en) own examples, read from robots.txt text as a site writes them:
// "Visit-time: 2200-0530 would advise search agents to crawl the site from 10:00pm to 5:30am
// GMT"; Timed Access "Visit-time: 2300-0430 … only attempt to crawl the site between 11:00pm
// and 4:30am (GMT)"; "a rate of 1/30 indicates a maximum of 1 request should be issued every
// 30 seconds". Whether the last minute (05:30, 04:30) is inside the manual does not say
// (the visitWindow table above pins this project's choice), so these rows keep clear of it.
function groupOf(robots: string) {
  const group = compileRobots(parseRobotsTxt(robots)).groupFor(["anybot"]);
  if (!group) throw new TypeError(`no group in ${robots}`);
  return group;
}

describe("en examples: Visit-time windows", () => {
  it.each([
    { value: "2200-0530", time: "22:00", open: true, retryAfter: 0, why: "opens at 10:00pm" },
    { value: "2200-0530", time: "05:29", open: true, retryAfter: 0, why: "still open at 5:29am" },
    { value: "2200-0530", time: "05:31", open: false, retryAfter: 16 * 3600 + 29 * 60, why: "closed after 5:30am" },
    { value: "2300-0430", time: "23:00", open: true, retryAfter: 0, why: "Timed Access: opens at 11:00pm" },
    { value: "2300-0430", time: "04:29", open: true, retryAfter: 0, why: "Timed Access: open at 4:29am" },
    {
      value: "2300-0430",
      time: "04:31",
      open: false,
      retryAfter: 18 * 3600 + 29 * 60,
      why: "Timed Access: closed after 4:30am",
    },
    { value: "2300-0430", time: "22:59", open: false, retryAfter: 60, why: "Timed Access: closed at 10:59pm" },
  ])("Visit-time: $value at $time UTC -> open=$open ($why)", ({ value, time, open, retryAfter }) => {
    const [hours = 0, minutes = 0] = time.split(":").map(Number);
    const now = at(hours, minutes);
    const window = groupOf(`User-agent: *\nDisallow: /doc/private\nVisit-time: ${value}\n`).extensions.visitTime;
    expect(window).toBeDefined();
    expect(window && visitWindow(window, now)).toEqual({ open, retryAfter });
  });
});

describe("en examples: Request-rate: 1/30", () => {
  it("allows one request every 30 seconds", () => {
    const limits = rateLimitsAt(groupOf("User-agent: *\nRequest-rate: 1/30\n"), T0);
    expect(limits).toEqual({ minIntervalMs: 0, rates: [{ requests: 1, ms: 30_000 }] });
    expect(run(limits, [0, 1, 29.5, 30, 45, 60])).toEqual([
      [true, 0],
      [false, 29],
      [false, 1],
      [true, 0],
      [false, 15],
      [true, 0],
    ]);
  });
});
