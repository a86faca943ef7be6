// `npm run deploy -- <wrangler deploy arguments>`: the config check runs on what wrangler will
// deploy (its --config and --env), and its errors stop the deploy before wrangler runs.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configCheckArguments } from "../../scripts/deploy-options.ts";

const ROOT = resolve(import.meta.dirname, "../..");

describe("configCheckArguments", () => {
  it.each([
    { args: [], expected: [] },
    { args: ["--env", "production"], expected: ["--env", "production"] },
    { args: ["-e", "staging"], expected: ["--env", "staging"] },
    { args: ["--env=production", "--minify"], expected: ["--env", "production"] },
    { args: ["--env="], expected: [] },
    { args: ["--dry-run", "--outdir", "dist"], expected: [] },
    { args: ["--config", "site.toml", "--env", "production"], expected: ["site.toml", "--env", "production"] },
    { args: ["-c", "site.toml"], expected: ["site.toml"] },
    { args: ["--config=site.toml"], expected: ["site.toml"] },
    { args: ["--env"], expected: "--env needs a value" },
    { args: ["--env", "--dry-run"], expected: "--env needs a value" },
    { args: ["--config"], expected: "--config needs a value" },
  ])("$args -> $expected", ({ args, expected }) => {
    const result = configCheckArguments(args);
    if (typeof expected === "string") expect(result).toEqual(new Error(expected));
    else expect(result).toEqual(expected);
  });
});

function run(args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [join(ROOT, "scripts/deploy.js"), ...args],
      { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, timeout: 120_000 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    ),
  );
}

describe("npm run deploy", () => {
  const dir = mkdtempSync(join(tmpdir(), "robots-edge-deploy-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--env production checks [env.production], and its errors stop the deploy before wrangler runs", async () => {
    // The shipped top level passes; the env has a misspelt var and no bindings of its own.
    const shipped = readFileSync(join(ROOT, "wrangler.toml"), "utf8").replace(
      'main = "src/worker/index.ts"',
      `main = ${JSON.stringify(join(ROOT, "src/worker/index.ts"))}`,
    );
    const config = join(dir, "wrangler.toml");
    writeFileSync(
      config,
      `${shipped}\n[env.production]\nname = "robots-edge-production"\n[env.production.vars]\nMDOE = "report"\n`,
    );
    const result = await run(["--config", config, "--env", "production", "--dry-run"]);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      '[env.production.vars] has "MDOE", a var the Worker never reads: did you mean "MODE"?',
    );
    expect(result.output).toContain("error: no KV namespace bound as ROBOTS");
    expect(result.output).toContain("npm run deploy: stopped before deploying; nothing was uploaded");
    expect(result.output).not.toMatch(/⛅️ wrangler|--dry-run: exiting now/);
  });

  it("the shipped wrangler.toml passes the check and goes on to wrangler (a dry run: nothing uploaded)", async () => {
    const result = await run(["--dry-run", "--outdir", join(dir, "bundle")]);
    expect(result.output).toContain("wrangler.toml: 0 error(s)");
    expect(result.output).toContain("--dry-run: exiting now.");
    expect(result.code).toBe(0);
  }, 120_000);
});
