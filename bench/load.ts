// Load benchmark (not CI, not `npm test`): what the edge costs a request under load, end to
// end. autocannon drives `wrangler dev` (local workerd) in front of one demo origin, in one run:
//   (a) enforce  the Worker, MODE=enforce, Googlebot's User-Agent, eBay's robots.txt from the
//                corpus; only paths that file ALLOWS are requested, so every request is judged
//                and then reaches the origin (disallowed candidates are left out, and counted);
//   (b) off      the same Worker with MODE=off: config, then straight to the origin;
//   (c) bare     a pass-through Worker of four lines: the floor any proxying Worker pays;
//   (e) quiet    (a) with LOG_DECISIONS=blocked: no log line for the (allowed) requests, so
//                it shows the edge's own work — matching, store, forwarding — without the log;
//   (f) paced    (e) with `Request-rate: 1000000/1` added to every group: each request is
//                checked by its crawler's Durable Object (none refused): a rate check's cost;
//   (g) unrecorded (e) with RECORD_ACTIVITY=false: every other run records activity (the
//                default), so (e) vs (g) is what recording costs under load;
//   (d) bare+log (c) plus one console.log line shaped like the edge's decision log. Not a
//                target: under wrangler dev a log line per request is dear (the lines go to
//                wrangler's Node process, whose CPU rises about fourfold), unlike deployed;
//                (d) shows how much of (a) minus (c) is that line, not the edge's own work.
// Then a soak of (a) samples the RSS of its workerd processes every 5 s. workerd's RSS climbs
// for the first ~30-45 s of load whatever the Worker (the bare one too) and then levels off,
// so "stable" means the second half of the soak adds at most 10 %; a leak keeps climbing.
// Absolute numbers belong to this machine and to wrangler dev; the ratios are the point.
// p50/p99 come from autocannon's per-response times: its own histogram keeps whole
// milliseconds, too coarse for a 2 ms budget. The load is closed-loop (each connection
// sends again as soon as it is answered); 32 connections saturate the machine, so latency
// is then mostly queueing (connections / throughput). `--connections 1` shows the time one
// request takes on an idle edge. (autocannon's own rate limit is no help here: it sends
// each second's quota in a burst at the start of the second.)
// Binds and targets 127.0.0.1 only. VERIFY_CRAWLERS=off: every client is 127.0.0.1 and wrangler
// dev's stand-in request.cf says verifiedBot: false, so Googlebot would count as an impostor.
// wrangler dev reloads the Worker when a source file changes; a run that saw a reload
// (a new runtime workerd) is flagged, as its numbers mix two processes.
// Exit 1 on any non-2xx answer or socket error; a MISSed target is printed, not fatal.
//
//   npm run load -- [--seconds 20] [--soak-seconds 60] [--no-soak] [--connections 32]
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify, parseArgs } from "node:util";
import autocannon from "autocannon";
import { classifyUserAgent } from "../src/agents/classify.ts";
import { defaultSettings } from "../src/config/edge-settings.ts";
import { compileRobots, parseRobotsTxt, type RobotsTxt } from "../src/core/index.ts";
import { explainRequest } from "../src/policy/explain.ts";
import { PAGES, startDemoOrigin } from "../scripts/demo-origin.ts";
import { startEdge, type EdgeOptions, type EdgeProcess } from "../scripts/edge-process.ts";

const ROOT = resolve(import.meta.dirname, "..");
/** A large real shop file: 5 groups, ~1,570 rules, most of them wildcard query rules. */
const ROBOTS_FILE = resolve(ROOT, "test/fixtures/corpus/robots/0098.txt");
const ROBOTS_SOURCE = "corpus 0098.txt (ebay.com)";
/** Googlebot (desktop), as Google documents it. */
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/** Query strings a shop crawl sees; eBay's rules are mostly about queries, so the matcher works. */
const QUERIES = ["", "?page=2", "?utm_source=newsletter&utm_medium=email", "?_nkw=running+shoes&_sacat=0", "?rt=nc"];
const WARMUP_SECONDS = 2;
const RSS_SAMPLE_MS = 5_000;
const THROUGHPUT_TARGET = 0.85; // (a) >= 0.85 x (c) requests/s
const P99_OVERHEAD_TARGET_MS = 2; // p99 (a) - p99 (c)
const RSS_GROWTH_LIMIT = 0.1; // "stable": the soak's last sample within 10 % of its half-way one
const USAGE = "usage: npm run load -- [--seconds N] [--soak-seconds N] [--no-soak] [--connections N]";

interface Settings {
  readonly seconds: number;
  readonly soakSeconds: number;
  readonly soak: boolean;
  readonly connections: number;
}

