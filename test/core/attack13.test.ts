// Attack 13 (outside review of 8d048ab..f607158): shared matcher state across clients. FAILS on
// f607158; the expectation is the project's rule (a crawler is decided the same whoever asked
// before), not the current behaviour.
import { describe, expect, it } from "vitest";
import {
  compileRobots,
  MatchingTooCostly,
  parseRobotsTxt,
  resolveUsage,
  type RobotsMatcher,
} from "../../src/core/index.ts";

const LIMIT = 500 * 1024;

/** A decision's answer, or the name of what it threw. */
function answer(matcher: RobotsMatcher, token: string, path: string): boolean | string {
  try {
    return matcher.decide([token], path).allowed;
  } catch (error) {
    if (error instanceof MatchingTooCostly) return error.name;
    throw error;
  }
}

describe("A13-5 another client's User-Agents decide whether a crawler's path can be matched at all", () => {
  // Attack 12's A12-1 file (3,764 groups naming `a`, two of b, c, d each, 6 × `disallow:/*ab`).
  // In a fresh isolate `a`'s merged tree fits the bound and answers every path. Once any client
  // has sent User-Agents `b` and `c` (one request each, any path), their merged trees fill the
  // bound for good (kept, never dropped: match.ts mergedTrees) and `a` is answered across its
  // 3,764 groups' own trees: 3,764 × ~80 steps past the budget on any path over ~10
  // characters, so every later request of crawler `a` is answered 503 by the edge, for the
  // isolate's life. Measured on f607158 (/tmp/s11-attack13-cpu/order.ts): paths of 31, 201,
  // 2,001 and 8,000 characters: `true` fresh, MatchingTooCostly after b and c.
  let text = "";
  for (let n = 0; ; n++) {
    const others = ["b", "c", "d"].filter((_, i) => i !== n).map((token) => `user-agent:${token}\n`);
    const group = `user-agent:a\n${others.join("")}${"disallow:/*ab\n".repeat(6)}`;
    if (text.length + group.length > LIMIT) break;
    text += group;
  }
  const robots = parseRobotsTxt(new TextEncoder().encode(text));

  it.each([
    { path: `/${"a".repeat(30)}`, expected: true },
    { path: `/x/${"a".repeat(200)}`, expected: true },
    { path: "/x/ab", expected: false },
  ])("crawler a on $path: $expected fresh, and the same after other clients sent b and c", ({ path, expected }) => {
    const fresh = compileRobots(robots);
    const afterOthers = compileRobots(robots);
    for (const token of ["b", "c"]) afterOthers.decide([token], "/");
    expect([answer(fresh, "a", path), answer(afterOthers, "a", path)]).toEqual([expected, expected]);
  });
});

describe("A13-8 CPU: a group's usage lines are matched one by one on every allowed request, with no budget", () => {
  // The matching budget (match-budget.ts) covers the rule trees only. resolveUsage
  // (core/usage-resolve.ts) tries every Content-Usage line of the crawler's group against the
  // path, twice (Content-Usage, Content-Signal), and the edge asks it for every request robots.txt
  // passes, on every spelling of the path (edge-decision.ts `usage`, before USAGE_SIGNALS is
  // read, so `off` does not spare it). The tenant's file: `user-agent: *`, `allow: /`, then
  // `content-usage: /*a<n> train-ai=n` to 500 KiB (15,554 lines); each line's `a<n>` is looked
  // for over the whole path. Measured on f607158 (Node 24, /tmp/s11-attack13-cpu/usage.ts): 10.3
  // ms a call on a 100-character path, 179 ms on 2 KB, 702 ms on 8 KB, for any crawler, times
  // the path's spellings (10 for `//a;x%2Fa%3Aa/...`). The budget allows ~2 ms a decision.
  let text = "user-agent: *\nallow: /\n";
  for (let n = 0; text.length < LIMIT - 40; n++) text += `content-usage: /*a${n.toString(36)} train-ai=n\n`;
  const robots = parseRobotsTxt(new TextEncoder().encode(text));

  it.each([{ length: 2_000 }, { length: 8_000 }])(
    "a crawler allowed on a $length-character path: its usage resolved in < 20 ms",
    ({ length }) => {
      const matcher = compileRobots(robots);
      const path = `/${"a".repeat(length - 1)}`;
      const decision = matcher.decide(["somebot"], path);
      expect(decision.allowed).toBe(true);
      const started = performance.now();
      resolveUsage(decision.group, path, { allowed: true });
      expect(performance.now() - started).toBeLessThan(20);
    },
  );
});
