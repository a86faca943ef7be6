// The token memo (match.ts `tokenGroups`, up to 256 tokens as sent) and the bound on what a
// matcher builds (builtCostBound): a group the bound drops must be free to go, whatever
// spellings of its token the memo still holds. Attack 12 (A12-3): an entry held the group it
// was built for, and that group's merged list, after the bound dropped it, once per case
// spelling (`Abcdefgh`, `aBcdefgh`, …): 117 MB held for 16 spellings of 8 tokens, estimated
// 35 MB. Observed from outside: a WeakRef to the first group, in a child with --expose-gc.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("a dropped group is not held by the token memo", () => {
  it("asked as p0-1; as P0-1; as P0-1, p0-1 and p0-1/2.0: once the other 189 tokens fill the bound, nothing holds it", () => {
    const script = fileURLToPath(new URL("./token-memo-heap.ts", import.meta.url));
    const run = spawnSync(process.execPath, ["--expose-gc", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ held: [false, false, false] });
  });
});
