import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { readFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vitest/config";

/** The Worker's text modules (wrangler.toml [[rules]] type "Text"), loaded the same way in tests. */
const textModules: Plugin = {
  name: "robots-edge-text-modules",
  enforce: "pre",
  load(id) {
    if (!/\/src\/worker\/page\/[^/]+\.(html|css|js)$/.test(id)) return undefined;
    return `export default ${JSON.stringify(readFileSync(id, "utf8"))};`;
  },
};

// One run, three projects: the pure code and the CLI in plain Node (fast), the Worker in
// the real runtime (workerd) with local KV, and end to end (wrangler dev, a real origin,
// real clients). `npm test` runs them all; `npm run e2e` the last one. The Workers plugin belongs
// to its project only: inline projects inherit the root config.
export default defineConfig({
  test: {
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
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.e2e.test.ts"],
          environment: "node",
          // One wrangler dev and one origin for the whole file; tests run in order.
          fileParallelism: false,
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
              bindings: { ADMIN_TOKEN: "test-admin-token", ORIGIN_URL: "https://origin.test" },
              // Nothing leaves the machine: any fetch a test did not mock answers 599.
              outboundService: (request: Request) => new Response(`unmocked ${request.url}`, { status: 599 }),
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
        },
      },
    ],
  },
});
