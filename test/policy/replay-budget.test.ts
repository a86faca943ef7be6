// POST replay's CPU bound (src/policy/replay.ts): it judges the newest recorded requests first
// and stops at a work budget, saying so. A distinct request costs 100 units (its two decisions),
// plus per spelling of its path one per character on each side and one per wildcard route,
// wildcard rule or usage line it may be tried against; a request judged before costs one
// unit. Budgets here are small so the counts are exact.
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
    {
      why: "the whole budget needed (108 units each: 100, and 4 characters × 2 sides)",
      budget: 5400,
      judged: 50,
      partial: false,
    },
    { why: "one unit short of the last request", budget: 5399, judged: 49, partial: true },
    { why: "ten requests' worth", budget: 1080, judged: 10, partial: true },
    { why: "nothing affordable", budget: 107, judged: 0, partial: true },
  ])("$why: budget $budget -> judged $judged of 50", ({ budget, judged, partial }) => {
    const result = replay(FIFTY, { live: OPEN, draft: CLOSED }, SETTINGS, 200, budget);
    expect(result).toMatchObject({ requests: judged, recorded: 50, partial, changedCount: judged });
  });

  it("judges the newest first, so a partial answer is about the latest traffic", () => {
    const result = replay(FIFTY, { live: OPEN, draft: CLOSED }, SETTINGS, 200, 324);
    expect(result.changed.map((change) => change.path)).toEqual(["/p49", "/p48", "/p47"]);
  });

  it("a request judged before costs one unit", () => {
    const same = FIFTY.map((request) => ({ ...request, path: "/p00" }));
    expect(replay(same, { live: OPEN, draft: CLOSED }, SETTINGS, 200, 108 + 49)).toMatchObject({
      requests: 50,
      partial: false,
    });
  });

  it("each wildcard route of either side is counted per spelling; plain routes are not", () => {
    const draft = {
      ...CLOSED,
      policy: policyOf('{"routes":[{"pattern":"*/a*"},{"pattern":"/b*.pdf$"},{"pattern":"/c/"}]}'),
    };
    // 100, 8 units for the path, 2 for the wildcard routes: 110 a request.
    expect(replay(FIFTY, { live: OPEN, draft }, SETTINGS, 200, 1100)).toMatchObject({ requests: 10, partial: true });
  });

  it("each spelling of a re-spelled path is counted", () => {
    // /p%2F.. has spellings "/p%2F.." (7) and "/" (1): 100 + 2 × (7 + 1) = 116 units.
    const respelled = FIFTY.map((request) => ({ ...request, path: `/p%2F..`, tokens: [`Bot${request.time}`] }));
    expect(replay(respelled, { live: OPEN, draft: CLOSED }, SETTINGS, 200, 1160)).toMatchObject({ requests: 10 });
  });

  it("the default budget: the newest 2,343 of 10,000 distinct ordinary requests (128 units each)", () => {
    const many: RecordedRequest[] = Array.from({ length: 10_000 }, (_, i) => ({
      ...FIFTY[0],
      time: i,
      token: "FooBot",
      tokens: ["FooBot"],
      verified: "unchecked",
      method: "GET",
      path: `/articles/${i}`,
    }));
    // The newest are /articles/9999 down to /articles/7657: 100 + 14 characters × 2 sides.
    expect(REPLAY_WORK_BUDGET).toBe(300_000);
    expect(replay(many, { live: OPEN, draft: CLOSED }, SETTINGS)).toMatchObject({
      requests: 2343,
      recorded: 10_000,
      partial: true,
    });
  });
});
