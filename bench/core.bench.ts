// `npm run bench`: the REP engine's speed on this machine, next to robots-parser (the most
// used npm robots.txt parser) on the same workload in the same run. A benchmark, not a test:
// it prints numbers and the targets of issue #2, and never fails the build.
//
//   decision   per corpus file: mean time of one decision over ~50 URLs made from its rules
//              (hot loop, matcher compiled and warmed); we report the median over files.
//   parse      the largest corpus file and a generated 500 KiB file.
//   pathological  a pattern with 15 `*` against a 5,000-character path.
//   worst case    2,000 rules `Disallow: /*a<i>*b` (i = 0..1999) against an 8 KB path of
//              `a`s (issue #9): each rule tried alone would scan the path, ~100 ms a decision.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import robotsParser from "robots-parser";
import { Bench } from "tinybench";
import { compileRobots, parseRobotsTxt, reviveRobots, serializeRobots } from "../src/core/index.ts";
import { random } from "./random.ts";

const CORPUS = resolve(import.meta.dirname, "../test/fixtures/corpus/robots");
const TOKENS = ["googlebot", "gptbot", "bingbot", "somebot"];
const GENERIC_PATHS = [
  "/",
  "/index.html",
  "/search?q=test",
  "/wp-admin/admin-ajax.php",
  "/a/b/c/d/e/f.html",
  "/products/123?color=red",
];
const URLS_PER_FILE = 50;

interface Case {
  name: string;
  text: string;
  urls: string[];
}

function urlsFor(text: string, next: () => number): string[] {
  const patterns = parseRobotsTxt(text).groups.flatMap((group) => group.rules.map((rule) => rule.pattern));
  const paths = [...GENERIC_PATHS];
  while (paths.length < URLS_PER_FILE && patterns.length > 0) {
    const pattern = patterns[Math.floor(next() * patterns.length)] ?? "/";
    const path = pattern.replace(/\*/g, "x1").replace(/\$$/, "");
    const suffix = ["", "extra", "/page.html", "?q=1"][Math.floor(next() * 4)] ?? "";
    paths.push(`${path.startsWith("/") ? path : `/${path}`}${suffix}`);
  }
  return paths.map((path) => `https://example.com${path}`);
}

function loadCorpus(): Case[] {
  const next = random(2026);
  return readdirSync(CORPUS)
    .filter((name) => name.endsWith(".txt"))
    .toSorted()
    .map((name) => {
      const text = readFileSync(resolve(CORPUS, name), "utf8");
      return { name, text, urls: urlsFor(text, next) };
    });
}

/** Mean nanoseconds per call of `decideAll` (which makes `count` decisions), over >= 5 ms. */
function nsPerDecision(decideAll: () => void, count: number): number {
  decideAll();
  let rounds = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    decideAll();
    rounds++;
    elapsed = process.hrtime.bigint() - start;
  } while (elapsed < 5_000_000n);
  return Number(elapsed) / (rounds * count);
}

function ours(item: Case): () => void {
  const matcher = compileRobots(parseRobotsTxt(item.text));
  return () => {
    for (let i = 0; i < item.urls.length; i++) matcher.decide([TOKENS[i & 3] ?? "x"], item.urls[i] ?? "/");
  };
}

