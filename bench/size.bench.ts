// `npm run bench`, the Worker's size and cold start (issue #35): what `wrangler deploy` would
// upload, built as shipped (wrangler.toml: minify), and what it costs to start. A benchmark: it
// prints, never fails (test/e2e/bundle-size.e2e.test.ts holds docs/operating.md's sizes).
//
// Size: one `wrangler deploy --dry-run --outdir … --metafile …` (offline). The upload is the
// bundle (index.js) and the operator page's files, imported as text modules; the source map is
// uploaded beside it but is not part of the Worker. Printed: wrangler's own "Total Upload" line,
// each file with its gzip size (zlib level 9), the largest modules of index.js (esbuild's
// metafile, bytes in the minified output) and the bundle by area (src/<part>, each npm package).
//
// Cold start, two figures:
//   - workerd: `wrangler check startup` runs the Worker's start-up in workerd under V8's CPU
//     profiler; the figure is the samples in the Worker's own script (idle, "(program)" and GC
//     left out), the median of STARTUP_RUNS. Coarse: V8 samples about every 1.4 ms here.
//   - Node: parsing index.js as a module (node:vm SourceTextModule, which V8 parses eagerly at
//     the top level and lazily inside functions), the median of PARSE_RUNS, each a distinct
//     source so that V8's compilation cache never answers; the module is never run (it imports
//     cloudflare:workers). Needs `node --experimental-vm-modules` (package.json's bench script).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

const ROOT = resolve(import.meta.dirname, "..");
const STARTUP_RUNS = 3;
const PARSE_RUNS = 21;
const TOP_MODULES = 15;
const ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function wrangler(args: string[]): string {
  const run = spawnSync("npx", ["wrangler", ...args], { cwd: ROOT, encoding: "utf8", env: ENV, timeout: 120_000 });
  if (run.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** Where a module belongs: its npm package, else src/<part> (src/worker/<folder> for the shell). */
function areaOf(path: string): string {
  const inPackage = path.split("node_modules/").at(-1);
  if (path.includes("node_modules/") && inPackage) {
    const [scope, name] = inPackage.split("/");
    return `npm ${scope?.startsWith("@") ? `${scope}/${name}` : scope}`;
  }
  const parts = path.split("/");
  if (parts[0] !== "src" || parts.length <= 2) return path;
  return parts[1] === "worker" && parts.length > 3 ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
}

function table(rows: (string | number)[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => String(row[column]).length))) ?? [];
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) =>
          typeof cell === "number"
            ? String(cell).padStart(widths[column] ?? 0)
            : String(cell).padEnd(widths[column] ?? 0),
        )
        .join("  "),
    );
  }
}

function size(outdir: string): string {
  const metafile = join(outdir, "meta.json");
  const output = wrangler(["deploy", "--dry-run", "--outdir", join(outdir, "dist"), "--metafile", metafile]);
  const upload = /Total Upload: .+/.exec(output)?.[0] ?? "(no Total Upload line)";
  console.log(`wrangler: ${upload}`);

  const files = readdirSync(join(outdir, "dist"))
    .filter((name) => !name.endsWith(".map") && name !== "README.md")
    .map((name) => {
      const bytes = readFileSync(join(outdir, "dist", name));
      return {
        name: name.replace(/^[0-9a-f]{40}-/, ""),
        bytes: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
      };
    })
    .toSorted((a, b) => b.bytes - a.bytes);
  const sum = (key: "bytes" | "gzip") => files.reduce((total, file) => total + file[key], 0);
  console.log("\nupload, file by file (gzip: zlib level 9, each file alone)");
  table([
    ["file", "size", "gzip"],
    ...files.map((file) => [file.name, kib(file.bytes), kib(file.gzip)]),
    ["total", kib(sum("bytes")), kib(sum("gzip"))],
  ]);

  const meta = JSON.parse(readFileSync(metafile, "utf8")) as Metafile;
  const bundle = Object.entries(meta.outputs).find(([name]) => name.endsWith("index.js"))?.[1];
  if (!bundle) throw new Error("the metafile names no index.js");
  const modules = Object.entries(bundle.inputs)
    .map(([path, input]) => ({ path, bytes: input.bytesInOutput }))
    .toSorted((a, b) => b.bytes - a.bytes);
  console.log(`\nindex.js: the ${TOP_MODULES} largest of its ${modules.length} modules (bytes in the minified output)`);
  table([
    ["module", "size", "share"],
    ...modules
      .slice(0, TOP_MODULES)
      .map((m) => [m.path, kib(m.bytes), `${((100 * m.bytes) / bundle.bytes).toFixed(1)} %`]),
  ]);

  const areas = new Map<string, number>();
  for (const m of modules) areas.set(areaOf(m.path), (areas.get(areaOf(m.path)) ?? 0) + m.bytes);
  console.log("\nindex.js by area");
  table([
    ["area", "size", "share"],
    ...[...areas]
      .toSorted((a, b) => b[1] - a[1])
      .map(([area, bytes]) => [area, kib(bytes), `${((100 * bytes) / bundle.bytes).toFixed(1)} %`]),
  ]);
  return join(outdir, "dist", "index.js");
}

/** The Worker's own samples in one `wrangler check startup` profile, in ms. */
function startupMs(outdir: string, run: number): number {
  const outfile = join(outdir, `startup-${run}.cpuprofile`);
  wrangler(["check", "startup", "--outfile", outfile]);
  const profile = JSON.parse(readFileSync(outfile, "utf8")) as {
    nodes: { id: number; callFrame: { functionName: string; url: string } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const NOT_SCRIPT = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);
  let micros = 0;
  profile.samples.forEach((id, index) => {
    const name = nodes.get(id)?.callFrame.functionName ?? "(root)";
    // A sample stands for the time up to the next one.
    if (!NOT_SCRIPT.has(name)) micros += profile.timeDeltas[index + 1] ?? 0;
  });
  return micros / 1000;
}

function parseMs(bundlePath: string): number[] {
  const source = readFileSync(bundlePath, "utf8");
  const SourceTextModule = (vm as unknown as { SourceTextModule?: new (code: string) => unknown }).SourceTextModule;
  if (!SourceTextModule) throw new Error("node:vm SourceTextModule needs node --experimental-vm-modules");
  return Array.from({ length: PARSE_RUNS }, (_, run) => {
    // A different source each time: V8's compilation cache would otherwise answer the repeats.
    const text = `${source}\n// run ${run}`;
    const start = performance.now();
    const parsed = new SourceTextModule(text);
    const ms = performance.now() - start;
    if (!parsed) throw new Error("no module");
    return ms;
  });
}

const outdir = mkdtempSync(join(tmpdir(), "robots-edge-size-bench-"));
try {
  console.log("Worker size and cold start (bench/size.bench.ts)\n");
  const bundlePath = size(outdir);
  console.log(`\ncold start (index.js, ${kib(statSync(bundlePath).size)})`);
  const startups = Array.from({ length: STARTUP_RUNS }, (_, run) => startupMs(outdir, run));
  console.log(
    `  workerd, wrangler check startup: script time ${median(startups).toFixed(1)} ms median of ${STARTUP_RUNS} (${startups.map((ms) => ms.toFixed(1)).join(", ")}); Cloudflare's limit is 1 s`,
  );
  const parses = parseMs(bundlePath);
  console.log(
    `  Node ${process.version}, parse as a module: ${median(parses).toFixed(1)} ms median of ${PARSE_RUNS} (first ${parses[0]?.toFixed(1)} ms)`,
  );
} finally {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(join(ROOT, "worker-startup.cpuprofile"), { force: true });
}
