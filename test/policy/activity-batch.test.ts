// The isolate's activity buffer choosing which origins' batches go (issue 33): the due rule of a
// flush tick, the memory bound's largest-first, a restored batch due at once. Pure: no clock, the
// times are the events' own.
import { describe, expect, it } from "vitest";
import { ActivityBuffer, type ActivitySlot, type DueRule } from "../../src/policy/activity-batch.ts";
import { gptbotPass } from "./activity-events.ts";

const RULE: DueRule = { minEvents: 50, maxWaitMs: 20_000, allUpToOrigins: 10 };

/** A buffer holding, per origin, `count` people's requests made at `at` ms. */
function bufferOf(origins: { origin: string; count: number; at: number }[]): ActivityBuffer {
  const buffer = new ActivityBuffer();
  for (const { origin, count, at } of origins)
    for (let i = 0; i < count; i++) buffer.add(origin, { kind: "human", time: at });
  return buffer;
}

/** Origins taken, with their batches' people. */
const named = (batches: ReturnType<ActivityBuffer["take"]>) =>
  batches.map(([origin, batch]) => [origin, batch.humans.reduce((sum, row) => sum + row.count, 0)]);

/** 11 origins: one of each below, and `small-1` … `small-8` with one request at 19 s. */
const ELEVEN = [
  { origin: "big", count: 50, at: 19_000 },
  { origin: "old", count: 1, at: 0 },
  { origin: "young", count: 49, at: 1 },
  ...Array.from({ length: 8 }, (_, k) => ({ origin: `small-${k + 1}`, count: 1, at: 19_000 })),
];

describe("takeDue", () => {
  it.each([
    {
      name: "11 origins: the one with 50 events and the one 20 s old",
      origins: ELEVEN,
      now: 20_000,
      due: [
        ["big", 50],
        ["old", 1],
      ],
      left: 9,
      size: 57,
    },
    {
      name: "a ms earlier, the old one is not due yet",
      origins: ELEVEN,
      now: 19_999,
      due: [["big", 50]],
      left: 10,
      size: 58,
    },
    {
      name: "10 origins: all, whatever their size or age",
      origins: ELEVEN.slice(1),
      now: 19_000,
      due: [["old", 1], ["young", 49], ...Array.from({ length: 8 }, (_, k) => [`small-${k + 1}`, 1])],
      left: 0,
      size: 0,
    },
    {
      name: "one origin with one event: all",
      origins: [{ origin: "one", count: 1, at: 0 }],
      now: 0,
      due: [["one", 1]],
      left: 0,
      size: 0,
    },
  ])("$name", ({ origins, now, due, left, size }) => {
    const buffer = bufferOf(origins);
    expect(named(buffer.takeDue(now, RULE))).toEqual(due);
    expect(buffer.origins).toBe(left);
    expect(buffer.size).toBe(size);
  });
});

describe("takeLargest", () => {
  it.each([
    {
      name: "the largest until at most 60 are left",
      events: 60,
      taken: [
        ["a", 40],
        ["b", 30],
      ],
      size: 45,
    },
    { name: "nothing when under the bound already", events: 200, taken: [], size: 115 },
    {
      name: "all when the bound is 0",
      events: 0,
      taken: [
        ["a", 40],
        ["b", 30],
        ["c", 25],
        ["d", 20],
      ],
      size: 0,
    },
  ])("$name", ({ events, taken, size }) => {
    const buffer = bufferOf([
      { origin: "c", count: 25, at: 0 },
      { origin: "a", count: 40, at: 0 },
      { origin: "d", count: 20, at: 0 },
      { origin: "b", count: 30, at: 0 },
    ]);
    expect(named(buffer.takeLargest(events)).toSorted()).toEqual(taken);
    expect(buffer.size).toBe(size);
  });
});

describe("restore", () => {
  it("a batch put back is due at the next tick among many origins, without counting as new events", () => {
    const buffer = bufferOf(ELEVEN.slice(1));
    const [[origin, batch] = ["", { hourly: [], humans: [], recent: [] }]] = bufferOf([
      { origin: "failed", count: 3, at: 19_000 },
    ]).take();
    expect(buffer.restore(origin, batch)).toEqual({ kept: true, recentDropped: 0 });
    // 10 origins of ELEVEN and the restored one: 11, so only the due go; the old one is 19 s old.
    expect(buffer.size).toBe(58);
    expect(named(buffer.takeDue(19_000, RULE))).toEqual([["failed", 3]]);
  });
});

