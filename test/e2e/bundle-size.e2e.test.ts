// The bundle sizes docs/operating.md gives ("Size and cold start") against a fresh build: wrangler's
// own "Total Upload" line from `wrangler deploy --dry-run --outdir` (offline, a few seconds), minified
// as shipped and unminified. A size that drifts more than MARGIN from the documented one fails
// here, so the number is updated, and the growth explained, in the change that causes it (#35).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const MARGIN = 0.1;

interface Size {
  readonly kib: number;
  readonly gzipKib: number;
}

/** A cell of that row: `315 KiB (103 gzip)`. */
function cell(text: string | undefined): Size {
  const match = /^\s*(\d+) KiB \((\d+) gzip\)\s*$/.exec(text ?? "");
  if (!match) throw new Error(`expected "N KiB (N gzip)", got ${JSON.stringify(text)}`);
  return { kib: Number(match[1]), gzipKib: Number(match[2]) };
}

/** The documented row: `| upload (…) | 315 KiB (103 gzip) | 521 KiB (137 gzip) |`. */
function documentedSizes(): { minified: Size; unminified: Size } {
  const operating = readFileSync(resolve(ROOT, "docs/operating.md"), "utf8");
  const row = /^\| upload \(`npx wrangler deploy --dry-run --outdir dist`\)\s*\|([^|]+)\|([^|]+)\|$/m.exec(operating);
  if (!row) throw new Error('docs/operating.md has no "upload (npx wrangler deploy --dry-run --outdir dist)" row');
  return { minified: cell(row[1]), unminified: cell(row[2]) };
}

/** A dry-run build into a scratch folder; wrangler's "Total Upload: X KiB / gzip: Y KiB". */
function built(minify: boolean): Size {
  const outdir = mkdtempSync(join(tmpdir(), "robots-edge-size-"));
  try {
    const run = spawnSync(
      "npx",
      ["wrangler", "deploy", "--dry-run", "--outdir", outdir, ...(minify ? [] : ["--minify=false"])],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
        timeout: 60_000,
      },
    );
    const total = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(run.stdout);
    if (!total) throw new Error(`no "Total Upload" in wrangler's output:\n${run.stdout}\n${run.stderr}`);
    return { kib: Number(total[1]), gzipKib: Number(total[2]) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const within = (documented: number, actual: number) => Math.abs(actual - documented) <= documented * MARGIN;

describe("the bundle sizes docs/operating.md gives", () => {
  it.each([
    { build: "minified", minify: true },
    { build: "unminified", minify: false },
  ] as const)("$build: within 10% of a fresh dry-run build", { timeout: 120_000 }, ({ build, minify }) => {
    const documented = documentedSizes()[build];
    const actual = built(minify);
    const message = `docs/operating.md says ${documented.kib} KiB (${documented.gzipKib} gzip), the build is ${actual.kib} KiB (${actual.gzipKib} gzip)`;
    expect(within(documented.kib, actual.kib), message).toBe(true);
    expect(within(documented.gzipKib, actual.gzipKib), message).toBe(true);
  });
});
