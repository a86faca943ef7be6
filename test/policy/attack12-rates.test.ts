// Attack 12, found beside the matcher (policy layer, not the matcher's sharing): a group's
// Request-rate lines are sorted once per requestRates array (crawl-rate.ts strictestFirst), but
// rateLimitsAt then walks all of them on every paced request: each line implied by a stricter
// one is skipped only after `impliedByDelay` and `rates.some(implies)`, and the walk stops only
// at MAX_ENFORCED_RATES lines KEPT. 500 KiB of `request-rate:` lines (~25,800) in one group:
// measured 3.1 ms a request with one token (25,836 lines) (target 1 ms), 38 ms when the group is a merged list
// rebuilt on every request (A12-2 in test/core/attack12.test.ts: a new requestRates array
// each time, so the WeakMap misses and all are sorted again).
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { rateLimitsAt } from "../../src/policy/crawl-rate.ts";

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

describe("A12-5 CPU: rateLimitsAt walks every Request-rate line of the group on every request", () => {
  let text = "user-agent:a\ndisallow:/p\nrequest-rate:1/1s\n";
  for (let n = 0; text.length < 500 * 1024 - 24; n++) text += `request-rate:${(n % 97) + 2}/${(n % 89) + 1}s\n`;

  it("one group of ~25,800 Request-rate lines: rateLimitsAt states 1/1s and 2/89s and costs < 1 ms a request", () => {
    const group = compileRobots(parseRobotsTxt(new TextEncoder().encode(text))).groupFor(["a"]);
    if (!group) throw new Error("no group for a");
    expect(rateLimitsAt(group, T0).rates).toEqual([
      { requests: 1, ms: 1_000 },
      { requests: 2, ms: 89_000 },
    ]);
    let least = Infinity;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      rateLimitsAt(group, T0 + run);
      least = Math.min(least, performance.now() - started);
    }
    expect(least).toBeLessThan(1);
  });
});
