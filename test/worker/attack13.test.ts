// Attack 13 (outside review of 8d048ab..f607158: the matching budget at the edge). Each row
// FAILS on f607158; the expectations are the project's own rules, not the current behaviour.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, fakeOrigin, freshState, GOOGLEBOT } from "./helpers.ts";

// One group for googlebot of 32,082 distinct wildcard rules (500 KiB), as in
// matching-budget.test.ts: every path is past the decision's budget (MatchingTooCostly).
let COSTLY = "user-agent:googlebot\n";
for (let n = 0; COSTLY.length < 500 * 1024 - 20; n++) COSTLY += `disallow:/*a${n.toString(36)}\n`;

beforeEach(async () => {
  await freshState();
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  fakeOrigin({ body: COSTLY });
});
afterEach(freshState);

describe("A13-1 a decision too costly to match ignores MODE=report (the operator's 'refuse nothing')", () => {
  // In report mode the edge refuses no crawler on the robots.txt layer: a disallowed path is
  // passed and reported (judge.ts judgeUnder). A file shaped past the budget throws before the
  // mode is read, and own-fault.ts answers every crawler 503 + Retry-After on every path: an
  // operator who deployed in report mode to watch first has Googlebot refused site-wide by
  // its tenant's file. (A file over the compile cap takes the "unavailable" path, which
  // report mode does pass; the too-costly decision does not.)
  it.each([
    { path: "/x", env: { MODE: "report" } },
    { path: "/", env: { MODE: "report" } },
  ])("GOOGLEBOT $path under $env -> the origin's page, not 503", async ({ path, env }) => {
    const response = await call(path, { ua: GOOGLEBOT, env });
    expect([response.status, response.headers.get("retry-after")]).toEqual([200, null]);
  });
});
