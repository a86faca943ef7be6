// Run by attack12.test.ts as `node --expose-gc test/core/attack12-heap.ts <shape>`: the heap a
// tenant's enforcement matcher (both readings) holds after the asks of `shape`, next to what
// compiledMatcherBytes weighs for it. Prints one JSON line: { held, weighed } in bytes.
import { parseRobotsTxt, reviveRobots, serializeRobots } from "../../src/core/index.ts";
import { enforcementMatcher } from "../../src/policy/path-spellings.ts";
import { compiledMatcherBytes } from "../../src/worker/robots/compiled-weight.ts";

const LIMIT = 500 * 1024;
/** 8 groups, token k named by every group but k, `disallow:/p` then `x:y` records to 500 KiB. */
export const NAMES = ["abcdefgh", "bbcdefgh", "cbcdefgh", "dbcdefgh", "ebcdefgh", "fbcdefgh", "gbcdefgh", "hbcdefgh"];
const header = (g: number) =>
  `${NAMES.filter((_, k) => k !== g)
    .map((token) => `user-agent:${token}\n`)
    .join("")}disallow:/p\n`;
const per = Math.floor((LIMIT - NAMES.length * header(0).length) / NAMES.length / "x:y\n".length);
export const SEVEN_OF_EIGHT = NAMES.map((_, g) => header(g) + "x:y\n".repeat(per)).join("");

/** `name` with the letters whose bit is set in `variant` upper-cased: the same product token. */
export const spelling = (name: string, variant: number): string =>
  [...name].map((char, i) => ((variant >> i) & 1 ? char.toUpperCase() : char)).join("");

/**
 * The heap the matcher of SEVEN_OF_EIGHT (both readings) holds after each token is asked in
 * `spellings` case spellings, measured with `heapNow` (a gc'd heapUsed), and its estimate.
 * Shared by this file's child run and bench/robots-memory.bench.ts.
 */
export function spelledHeap(
  spellings: number,
  heapNow: () => number,
): { held: number; weighed: number; asked: string | number } {
  const model = serializeRobots(parseRobotsTxt(new TextEncoder().encode(SEVEN_OF_EIGHT)));
  const before = heapNow();
  const robots = reviveRobots(model);
  const matcher = enforcementMatcher(robots);
  const record = matcher.recordReading();
  for (let variant = 0; variant < spellings; variant++) {
    for (const name of NAMES) {
      matcher.decide([spelling(name, variant)], "/x7");
      record?.decide([spelling(name, variant)], "/x7");
    }
  }
  const held = heapNow() - before;
  // Read after the measure, so that the matcher is still alive when the heap is.
  const asked = matcher.groupFor([NAMES[0] ?? ""])?.token ?? robots.groups.length;
  return { held, weighed: compiledMatcherBytes(robots, model.length), asked };
}

const gc = (globalThis as { gc?: () => void }).gc;
if (gc && process.argv[1]?.endsWith("attack12-heap.ts")) {
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  console.log(JSON.stringify(spelledHeap(Number(process.argv[2] ?? "32"), heap)));
}
