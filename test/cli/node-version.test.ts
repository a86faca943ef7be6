// The Node version guard every entry point runs before its TypeScript loads (issue #15).
import { execFileSync, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "../../bin/require-node.js";

const ROOT = resolve(import.meta.dirname, "../..");

describe("nodeVersionProblem: one line naming the version needed and how to get it", () => {
  it.each([
    { version: "20.20.2", refused: true },
    { version: "v20.20.2", refused: true },
    { version: "22.17.9", refused: true },
    { version: "22.12.0", refused: true },
    { version: "18.0.0", refused: true },
    { version: "22.18.0", refused: false },
    { version: "22.18.1", refused: false },
    { version: "23.0.0", refused: false },
    { version: "24.21.0", refused: false },
    { version: "not-a-version", refused: true },
  ])("$version refused: $refused", ({ version, refused }) => {
    const problem = nodeVersionProblem(version, "robots-edge");
    if (!refused) return expect(problem).toBeUndefined();
    expect(problem).toContain(`robots-edge needs Node.js >= 22.18.0 (this is ${version})`);
    expect(problem).toContain("npm install --prefix ~/.node24 node@24");
    expect(problem).not.toContain("\n");
  });
});

// A real run under the machine's own Node when it is an old one (Debian's Node 20 here).
const OLD_NODE = "/usr/bin/node";
const oldVersion = (() => {
  try {
    return execFileSync(OLD_NODE, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
})();
const isOld = oldVersion !== "" && nodeVersionProblem(oldVersion) !== undefined;

describe.skipIf(!isOld)(`entry points under ${OLD_NODE} (${oldVersion || "absent"})`, () => {
  it.each([
    { entry: "bin/robots-edge.js", args: ["check", "robots.txt", "bot", "/"], name: "robots-edge" },
    { entry: "scripts/dev.js", args: [], name: "scripts/dev" },
    { entry: "scripts/complete-lockfile.js", args: [], name: "scripts/complete-lockfile" },
  ])("$entry: exit 2 and one line, no stack trace", ({ entry, args, name }) => {
    const result = spawnSync(OLD_NODE, [resolve(ROOT, entry), ...args], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(`^${name} needs Node\\.js >= 22\\.18\\.0 \\(this is ${oldVersion}\\): .+\\n$`),
    );
  });
});
