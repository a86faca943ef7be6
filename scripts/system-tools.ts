// `npm test` runs this first (the `pretest` script): the end-to-end tests drive real clients —
// wget, Python's robotparser (python3) and Chromium (the operator page) — that npm cannot
// install. Missing ones are installed from Debian when we can (root with apt-get, as .ci/run
// does); otherwise we stop at once with the exact command, instead of failing minutes later.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Each tool, how we find it, and its Debian package. */
export const SYSTEM_TOOLS = [
  { tool: "wget", package: "wget" },
  { tool: "python3", package: "python3" },
  { tool: "chromium", package: "chromium" },
] as const;

export interface ToolsSituation {
  readonly missing: readonly string[];
  readonly isRoot: boolean;
  readonly hasAptGet: boolean;
}

export type ToolsPlan =
  | { readonly action: "none" }
  | { readonly action: "install"; readonly command: readonly string[] }
  | { readonly action: "stop"; readonly message: string };

/** What to do about the missing tools (pure: the table in test/cli/system-tools.test.ts checks it). */
export function planSystemTools(situation: ToolsSituation): ToolsPlan {
  const packages = SYSTEM_TOOLS.filter(({ tool }) => situation.missing.includes(tool)).map((entry) => entry.package);
  if (packages.length === 0) return { action: "none" };
  const install = ["apt-get", "install", "-y", "--no-install-recommends", ...packages];
  if (situation.isRoot && situation.hasAptGet) return { action: "install", command: install };
  const how = situation.hasAptGet
    ? `sudo apt-get update && sudo ${install.join(" ")}`
    : `install ${packages.join(", ")} with your system's package manager`;
  return {
    action: "stop",
    message:
      `npm test needs ${packages.join(", ")} for the end-to-end tests (real clients): ${how}` +
      " (or set CHROMIUM_PATH to an existing Chromium); then run npm test again",
  };
}

function onPath(name: string): boolean {
  return (process.env["PATH"] ?? "").split(delimiter).some((dir) => isExecutable(join(dir, name)));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function missingTools(): string[] {
  const missing: string[] = [];
  if (!onPath("wget")) missing.push("wget");
  if (!onPath("python3")) missing.push("python3");
  if (!isExecutable(process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium")) missing.push("chromium");
  return missing;
}

if (import.meta.main) {
  const plan = planSystemTools({
    missing: missingTools(),
    isRoot: process.getuid?.() === 0,
    hasAptGet: onPath("apt-get"),
  });
  if (plan.action === "stop") {
    console.error(plan.message);
    process.exit(1);
  }
  if (plan.action === "install") {
    console.log(`npm test: installing ${plan.command.slice(4).join(", ")} from Debian for the end-to-end tests`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    const [command = "apt-get", ...args] = plan.command;
    const install = update.status === 0 ? spawnSync(command, [...args, "-qq"], { stdio: "inherit", env }) : update;
    if (install.status !== 0) {
      console.error(`npm test: the install failed; run it yourself: ${plan.command.join(" ")}`);
      process.exit(1);
    }
  }
}
