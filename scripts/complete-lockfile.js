#!/usr/bin/env node
// Entry point for scripts/complete-lockfile.ts: the Node version guard runs before any TypeScript loads.
import { requireNode } from "../bin/require-node.js";

requireNode("scripts/complete-lockfile");
await import("./complete-lockfile.ts");
