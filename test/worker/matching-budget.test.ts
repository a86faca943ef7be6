// Attack 12 (A12-1, A12-6) at the edge: a robots.txt shaped so that matching a path costs more
// than the decision's budget (src/core/match-budget.ts) makes the matcher throw
// MatchingTooCostly, and the edge's one fail-safe (edge/own-fault.ts) answers: a crawler 503 +
// Retry-After (the edge could not check, so it does not guess), a person the origin (a person
// never runs the matcher), the operator a fault in GET status naming the host's robots.txt.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { admin, BINGBOT, call, CHROME, fakeOrigin, freshState, GOOGLEBOT } from "./helpers.ts";

// One group for googlebot of ~12,800 distinct wildcard rules (200 KiB): too many to try on a path of
// 20 characters or more. 19.1 MiB estimated compiled: under the per-file cap (21.3 MiB, memory-budget.ts),
// so the matcher is built and the decision reaches the matching budget; 500 KiB of them would be
// over the cap (robots.txt unavailable, memory-budget.test.ts).
let COSTLY = "user-agent:googlebot\n";
for (let n = 0; COSTLY.length < 200 * 1024 - 20; n++) COSTLY += `disallow:/*a${n.toString(36)}\n`;
const LONG = `/${"a".repeat(7_999)}`;
const MID = `/${"a".repeat(99)}`;
const FAULT = "This site's edge had a fault of its own; please retry later.\n";

beforeEach(async () => {
  await freshState();
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  fakeOrigin({ body: COSTLY });
});
afterEach(freshState);

interface Status {
  ownFaults: { key: string; cause: string; repair: string }[];
}

describe("a decision too costly to match (MatchingTooCostly) reaches the one fail-safe", () => {
  it.each([
    {
      who: "a crawler the file names, an 8 KB path",
      ua: GOOGLEBOT,
      path: LONG,
      status: 503,
      body: FAULT,
      retryAfter: "120",
      faults: 1,
    },
    {
      who: "a crawler the file names, a 100-character path",
      ua: GOOGLEBOT,
      path: MID,
      status: 503,
      body: FAULT,
      retryAfter: "120",
      faults: 1,
    },
    {
      who: "a person, an 8 KB path",
      ua: CHROME,
      path: LONG,
      status: 200,
      body: `origin page ${LONG}`,
      retryAfter: null,
      faults: 0,
    },
    {
      who: "a crawler the file does not name",
      ua: BINGBOT,
      path: LONG,
      status: 200,
      body: `origin page ${LONG}`,
      retryAfter: null,
      faults: 0,
    },
  ])("$who -> $status ($faults fault named)", async ({ ua, path, status, body, retryAfter, faults }) => {
    const response = await call(path, { ua });
    expect([response.status, response.headers.get("retry-after"), await response.text()]).toEqual([
      status,
      retryAfter,
      body,
    ]);
    // A person is forwarded before any matching: no fault, not even a caught one.
    expect(((await (await admin("status")).json()) as Status).ownFaults).toHaveLength(faults);
  });

  it("GET status names the host's robots.txt, why, and the repair; /robots.txt is still served", async () => {
    expect((await call(LONG, { ua: GOOGLEBOT })).status).toBe(503);
    const served = await call("/robots.txt", { ua: GOOGLEBOT });
    expect(served.status).toBe(200);
    const status = (await (await admin("status")).json()) as Status;
    expect(status.ownFaults).toEqual([
      {
        key: "robots.txt of https://origin.test",
        cause:
          "a crawler's request (a path and query of 8000 characters) was not decided: matching the path against this robots.txt would take more than 300000 steps (its wildcard rules, or the groups naming the crawler, are too many for a path that long): the decision was not made; crawlers were answered 503, people pass",
        repair:
          "if the site's own URLs are that long, have it serve a robots.txt with fewer wildcard rules (and fewer groups naming the same crawler), then POST refresh?origin=https://origin.test; a URL a client made that long needs nothing (it was answered 503)",
        since: expect.any(String),
        lastAt: expect.any(String),
        count: 1,
      },
    ]);
  });

  it("explain (admin) on such a path: a JSON error naming why, not a crash", async () => {
    expect((await call(MID, { ua: GOOGLEBOT })).status).toBe(503);
    const response = await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=${encodeURIComponent(LONG)}`);
    expect([response.status, await response.json()]).toEqual([
      500,
      {
        error:
          "internal error: matching the path against this robots.txt would take more than 300000 steps (its wildcard rules, or the groups naming the crawler, are too many for a path that long): the decision was not made; see GET status",
      },
    ]);
  });
});