/** A batch as a failed call hands it back: `counts` hourly rows, `recent` crawler requests. */
function failedBatch(counts: number, recent: number): ReturnType<ActivityBuffer["take"]>[number][1] {
  return {
    hourly: Array.from({ length: counts }, (_, k) => ({
      hour: k,
      token: "GPTBot",
      category: null,
      verified: "unchecked" as const,
      action: "pass" as const,
      layer: "robots.txt" as const,
      count: 1,
      violations: 0,
    })),
    humans: [],
    recent: Array.from({ length: recent }, (_, k) => gptbotPass(`/${k}`)),
  };
}

describe("restore counts in the held bound (attack session 10: a failing object grew it without one)", () => {
  it.each([
    {
      name: "room for all: counts and recent kept, each a row held",
      held: 0,
      counts: 1,
      recent: 4,
      outcome: { kept: true, recentDropped: 0 },
      heldAfter: 5,
      recentAfter: ["/0", "/1", "/2", "/3"],
    },
    {
      name: "room for the counts and 2 recent: the oldest 2 recent dropped first",
      held: 7,
      counts: 1,
      recent: 4,
      outcome: { kept: true, recentDropped: 2 },
      heldAfter: 10,
      recentAfter: ["/2", "/3"],
    },
    {
      name: "no room for its counts: the whole batch dropped",
      held: 9,
      counts: 2,
      recent: 4,
      outcome: { kept: false, recentDropped: 4 },
      heldAfter: 9,
      recentAfter: [],
    },
  ])("$name", ({ held, counts, recent, outcome, heldAfter, recentAfter }) => {
    const buffer = bufferOf([{ origin: "busy", count: held, at: 0 }]);
    expect(buffer.restore("failed", failedBatch(counts, recent), 10)).toEqual(outcome);
    expect(buffer.held).toBe(heldAfter);
    const failed = buffer.take().find(([origin]) => origin === "failed")?.[1];
    expect((failed?.recent ?? []).map((event) => event.path)).toEqual(recentAfter);
    expect(buffer.held).toBe(0);
  });

  it("takeLargest weighs restored rows: an origin of 7 restored rows goes before one of 3 new events", () => {
    const buffer = bufferOf([{ origin: "new", count: 3, at: 0 }]);
    buffer.restore("restored", failedBatch(1, 6));
    expect(buffer.held).toBe(10);
    expect(named(buffer.takeLargest(5))).toEqual([["restored", 0]]);
    expect(buffer.held).toBe(3);
    expect(buffer.size).toBe(3);
  });
});

const HOUR = 3_600_000;
const pass = (time: number) => gptbotPass("/", time);
const refused = (time: number) => ({ ...gptbotPass("/members/", time), action: "block" as const, violation: true });
const verified = (time: number) => ({ ...gptbotPass("/", time), verified: "verified" as const });
const training = (time: number) => ({ ...gptbotPass("/", time), category: "ai-training" as const });
const claudeBot = (time: number) => ({ ...gptbotPass("/", time), token: "ClaudeBot", tokens: ["ClaudeBot"] });
const pathsOf = (batches: ReturnType<ActivityBuffer["take"]>) =>
  batches.map(([origin, batch]) => [origin, batch.recent.map((event) => event.path)]);

