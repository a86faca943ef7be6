// Attack session 10: the activity flush chain (worker/activity/recorder.ts flushChain) lives in
// ONE request's waitUntil, which Cloudflare ends 30 s after the response; the chain's comment
// counts on ending by "maxWaitMs plus a tick and a call". But each tick awaits ALL its calls
// before sleeping again, so one slow ActivityLog object (a tenant's own, loaded by its traffic
// from many locations) pushes the chain's last tick, which carries every other origin's
// waiting batch, past the 30 s: those batches are taken from the buffer and then cancelled with
// the waitUntil, lost without a log. Same harness as activity-flush.test.ts: a counting
// namespace and a fake clock. FAILS on attack10 (the hole this session reports).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityBatch } from "../../src/policy/activity-batch.ts";
import { flushSettings } from "../../src/worker/activity/recorder.ts";
import { recordOn } from "./activity-recording.ts";
import { freshState } from "./helpers.ts";

const START = 1_800_000_000_000;
/** Cloudflare cancels a request's waitUntil work this long after its response. */
const WAIT_UNTIL_LIMIT_MS = 30_000;

let calls: { origin: string; startedAt: number }[] = [];
let slowOrigin = "";
let slowMs = 0;
const namespace = {
  idFromName: (name: string) => name,
  get: (origin: string) => ({
    record: async (_batch: ActivityBatch) => {
      calls.push({ origin, startedAt: Date.now() });
      if (origin === slowOrigin) await new Promise((resolve) => setTimeout(resolve, slowMs));
      return { problems: [] };
    },
  }),
};

const request = (origin: string) => recordOn(namespace, origin, { kind: "human", time: Date.now() });

const host = (k: number) => `https://host-${k}.test`;

beforeEach(async () => {
  await freshState();
  calls = [];
  vi.useFakeTimers({ now: START });
  flushSettings.delayMs = 2_000;
});
afterEach(async () => {
  vi.useRealTimers();
  await freshState();
});

describe("the flush chain's calls all start within its request's waitUntil (30 s)", () => {
  it.each([
    {
      name: "the tenant's object answers in 14 s",
      slow: host(0),
      ms: 14_000,
      latestCallAt: START + WAIT_UNTIL_LIMIT_MS,
    },
    { name: "the tenant's object answers in 9 s", slow: host(0), ms: 9_000, latestCallAt: START + WAIT_UNTIL_LIMIT_MS },
  ])(
    "$name: host-1 … host-99's batches are called by 30 s after the chain's request",
    async ({ slow, ms, latestCallAt }) => {
      slowOrigin = slow;
      slowMs = ms;
      // The chain's request: host-0's tenant, then one person each on 99 other hosts; then the
      // tenant keeps 5 requests a second going (so its batch is due at every tick, and the
      // isolate is never quiet).
      for (let i = 0; i < 60; i++) request(host(0));
      for (let k = 1; k < 100; k++) request(host(k));
      for (let second = 1; second <= 60; second++) {
        await vi.advanceTimersByTimeAsync(1_000);
        for (let i = 0; i < 5; i++) request(host(0));
      }
      const others = calls.filter((call) => call.origin !== host(0));
      expect(others.length).toBe(99);
      expect(Math.max(...others.map((call) => call.startedAt))).toBeLessThanOrEqual(latestCallAt);
    },
  );
});
