// Tenants under a `*.` AUTHORITIES entry each serve their own robots.txt (issue 33): a file
// shaped to compile large (two tokens and a rule per group: ~58 MB in Node for 500 KiB before
// core/match.ts shared a group's rule trees among its tokens, ~43 MB after) must not let a few
// tenants fill the isolate. The robots.txt memory weighs
// each entry's compiled matcher once built (robots/cache.ts robotsWeight, compiled-weight.ts).
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearRobotsMemory, robotsMemoryUse, storedRobots } from "../../src/worker/robots/cache.ts";
import { ROBOTS_MEMORY_BUDGET_BYTES } from "../../src/worker/memory-budget.ts";
import { applyFetch } from "../../src/worker/robots/entry.ts";
import { writeEntry } from "../../src/worker/store.ts";
import { countingKv, freshState } from "./helpers.ts";

beforeEach(freshState);
afterEach(freshState);

/** Groups of two user-agent lines and one rule, up to `kib` KiB: the worst shape measured. */
const worstShape = (kib: number) => {
  const lines: string[] = [];
  let length = 0;
  for (let n = 0; ; n++) {
    const group = `User-agent: a${n}\nUser-agent: b${n}\nDisallow: /x${n}\n`;
    if (length + group.length > kib * 1024) break;
    lines.push(group);
    length += group.length;
  }
  return lines.join("");
};

const seed = async (authorities: readonly string[], body: string) => {
  const now = Date.now();
  for (const authority of authorities) {
    const fetched = { kind: "ok", status: 200, body: new TextEncoder().encode(body) } as const;
    await writeEntry(
      env.ROBOTS,
      applyFetch(
        undefined,
        authority,
        { ...fetched, etag: undefined, lastModified: undefined, maxAge: undefined },
        { now, maxAgeSeconds: 86_400 },
      ),
    );
  }
};

/** A crawler of tenant `authority`'s group 7 asks for its refused path and another. */
const judged = async (authority: string, kv: KVNamespace) => {
  const matcher = (await storedRobots(authority, kv))?.matcher();
  return [matcher?.decide(["a7"], "/x7").allowed, matcher?.decide(["b7"], "/y").allowed];
};

describe("tenants' robots.txt of the worst shape: the memory weighs their compiled matchers", () => {
  const rows: { file: number; tenants: number; held: number; answers: (boolean | undefined)[]; why: string }[] = [
    {
      file: 36,
      tenants: 6,
      held: 5,
      answers: [false, true],
      why: "~13 MB weighed each, with its text as last good: five fit in the 64 MiB budget, the first is dropped",
    },
    {
      file: 500,
      tenants: 6,
      held: 6,
      answers: [undefined, undefined],
      why: "~135-143 MiB estimated each, over the 21.3 MiB cap: not built (robots.txt unavailable, capped-matcher.ts), only the text held",
    },
  ];
  for (const { file, tenants, held, answers, why } of rows) {
    it(`${tenants} tenants of ${file} KiB, each asked by a crawler: ${held} held (${why})`, async () => {
      const authorities = Array.from({ length: tenants }, (_, n) => `https://t${n}.tenants.example`);
      await seed(authorities, worstShape(file));
      clearRobotsMemory();
      const reads: string[] = [];
      for (const authority of authorities) {
        expect(await judged(authority, countingKv(reads, "robots:"))).toEqual(answers);
        expect(robotsMemoryUse().budgetBytes).toBeLessThanOrEqual(ROBOTS_MEMORY_BUDGET_BYTES);
      }
      expect(robotsMemoryUse().origins).toBe(held);
      reads.length = 0;
      // The newest is still held; the first is read again when it was dropped, with the same answer.
      expect(await judged(authorities[tenants - 1] ?? "", countingKv(reads, "robots:"))).toEqual(answers);
      expect(reads).toEqual([]);
      expect(await judged(authorities[0] ?? "", countingKv(reads, "robots:"))).toEqual(answers);
      expect(reads).toEqual(held < tenants ? ["robots:https://t0.tenants.example"] : []);
      clearRobotsMemory();
    }, 120_000);
  }
});
