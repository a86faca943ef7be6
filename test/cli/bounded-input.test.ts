// The CLI reads its input files with a bound (issue 31): at most what counts, and it says so.
// A robots.txt counts up to 500 KiB (RFC 9309 §2.5): `check /dev/zero …` answers instead of
// reading forever, a file of 300 MB is not read whole, and stderr notes the cut. Settings and
// configs past what the edge would accept are refused, unread past that size.
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBin, runCli as run } from "./run-cli.ts";
const dir = mkdtempSync(join(tmpdir(), "robots-edge-bounded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A file of `size` bytes starting with `head`, the rest zeros (sparse: no disk, no time). */
function sparse(name: string, head: string, size: number): string {
  const path = file(name, head);
  const fd = openSync(path, "r+");
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

/**
 * An input that could be endless (/dev/zero) or huge is read by the real bin under a 15 s
 * SIGKILL: a CLI that lost its bound must fail the case, not fill this process's memory. The
 * other cases run `main` in this process.
 */
const runBounded = (args: string[]) => runBin(args, "", { timeoutMs: 15_000 });

const NOTE = "is larger than 512000 bytes; only the first 512000 are read (RFC 9309 §2.5)";
const KIB = 1024;
// A rule inside the first 500 KiB, and one past it: only the first counts.
const inside = "User-agent: *\nDisallow: /inside/\n";
const past = "\nDisallow: /past/\n";
const LONG = `${inside}${"#".repeat(600 * KIB)}${past}`;

describe("a robots.txt is read up to 500 KiB, and the cut is said on stderr", { timeout: 20_000 }, () => {
  const long = file("long.txt", LONG);
  const huge = sparse("huge.txt", inside, 300 * 1024 * KIB);
  it.each([
    {
      name: "check /dev/zero (endless): answers",
      args: ["check", "/dev/zero", "Googlebot", "/x"],
      stdout: "allowed\t/x\tno group applies to this crawler\n",
      code: 0,
      named: "/dev/zero",
      skip: !existsSync("/dev/zero"),
    },
    {
      name: "check on a 300 MB file",
      args: ["check", huge, "Googlebot", "/inside/a"],
      stdout: "disallowed\t/inside/a\tdisallow: /inside/ (line 2)\n",
      code: 1,
      named: huge,
      skip: false,
    },
    {
      name: "check: a rule past 500 KiB is not read",
      args: ["check", long, "Googlebot", "/inside/a", "/past/a"],
      stdout: 'disallowed\t/inside/a\tdisallow: /inside/ (line 2)\nallowed\t/past/a\tno matching rule in group "*"\n',
      code: 1,
      named: long,
      skip: false,
    },
    {
      name: "explain on /dev/zero",
      args: ["explain", "/dev/zero", "Googlebot/2.1", "/x"],
      stdout: undefined,
      code: undefined,
      named: "/dev/zero",
      skip: !existsSync("/dev/zero"),
    },
  ])("$name", async ({ args, stdout, code, named, skip }) => {
    if (skip) return;
    const result = await (named === long ? run(args) : runBounded(args));
    expect(result.stderr).toContain(`${named} ${NOTE}`);
    if (stdout !== undefined) expect(result.stdout).toBe(stdout);
    if (code !== undefined) expect(result.code).toBe(code);
    expect(result.code).not.toBe(2);
  });

  it("robots.txt on stdin (-) is cut the same way", async () => {
    const result = await run(["check", "-", "Googlebot", "/inside/a", "/past/a"], LONG);
    expect(result.stderr).toContain(`stdin ${NOTE}`);
    expect(result.stdout).toBe(
      'disallowed\t/inside/a\tdisallow: /inside/ (line 2)\nallowed\t/past/a\tno matching rule in group "*"\n',
    );
  });

  it("a file of exactly 500 KiB is read whole, without a note", async () => {
    const exact = file("exact.txt", `${inside}${"#".repeat(500 * KIB - inside.length)}`);
    const result = await run(["check", exact, "Googlebot", "/inside/a"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
  });

  it("lint says it too", async () => {
    const result = await run(["lint", file("lint-long.txt", LONG)]);
    expect(result.stderr).toContain(NOTE);
  });
});

describe("a purposes setting or a config past what the edge accepts is refused", { timeout: 20_000 }, () => {
  it("purposes: a setting over 64 KiB (PUT policy's bound) is a usage error", async () => {
    const setting = sparse("setting.json", '{"purposes": []}', 70 * KIB);
    const result = await run(["purposes", setting]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("larger than 65536 bytes, the most a policy may be");
  });

  it("purposes: /dev/zero as the setting is refused, not read forever", async () => {
    if (!existsSync("/dev/zero")) return;
    const result = await runBounded(["purposes", "/dev/zero"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("larger than 65536 bytes");
  });

  it("config check: a file over 1 MiB is a usage error", async () => {
    const config = sparse("wrangler.toml", 'name = "x"\n', 2 * 1024 * KIB);
    const result = await run(["config", "check", config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("larger than 1048576 bytes");
  });

  it("config check: /dev/zero is refused, not read forever", async () => {
    if (!existsSync("/dev/zero")) return;
    const result = await runBounded(["config", "check", "/dev/zero"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("larger than 1048576 bytes");
  });
});