function theirs(item: Case): () => void {
  const parser = robotsParser("https://example.com/robots.txt", item.text);
  return () => {
    for (let i = 0; i < item.urls.length; i++) parser.isAllowed(item.urls[i] ?? "/", TOKENS[i & 3] ?? "x");
  };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function verdict(ok: boolean): string {
  return ok ? "PASS" : "MISS";
}

function benchDecisions(cases: Case[]): void {
  const oursPerFile: number[] = [];
  const theirsPerFile: number[] = [];
  for (const item of cases) {
    oursPerFile.push(nsPerDecision(ours(item), item.urls.length));
    theirsPerFile.push(nsPerDecision(theirs(item), item.urls.length));
  }
  const ratios = cases.map((_, i) => (theirsPerFile[i] ?? 0) / (oursPerFile[i] ?? 1)).toSorted((a, b) => a - b);
  const oursNs = oursPerFile.toSorted((a, b) => a - b);
  const theirsNs = theirsPerFile.toSorted((a, b) => a - b);
  const median = quantile(oursNs, 0.5);
  const ratio = quantile(theirsNs, 0.5) / median;
  console.log(`decision, ${cases.length} corpus files x ~${URLS_PER_FILE} URLs, 4 crawler tokens`);
  console.log(
    `  robots-edge   median ${(median / 1000).toFixed(3)} us   p90 ${(quantile(oursNs, 0.9) / 1000).toFixed(3)} us   max ${(quantile(oursNs, 1) / 1000).toFixed(3)} us`,
  );
  console.log(
    `  robots-parser median ${(quantile(theirsNs, 0.5) / 1000).toFixed(3)} us   p90 ${(quantile(theirsNs, 0.9) / 1000).toFixed(3)} us   max ${(quantile(theirsNs, 1) / 1000).toFixed(3)} us`,
  );
  console.log(
    `  speed-up (median of medians) ${ratio.toFixed(1)}x; per file: min ${quantile(ratios, 0).toFixed(1)}x, median ${quantile(ratios, 0.5).toFixed(1)}x`,
  );
  console.log(`  target: median <= 1 us ${verdict(median <= 1000)}; >= 5x robots-parser ${verdict(ratio >= 5)}`);
}

function generated500KiB(): string {
  const lines = ["User-agent: *"];
  let size = 14;
  for (let i = 0; size < 500 * 1024 - 64; i++) {
    const line = i % 5 === 0 ? `Allow: /section-${i}/*.html$` : `Disallow: /section-${i}/private/page-${i}?id=*`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

async function benchParseAndPathological(cases: Case[]): Promise<void> {
  const largest = cases.reduce((a, b) => (Buffer.byteLength(b.text) > Buffer.byteLength(a.text) ? b : a));
  const largestBytes = new Uint8Array(readFileSync(resolve(CORPUS, largest.name)));
  const generated = generated500KiB();
  const storedLargest = serializeRobots(parseRobotsTxt(largestBytes));
  const stars = `/${"a*".repeat(15)}b`;
  const longPath = `/${"a".repeat(4999)}`;
  const pathological = compileRobots(parseRobotsTxt(`User-agent: *\nDisallow: ${stars}\nAllow: /*a$\n`));
  const manyStars = Array.from({ length: 2000 }, (_, i) => `Disallow: /*a${i}*b`).join("\n");
  const worstCase = compileRobots(parseRobotsTxt(`User-agent: *\n${manyStars}\n`));
  const eightKiB = `/${"a".repeat(8191)}`;
  const bench = new Bench({ time: 1000, warmupTime: 200 });
  bench
    .add(
      `parse largest corpus file (${largest.name}, ${largestBytes.length} B)`,
      () => void parseRobotsTxt(largestBytes),
    )
    .add(`parse generated 500 KiB file (${Buffer.byteLength(generated)} B)`, () => void parseRobotsTxt(generated))
    .add(`revive + compile + first decision, largest file`, () => {
      compileRobots(reviveRobots(storedLargest)).decide(["googlebot"], "/some/page");
    })
    .add("pathological: 15 * vs 5,000-char path", () => void pathological.decide(["x"], longPath))
    .add("worst case: 2,000 /*a<i>*b rules vs 8 KB path", () => void worstCase.decide(["x"], eightKiB));
  await bench.run();
  console.log("parse and pathological (tinybench, median latency)");
  for (const task of bench.tasks) {
    const ms = task.result && "latency" in task.result ? task.result.latency.p50 : NaN;
    console.log(`  ${task.name.padEnd(60)} ${ms.toFixed(3)} ms`);
  }
  const p50 = (i: number) => {
    const result = bench.tasks[i]?.result;
    return result && "latency" in result ? result.latency.p50 : NaN;
  };
  console.log(
    `  target: 500 KiB parse <= 30 ms ${verdict(p50(1) <= 30)}; pathological <= 1 ms ${verdict(p50(3) <= 1)}; worst case <= 1 ms ${verdict(p50(4) <= 1)}`,
  );
}

const cases = loadCorpus();
console.log(`robots-edge core benchmark, Node ${process.version}`);
benchDecisions(cases);
await benchParseAndPathological(cases);
