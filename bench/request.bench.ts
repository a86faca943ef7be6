// The CPU the edge adds to one request on a warm isolate (no KV read, no fetch): classify
// the User-Agent, then judge the path under the origin's robots.txt. Measured with the
// real corpus strings (humans and crawlers mixed as they come) and a large real robots.txt.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Bench } from "tinybench";
import { classifyUserAgent } from "../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { judge } from "../src/policy/judge.ts";
import { activityOf } from "../src/policy/activity.ts";
import { decideEdge, type EdgeFacts } from "../src/policy/edge-decision.ts";
import { ActivityBuffer } from "../src/policy/activity-batch.ts";

const SHARED = resolve(import.meta.dirname, "../test/fixtures/corpus");
const robotsFile = "0002.txt";
const matcher = compileRobots(parseRobotsTxt(readFileSync(resolve(SHARED, "robots", robotsFile))));
const agents = (file: string) =>
  readFileSync(resolve(SHARED, "agents", file), "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { ua: string }).ua);
const crawlers = agents("crawlers.jsonl");
const browsers = agents("browsers.jsonl");
const paths = ["/", "/search?q=shoes", "/private/a/b", "/a/../admin/", "/products/123?color=red", "/caf%C3%A9/menu"];

function edgeWork(ua: string, path: string): void {
  const agent = classifyUserAgent(ua);
  if (!agent.crawler) return;
  judge({
    mode: "enforce",
    failOpen: false,
    state: "ok",
    matcher,
    tokens: agent.tokens,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    pathAndQuery: path,
  });
}

let i = 0;
const bench = new Bench({ time: 1500, warmupTime: 300 });
const frequent = crawlers.slice(0, 16);
bench
  .add("crawler, 16 UAs repeating (memo hits, the usual traffic)", () => {
    edgeWork(frequent[i % frequent.length] ?? "", paths[i % paths.length] ?? "/");
    i++;
  })
  .add(`crawler, all ${crawlers.length} corpus UAs in turn (memo misses)`, () => {
    edgeWork(crawlers[i % crawlers.length] ?? "", paths[i % paths.length] ?? "/");
    i++;
  })
  .add(`human, all ${browsers.length} corpus browser UAs in turn (memo misses)`, () => {
    edgeWork(browsers[i % browsers.length] ?? "", paths[i % paths.length] ?? "/");
    i++;
  });
// Hostile User-Agent headers are measured in bench/bounds.bench.ts.
// Issue #13: what recording a decision adds to a request. The same decision (decideEdge, every
// fact given) without and with its activity event built and counted in the isolate's buffer;
// the buffer is emptied every 500 events, as a flush would (the flush itself runs after the
// response, in waitUntil, and is one Durable Object call per batch).
function decided(ua: string, path: string): { facts: EdgeFacts; action: ReturnType<typeof decideEdge> } {
  const facts: EdgeFacts = {
    originUnusable: false,
    selfAddressed: false,
    mode: "enforce",
    configProblems: false,
    served: true,
    isRobotsTxt: false,
    pathAndQuery: path,
    agent: classifyUserAgent(ua),
    signed: false,
    verifyCrawlers: "off",
    needsVerification: false,
    pause: null,
    robots: { state: "ok", matcher, retryAfter: 0 },
    failOpen: false,
    blockStatus: 403,
    policy: null, // no policy (undefined would ask the decision to gather it)
    enforceRates: "off",
    usageSignals: "enforce",
    usageHeader: true,
    rateLimiter: false,
    now: Date.now(),
  };
  return { facts, action: decideEdge(facts) };
}
const activity = new ActivityBuffer();
bench
  .add("decision, crawler, 16 UAs repeating (no activity recorded)", () => {
    decided(frequent[i % frequent.length] ?? "", paths[i % paths.length] ?? "/");
    i++;
  })
  .add("decision + activity event counted in the isolate's buffer", () => {
    const { facts, action } = decided(frequent[i % frequent.length] ?? "", paths[i % paths.length] ?? "/");
    const event = activityOf(facts, action, "GET");
    if (event) activity.add("https://example.com", event);
    if (activity.size >= 500) activity.take();
    i++;
  });
await bench.run();
console.log(`edge CPU per request on a warm isolate (robots.txt ${robotsFile}), tinybench median`);
for (const task of bench.tasks) {
  const result = task.result;
  const p50 = result && "latency" in result ? result.latency.p50 * 1000 : NaN;
  const p99 = result && "latency" in result ? (result.latency.p99 ?? NaN) * 1000 : NaN;
  console.log(`  ${task.name.padEnd(70)} p50 ${p50.toFixed(2)} us   p99 ${p99.toFixed(2)} us`);
}
const median = (name: string) => {
  const result = bench.tasks.find((task) => task.name.startsWith(name))?.result;
  return result && "latency" in result ? result.latency.p50 * 1000 : NaN;
};
console.log(
  `  activity recording adds ${(median("decision + activity") - median("decision, crawler")).toFixed(2)} us per crawler request (median)`,
);
