#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node >= 22.18 strips types, so there is no build step.
import { main } from "../src/cli/main.ts";

process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
