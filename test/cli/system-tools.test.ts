// `npm test` on a fresh Debian machine (issue #15): missing system tools -> install, or stop with the command.
import { describe, expect, it } from "vitest";
import { planSystemTools } from "../../scripts/system-tools.ts";

describe("planSystemTools", () => {
  it.each([
    { missing: [], isRoot: false, hasAptGet: true, expected: { action: "none" } },
    {
      missing: ["wget", "chromium"],
      isRoot: true,
      hasAptGet: true,
      expected: {
        action: "install",
        command: ["apt-get", "install", "-y", "--no-install-recommends", "wget", "chromium"],
      },
    },
    {
      missing: ["python3"],
      isRoot: false,
      hasAptGet: true,
      expected: {
        action: "stop",
        message:
          "npm test needs python3 for the end-to-end tests (real clients): sudo apt-get update && sudo apt-get install -y --no-install-recommends python3 (or set CHROMIUM_PATH to an existing Chromium); then run npm test again",
      },
    },
    {
      missing: ["chromium", "wget", "python3"],
      isRoot: true,
      hasAptGet: false,
      expected: {
        action: "stop",
        message:
          "npm test needs wget, python3, chromium for the end-to-end tests (real clients): install wget, python3, chromium with your system's package manager (or set CHROMIUM_PATH to an existing Chromium); then run npm test again",
      },
    },
  ])("missing $missing, root $isRoot, apt-get $hasAptGet", ({ expected, ...situation }) => {
    expect(planSystemTools(situation)).toEqual(expected);
  });
});
