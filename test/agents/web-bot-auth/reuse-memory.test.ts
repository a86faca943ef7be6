// The per-isolate memory of signature uses: a use within its window is a reuse; memory stays
// within its capacity however many signatures arrive.
import { describe, expect, it } from "vitest";
import { ReuseMemory } from "../../../src/agents/web-bot-auth/reuse-memory.ts";

describe("ReuseMemory", () => {
  it.each([
    { why: "first use", uses: [{ key: "a", forgetAt: 100, now: 0 }], reused: [false] },
    {
      why: "the same key again within its window",
      uses: [
        { key: "a", forgetAt: 100, now: 0 },
        { key: "a", forgetAt: 100, now: 99 },
      ],
      reused: [false, true],
    },
    {
      why: "the same key after its window: the verifier refuses it anyway, so memory has let it go",
      uses: [
        { key: "a", forgetAt: 100, now: 0 },
        { key: "a", forgetAt: 200, now: 100 },
      ],
      reused: [false, false],
    },
    {
      why: "another key",
      uses: [
        { key: "a", forgetAt: 100, now: 0 },
        { key: "b", forgetAt: 100, now: 1 },
      ],
      reused: [false, false],
    },
  ])("$why", ({ uses, reused }) => {
    const memory = new ReuseMemory(10);
    expect(uses.map(({ key, forgetAt, now }) => memory.used(key, forgetAt, now))).toEqual(reused);
  });

  it("never holds more than its capacity; when full the oldest use is forgotten first", () => {
    const memory = new ReuseMemory(3);
    for (const key of ["a", "b", "c", "d"]) memory.used(key, 1_000, 0);
    expect(memory.size).toBe(3);
    expect(memory.used("d", 1_000, 1)).toBe(true);
    expect(memory.used("a", 1_000, 1)).toBe(false); // forgotten: the documented miss
  });

  it("a flood of 100,000 fresh signatures leaves it at its capacity", () => {
    const memory = new ReuseMemory(1_000);
    for (let i = 0; i < 100_000; i++) memory.used(`k${i}`, 10_000, i % 10_000);
    expect(memory.size).toBe(1_000);
  });
});
