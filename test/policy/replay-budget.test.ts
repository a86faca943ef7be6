// POST replay's CPU bound (src/policy/replay.ts): it judges the newest recorded requests first
// and stops at a work budget, saying so. A unit is one character of a path spelling judged on
// one side, plus one per wildcard route, wildcard rule or usage line it may be tried against;
// a request judged before costs one unit. Budgets here are small so the counts are exact.
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { parsePolicy, type CompiledPolicy } from "../../src/policy/operator-policy.ts";
import { REPLAY_WORK_BUDGET, replay, type RecordedRequest, type ReplaySettings } from "../../src/policy/replay.ts";

const SETTINGS: ReplaySettings = {
  mode: "enforce",
  failOpen: false,
  blockStatus: 403,
  verifyCrawlers: "unknown",
  enforceRates: "honoured",
  usageSignals: "enforce",
};
const OPEN = {
  state: "ok",
  matcher: compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\n")),
  policy: undefined,
} as const;
const CLOSED = { ...OPEN, matcher: compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /\n")) };

function policyOf(json: string): CompiledPolicy {
  const parsed = parsePolicy(json);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.value;
}

/** 50 requests of FooBot, `/p00` (oldest) to `/p49` (newest): 4 characters, one spelling each. */
const FIFTY: RecordedRequest[] = Array.from({ length: 50 }, (_, i) => ({
  time: i,
  token: "FooBot",
  tokens: ["FooBot"],
  verified: "unchecked",
  method: "GET",
  path: `/p${String(i).padStart(2, "0")}`,
}));

describe("replay stops at its work budget and says what it judged", () => {
  it.each([
    { why: "the whole budget needed (8 units each: 4 characters, 2 sides)", budget: 400, judged: 50, partial: false },
    { why: "one unit short of the last request", budget: 399, judged: 49, partial: true },
    { why: "ten requests' worth", budget: 80, judged: 10, partial: true },
    { why: "nothing affordable", budget: 7, judged: 0, partial: true },
  ])("$why: budget $budget -> judged $judged of 50", ({ budget, judged, partial }) => {
    const result = replay(FIFTY, { live: OPEN, draft: CLOSED }, SETTINGS, 200, budget);
    expect(result).toMatchObject({ requests: judged, recorded: 50, partial, changedCount: judged });
  });

  it("judges the newest first, so a partial answer is about the latest traffic", () => {
    const result = replay(FIFTY, { live: OPEN, draft: CLOSED }, SETTINGS, 200, 24);
    expect(result.changed.map((change) => change.path)).toEqual(["/p49", "/p48", "/p47"]);
  });

  it("a request judged before costs one unit", () => {
    const same = FIFTY.map((request) => ({ ...request, path: "/p00" }));
    expect(replay(same, { live: OPEN, draft: CLOSED }, SETTINGS, 200, 8 + 49)).toMatchObject({
      requests: 50,
      partial: false,
    });
  });

  it("each wildcard route of either side is counted per spelling; plain routes are not", () => {
    const draft = {
      ...CLOSED,
      policy: policyOf('{"routes":[{"pattern":"*/a*"},{"pattern":"/b*.pdf$"},{"pattern":"/c/"}]}'),
    };
    // 8 units for the path, 2 for the wildcard routes: 10 a request.
    expect(replay(FIFTY, { live: OPEN, draft }, SETTINGS, 200, 100)).toMatchObject({ requests: 10, partial: true });
  });

  it("each spelling of a re-spelled path is counted", () => {
    // /p%2F.. has spellings "/p%2F.." (7) and "/" (1): 2 × (7 + 1) = 16 units.
    const respelled = FIFTY.map((request) => ({ ...request, path: `/p%2F..`, tokens: [`Bot${request.time}`] }));
    expect(replay(respelled, { live: OPEN, draft: CLOSED }, SETTINGS, 200, 160)).toMatchObject({ requests: 10 });
  });

  it("the default budget covers 10,000 distinct ordinary requests of one bot on a plain site", () => {
    const many: RecordedRequest[] = Array.from({ length: 10_000 }, (_, i) => ({
      ...FIFTY[0],
      time: i,
      token: "FooBot",
      tokens: ["FooBot"],
      verified: "unchecked",
      method: "GET",
      path: `/articles/${i}`,
    }));
    // At most 14 characters × 2 sides each: 280,000 units, under REPLAY_WORK_BUDGET.
    expect(REPLAY_WORK_BUDGET).toBeGreaterThanOrEqual(280_000);
    expect(replay(many, { live: OPEN, draft: CLOSED }, SETTINGS)).toMatchObject({ requests: 10_000, partial: false });
  });
});
