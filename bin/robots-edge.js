#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node >= 22.18 strips types, so there is no build step.
// The version guard comes first; the CLI is imported only once it can load.
import { requireNode } from "./require-node.js";

requireNode("robots-edge");
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