interface Measured {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly socketErrors: number;
  readonly statuses: string;
  /** The runtime workerd changed during the run: wrangler reloaded the Worker. */
  readonly reloaded: boolean;
}

/** A workerd process of one edge: "proxy" holds the edge's port, "runtime" runs the Worker. */
interface Workerd {
  readonly pid: number;
  readonly kib: number;
}
type WorkerdByRole = ReadonlyMap<string, Workerd>;

interface Soak {
  readonly measured: Measured;
  readonly idle: WorkerdByRole;
  readonly samples: WorkerdByRole[];
}

const settings = readSettings(process.argv.slice(2));
const robotsText = readFileSync(ROBOTS_FILE, "utf8");
const robots = parseRobotsTxt(robotsText);
const { allowed, disallowed } = partitionPaths(robots, candidatePaths());
const blockProbe = disallowed[0];
if (allowed.length === 0 || blockProbe === undefined) {
  throw new Error(`${ROBOTS_SOURCE} must allow some and disallow some candidate paths for Googlebot`);
}

const origin = await startDemoOrigin();
const scratch = mkdtempSync(join(tmpdir(), "robots-edge-load-"));
try {
  origin.setRobots(robotsText);
  const runs: Measured[] = [];
  let soak: Soak | undefined;
  let unrecorded: Measured | undefined;
  await withEdge({ vars: { ORIGIN_URL: origin.url, MODE: "enforce", VERIFY_CRAWLERS: "off" } }, async (edge) => {
    await probe(edge, blockProbe, true);
    const idle = await workerdOf(edge);
    runs.push(await warmThenMeasure("(a) enforce", edge));
    if (settings.soak) soak = await soakWithRss(edge, idle);
  });
  await withEdge(
    { vars: { ORIGIN_URL: origin.url, MODE: "enforce", VERIFY_CRAWLERS: "off", LOG_DECISIONS: "blocked" } },
    async (edge) => {
      await probe(edge, blockProbe, true);
      runs.push(await warmThenMeasure("(e) enforce, LOG_DECISIONS=blocked", edge));
    },
  );
  // (g): (e) without the activity recorder, to show what recording costs under load.
  await withEdge(
    {
      vars: {
        ORIGIN_URL: origin.url,
        MODE: "enforce",
        VERIFY_CRAWLERS: "off",
        LOG_DECISIONS: "blocked",
        RECORD_ACTIVITY: "false",
      },
    },
    async (edge) => {
      await probe(edge, blockProbe, true);
      unrecorded = await warmThenMeasure("(g) as (e), RECORD_ACTIVITY=false", edge);
    },
  );
  // (f): the same file with a generous Request-rate in every group, so every request is
  // checked by the crawler's Durable Object and none is refused: the cost of a rate check.
  origin.setRobots(robotsText.replace(/^(user-agent:.*)$/gim, "$1\nRequest-rate: 1000000/1"));
  // ENFORCE_RATES=all: by default a `*` group's rate lines bind only crawlers that honour them.
  await withEdge(
    {
      vars: {
        ORIGIN_URL: origin.url,
        MODE: "enforce",
        VERIFY_CRAWLERS: "off",
        LOG_DECISIONS: "blocked",
        ENFORCE_RATES: "all",
      },
    },
    async (edge) => {
      runs.push(await warmThenMeasure("(f) as (e) + rate check (Durable Object)", edge));
    },
  );
  origin.setRobots(robotsText);
  await withEdge({ vars: { ORIGIN_URL: origin.url, MODE: "off" } }, async (edge) => {
    await probe(edge, blockProbe, false);
    runs.push(await warmThenMeasure("(b) MODE=off", edge));
  });
  const bare = writeBareWorker(join(scratch, "bare"), false);
  await withEdge({ config: bare, vars: { ORIGIN_URL: origin.url } }, async (edge) => {
    runs.push(await warmThenMeasure("(c) bare pass-through", edge));
  });
  const bareWithLog = writeBareWorker(join(scratch, "bare-log"), true);
  await withEdge({ config: bareWithLog, vars: { ORIGIN_URL: origin.url } }, async (edge) => {
    runs.push(await warmThenMeasure("(d) bare + 1 log line", edge));
  });
  report(runs, soak, unrecorded);
} finally {
  await origin.close();
  rmSync(scratch, { recursive: true, force: true });
}

