// Issue 33, scale, measured where a deployment pays it: the CPU of the workerd process that runs
// the Worker, per request, for a deployment of 1,000 hosts each with a policy (B) against one of
// one host (A), and a second one-host deployment (C, the control: the same deployment twice, so
// what a ratio can resolve). bench/whole-request.bench.ts measures only our JavaScript, in Node,
// with the platform faked; here the runtime's own work per request is in the number too: the
// Request and Response objects, the headers, the subrequest to the origin, the KV binding, the
// Durable Object calls (activity), console.log's structured line.
//
// How: the Worker is bundled once as `npm run deploy` would (wrangler deploy --dry-run, so
// wrangler.toml's Text rule for the operator page's files applies), then each deployment is a
// Miniflare instance of its own, so a workerd process of its own, with the bindings wrangler.toml
// declares (ROBOTS KV, the CRAWL_RATE, ACTIVITY and CHARGES Durable Objects, SQLite-backed, in
// memory) and its vars, in route mode for its hosts (AUTHORITIES). KV is seeded before the first
// request with what bench/host-deployment.ts stores (the policy index and one policy a host, as
// the admin API stores them; the deployments whole-request.bench.ts compares) and the GPTBot
// address list as the cron stores it; the robots.txt entries are stored by the Worker itself on
// its first request for a host, as in production. The origin is Miniflare's outbound service, a
// function in this Node process answering 200 (robots.txt for /robots.txt): no network, loopback
// only, and its CPU is not the workerd process's.
//
// What is measured: utime + stime of each instance's workerd process (/proc/<pid>/stat, clock
// ticks of 10 ms), across chunks of CHUNK requests sent with `mf.dispatchFetch`, A, B (in turn
// over the 1,000 hosts, and Zipf) and C in alternating chunks whose order rotates with the round.
// The client (undici in this process, the outbound function) is excluded by construction: only
// the workerd PID is read. Included, and the same for every instance: Miniflare's entry worker
// (it relays dispatchFetch's request to the Worker) and its KV simulator, both inside the same
// workerd process; and the ActivityLog object's work (one object per origin, so 1,000 of them in
// B), which on Cloudflare runs, and is billed, apart from the Worker's isolate. Per-request CPU
// is ΔCPU / requests. A chunk's CPU is a few hundred ms, so a tick is a few % of one chunk: the
// per-round ratios' medians and quartiles are printed, and the ratio of the sums over all rounds,
// which a tick barely moves.
//
// One change from the deployed bundle, on by default: each host's robots.txt entry is re-read
// from KV hourly, not every minute (robots/cache.ts MEMORY_RECHECK_MS; the bundle is built
// unminified so that one constant can be set). Why: Miniflare's KV simulator (SQLite and blob
// files) runs inside the measured workerd process, and at this bench's rate (a few hundred
// requests a second) B's 1,000 re-reads a minute put about one simulated KV read in ten of B's
// requests, CPU that on Cloudflare is KV's I/O, billed per read (docs/operating.md counts the
// reads), not the isolate's. With the shipped minute (`--robots-recheck-ms 60000`) B measured
// 1.20–1.45× in turn; with the hour 1.00–1.01×: the gap was the simulator. The Worker's own work
// on a re-read (the value's JSON, its fingerprint) stays measured in whole-request.bench.ts.
//
//   node bench/hosts-workerd.bench.ts [--rounds 21] [--chunk 500] [--robots-recheck-ms 3600000] [--var NAME=VALUE …]
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { convertV4MiniflareOptions, Miniflare, Response as MiniflareResponse } from "miniflare";
import { parse } from "smol-toml";
import {
  ALLOWED,
  CHROME_UA,
  DISALLOWED,
  GPTBOT_ADDRESS,
  GPTBOT_UA,
  PERSON_ADDRESS,
  ROBOTS,
  storedPolicies,
  zipfHosts,
} from "./host-deployment.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "21" },
    chunk: { type: "string", default: "500" },
    var: { type: "string", multiple: true, default: [] },
    "robots-recheck-ms": { type: "string", default: "3600000" },
  },
});
/** `--var NAME=VALUE`: a var set over wrangler.toml's for every deployment (e.g. RECORD_ACTIVITY=false, to see what activity costs). */
const OVERRIDES = Object.fromEntries(
  (flags.var ?? []).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
const ROUNDS = Number(flags.rounds);
const CHUNK = Number(flags.chunk);
/** How often a host's robots.txt entry is re-read from KV in the measured bundle (see the header). */
const ROBOTS_RECHECK_MS = Number(flags["robots-recheck-ms"]);
/** robots/cache.ts's constant as esbuild prints it, unminified. */
const SHIPPED_RECHECK = "var MEMORY_RECHECK_MS = 6e4;";
/** Requests in flight at once per chunk: enough to keep workerd busy, few enough not to queue in it. */
const IN_FLIGHT = 4;
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const MICROSECONDS_PER_TICK = 10_000;

type Kind = "GPTBot, allowed path" | "GPTBot, refused path" | "person (Chrome)";
const KINDS: readonly Kind[] = ["GPTBot, allowed path", "GPTBot, refused path", "person (Chrome)"];
const EXPECTED: Record<Kind, readonly number[]> = {
  "GPTBot, allowed path": [200],
  "GPTBot, refused path": [403, 451],
  "person (Chrome)": [200],
};

const toml = parse(readFileSync(join(ROOT, "wrangler.toml"), "utf8")) as {
  compatibility_date: string;
  compatibility_flags?: string[];
  vars: Record<string, string>;
};

/** The Worker as `npm run deploy` bundles it: the entry module and the page's text modules. */
async function bundle(dir: string) {
  await promisify(execFile)("npx", ["wrangler", "deploy", "--dry-run", "--no-minify", "--outdir", dir], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  return readdirSync(dir)
    .filter((name) => name.endsWith(".js") || name.endsWith(".html") || name.endsWith(".css"))
    .map((name) => ({
      // The entry first; the rest are what wrangler's Text rule made of the page's files.
      type: name === "index.js" ? ("ESModule" as const) : ("Text" as const),
      path: join(dir, name),
      contents:
        name === "index.js"
          ? withRecheck(readFileSync(join(dir, name), "utf8"))
          : readFileSync(join(dir, name), "utf8"),
    }))
    .toSorted((x, y) => Number(y.type === "ESModule") - Number(x.type === "ESModule"));
}
type Modules = Awaited<ReturnType<typeof bundle>>;

/** The entry module with the robots.txt re-read at ROBOTS_RECHECK_MS; fails loudly when the constant moved. */
function withRecheck(entry: string): string {
  const at = entry.indexOf(SHIPPED_RECHECK);
  if (at < 0 || entry.indexOf(SHIPPED_RECHECK, at + 1) >= 0) {
    throw new Error(`bench setup: "${SHIPPED_RECHECK}" is not in the bundle exactly once (robots/cache.ts changed?)`);
  }
  return entry.replace(SHIPPED_RECHECK, `var MEMORY_RECHECK_MS = ${ROBOTS_RECHECK_MS};`);
}

/** The workerd processes this process has started (Miniflare spawns one per instance). */
function workerdChildren(): Set<number> {
  const found = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [comm, fields] = statOf(Number(entry));
      if (comm === "workerd" && fields[1] === String(process.pid)) found.add(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return found;
}

/** /proc/<pid>/stat: the command name, and the fields after it (state is [0], ppid [1], utime [11], stime [12]). */
function statOf(pid: number): [string, string[]] {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  return [text.slice(open + 1, close), text.slice(close + 2).split(" ")];
}

/** A process's CPU time (user + system), µs, in whole clock ticks. */
function cpuOf(pid: number): number {
  const [, fields] = statOf(pid);
  return (Number(fields[11]) + Number(fields[12])) * MICROSECONDS_PER_TICK;
}

let originFetches = 0;
/** GPTBot claims the Worker logged as impostors: none, if the address list is read as stored. */
let impostors = 0;
/** The origin: robots.txt for /robots.txt, otherwise an empty 200 page. */
function origin(request: Request) {
  if (new URL(request.url).pathname === "/robots.txt") {
    return new MiniflareResponse(ROBOTS, { status: 200, headers: { "content-type": "text/plain" } });
  }
  originFetches++;
  return new MiniflareResponse(null, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
}

/** A deployment of `count` hosts: its own Miniflare instance and workerd process, KV seeded. */
async function deployment(modules: Modules, count: number) {
  const stored = await storedPolicies(count);
  const known = workerdChildren();
  // Miniflare 5 takes a new option shape; its own converter reads the well-documented v4 one.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      // Miniflare's stand-in request.cf says verifiedBot: false, which would refute every GPTBot
      // claim; a cf without Cloudflare's bot fields (no Bot Management) leaves the published list
      // to decide, as in whole-request.bench.ts (no cf at all).
      cf: { country: "US", colo: "LHR", asn: 8075 },
      modules,
      modulesRoot: modules[0] ? resolve(modules[0].path, "..") : ROOT,
      compatibilityDate: toml.compatibility_date,
      compatibilityFlags: toml.compatibility_flags ?? [],
      bindings: {
        ...toml.vars,
        AUTHORITIES: stored.hosts.join(", "),
        ADMIN_TOKEN: "b1e2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718",
        // The warm-up fetches 1,000 robots.txt files from this process, 4 at a time, on a shared
        // 2-core machine: at the shipped 5 s one once timed out (the edge then answers crawlers
        // 503 for 30 s, as it should, and the bench stops). The bench measures the steady state.
        FETCH_TIMEOUT_MS: "30000",
      },
      kvNamespaces: ["ROBOTS"],
      durableObjects: {
        CRAWL_RATE: { className: "CrawlRate", useSQLite: true },
        ACTIVITY: { className: "ActivityLog", useSQLite: true },
        CHARGES: { className: "ChargeLedger", useSQLite: true },
      },
      outboundService: origin,
      // The decision log lines (LOG_DECISIONS=all): workerd writes each, this process drops it.
      handleStructuredLogs: (log) => {
        if (log.message.includes('"robots-edge.impostor"')) impostors++;
      },
    }),
  );
  await mf.ready;
  const pid = [...workerdChildren()].find((candidate) => !known.has(candidate));
  if (pid === undefined) throw new Error("no new workerd process after Miniflare started");
  // Seeded before the first request (Miniflare runs no cron by itself).
  const kv = await mf.getKVNamespace("ROBOTS");
  for (const key of ["policy-hosts", ...stored.hosts.map((host) => `policy:host:${host}`)]) {
    const value = await stored.kv.get(key);
    if (value !== null) await kv.put(key, value);
  }
  const sources = { gptbot: { fetchedAt: Date.now(), cidrs: ["20.171.206.0/24"] } };
  await kv.put("crawler-ranges", JSON.stringify({ schema: 1, sources }));
  return { mf, pid, hosts: stored.hosts };
}
type Deployment = Awaited<ReturnType<typeof deployment>>;

/** One request as the bench sends it. */
function requestOf(kind: Kind, host: string, k: number): [string, { headers: Record<string, string> }] {
  const crawler = kind !== "person (Chrome)";
  const paths =
    kind === "GPTBot, refused path" ? DISALLOWED : kind === "person (Chrome)" ? [...ALLOWED, ...DISALLOWED] : ALLOWED;
  return [
    `https://${host}${paths[k % paths.length]}`,
    {
      headers: {
        "user-agent": crawler ? GPTBOT_UA : CHROME_UA,
        "cf-connecting-ip": crawler ? GPTBOT_ADDRESS : PERSON_ADDRESS,
        accept: "text/html",
      },
    },
  ];
}

/** `hosts.length` requests of a kind, IN_FLIGHT at a time; checks each answer is what the edge should give. */
async function send(site: Deployment, kind: Kind, hosts: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < hosts.length) {
      const k = next++;
      const [url, init] = requestOf(kind, hosts[k] ?? "", k);
      const response = await site.mf.dispatchFetch(url, init);
      const body = await response.text();
      if (!EXPECTED[kind].includes(response.status)) {
        throw new Error(
          `${kind} ${url}: ${response.status}, expected ${EXPECTED[kind].join(" or ")}: ${JSON.stringify([...response.headers])} ${body.slice(0, 300)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

interface Side {
  readonly name: string;
  readonly site: Deployment;
  /** The hosts of round `round`'s chunk. */
  readonly hostsOf: (round: number) => readonly string[];
}

const median = (values: readonly number[]) => values.toSorted((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const quantile = (sorted: readonly number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? NaN;

const dir = mkdtempSync(join(tmpdir(), "robots-edge-hosts-workerd-"));
const started: Miniflare[] = [];
try {
  const modules = await bundle(dir);
  const a = await deployment(modules, 1);
  started.push(a.mf);
  const b = await deployment(modules, 1000);
  started.push(b.mf);
  const c = await deployment(modules, 1);
  started.push(c.mf);
  const one = (site: Deployment) => () => Array.from({ length: CHUNK }, () => site.hosts[0] ?? "");
  const zipf = zipfHosts(b.hosts, CHUNK * ROUNDS);
  const sides: Side[] = [
    { name: "A: 1 host", site: a, hostsOf: one(a) },
    {
      name: "B: 1,000 hosts in turn",
      site: b,
      hostsOf: (round) => Array.from({ length: CHUNK }, (_, k) => b.hosts[(round * CHUNK + k) % 1000] ?? ""),
    },
    { name: "B: 1,000 hosts, Zipf", site: b, hostsOf: (round) => zipf.slice(round * CHUNK, (round + 1) * CHUNK) },
    { name: "C: 1 host again (control)", site: c, hostsOf: one(c) },
  ];

  // Warm-up: every host of every deployment asked by each kind of request, twice (robots.txt
  // fetched and stored, policies compiled, the JIT warm), then a round of every side unmeasured.
  for (let pass = 0; pass < 2; pass++) {
    for (const site of [a, b, c]) {
      for (const kind of KINDS) {
        await send(
          site,
          kind,
          Array.from({ length: Math.max(CHUNK, 1000) }, (_, k) => site.hosts[k % site.hosts.length] ?? ""),
        );
      }
    }
  }
  for (const side of sides) for (const kind of KINDS) await send(side.site, kind, side.hostsOf(0));

  const loadBefore = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const clientBefore = process.cpuUsage();
  // times[kind][side][round]: workerd CPU µs per request of that chunk.
  const times = KINDS.map(() => sides.map((): number[] => []));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kindIndex, kind] of KINDS.entries()) {
      for (let step = 0; step < sides.length; step++) {
        const sideIndex = (round + step) % sides.length;
        const side = sides[sideIndex];
        if (!side) continue;
        const before = cpuOf(side.site.pid);
        await send(side.site, kind, side.hostsOf(round));
        times[kindIndex]?.[sideIndex]?.push((cpuOf(side.site.pid) - before) / CHUNK);
      }
    }
  }
  const client = process.cpuUsage(clientBefore);
  const loadAfter = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

  const rows = KINDS.flatMap((kind, kindIndex) => {
    const bySide = times[kindIndex] ?? [];
    const base = bySide[0] ?? [];
    return sides.map((side, sideIndex) => {
      const own = bySide[sideIndex] ?? [];
      const ratios = own.map((time, round) => time / (base[round] ?? NaN)).toSorted((x, y) => x - y);
      return {
        request: kind,
        deployment: side.name,
        "µs/request (median)": median(own).toFixed(0),
        "÷ A (median of rounds)": sideIndex === 0 ? "" : median(ratios).toFixed(3),
        "rounds' quartiles":
          sideIndex === 0 ? "" : `${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)}`,
        "÷ A (sums)": sideIndex === 0 ? "" : (sum(own) / sum(base)).toFixed(3),
      };
    });
  });
  const measured = ROUNDS * CHUNK * KINDS.length * sides.length;
  console.log(
    `workerd CPU per request (utime+stime of each instance's workerd process), robots.txt re-read every ${ROBOTS_RECHECK_MS / 1000} s (see the header)${Object.keys(OVERRIDES).length > 0 ? `, vars ${JSON.stringify(OVERRIDES)}` : ""}, ${ROUNDS} rounds × ${CHUNK} requests per side and kind, ${IN_FLIGHT} in flight`,
  );
  console.table(rows);
  console.log("target: 1,000 hosts within 1.10 of one host (whole request, in workerd)");
  console.log(
    `load average ${loadBefore} before, ${loadAfter} after; this client process (dispatchFetch, the origin function, not in the rows): ${((client.user + client.system) / measured).toFixed(0)} µs per measured request; origin fetches ${originFetches}; impostor lines ${impostors}`,
  );
} finally {
  for (const mf of started) await mf.dispose();
  rmSync(dir, { recursive: true, force: true });
}
