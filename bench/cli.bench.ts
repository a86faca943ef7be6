// `npm run bench`, part 3 (issue #10): the whole CLI process, `robots-edge check FILE TOKEN`
// over 200,000 URLs on stdin, against robots-parser doing the same work in its own process
// (bench/robots-parser-check.js). Start-up, line reading, deciding and writing all count.
// Both answer every URL; the answers must be the same (printed as a mismatch count).
// Target: whole process <= 0.5x robots-parser's time. A benchmark: it prints, never fails.
//
// Each process runs as a user runs it, `check … < urls.txt > answers.txt`: stdin and stdout are
// files, so the time is the process's own. (Through a pipe into this bench, the time would also
// hold this process reading the output: 12 MB of `verdict<TAB>url<TAB>reason` lines against
// robots-parser's 1.8 MB of verdicts. That figure is printed too, for what it is.)
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseRobotsTxt } from "../src/core/index.ts";
import { random } from "./random.ts";

const ROOT = resolve(import.meta.dirname, "..");
// Real files: a typical one (the target is judged on it: start-up, reading and writing weigh
// most there) and a large one, where robots-parser's per-rule regexes dominate.
const FILES = [
  { file: "0020.txt", site: "vimeo.com, 30 rules, 7 with wildcards", runs: 7, pipe: true },
  { file: "0263.txt", site: "www.gratz.edu, 1,550 rules, 509 with wildcards", runs: 1, pipe: false },
];
const TOKEN = "Googlebot";
const URL_COUNT = 200_000;

/** URLs made from the file's own rules (half hit a rule), plus generic paths; plain ASCII only. */
function generateUrls(robotsText: string): string {
  const next = random(10);
  const patterns = parseRobotsTxt(robotsText)
    .groups.flatMap((group) => group.rules.map((rule) => rule.pattern))
    .filter((pattern) => /^\/[\x21-\x7e]*$/.test(pattern) && !pattern.includes("%"));
  const suffixes = ["", "x", "/page.html", "?q=1", "/a/b"];
  const generic = ["/", "/index.html", "/search?q=shoes", "/news/2024/05/story", "/about-us/"];
  const lines: string[] = [];
  for (let i = 0; i < URL_COUNT; i++) {
    const base =
      next() < 0.5
        ? (patterns[Math.floor(next() * patterns.length)] ?? "/").replace(/\*/g, "z9").replace(/\$$/, "")
        : (generic[Math.floor(next() * generic.length)] ?? "/");
    // A bare trailing "?" is left out: robots-parser's URL parsing drops it (Google's matcher keeps it).
    const suffix = base.endsWith("?") ? "q=1" : (suffixes[Math.floor(next() * suffixes.length)] ?? "");
    lines.push(`https://example.com${base}${suffix}`);
  }
  return `${lines.join("\n")}\n`;
}

interface Run {
  ms: number;
  stdout: string;
}

