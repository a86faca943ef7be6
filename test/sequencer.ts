// The order in which `npm test` hands files to its two workers. core and worker each use one
// worker at a time and little else; an e2e file spends much of its time waiting (wrangler dev
// starting, a fetch back-off) while its wrangler and workerd use the other core in bursts. Run
// one after the other (as vitest orders projects), the core and worker files left the second
// core mostly idle for their ~100 s, and the e2e files then ran two at a time. Here the longest
// e2e file goes first and the core and worker files right after it, so one worker takes the
// e2e file and the other the core and worker files in a row (reusing its process: isolate
// false, vitest.config.ts); the other e2e files follow, two at a time as before.
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class OverlapSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Longest first by the last run's durations (vitest's cache), else largest first.
    // BaseSequencer's sort returns a new array (the rule takes it for Array#sort).
    // oxlint-disable-next-line unicorn/no-array-sort
    const sorted = await super.sort(files);
    const [longest, ...e2e] = sorted.filter((file) => file.project.name === "e2e");
    const others = sorted.filter((file) => file.project.name !== "e2e");
    return longest === undefined ? sorted : [longest, ...others, ...e2e];
  }
}
