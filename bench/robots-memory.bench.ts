// `npm run bench`: the heap the robots.txt memories hold at their one budget
// (ROBOTS_MEMORY_BUDGET_BYTES, memory-budget.ts: the robots.txt memory, unsaved entries and the
// store's last good values together), when every tenant of a `*.` AUTHORITIES entry serves a
// file shaped to compile large (issue 33: a tenant controls its own robots.txt). Each tenant's
// file is read from a KV held in memory, compiled as a crawler's request compiles it, and every
// token it names is asked in both readings (the most a matcher builds). Printed: how many were
// built (a file estimated over ROBOTS_ENTRY_MAX_BYTES is not: robots.txt unavailable,
// robots/capped-matcher.ts), the memory's weight (compiled estimates included), all three
// memories' weight against the budget, the heap held (Node 24, heapUsed after gc; workerd's V8
// compresses pointers, so less there) and Workers' 128 MB isolate limit it must stay far under.
// Before the compiled matcher was weighed, a few of these files held 40-110 MB past the 32 MiB
// the text was then held to. Run with --expose-gc.
import { parseRobotsTxt } from "../src/core/index.ts";
import { spelledHeap } from "../test/core/attack12-heap.ts";
import { ROBOTS_ENTRY_MAX_BYTES, ROBOTS_MEMORY_BUDGET_BYTES } from "../src/worker/memory-budget.ts";
import { clearRobotsMemory, robotsMemoryUse, storedRobots } from "../src/worker/robots/cache.ts";
import { applyFetch } from "../src/worker/robots/entry.ts";
import { clearStoreMemory, writeEntry } from "../src/worker/store.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const MB = 1e6;
const ISOLATE_LIMIT_MB = 128;
const TENANTS = 12;

/** Up to `kib` KiB of `unit(0) unit(1) …`. */
const fill = (kib: number, unit: (n: number) => string, head = ""): string => {
  const parts = [head];
  let length = head.length;
  for (let n = 0; ; n++) {
    const part = unit(n);
    if (length + part.length > kib * 1024) return parts.join("");
    parts.push(part);
    length += part.length;
  }
};

/** F1's group: the same 1,000 tokens, two rules with a wildcard every other character. */
const wildcardGroup = (prefix: string) =>
  `${Array.from({ length: 1_000 }, (_, n) => `User-agent: t${n}\n`).join("")}Disallow: /${prefix}1${"*a".repeat(50_000)}\nDisallow: /${prefix}2${"*b".repeat(50_000)}\n\n`;
/** F2's group: a, b and c over 5,500 rules. */
const abcGroup = (prefix: string) =>
  `User-agent: a\nUser-agent: b\nUser-agent: c\n${Array.from({ length: 5_500 }, (_, n) => `Disallow: /${prefix}/${n.toString().padStart(6, "0")}/some/long/path/segment\n`).join("")}\n`;

const SHAPES: { name: string; kib: number; text: () => string }[] = [
  {
    name: "3,000 tokens x 3,000 rules (one group)",
    kib: 100,
    text: () => fill(100, (n) => (n < 3000 ? `User-agent: a${n}\n` : `Disallow: /x${n}\n`)),
  },
  {
    name: "two tokens and a rule per group",
    kib: 500,
    text: () => fill(500, (n) => `User-agent: a${n}\nUser-agent: b${n}\nDisallow: /x${n}\n`),
  },
  {
    name: "one token and a rule per group",
    kib: 500,
    text: () => fill(500, (n) => `User-agent: a${n}\nDisallow: /\n`),
  },
  { name: "one-line groups (one group of tokens)", kib: 500, text: () => fill(500, (n) => `User-agent: a${n}\n`) },
  { name: "record-reading breaks", kib: 500, text: () => fill(500, (n) => `User-agent: a${n}\nCrawl-delay: 1\n\n`) },
  {
    // Attack F1 (session 11): 1,000 tokens each had a merged list and trees of their own (the
    // parser keeps 16,663 characters of a line: a wildcard every other one). 326 MB before.
    name: "2 groups x 1,000 tokens x 2 `*a*a…` rules",
    kib: 424,
    text: () => wildcardGroup("x") + wildcardGroup("y"),
  },
  {
    // Attack F2 (session 11): a, b, c asked in turn rebuilt 11,000 rules on every request
    // (bounds.bench.ts: its time per request).
    name: "2 groups x a, b, c x 5,500 rules",
    kib: 462,
    text: () => abcGroup("x") + abcGroup("y"),
  },
  {
    name: "escaped rules (two spellings)",
    kib: 500,
    text: () => fill(500, (n) => `Disallow: /%3A${n.toString(36)}\n`, "User-agent: *\n"),
  },
  // The same shapes cut to under the per-file cap (ROBOTS_ENTRY_MAX_BYTES, 21.3 MiB: ~19-21 MiB estimated): built, weighed.
  {
    name: "two tokens and a rule per group",
    kib: 70,
    text: () => fill(70, (n) => `User-agent: a${n}\nUser-agent: b${n}\nDisallow: /x${n}\n`),
  },
  { name: "one token and a rule per group", kib: 55, text: () => fill(55, (n) => `User-agent: a${n}\nDisallow: /\n`) },
  { name: "record-reading breaks", kib: 170, text: () => fill(170, (n) => `User-agent: a${n}\nCrawl-delay: 1\n\n`) },
];

