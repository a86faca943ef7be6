#!/usr/bin/env node
// Entry point for scripts/dev.ts: the Node version guard runs before any TypeScript loads.
import { requireNode } from "../bin/require-node.js";

requireNode("scripts/dev");
await import("./dev.ts");
