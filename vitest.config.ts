import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// One run, two projects: the pure code and the CLI in plain Node (fast), and the Worker in
// the real runtime (workerd) with local KV. `npm test` runs both. The Workers plugin belongs
// to its project only: inline projects inherit the root config.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "core",
          include: ["test/core/**/*.test.ts", "test/cli/**/*.test.ts", "test/agents/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        plugins: [
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