/** A KV namespace in memory: what storedRobots reads. */
function memoryKv(): KVNamespace {
  const values = new Map<string, string>();
  return {
    get: async (key: string) => values.get(key) ?? null,
    put: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
  } as unknown as KVNamespace;
}

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * `tenants` tenants serving `text`, each compiled and asked every token in both readings: what
 * the memory holds and weighs, the heap it holds, and the time per tenant.
 */
async function measure(text: string, tenants: number) {
  const bytes = new TextEncoder().encode(text);
  const tokens = ["*", ...new Set(parseRobotsTxt(bytes).groups.flatMap((group) => group.agents))];
  const kv = memoryKv();
  const authorities = Array.from({ length: tenants }, (_, n) => `https://t${n}.tenants.example`);
  for (const authority of authorities) {
    const fetched = {
      kind: "ok",
      status: 200,
      body: bytes,
      etag: undefined,
      lastModified: undefined,
      maxAge: undefined,
    } as const;
    await writeEntry(kv, applyFetch(undefined, authority, fetched, { now: Date.now(), maxAgeSeconds: 86_400 }));
  }
  clearRobotsMemory();
  clearStoreMemory();
  const before = heapAfterGc();
  const started = performance.now();
  let built = 0;
  for (const authority of authorities) {
    const matcher = (await storedRobots(authority, kv))?.matcher();
    if (matcher) built++;
    const record = matcher?.recordReading();
    for (const token of tokens) {
      matcher?.decide([token], "/x7");
      record?.decide([token], "/x7");
    }
  }
  const ms = (performance.now() - started) / tenants;
  // What the tenants' entries hold: the heap with the memory full, less the heap before.
  const use = robotsMemoryUse();
  const held = (heapAfterGc() - before) / MB;
  clearRobotsMemory();
  clearStoreMemory();
  return { built, origins: use.origins, weighed: use.bytes / MB, budget: use.budgetBytes / MB, held, ms };
}

// The own-fault line each file over the cap logs (capped-matcher.ts): the rows below say it.
console.error = () => undefined;
const rows: string[] = [];
const estimates: string[] = [];
for (const shape of SHAPES) {
  const text = shape.text();
  // One tenant: the entry's weight (its text and the compiled estimate) against the heap it holds.
  const one = await measure(text, 1);
  // A file over the cap is not built: its row weighs its text only (the estimate is not used).
  const verdict = one.built === 0 ? "not built (over the cap)" : one.weighed >= one.held ? "ok" : "UNDER";
  estimates.push(
    `${shape.name.padEnd(40)} ${String(shape.kib).padStart(3)} KiB: weighed ${one.weighed.toFixed(1)} MB, heap ${one.held.toFixed(1)} MB   ${verdict}`,
  );
  const { built, origins, weighed, budget, held, ms } = await measure(text, TENANTS);
  rows.push(
    `${shape.name.padEnd(40)} ${String(shape.kib).padStart(3)} KiB x${TENANTS}: ${built} built, held ${origins} origins, weighed ${weighed.toFixed(1)} MB, all three memories ${budget.toFixed(1)} MB (budget ${(ROBOTS_MEMORY_BUDGET_BYTES / MB).toFixed(1)}), heap ${held.toFixed(1)} MB of the isolate's ${ISOLATE_LIMIT_MB} MB; ${ms.toFixed(0)} ms per tenant to compile and ask every token`,
  );
}
console.log(
  "robots.txt memory, one tenant: its weight (upper estimate) against the heap it holds (target: weighed >= heap):",
);
for (const row of estimates) console.log(`  ${row}`);
console.log(
  `robots.txt memories at their one budget, ${(ROBOTS_MEMORY_BUDGET_BYTES / MB).toFixed(1)} MB shared (robots.txt memory, unsaved, last good; a file estimated over ${(ROBOTS_ENTRY_MAX_BYTES / MB).toFixed(1)} MB is not built: robots.txt unavailable), worst-shape tenants (Node 24, heapUsed after gc):`,
);
for (const row of rows) console.log(`  ${row}`);

// Attack 12, A12-3: the token memo (256 raw tokens as sent) once kept, for each case spelling of
// a token (`Abcdefgh`, `aBcdefgh`, …), the group it was built for, and that group's merged list
// of 112,000 references after the bound dropped it: 8 groups, token k named by every group but
// group k, `disallow:/p` then `x:y` records to 500 KiB, each token asked in turn in n spellings
// (the enforcement matcher and its record reading, as test/core/attack12-heap.ts measures it).
// Before: 16 spellings held 102-118 MB, 32 spellings 110-234 MB, against an estimate of
// 35.1 MB. Target: heap <= weighed.
console.log("robots.txt matcher, tokens asked in turn in n case spellings (A12-3; target: heap <= weighed):");
for (const spellings of [1, 16, 32]) {
  const { held, weighed } = spelledHeap(spellings, heapAfterGc);
  console.log(
    `  ${`8 sets of 7 groups, 500 KiB of records, ${spellings} spelling(s) of each token`.padEnd(66)} heap ${(held / MB).toFixed(1)} MB, weighed ${(weighed / MB).toFixed(1)} MB   ${held <= weighed ? "ok" : "OVER"}`,
  );
}
