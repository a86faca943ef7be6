#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node >= 22.18 strips types, so there is no build step.
// The version guard comes first; the CLI is imported only once it can load.
import { fileURLToPath } from "node:url";
import { requireNode } from "./require-node.js";

requireNode("robots-edge");
// Node's compile cache keeps the type-stripped, compiled modules between runs: start-up falls
// from ~120 ms to ~40 ms, which is most of a `check` over a few thousand URLs. Kept inside the
// clone (node_modules/.cache, as other tools do), never in /tmp; keyed by content, so never stale.
const { enableCompileCache } = await import("node:module");
enableCompileCache?.(fileURLToPath(new URL("../node_modules/.cache/robots-edge", import.meta.url)));
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
