// Attack 13 (outside review of 8d048ab..f607158), its core finding A13-8: usage lines matched
// one by one on every allowed request, with no budget. (A13-5, a crawler's decision depending on
// which tokens other clients asked first, is a known limit: docs/security.md, the AUTHORITIES
// table.)
import { describe, expect, it } from "vitest";
import { compileRobots, MatchingTooCostly, parseRobotsTxt, resolveUsage } from "../../src/core/index.ts";

const LIMIT = 500 * 1024;

/** `user-agent: *`, `allow: /`, then `lines` usage lines `/*a<n> train-ai=n`, to 500 KiB at most. */
function usageFile(lines: number): string {
  let text = "user-agent: *\nallow: /\n";
  for (let n = 0; n < lines && text.length < LIMIT - 40; n++)
    text += `content-usage: /*a${n.toString(36)} train-ai=n\n`;
  return text;
}

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
  // Fixed (s11-fix13-core): usage lines are indexed in a RuleTree per format and spend the
  // matching budget, so such a file answers MatchingTooCostly (the edge's fail-safe) at once
  // instead of matching 15,554 lines; a file of 1,000 such lines is still answered, in a pass.
  const whole = parseRobotsTxt(new TextEncoder().encode(usageFile(Infinity)));
  const thousand = parseRobotsTxt(new TextEncoder().encode(usageFile(1_000)));
  // On a path of `a`s the longest line that matches is `/*aaa` (n = 370, line 373).
  const refused = [{ format: "content-usage", key: "train-ai", allow: false, lines: [373] }];

  it.each([
    { lines: "15,554", robots: whole, length: 2_000, expected: "MatchingTooCostly" },
    { lines: "15,554", robots: whole, length: 8_000, expected: "MatchingTooCostly" },
    { lines: "1,000", robots: thousand, length: 8_000, expected: refused },
  ])(
    "a crawler allowed on a $length-character path ($lines lines): its usage answered in < 20 ms",
    ({ robots, length, expected }) => {
      const matcher = compileRobots(robots);
      const path = `/${"a".repeat(length - 1)}`;
      const decision = matcher.decide(["somebot"], path);
      expect(decision.allowed).toBe(true);
      // The index (and its automaton) is built once per group: the first call builds it.
      try {
        resolveUsage(decision.group, path, { allowed: true });
      } catch {
        // measured below
      }
      const started = performance.now();
      let outcome: unknown;
      try {
        outcome = resolveUsage(decision.group, path, { allowed: true }).preferences;
      } catch (error) {
        if (!(error instanceof MatchingTooCostly)) throw error;
        outcome = error.name;
      }
      expect(performance.now() - started).toBeLessThan(20);
      expect(outcome).toEqual(expected);
    },
  );
});
