// How many cases a property test (fast-check) tries. Each property names the count it was
// written for; the everyday loop (`npm test`) tries a quarter of it, and PROPERTY_RUNS=full
// (what CI sets: .ci/run) tries all of it. With a fixed seed the quarter is the first quarter
// of the same sequence, so a failure the short loop finds, the full one finds too.
const FULL = process.env["PROPERTY_RUNS"] === "full";

/** `numRuns` for a property written for `full` cases: all of them in CI, a quarter (at least 50) otherwise. */
export function propertyRuns(full: number): number {
  return FULL ? full : Math.min(full, Math.max(50, Math.ceil(full / 4)));
}
