// A decision past the matcher's budget (src/core/match-budget.ts, attack 12 A12-6) is a clear
// error naming the URL, never a crash: the URLs before it keep their answers.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.ts";

// One group of 32,082 distinct wildcard rules (500 KiB): too many to try for any path but /robots.txt.
let COSTLY = "user-agent:a\n";
for (let n = 0; COSTLY.length < 500 * 1024 - 20; n++) COSTLY += `disallow:/*a${n.toString(36)}\n`;
const dir = mkdtempSync(join(tmpdir(), "robots-edge-budget-"));
const file = join(dir, "robots.txt");
writeFileSync(file, COSTLY);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOO_COSTLY =
  "not decided: matching the path against this robots.txt would take more than 300000 steps (its wildcard rules, or the groups naming the crawler, are too many for a path that long): the decision was not made";

const line = (url: string) => JSON.stringify({ robots: COSTLY, ua: "a", url });

describe("robots-edge check on a file too costly to match", () => {
  it.each([
    {
      name: "URL arguments",
      args: [file, "a", "/robots.txt", "/x", "/y"],
      stdout: "allowed\t/robots.txt\t/robots.txt is always allowed\n",
      stderr: `robots-edge check: /x: ${TOO_COSTLY}\n`,
    },
    {
      name: "a token the file does not name",
      args: [file, "b", "/x"],
      stdout: "allowed\t/x\tno group applies to this crawler\n",
      stderr: "",
    },
  ])("$name", async ({ args, stdout, stderr }) => {
    const result = await run(["check", ...args]);
    expect([result.stdout, result.stderr]).toEqual([stdout, stderr]);
    expect(result.code).toBe(stderr === "" ? 0 : 2);
  });

  it("--jsonl: the line gets an error object, the others still answer", async () => {
    const result = await run(["check", "--jsonl"], `${line("/robots.txt")}\n${line("/x")}\n`);
    expect(
      result.stdout
        .trim()
        .split("\n")
        .map((out) => JSON.parse(out) as unknown),
    ).toEqual([
      { allowed: true, rule: null, reason: "robots-txt", group: "a" },
      { error: TOO_COSTLY.replace("not decided: ", "") },
    ]);
    expect(result.code).toBe(2);
  });
});
