// What the Worker's own decision log line costs one request, on a warm isolate: the record of
// an allowed Googlebot request under eBay's robots.txt (the load benchmark's (a) case, 1,567
// rules), rendered as the JSON line (LOG_FORMAT=json, the default) and as the short line
// (LOG_FORMAT=line, npm run dev), then the JSON line with console.log writing it to a stream
// that discards it. That is what a deployed Worker pays for the line: the runtime hands the
// line to Workers Logs / `wrangler tail` after the call. Under `wrangler dev` the same line
// also crosses workerd's stdout and its inspector to wrangler's Node process (bench/load.ts
// prints that cost per process); a deployed Worker has neither.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Bench } from "tinybench";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { decideEdge } from "../src/policy/edge-decision.ts";
import { decisionJson, decisionLine } from "../src/worker/log.ts";
import { discardingConsole, lineCpuMicroseconds, loggedDecision } from "./decision-log-line.ts";

const ROBOTS_FILE = resolve(import.meta.dirname, "../test/fixtures/corpus/robots/0098.txt");
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const PATH = "/products/shoes?utm_source=newsletter&utm_medium=email";

const decision = loggedDecision(compileRobots(parseRobotsTxt(readFileSync(ROBOTS_FILE, "utf8"))), GOOGLEBOT, PATH);
const { facts, record, request } = decision;

const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add("decision alone (for scale)", () => {
    decideEdge(facts);
  })
  .add("JSON line rendered (LOG_FORMAT=json)", () => {
    decisionJson(record, request);
  })
  .add("short line rendered (LOG_FORMAT=line)", () => {
    decisionLine(record, request);
  })
  .add("JSON line rendered + console.log to a discarding stream", () => {
    discardingConsole.log(decisionJson(record, request));
  });
await bench.run();
console.log(`the decision log line's CPU per request (Googlebot, ${PATH}, eBay's robots.txt), tinybench`);
console.log(`  one JSON line: ${decisionJson(record, request).length} characters`);
for (const task of bench.tasks) {
  const result = task.result;
  const p50 = result && "latency" in result ? result.latency.p50 * 1000 : NaN;
  const p99 = result && "latency" in result ? (result.latency.p99 ?? NaN) * 1000 : NaN;
  console.log(`  ${task.name.padEnd(58)} p50 ${p50.toFixed(2)} us   p99 ${p99.toFixed(2)} us`);
}
console.log(
  `  JSON line rendered + console.log, CPU (user + system) per line over 20,000: ${lineCpuMicroseconds(decision).toFixed(2)} us`,
);
