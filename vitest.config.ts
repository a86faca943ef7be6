import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { defineConfig, type Plugin } from "vitest/config";
import OverlapSequencer from "./test/sequencer.ts";

/** The Worker's text modules (wrangler.toml [[rules]] type "Text"), loaded the same way in tests. */
const textModules: Plugin = {
  name: "robots-edge-text-modules",
  enforce: "pre",
  load(id) {
    if (!/\/src\/worker\/page\/[^/]+\.(html|css|js)$/.test(id)) return undefined;
    return `export default ${JSON.stringify(readFileSync(id, "utf8"))};`;
  },
};

// The Workers plugin reads the developer's .dev.vars (or .env) over wrangler.toml's [vars], and
// has no option to skip it: tests would then judge with someone's local VERIFY_CRAWLERS=off.
// Every shipped var is given again as a binding, which wins over both files. (The e2e tests'
// wrangler dev gets an empty --env-file instead: scripts/edge-process.ts.)
const shippedVars = (
  parseToml(readFileSync(new URL("./wrangler.toml", import.meta.url), "utf8")) as {
    vars?: Record<string, string>;
  }
).vars;

// Every Node process of the run (vitest's workers, and what the tests start: wrangler, npm, npx,
// the CLI) keeps its compiled code in one folder and reads it back on the next start instead of
// compiling again (wrangler alone is 15 MB of JavaScript, npm a few more): Node reads the variable
// at start-up, and this file runs in vitest's main process before any worker starts. Node checks
// each entry against its source and its own version, so a stale or half-written entry is only
// compiled again. The same folder scripts/edge-process.ts uses outside vitest (npm run load).
process.env["NODE_COMPILE_CACHE"] ??= join(tmpdir(), "robots-edge-node-compile-cache");

// One run, three projects: the pure code and the CLI in plain Node (fast), the Worker in
// the real runtime (workerd) with local KV, and end to end (wrangler dev, a real origin,
// real clients). `npm test` runs them all; `npm run e2e` the last one. The Workers plugin belongs
// to its project only: inline projects inherit the root config.
export default defineConfig({
  test: {
    // Two files at a time in every project (vitest wants one worker count for projects that run
    // together), and the e2e files overlapping the core and worker ones: test/sequencer.ts.
    maxWorkers: 2,
    sequence: { sequencer: OverlapSequencer },
    projects: [
      {
        test: {
          name: "core",
          include: [
            "test/core/**/*.test.ts",
            "test/cli/**/*.test.ts",
            "test/agents/**/*.test.ts",
            "test/policy/**/*.test.ts",
          ],
          environment: "node",
          // Files share a Node process and the modules of src/ instead of a fresh process and
          // module graph each (60-odd files; one process per worker, files in a row reuse it).
          // The tests here hold no global state: no module mocks, no fake clocks, no
          // process-wide settings; a new file must keep it so.
          isolate: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          environment: "node",
          // One wrangler dev and one origin per file (or per describe), tests in order within a
          // file; two files at a time (the root's maxWorkers). Much of a file's time is waiting
          // (wrangler dev starting, a fetch back-off, a journal's quiet spell), so two overlap on
          // 2 cores. Each file picks its own free ports and state folder (scripts/edge-process.ts).
          // More at once was tried: four made the Chromium tests time out (CONTRIBUTING.md).
          fileParallelism: true,
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
      {
        plugins: [
          textModules,
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { ...shippedVars, ADMIN_TOKEN: "test-admin-token", ORIGIN_URL: "https://origin.test" },
              // Nothing leaves the machine: any fetch a test did not mock answers 599.
              outboundService: (request: Request) => new Response(`unmocked ${request.url}`, { status: 599 }),
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // One workerd for the files a worker runs in a row instead of one started per file (~8 s
          // each on a busy 2-core machine: 32 files paid minutes for it); test/sequencer.ts puts
          // them in a row. Safe because every file that touches state starts each test from
          // freshState() (test/worker/helpers.ts: KV, Durable Objects, isolate memory, mocks and
          // clocks); a new file must do the same.
          isolate: false,
        },
      },
    ],
  },
});
