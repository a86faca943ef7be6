// Every command the docs mark as runnable against the demo (a `sh demo` block: CONTRIBUTING.md
// "Documented commands") is run against `npm run dev`'s demo, in the order written, and its
// output compared with the answer the docs show. The docs cannot drift from the product.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  documentedCommands,
  matchesDocumented,
  outputLines,
  type DocumentedCommand,
} from "../../scripts/documented-commands.ts";
import { startDevScript, type EdgeProcess } from "../../scripts/edge-process.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const DOCUMENTED_ADDRESS = "127.0.0.1:8787";
const FILES = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .toSorted()
    .map((name) => `docs/${name}`),
];
const COMMANDS: DocumentedCommand[] = FILES.flatMap((file) =>
  documentedCommands(file, readFileSync(join(ROOT, file), "utf8")),
);

let demo: EdgeProcess;

beforeAll(async () => {
  demo = await startDevScript([]);
}, 120_000);

afterAll(async () => {
  await demo?.stop();
});

function bash(command: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile("bash", ["-c", command], { cwd: ROOT, timeout: 20_000 }, (_error, stdout, stderr) =>
      done({ stdout, stderr }),
    ),
  );
}

describe("documented commands against the demo", () => {
  it("the docs mark some commands as runnable (a test over none would prove nothing)", () => {
    expect(COMMANDS.length).toBeGreaterThan(0);
  });

  it.each(COMMANDS)("$where: $command", async ({ command, expected }) => {
    const address = new URL(demo.url).host;
    const { stdout, stderr } = await bash(command.replaceAll(DOCUMENTED_ADDRESS, address));
    const actual = outputLines(stdout.replaceAll(address, DOCUMENTED_ADDRESS));
    if (!matchesDocumented(expected, actual)) {
      // The whole output beside the documented one, so the fix is obvious from the report.
      expect({ output: actual, stderr }).toEqual({ output: expected, stderr });
    }
  });
});
