#!/usr/bin/env node
// Entry point for scripts/deploy.ts: the Node version guard runs before any TypeScript loads.
import { requireNode } from "../bin/require-node.js";

requireNode("scripts/deploy");
await import("./deploy.ts");
