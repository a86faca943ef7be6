// `robots-edge purposes` and `robots-edge lint --purposes`, as an owner runs them to paste the
// served file into a site that has no edge: the CLI's main in this process (test/cli/run-cli.ts;
// the process itself is tested in cli.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.ts";
const dir = mkdtempSync(join(tmpdir(), "robots-edge-purposes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ORIGIN = "User-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /x\n";
const SETTING = JSON.stringify({
  purposes: [
    { path: "/", "ai-training": "block" },
    { path: "/members/", "search-engine": "block" },
  ],
});

describe("robots-edge purposes <setting.json> [robots.txt]", () => {
  it("prints the generated lines then the origin's file; the notes go to stderr", async () => {
    const result = await run(["purposes", file("setting.json", SETTING), file("robots.txt", ORIGIN)]);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("# robots-edge: lines generated from the site's purposes setting\n")).toBe(true);
    expect(result.stdout.endsWith(`unchanged\n\n${ORIGIN}`)).toBe(true);
    expect(result.stdout).toContain("\nUser-agent: CCBot\n");
    expect(result.stdout).toContain(
      "\nUser-agent: ImagesiftBot\n# restated from the origin's User-agent: * group (a named group does not inherit it)\nDisallow: /admin/\nDisallow: /members/\n",
    );
    expect(result.stderr).toContain(
      "setting.json: warning: GPTBot: the origin's own group (user-agent line 4) allows /, where purposes block ai-training; the owner's group wins and nothing is generated for GPTBot\n",
    );
  });

  it("a bare list and no origin file: the generated lines are the whole file", async () => {
    const result = await run(["purposes", file("bare.json", '[{"path": "/", "ai-training": "block"}]')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("\nUser-agent: GPTBot\n");
    expect(result.stdout.endsWith("unchanged\n\n")).toBe(true);
  });

  it.each([
    { args: ["purposes"], message: "robots-edge purposes: purposes needs a purposes setting" },
    {
      args: ["purposes", "SETTING_BAD"],
      message: 'purposes[0].ai-training must be "allow" or "block", got "deny"',
    },
    { args: ["purposes", "SETTING_ROUTES_ONLY"], message: 'the policy has no "purposes" list' },
  ])("$message (exit 2)", async ({ args, message }) => {
    const named = args.map((arg) =>
      arg === "SETTING_BAD"
        ? file("bad.json", '[{"path": "/", "ai-training": "deny"}]')
        : arg === "SETTING_ROUTES_ONLY"
          ? file("routes.json", '{"routes": []}')
          : arg,
    );
    const result = await run(named);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe("--json and stdin", () => {
  it("purposes --json: one object with the served file, whether it applied, and the notes; the setting from stdin", async () => {
    const result = await run(["purposes", "-", file("robots3.txt", ORIGIN), "--json"], SETTING);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { served: string; applied: boolean; notes: { severity: string }[] };
    expect(answer.applied).toBe(true);
    expect(answer.served.endsWith(ORIGIN)).toBe(true);
    expect(answer.notes.map((note) => note.severity)).toEqual(["warning", "info", "info"]);
  });
});

describe("robots-edge lint --purposes <setting.json> [robots.txt]", () => {
  it("shows only what the setting generates, and the notes", async () => {
    const result = await run(["lint", "--purposes", file("setting2.json", SETTING), file("robots2.txt", ORIGIN)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("\nUser-agent: Google-Extended\n");
    expect(result.stdout).not.toContain("User-agent: GPTBot\n");
    expect(result.stdout).toContain("setting2.json: info: Googlebot fetches for search and, through Google-Extended");
    expect(result.stderr).toBe(`${join(dir, "setting2.json")}: 1 warning(s), 3 note(s)\n`);
  });
});