function readSettings(args: string[]): Settings {
  try {
    const { values } = parseArgs({
      args,
      allowNegative: true,
      options: {
        seconds: { type: "string", default: "20" },
        "soak-seconds": { type: "string", default: "60" },
        soak: { type: "boolean", default: true },
        connections: { type: "string", default: "32" },
      },
    });
    return {
      seconds: positiveInteger("--seconds", values.seconds),
      soakSeconds: positiveInteger("--soak-seconds", values["soak-seconds"]),
      soak: values.soak,
      connections: positiveInteger("--connections", values.connections),
    };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    process.exit(2);
  }
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${flag} must be a whole number >= 1, got "${text}"`);
  return value;
}

/** Every demo-origin page (so the origin answers 200), with and without shop-like queries. */
function candidatePaths(): string[] {
  return Object.keys(PAGES).flatMap((page) => QUERIES.map((query) => encodeURI(page) + query));
}

/** Googlebot's verdict on each path, by the same explanation the admin API gives. */
function partitionPaths(model: RobotsTxt, paths: string[]): { allowed: string[]; disallowed: string[] } {
  if (!classifyUserAgent(GOOGLEBOT).crawler) throw new Error(`the edge does not see a crawler in "${GOOGLEBOT}"`);
  const matcher = compileRobots(model);
  const passes = (url: string) =>
    explainRequest({
      userAgent: GOOGLEBOT,
      url,
      // As the edge runs here: MODE=enforce, VERIFY_CRAWLERS=off, the rest at their defaults.
      settings: { ...defaultSettings(), verifyCrawlers: "off" },
      state: "ok",
      matcher,
      paused: false,
    }).action.action === "pass";
  return { allowed: paths.filter(passes), disallowed: paths.filter((path) => !passes(path)) };
}

/** A pass-through Worker and its wrangler.toml in `dir`; with `logLine`, one decision-sized log per request. */
function writeBareWorker(dir: string, logLine: boolean): string {
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(join(ROOT, "wrangler.toml"), "utf8"))?.[1];
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  const log = `console.log(JSON.stringify({ event: "robots-edge.decision", time: new Date().toISOString(),
      mode: "enforce", action: "pass", authority: env.ORIGIN_URL, method: request.method,
      path: url.pathname + url.search, judgedPath: url.pathname + url.search,
      userAgent: request.headers.get("user-agent"), tokens: ["googlebot"], group: "*",
      reason: "no-matching-rule", rule: null, line: null }));`;
  const worker = `export default {
  fetch(request, env) {
    const url = new URL(request.url);
    ${logLine ? log : ""}
    return fetch(new URL(url.pathname + url.search, env.ORIGIN_URL), request);
  },
};
`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "worker.js"), worker);
  const config = join(dir, "wrangler.toml");
  writeFileSync(config, `name = "robots-edge-bare"\nmain = "worker.js"\ncompatibility_date = "${date}"\n`);
  return config;
}

async function withEdge(options: EdgeOptions, use: (edge: EdgeProcess) => Promise<void>): Promise<void> {
  const edge = await startEdge(options);
  try {
    await use(edge);
  } finally {
    await edge.stop();
  }
}

/** Fail early unless the edge blocks (or passes) a disallowed path as configured. */
async function probe(edge: EdgeProcess, path: string, expectBlocked: boolean): Promise<void> {
  const response = await fetch(edge.url + path, { headers: { "user-agent": GOOGLEBOT } });
  await response.body?.cancel();
  const header = response.headers.get("x-robots-edge");
  if ((header ?? "").startsWith("blocked") !== expectBlocked) {
    const wanted = expectBlocked ? "blocked" : "passed";
    throw new Error(`${path} should be ${wanted} by ${edge.url}, got ${response.status} x-robots-edge: ${header}`);
  }
}

async function warmThenMeasure(name: string, edge: EdgeProcess): Promise<Measured> {
  await load(name, edge, WARMUP_SECONDS);
  return load(name, edge, settings.seconds);
}

/** One autocannon run over the allowed paths, every connection cycling through them. */
async function load(name: string, edge: EdgeProcess, seconds: number): Promise<Measured> {
  const runtimeBefore = (await workerdOf(edge)).get("runtime")?.pid;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((done, fail) => {
    const options: autocannon.Options = {
      url: edge.url,
      connections: settings.connections,
      duration: seconds,
      headers: { "user-agent": GOOGLEBOT },
      requests: allowed.map((path) => ({ method: "GET", path })),
    };
    const instance = autocannon(options, (error: unknown, outcome) => (error ? fail(error) : done(outcome)));
    instance.on("response", (_client, status, _bytes, milliseconds) => {
      if (status >= 200 && status < 300) latencies.push(milliseconds);
    });
  });
  const runtimeAfter = (await workerdOf(edge)).get("runtime")?.pid;
  const sorted = Float64Array.from(latencies).toSorted();
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => `${code}x${count ?? 0}`);
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    ok: result["2xx"],
    non2xx: result.non2xx,
    socketErrors: result.errors,
    statuses: statuses.join(" "),
    reloaded: runtimeBefore !== runtimeAfter,
  };
}

/** Nearest-rank percentile of ascending values; NaN when there are none. */
function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/** Load (a) for the soak time, sampling workerd RSS at the start, every 5 s and at the end. */
async function soakWithRss(edge: EdgeProcess, idle: WorkerdByRole): Promise<Soak> {
  const samples: WorkerdByRole[] = [];
  const sample = async () => void samples.push(await workerdOf(edge));
  await sample();
  let pending = Promise.resolve();
  const timer = setInterval(() => (pending = pending.then(sample)), RSS_SAMPLE_MS);
  try {
    const measured = await load("(a) enforce, soak", edge, settings.soakSeconds);
    return { measured, idle, samples };
  } finally {
    clearInterval(timer);
    await pending;
    await sample();
  }
}

/**
 * The workerd processes in the edge's process group (the group of the wrangler command
 * line that names the edge's port), by role; the newest one if a role appears twice.
 */
async function workerdOf(edge: EdgeProcess): Promise<WorkerdByRole> {
  const port = new URL(edge.url).port;
  const { stdout } = await promisify(execFile)("ps", ["-ww", "-eo", "pid=,pgid=,rss=,args="], {
    maxBuffer: 16 << 20,
  });
  const rows = stdout.split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    return match ? [{ pid: Number(match[1]), group: match[2], kib: Number(match[3]), args: match[4] ?? "" }] : [];
  });
  const group = rows.find((row) => row.args.includes("wrangler") && row.args.includes(`--port ${port} `))?.group;
  const found = new Map<string, Workerd>();
  for (const row of rows) {
    if (row.group !== group || !/\/workerd\s+serve\b/.test(row.args)) continue;
    const role = row.args.includes(`entry=127.0.0.1:${port} `) ? "proxy" : "runtime";
    if ((found.get(role)?.pid ?? -1) < row.pid) found.set(role, { pid: row.pid, kib: row.kib });
  }
  if (found.size === 0) throw new Error(`no workerd process found in the process group of ${edge.url}`);
  return found;
}

function report(runs: Measured[], soak: Soak | undefined, unrecorded: Measured | undefined): void {
  const [enforce, quiet, paced, off, bare, bareWithLog] = runs;
  if (!enforce || !quiet || !paced || !off || !bare || !bareWithLog) throw new Error("a run is missing");
  const ruleCount = robots.groups.reduce((sum, group) => sum + group.rules.length, 0);
  console.log(
    `\nrobots-edge load: wrangler dev on 127.0.0.1, ${settings.connections} connections (closed loop), ` +
      `${WARMUP_SECONDS} s warm-up, then ${settings.seconds} s per run`,
  );
  console.log(`robots.txt: ${ROBOTS_SOURCE}, ${robots.groups.length} groups, ${ruleCount} rules; UA: ${GOOGLEBOT}`);
  console.log(
    `paths: ${allowed.length} distinct, all ALLOWED for Googlebot (so all reach the origin); ` +
      `${disallowed.length} disallowed candidates left out, e.g. ${blockProbe} ((a) blocks it, (b) passes it)\n`,
  );
  const all = [...runs, ...(unrecorded ? [unrecorded] : []), ...(soak ? [soak.measured] : [])];
  printTable([
    ["run", "req/s", "p50 ms", "p99 ms", "2xx", "non-2xx", "socket err", "statuses"],
    ...all.map((run) => [
      run.name + (run.reloaded ? " (RELOADED)" : ""),
      run.requestsPerSecond.toFixed(0),
      run.p50.toFixed(2),
      run.p99.toFixed(2),
      String(run.ok),
      String(run.non2xx),
      String(run.socketErrors),
      run.statuses,
    ]),
  ]);
  const ratio = (run: Measured) => (run.requestsPerSecond / bare.requestsPerSecond).toFixed(3);
  const overhead = (run: Measured) => `${(run.p99 - bare.p99).toFixed(2)} ms`;
  console.log(
    `\nthroughput vs (c): (a) ${ratio(enforce)}   (e) ${ratio(quiet)}   (b) ${ratio(off)}   (d) ${ratio(bareWithLog)}`,
  );
  console.log(
    `p99 overhead vs (c): (a) ${overhead(enforce)}   (e) ${overhead(quiet)}   (b) ${overhead(off)}   (d) ${overhead(bareWithLog)}`,
  );
  console.log(
    `rate check (Durable Object) vs (e): throughput ${(paced.requestsPerSecond / quiet.requestsPerSecond).toFixed(3)}, ` +
      `p50 +${(paced.p50 - quiet.p50).toFixed(2)} ms`,
  );
  // Issue #13: enforcing vs off, with the activity recorder on (it is on in every run but (g)).
  const vsOff = (run: Measured) => (run.requestsPerSecond / off.requestsPerSecond).toFixed(3);
  console.log(`throughput vs (b) off, recording on: (a) ${vsOff(enforce)}   (e) ${vsOff(quiet)}`);
  if (unrecorded) {
    console.log(
      `activity recording: (e) vs (g) throughput ${(quiet.requestsPerSecond / unrecorded.requestsPerSecond).toFixed(3)}, ` +
        `p50 ${(quiet.p50 - unrecorded.p50).toFixed(2)} ms, p99 ${(quiet.p99 - unrecorded.p99).toFixed(2)} ms`,
    );
  }
  const offMet = quiet.requestsPerSecond >= THROUGHPUT_TARGET * off.requestsPerSecond;
  console.log(`${passOrMiss(offMet)}  (e) throughput >= ${THROUGHPUT_TARGET} x (b) with activity recorded`);
  const quietMet = quiet.requestsPerSecond >= THROUGHPUT_TARGET * bare.requestsPerSecond;
  console.log(
    `${passOrMiss(quietMet)}  (e) throughput >= ${THROUGHPUT_TARGET} x (c) (the edge's own work, no log line per allowed request)`,
  );
  const throughputMet = enforce.requestsPerSecond >= THROUGHPUT_TARGET * bare.requestsPerSecond;
  console.log(`${passOrMiss(throughputMet)}  (a) throughput >= ${THROUGHPUT_TARGET} x (c)`);
  const p99Met = enforce.p99 - bare.p99 <= P99_OVERHEAD_TARGET_MS;
  console.log(`${passOrMiss(p99Met)}  p99 overhead (a)-(c) <= ${P99_OVERHEAD_TARGET_MS} ms`);
  const failed = all.filter((run) => run.non2xx > 0 || run.socketErrors > 0);
  console.log(
    failed.length === 0
      ? "PASS  zero errors: no non-2xx answer and no socket error in any run"
      : `FAIL  errors in ${failed.map((run) => run.name).join(", ")}`,
  );
  if (all.some((run) => run.reloaded)) {
    console.log("NOTE  wrangler reloaded the Worker during a RELOADED run (a source file changed?): rerun it");
  }
  if (failed.length > 0) process.exitCode = 1;
  if (soak) reportMemory(soak);
}

