// When the isolate's activity buffer goes to the ActivityLog objects (issue 33): with many
// origins a flush tick sends only the origins worth a call, the rest wait (never past the chain's
// end, never when the isolate goes quiet); one origin is sent as it always was. The recorder is
// called directly with a counting namespace and a fake clock: each row is when events came and
// the calls the objects must then have had, written down literally.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityBatch } from "../../src/policy/activity-batch.ts";
import { flushSettings } from "../../src/worker/activity/recorder.ts";
import { gptbotPass, longestPath } from "../policy/activity-events.ts";
import { recordOn } from "./activity-recording.ts";
import { freshState } from "./helpers.ts";

/** Each object call: its origin and how many people's requests its batch counted. */
let calls: { origin: string; events: number; at: number }[] = [];
/** Every call fails, as a reset object's does (the call still counts in `calls`). */
let failing = false;
const namespace = {
  idFromName: (name: string) => name,
  get: (origin: string) => ({
    record: async (batch: ActivityBatch) => {
      if (failing) {
        calls.push({ origin, events: 0, at: Date.now() });
        throw new Error("the object was reset");
      }
      calls.push({ origin, events: batch.humans.reduce((sum, row) => sum + row.count, 0), at: Date.now() });
      return { problems: [] };
    },
  }),
};

/** One person's request to `origin` now, as the edge records it. */
const request = (origin: string) => recordOn(namespace, origin, { kind: "human", time: Date.now() });

/** One crawler's request to `origin` now, with a 512-character path (the longest recorded). */
function crawl(origin: string): void {
  const time = Date.now();
  recordOn(namespace, origin, { kind: "crawler", event: gptbotPass(longestPath(origin, time), time) });
}

const host = (k: number) => `https://host-${k}.test`;
const sentTo = (origin: string) => calls.filter((call) => call.origin === origin).reduce((sum, c) => sum + c.events, 0);
const sentEvents = () => calls.reduce((sum, call) => sum + call.events, 0);

beforeEach(async () => {
  await freshState();
  calls = [];
  vi.useFakeTimers({ now: 1_800_000_000_000 });
  flushSettings.delayMs = 2_000;
  // The rows below are about which origins are due, with a Paid plan's subrequests; the last
  // describe is about the Free plan's budget (flushSettings' default).
  flushSettings.maxCallsPerChain = 1_000;
});
afterEach(async () => {
  flushSettings.maxCallsPerChain = 20;
  failing = false;
  vi.useRealTimers();
  await freshState();
});

/** 60 requests for host-0 and one each for host-1 … host-99, all at the start. */
function burst(): void {
  for (let i = 0; i < 60; i++) request(host(0));
  for (let k = 1; k < 100; k++) request(host(k));
}

describe("a flush tick with many origins sends only the due ones", () => {
  it("at 2 s only host-0 (60 events ≥ 50) goes; the 99 single events wait", async () => {
    burst();
    await vi.advanceTimersByTimeAsync(1_000);
    request(host(0));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([{ origin: host(0), events: 61, at: 1_800_000_002_000 }]);
  });

  it("while traffic goes on, the waiting origins go at the chain's end (20 s), in its own waitUntil", async () => {
    burst();
    // One request a second for host-0 only, at 1 s … 19 s: not quiet, but host-1 … 99 never reach 50.
    for (let second = 1; second < 20; second++) {
      await vi.advanceTimersByTimeAsync(1_000);
      request(host(0));
    }
    await vi.advanceTimersByTimeAsync(999);
    // The tick at 2 s: host-0's 60 + 1 (at 1 s). Ticks at 4 … 18 s: host-0 holds 2 each time, not due.
    expect(calls.length).toBe(1);
    expect(sentEvents()).toBe(61);
    await vi.advanceTimersByTimeAsync(1);
    // At 20 s everything: host-0's 18 (at 2 s … 19 s) and the 99.
    expect(calls.length).toBe(101);
    expect(sentTo(host(0))).toBe(60 + 19);
    expect(sentTo(host(1))).toBe(1);
    expect(sentTo(host(99))).toBe(1);
    expect(sentEvents()).toBe(60 + 19 + 99);
  });

  it("an isolate that goes quiet sends everything at the next tick", async () => {
    burst();
    await vi.advanceTimersByTimeAsync(2_000);
    // The tick at 2 s: requests came after the chain's first, so not quiet; only host-0 was due.
    expect(calls.length).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    // No request since: the tick at 4 s sends the 99 and the chain ends.
    expect(calls.length).toBe(100);
    expect(sentEvents()).toBe(159);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.length).toBe(100);
  });
});

