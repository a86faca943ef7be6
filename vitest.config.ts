import { defineConfig } from "vitest/config";

// One run, several projects: the pure core and the CLI in plain Node (fast), the Worker
// in workerd (added with the Worker). `npm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "core",
          include: ["test/core/**/*.test.ts", "test/cli/**/*.test.ts"],
          environment: "node",
        },
      },
    ],
  },
});