function reportMemory({ idle, samples }: Soak): void {
  console.log(`\nworkerd RSS during (a), MiB: idle after start, then the soak sampled every ${RSS_SAMPLE_MS / 1000} s`);
  for (const role of idle.keys()) {
    const series = samples.map((sample) => sample.get(role));
    const pids = new Set([idle, ...samples].map((sample) => sample.get(role)?.pid));
    const kib = series.map((entry) => entry?.kib ?? Number.NaN);
    const first = kib[0] ?? Number.NaN;
    const halfway = kib[Math.floor((kib.length - 1) / 2)] ?? Number.NaN;
    const last = kib.at(-1) ?? Number.NaN;
    const lateGrowth = (last - halfway) / halfway;
    const judged = pids.size > 1 ? "n/a " : passOrMiss(lateGrowth <= RSS_GROWTH_LIMIT);
    console.log(
      `${judged}  ${role} (pid ${[...pids].join(" -> ")}): idle ${mib(idle.get(role)?.kib)}, first ${mib(first)}, ` +
        `last ${mib(last)}, max ${mib(Math.max(...kib))}; second half of the soak ${percent(lateGrowth)} ` +
        `(stable: <= ${RSS_GROWTH_LIMIT * 100} %), whole soak ${percent((last - first) / first)}`,
    );
    console.log(`      ${kib.map(mib).join(" ")}`);
  }
}

function percent(fraction: number): string {
  return `${fraction >= 0 ? "+" : ""}${(fraction * 100).toFixed(1)} %`;
}

function mib(kib: number | undefined): string {
  return kib === undefined ? "?" : (kib / 1024).toFixed(1);
}

function passOrMiss(met: boolean): string {
  return met ? "PASS" : "MISS";
}

function printTable(rows: string[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  for (const row of rows) {
    const cells = row.map((cell, column) =>
      column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
    );
    console.log(cells.join("  "));
  }
}
