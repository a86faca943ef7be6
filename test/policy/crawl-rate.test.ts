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

describe("rateLimitsAt: one group asked through the day, forward and back (its rates worked out once per span)", () => {
  // Two groups naming a (a merged set, its lines in file order): 1/10 2200-0200 (spans
  // midnight), 5/1m 0600-0900, 3/1m 0800-1000, 100/1h. Strictest first: 100/1h, 3/1m, 5/1m,
  // 1/10; 3/1m implies 5/1m. Each minute is asked of the same group in turn, so an answer
  // kept for one span and served in another would show.
  const robots =
    "User-agent: a\nRequest-rate: 1/10 2200-0200\n\n" +
    "User-agent: a\nRequest-rate: 5/1m 0600-0900\nRequest-rate: 3/1m 0800-1000\nRequest-rate: 100/1h\n";
  const perTen = { requests: 1, ms: 10_000 };
  const fivePerMinute = { requests: 5, ms: 60_000 };
  const threePerMinute = { requests: 3, ms: 60_000 };
  const hourly = { requests: 100, ms: 3_600_000 };
  const rows = [
    { time: [7, 0], rates: [fivePerMinute, hourly] },
    { time: [8, 30], rates: [threePerMinute, hourly] },
    { time: [9, 30], rates: [threePerMinute, hourly] },
    { time: [12, 0], rates: [hourly] },
    { time: [23, 0], rates: [perTen, hourly] },
    { time: [1, 0], rates: [perTen, hourly] },
    { time: [2, 0], rates: [hourly] },
    { time: [7, 0], rates: [fivePerMinute, hourly] },
    { time: [8, 0], rates: [threePerMinute, hourly] },
    { time: [9, 0], rates: [threePerMinute, hourly] },
    { time: [10, 0], rates: [hourly] },
    { time: [21, 59], rates: [hourly] },
    { time: [22, 0], rates: [perTen, hourly] },
  ] as const;
  it("every minute asked gets the rates in force then", () => {
    const group = compileRobots(parseRobotsTxt(robots)).groupFor(["a"]);
    const asked = rows.map(({ time: [hh, mm] }) => group && rateLimitsAt(group, at(hh, mm)));
    expect(asked).toEqual(rows.map(({ rates }) => ({ minIntervalMs: 0, rates })));
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

// An origin's robots.txt is not ours to trust: what rateLimitsAt hands the limiter and the
// RateLimit fields is bounded, and every bound is more lenient than the line, never stricter.
describe("rateLimitsAt: bounded whatever the robots.txt says", () => {
  const fiveThousand = Array.from({ length: 5000 }, (_, i) => `Request-rate: ${i + 1}/${i + 60}\n`).join("");
  it.each([
    {
      why: "5,000 lines, each implied by the first (1/60): the first alone",
      lines: fiveThousand,
      limits: { minIntervalMs: 0, rates: [{ requests: 1, ms: 60_000 }] },
    },
    {
      why: "six lines none implies: the four strictest, in file order",
      lines:
        "Request-rate: 10/10\nRequest-rate: 19/20\nRequest-rate: 27/30\nRequest-rate: 34/40\nRequest-rate: 40/50\nRequest-rate: 45/60\n",
      limits: {
        minIntervalMs: 0,
        rates: [
          { requests: 27, ms: 30_000 },
          { requests: 34, ms: 40_000 },
          { requests: 40, ms: 50_000 },
          { requests: 45, ms: 60_000 },
        ],
      },
    },
    {
      why: "a rate the Crawl-delay implies (6 a minute at one per 10 s) goes; 5 a minute stays",
      lines: "Crawl-delay: 10\nRequest-rate: 6/1m\nRequest-rate: 5/1m\n",
      limits: { minIntervalMs: 10_000, rates: [{ requests: 5, ms: 60_000 }] },
    },
    {
      why: "the same line twice: once",
      lines: "Request-rate: 3/1m\nRequest-rate: 3/1m\n",
      limits: { minIntervalMs: 0, rates: [{ requests: 3, ms: 60_000 }] },
    },
    {
      why: "a 20-digit Crawl-delay: a year",
      lines: "Crawl-delay: 99999999999999999999\n",
      limits: { minIntervalMs: 31_536_000_000, rates: [] },
    },
    {
      why: "a 20-digit window: a year",
      lines: "Request-rate: 1/99999999999999999999h\n",
      limits: { minIntervalMs: 0, rates: [{ requests: 1, ms: 31_536_000_000 }] },
    },
    {
      why: "20 and 16 digits of requests: not enforced",
      lines: "Request-rate: 99999999999999999999/1\nRequest-rate: 1000000000000000/1\n",
      limits: { minIntervalMs: 0, rates: [] },
    },
    {
      why: "15 digits of requests: enforced as written",
      lines: "Request-rate: 999999999999999/1\n",
      limits: { minIntervalMs: 0, rates: [{ requests: 999_999_999_999_999, ms: 1000 }] },
    },
  ])("$why", ({ lines, limits }) => {
    expect(rateLimitsAt(groupOf(`User-agent: *\n${lines}`), T0)).toEqual(limits);
  });
});

// A rate of more requests than the limiter keeps times (MAX_STORED_TIMES, 10,000) is counted
// by a token bucket: n tokens, refilled at n per window. It allows all the sliding window
// allows; the state stays one time and one bucket.
describe("checkRate: a rate past MAX_STORED_TIMES is counted, not timed", () => {
  const limits: RateLimits = { minIntervalMs: 0, rates: [{ requests: 20_000, ms: 20_000 }] };
  /** `count` requests at `second`; how many were allowed, the last Retry-After, the state after. */
  function burst(state: RateState, second: number, count: number) {
    let allowed = 0;
    let retryAfter = 0;
    for (let n = 0; n < count; n++) {
      const result = checkRate(state, limits, T0 + second * 1000);
      state = result.state;
      if (result.allowed) allowed++;
      retryAfter = result.retryAfter;
    }
    return { allowed, retryAfter, state };
  }
  it("20,000 at once, then 10,000 after half the window, then 20,000 a window later", () => {
    const first = burst({ recent: [] }, 0, 20_001);
    expect([first.allowed, first.retryAfter]).toEqual([20_000, 1]);
    expect(first.state).toEqual({ recent: [T0], buckets: { "20000/20000": { tokens: 0, at: T0 } } });
    const half = burst(first.state, 10, 10_001);
    expect([half.allowed, half.retryAfter]).toEqual([10_000, 1]);
    const later = burst(half.state, 30, 20_001);
    expect([later.allowed, later.retryAfter, later.state.recent.length]).toEqual([20_000, 1, 1]);
  });
  it("a timed rate beside it keeps its own times, at most its n", () => {
    const both: RateLimits = {
      minIntervalMs: 0,
      rates: [
        { requests: 3, ms: 60_000 },
        { requests: 1_000_000, ms: 86_400_000 },
      ],
    };
    const recent = [T0 - 4000, T0 - 3000, T0 - 2000, T0 - 1000];
    const result = checkRate({ recent: recent.slice(0, 1) }, both, T0);
    expect(result).toEqual({
      allowed: true,
      retryAfter: 0,
      state: { recent: [T0 - 4000, T0], buckets: { "1000000/86400000": { tokens: 999_999, at: T0 } } },
    });
    expect(checkRate({ recent }, both, T0)).toMatchObject({ allowed: false, retryAfter: 57 });
  });
});