/** One run, stdin from the URL file; stdout to a file (`> answers.txt`) or a pipe into this process. */
function timeProcess(args: string[], stdinFile: string, to: "file" | "pipe"): Promise<Run> {
  return new Promise((done, fail) => {
    const stdin = openSync(stdinFile, "r");
    const answers = join(dir, "answers.txt");
    const stdout = to === "file" ? openSync(answers, "w") : "pipe";
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: [stdin, stdout, "inherit"] });
    const chunks: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", fail);
    child.on("close", () => {
      const ms = performance.now() - started;
      closeSync(stdin);
      if (typeof stdout === "number") closeSync(stdout);
      done({ ms, stdout: to === "file" ? readFileSync(answers, "utf8") : Buffer.concat(chunks).toString("utf8") });
    });
  });
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const dir = mkdtempSync(join(tmpdir(), "robots-edge-cli-bench-"));
try {
  for (const { file, site, runs, pipe } of FILES)
    await compare(resolve(ROOT, "test/fixtures/corpus/robots", file), site, runs, pipe);
  await longLines(resolve(ROOT, "test/fixtures/corpus/robots", "0020.txt"));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function compare(robots: string, site: string, runs: number, pipe: boolean): Promise<void> {
  const urlsFile = join(dir, "urls.txt");
  writeFileSync(urlsFile, generateUrls(readFileSync(robots, "utf8")));
  const ours = ["bin/robots-edge.js", "check", robots, TOKEN];
  const theirs = ["bench/robots-parser-check.js", robots, TOKEN];
  const oursMs: number[] = [];
  const theirsMs: number[] = [];
  const oursPipeMs: number[] = [];
  const theirsPipeMs: number[] = [];
  let mismatches = 0;
  let disallowed = 0;
  for (let run = 0; run < runs; run++) {
    const a = await timeProcess(ours, urlsFile, "file");
    const b = await timeProcess(theirs, urlsFile, "file");
    oursMs.push(a.ms);
    theirsMs.push(b.ms);
    if (pipe) {
      oursPipeMs.push((await timeProcess(ours, urlsFile, "pipe")).ms);
      theirsPipeMs.push((await timeProcess(theirs, urlsFile, "pipe")).ms);
    }
    if (run > 0) continue;
    const answersA = a.stdout.split("\n").map((line) => line.split("\t")[0]);
    const answersB = b.stdout.split("\n");
    mismatches = Math.abs(answersA.length - answersB.length);
    const urls = readFileSync(urlsFile, "utf8").split("\n");
    for (let i = 0; i < Math.min(answersA.length, answersB.length); i++) {
      if (answersA[i] !== answersB[i] && mismatches++ < 3) {
        console.log(`  differ: ${urls[i]}: robots-edge ${answersA[i]}, robots-parser ${answersB[i]}`);
      }
      if (answersA[i] === "disallowed") disallowed++;
    }
  }
  const ratio = median(oursMs) / median(theirsMs);
  const pipeRatio = median(oursPipeMs) / median(theirsPipeMs);
  console.log(
    `\nCLI, whole process: check ${URL_COUNT.toLocaleString("en")} URLs, ${site}, ${TOKEN}, median of ${runs}`,
  );
  console.log(`  < urls.txt > answers.txt`);
  console.log(`    robots-edge check    ${median(oursMs).toFixed(0)} ms`);
  console.log(`    robots-parser        ${median(theirsMs).toFixed(0)} ms`);
  console.log(`    ratio                ${ratio.toFixed(2)}x   (target <= 0.5x)   ${ratio <= 0.5 ? "ok" : "MISSED"}`);
  if (pipe) {
    console.log(`  < urls.txt | this bench (its reading of the output counted)`);
    console.log(`    robots-edge check    ${median(oursPipeMs).toFixed(0)} ms`);
    console.log(`    robots-parser        ${median(theirsPipeMs).toFixed(0)} ms`);
    console.log(`    ratio                ${pipeRatio.toFixed(2)}x`);
  }
  console.log(`  answers                ${mismatches} differ, ${disallowed.toLocaleString("en")} disallowed`);
}

/**
 * A bound: one line of 8 MB and one of 32 MB. Reading must cost a line's length once, not once
 * per 64 KiB block (the old reading joined and split the unfinished line for every block: 24 s
 * for 30 MB). Linear: four times the line, about four times the time past start-up.
 */
async function longLines(robots: string): Promise<void> {
  const times: string[] = [];
  for (const megabytes of [8, 32]) {
    const urlsFile = join(dir, `long-${megabytes}.txt`);
    writeFileSync(urlsFile, `/a${"x".repeat(megabytes * 1024 * 1024)}\n/b\n`);
    const run = await timeProcess(["bin/robots-edge.js", "check", robots, TOKEN], urlsFile, "file");
    times.push(`${megabytes} MB ${run.ms.toFixed(0)} ms`);
  }
  console.log(`\nCLI, one very long line on stdin (a bound: linear in its length): ${times.join(", ")}`);
}