describe("counts: an origin's events of different kinds, interleaved, each counted in its own row", () => {
  it.each([
    {
      name: "pass, block, pass: two rows, not one",
      events: [pass(0), refused(1), pass(2)],
      hourly: [
        [0, "GPTBot", null, "unchecked", "pass", "robots.txt", 2, 0],
        [0, "GPTBot", null, "unchecked", "block", "robots.txt", 1, 1],
      ],
    },
    {
      name: "the same kind in two hours",
      events: [pass(0), pass(HOUR), pass(1)],
      hourly: [
        [0, "GPTBot", null, "unchecked", "pass", "robots.txt", 2, 0],
        [HOUR, "GPTBot", null, "unchecked", "pass", "robots.txt", 1, 0],
      ],
    },
    {
      name: "verified, category and token each make a row",
      events: [pass(0), verified(1), training(2), claudeBot(3), pass(4)],
      hourly: [
        [0, "GPTBot", null, "unchecked", "pass", "robots.txt", 2, 0],
        [0, "GPTBot", null, "verified", "pass", "robots.txt", 1, 0],
        [0, "GPTBot", "ai-training", "unchecked", "pass", "robots.txt", 1, 0],
        [0, "ClaudeBot", null, "unchecked", "pass", "robots.txt", 1, 0],
      ],
    },
  ])("$name", ({ events, hourly }) => {
    const buffer = new ActivityBuffer();
    for (const event of events) buffer.add("a", { kind: "crawler", event });
    const [[, batch] = ["", undefined]] = buffer.take();
    expect(
      batch?.hourly.map((row) => [
        row.hour,
        row.token,
        row.category,
        row.verified,
        row.action,
        row.layer,
        row.count,
        row.violations,
      ]),
    ).toEqual(hourly);
  });

  it("operators: per hour and category, the crawls, verified and bytes of answered crawls only", () => {
    const buffer = new ActivityBuffer();
    const crawl = (event: ReturnType<typeof pass>, operator: string, bytes: number, answered = true) =>
      buffer.add("a", { kind: "crawler", event, operator, bytes, answered });
    crawl(pass(0), "OpenAI", 10);
    crawl(training(1), "OpenAI", 20);
    crawl(verified(2), "OpenAI", 30);
    crawl(pass(HOUR), "OpenAI", 40);
    crawl(claudeBot(3), "Anthropic", 50);
    crawl(pass(4), "OpenAI", 60, false);
    crawl(training(5), "OpenAI", 70);
    buffer.add("a", { kind: "human", time: 6, referredBy: "OpenAI" });
    const [[, batch] = ["", undefined]] = buffer.take();
    expect(batch?.operators).toEqual([
      { hour: 0, operator: "OpenAI", crawls: 2, verified: 1, bytes: 40, referrals: 1 },
      { hour: 0, operator: "OpenAI", category: "ai-training", crawls: 2, verified: 0, bytes: 90, referrals: 0 },
      { hour: HOUR, operator: "OpenAI", crawls: 1, verified: 0, bytes: 40, referrals: 0 },
      { hour: 0, operator: "Anthropic", crawls: 1, verified: 0, bytes: 50, referrals: 0 },
    ]);
  });
});

describe("a caller's slot for an origin's entry (the request path keeps one per host)", () => {
  it.each([
    {
      name: "events of one origin through its slot, then taken: the next event starts a new batch",
      steps: (buffer: ActivityBuffer, other: ActivityBuffer, slot: ActivitySlot) => {
        buffer.add("a", { kind: "crawler", event: gptbotPass("/1") }, slot);
        buffer.add("a", { kind: "crawler", event: gptbotPass("/2") }, slot);
        const first = pathsOf(buffer.take());
        buffer.add("a", { kind: "crawler", event: gptbotPass("/3") }, slot);
        return [first, pathsOf(buffer.take())];
      },
      expected: [[["a", ["/1", "/2"]]], [["a", ["/3"]]]],
    },
    {
      name: "taken by the memory bound (takeLargest), then a new event: in the buffer, not in the taken entry",
      steps: (buffer: ActivityBuffer, other: ActivityBuffer, slot: ActivitySlot) => {
        buffer.add("a", { kind: "crawler", event: gptbotPass("/1") }, slot);
        const first = pathsOf(buffer.takeLargest(0));
        buffer.add("a", { kind: "crawler", event: gptbotPass("/2") }, slot);
        return [first, pathsOf(buffer.take())];
      },
      expected: [[["a", ["/1"]]], [["a", ["/2"]]]],
    },
    {
      name: "a slot filled by another buffer is not used by this one",
      steps: (buffer: ActivityBuffer, other: ActivityBuffer, slot: ActivitySlot) => {
        other.add("a", { kind: "crawler", event: gptbotPass("/1") }, slot);
        buffer.add("a", { kind: "crawler", event: gptbotPass("/2") }, slot);
        return [pathsOf(other.take()), pathsOf(buffer.take())];
      },
      expected: [[["a", ["/1"]]], [["a", ["/2"]]]],
    },
    {
      name: "a slot filled for another origin is not used for this one",
      steps: (buffer: ActivityBuffer, other: ActivityBuffer, slot: ActivitySlot) => {
        buffer.add("a", { kind: "crawler", event: gptbotPass("/1") }, slot);
        buffer.add("b", { kind: "crawler", event: gptbotPass("/2") }, slot);
        return [pathsOf(buffer.take()), []];
      },
      expected: [
        [
          ["a", ["/1"]],
          ["b", ["/2"]],
        ],
        [],
      ],
    },
  ])("$name", ({ steps, expected }) => {
    const slot: ActivitySlot = { activity: undefined };
    expect(steps(new ActivityBuffer(), new ActivityBuffer(), slot)).toEqual(expected);
  });
});