describe("one origin (or a few) is sent as before: everything at each tick", () => {
  it.each([
    { name: "one request", requests: [0], calls: [{ origin: host(0), events: 1, at: 1_800_000_002_000 }] },
    {
      name: "30 requests, then one at 1 s (below 50: the only origin is due)",
      requests: [...Array.from({ length: 30 }, () => 0), 1_000],
      calls: [{ origin: host(0), events: 31, at: 1_800_000_002_000 }],
    },
    {
      name: "requests at 0 and 3 s: two chains, a call each",
      requests: [0, 3_000],
      calls: [
        { origin: host(0), events: 1, at: 1_800_000_002_000 },
        { origin: host(0), events: 1, at: 1_800_000_005_000 },
      ],
    },
  ])("$name", async ({ requests, calls: expected }) => {
    let now = 0;
    for (const at of requests) {
      await vi.advanceTimersByTimeAsync(at - now);
      now = at;
      request(host(0));
    }
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toEqual(expected);
  });

  it("ten origins with a request each: all ten at the first tick", async () => {
    for (let k = 0; k < 10; k++) request(host(k));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls.length).toBe(10);
  });
});

describe("the bounds send at once, before any tick", () => {
  it("an origin's 500th event sends it (and only the due origins)", async () => {
    for (let k = 1; k < 20; k++) request(host(k));
    for (let i = 0; i < 500; i++) request(host(0));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([{ origin: host(0), events: 500, at: 1_800_000_000_000 }]);
  });

  it("5,000 events held over 1,000 origins: the largest go until 2,500 are left", async () => {
    // host-0 … 9 with 100 each (1,000), then 1,000 origins in turn, four times (4,000).
    for (let k = 0; k < 10; k++) for (let i = 0; i < 100; i++) request(host(k));
    for (let round = 0; round < 4; round++) for (let k = 10; k < 1_010; k++) request(host(k));
    await vi.advanceTimersByTimeAsync(0);
    // The 10 of 100 (1,000), then 375 of 4 (1,500): 385 calls for 2,500 events.
    expect(calls.length).toBe(385);
    expect(sentEvents()).toBe(2_500);
    expect(sentTo(host(9))).toBe(100);
  });

  it("the same with every object failing: nothing put back past 2,500 held, so the next requests call no one", async () => {
    failing = true;
    for (let k = 0; k < 10; k++) for (let i = 0; i < 100; i++) crawl(host(k));
    for (let round = 0; round < 4; round++) for (let k = 10; k < 1_010; k++) crawl(host(k));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.length).toBe(385);
    // Put back up to the 5,000 (their recent requests weigh), the buffer would be at its bound
    // again, and each of these requests would call the failing objects once more.
    for (let k = 10; k < 20; k++) crawl(host(k));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.length).toBe(385);
  });
});

describe("one chain's calls stay within a Free plan request's 50 subrequests (20 a chain)", () => {
  it("100 origins going quiet: 20 calls by the chain's end, the other 80 wait for the next request's chain", async () => {
    flushSettings.maxCallsPerChain = 20;
    burst();
    await vi.advanceTimersByTimeAsync(2_000);
    // The tick at 2 s: host-0 (60 events) is due, the only call.
    expect(calls.length).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    // Quiet at 4 s: everything would go, but the chain has 19 calls left: host-1 … host-19.
    expect(calls.length).toBe(20);
    expect(sentTo(host(19))).toBe(1);
    expect(sentTo(host(20))).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.length).toBe(20);
    // The next request starts a chain with its own 20 calls.
    request(host(0));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls.length).toBe(40);
    expect(sentEvents()).toBe(60 + 19 + 20);
  });

  it("an origin's 500th event sends at most 20 due origins from that request", async () => {
    flushSettings.maxCallsPerChain = 20;
    for (let k = 1; k <= 30; k++) for (let i = 0; i < 50; i++) request(host(k));
    for (let i = 0; i < 500; i++) request(host(0));
    await vi.advanceTimersByTimeAsync(0);
    // 31 origins due (host-0's 500, 30 of 50): host-0 and the first 19 of 50 in that request.
    expect(calls.length).toBe(20);
    expect(sentTo(host(0))).toBe(500);
    expect(sentEvents()).toBe(500 + 19 * 50);
  });
});
