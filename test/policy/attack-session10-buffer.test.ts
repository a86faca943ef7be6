// Attack session 10 (hostile tenant under a `*.` pattern, ActivityLog objects failing): the
// isolate's activity buffer must stay within its documented bound (docs/security.md: "≤ 5,000
// events held per isolate") however many of its calls fail. restore() puts a failed batch back
// without counting it in `size` or the origin's events, so the bound only sees new events.
// FAILS on attack10 (the hole this session reports).
import { describe, expect, it } from "vitest";
import { ActivityBuffer } from "../../src/policy/activity-batch.ts";
import type { ActivityEvent } from "../../src/policy/activity.ts";
import { gptbotPass, longestPath } from "./activity-events.ts";

/** A crawler request to `origin` with a 512-character path (the longest the edge records). */
const crawl = (origin: string, n: number): ActivityEvent => ({
  kind: "crawler",
  event: gptbotPass(longestPath(origin, n)),
});

describe("the buffer's bound holds while every ActivityLog call fails (restore)", () => {
  it.each([
    { origins: 1_000, eventsPerRound: 4, rounds: 60, heldAtMost: 5_000 },
    { origins: 100, eventsPerRound: 40, rounds: 10, heldAtMost: 5_000 },
  ])(
    "$origins origins, $eventsPerRound events each a round, $rounds failed flushes: at most $heldAtMost recent requests held",
    ({ origins, eventsPerRound, rounds, heldAtMost }) => {
      const buffer = new ActivityBuffer();
      for (let round = 0; round < rounds; round++) {
        // Under 5,000 new events a round: the recorder's takeLargest never fires.
        for (let o = 0; o < origins; o++)
          for (let e = 0; e < eventsPerRound; e++) buffer.add(`h${o}.tenants.example`, crawl(`h${o}`, e));
        // The flush tick takes everything; every call fails; send() restores each batch.
        for (const [origin, batch] of buffer.take()) buffer.restore(origin, batch);
      }
      const held = buffer.take().reduce((sum, [, batch]) => sum + batch.recent.length, 0);
      expect(held).toBeLessThanOrEqual(heldAtMost);
    },
  );
});
