// Issue 33, scale: the CPU a crawler's request costs on a warm isolate when the deployment serves
// 1,000 hosts, each with a policy of its own, next to a deployment of one host with one policy.
// Per request: the policy in force for the request's host (src/worker/live-policy.ts, in steady
// state: from the isolate's memory, the index re-read at most every 10 s), then the one decision
// with it (policy/edge-decision.ts, the robots.txt judged and the policy matched). Requests go to
// the hosts in turn, the worst order for a cache. KV is a Map here; the KV reads the requests made
// are counted and printed (steady state: none). Target: 1,000 hosts within 10 % of one host.
// Each host's policy has content of its own (one route names the site), the case measured
// against the target. Then, on a cleared isolate, the same 1,000 hosts given one template's
// policy word for word (an agency's sites), which the isolate compiles once for all of them
// (live-policy.ts), beside its 1-host twin measured again.
import { classifyUserAgent } from "../src/agents/classify.ts";
import { parseConfig } from "../src/config/read-config.ts";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { decideEdge } from "../src/policy/edge-decision.ts";
import { NOTHING_GATHERED, type EdgeFacts } from "../src/policy/edge-facts.ts";
import { clearPolicyMemory, policyInForce, rememberedPolicies, type LivePolicy } from "../src/worker/live-policy.ts";
import { policyOf, ROBOTS, storedPolicies, zipfHosts } from "./host-deployment.ts";

const matcher = compileRobots(parseRobotsTxt(new TextEncoder().encode(ROBOTS)));
const GPTBOT = classifyUserAgent("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)");
const paths = ["/", "/search?q=shoes", "/x/a/b", "/a/../admin/", "/products/123?color=red", "/caf%C3%A9/menu"];

/** A deployment of `count` hosts, each with its policy stored as the admin API stores it. */
async function deployment(count: number, name = (n: number) => `site${n}.example`, policy = policyOf) {
  const stored = await storedPolicies(count, name, policy);
  const { config } = parseConfig({ ORIGIN_URL: "", AUTHORITIES: stored.hosts.join(", ") });
  return { ...stored, kv: stored.kv as unknown as KVNamespace, config };
}

const baseFacts: EdgeFacts = {
  originUnusable: false,
  selfAddressed: false,
  mode: "enforce",
  served: true,
  isRobotsTxt: false,
  pathAndQuery: "/",
  agent: GPTBOT,
  signed: false,
  verifyCrawlers: "off",
  needsVerification: false,
  cloudflareCategory: undefined,
  ...NOTHING_GATHERED,
  pause: "none",
  robots: { state: "ok", matcher, retryAfter: 0 },
  failOpen: false,
  blockStatus: 403,
  policy: "none",
  enforceRates: "off",
  usageSignals: "enforce",
  usageHeader: true,
  rateLimiter: false,
  now: 0,
};

type Deployment = Awaited<ReturnType<typeof deployment>>;

/** One crawler request's edge work on a warm isolate: its host's policy, then (`decide`) the decision. */
function request(site: Deployment, host: string, n: number, decide: boolean): void | Promise<void> {
  const path = paths[n % paths.length] ?? "/";
  const judge = (live: LivePolicy) => {
    if (decide) decideEdge({ ...baseFacts, pathAndQuery: path, policy: live.compiled ?? "none" });
  };
  const live = policyInForce(site.kv, site.config, host);
  // As on the Worker, a policy in memory is answered without a promise.
  if (live instanceof Promise) return live.then(judge);
  judge(live);
}

const one = await deployment(1);
const thousand = await deployment(1000);
// Warm each isolate memory as traffic would (every host requested once), then count reads from here.
clearPolicyMemory();
for (const [n, host] of thousand.hosts.entries()) await request(thousand, host, n, true);
await request(one, one.hosts[0] ?? "", 0, true);
const readsBefore = { one: one.reads(), thousand: thousand.reads() };

// Hosts in turn (the worst order for the CPU's caches), and as traffic spreads: a Zipf
// distribution (bench/host-deployment.ts).
const PER_ROUND = 5_000;
const zipfOrder = zipfHosts(thousand.hosts, PER_ROUND);

interface Scenario {
  readonly name: string;
  readonly site: Deployment;
  readonly hostOf: (k: number) => string;
  readonly decide: boolean;
}
const oneHost = () => one.hosts[0] ?? "";
const inTurn = (k: number) => thousand.hosts[k % thousand.hosts.length] ?? "";
const zipf = (k: number) => zipfOrder[k % zipfOrder.length] ?? "";
const scenarios: Scenario[] = [
  { name: "policy lookup only, 1 host", site: one, hostOf: oneHost, decide: false },
  { name: "policy lookup only, 1,000 hosts in turn", site: thousand, hostOf: inTurn, decide: false },
  { name: "crawler request (lookup + decision), 1 host", site: one, hostOf: oneHost, decide: true },
  { name: "crawler request, 1,000 hosts, Zipf traffic", site: thousand, hostOf: zipf, decide: true },
  { name: "crawler request, 1,000 hosts in turn", site: thousand, hostOf: inTurn, decide: true },
];
/** The scenario each is compared with (its 1-host twin). */
const baselineOf = [0, 0, 2, 2, 2];

/** This process's CPU time in µs (not wall time: on a shared machine the wait for a core is not ours). */
const cpu = () => {
  const usage = (
    globalThis as unknown as { process: { cpuUsage(): { user: number; system: number } } }
  ).process.cpuUsage();
  return usage.user + usage.system;
};
let requestNumber = 0;
async function timed({ site, hostOf, decide }: Scenario): Promise<number> {
  const start = cpu();
  for (let k = 0; k < PER_ROUND; k++) {
    const pending = request(site, hostOf(k), requestNumber++, decide);
    if (pending) await pending;
  }
  return (cpu() - start) / PER_ROUND; // µs per request
}

// Rounds of every scenario, in a rotating order, the medians taken: on a shared machine the load
// drifts between long runs, much less within one round.
const ROUNDS = 21;
const median = (values: readonly number[]) => values.toSorted((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;
async function measured(list: readonly Scenario[], baselines: readonly number[]) {
  const times = list.map((): number[] => []);
  const ratios = list.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    const took: number[] = [];
    for (let step = 0; step < list.length; step++) {
      const index = (round + step) % list.length;
      const scenario = list[index];
      if (scenario) took[index] = await timed(scenario);
    }
    took.forEach((time, index) => {
      times[index]?.push(time);
      ratios[index]?.push(time / (took[baselines[index] ?? 0] ?? NaN));
    });
  }
  return list.map((scenario, index) => ({
    scenario: scenario.name,
    "median CPU µs": median(times[index] ?? []).toFixed(3),
    "÷ its 1-host twin (median of rounds)": median(ratios[index] ?? []).toFixed(3),
  }));
}
const rows = await measured(scenarios, baselineOf);
const readsMeasured = `${one.reads() - readsBefore.one} + ${thousand.reads() - readsBefore.thousand}`;
const memory = rememberedPolicies();

// Then the same 1,000 host names on an isolate of their own (memory cleared, as a deployment of
// its own), every host's policy one template's word for word: compiled once for all of them.
// Its 1-host twin is measured again beside it (the template is the 1-host policy).
const template = await deployment(1000, undefined, () => policyOf(0));
clearPolicyMemory();
for (const [n, host] of template.hosts.entries()) await request(template, host, n, true);
await request(one, one.hosts[0] ?? "", 0, true);
const templateReadsBefore = template.reads() + one.reads();
const templateInTurn = (k: number) => template.hosts[k % template.hosts.length] ?? "";
const templateRows = await measured(
  [
    { name: "crawler request, 1 host (again, beside the template)", site: one, hostOf: oneHost, decide: true },
    {
      name: "crawler request, 1,000 hosts of one template, in turn",
      site: template,
      hostOf: templateInTurn,
      decide: true,
    },
  ],
  [0, 0],
);
const templateMemory = rememberedPolicies();
console.table([...rows, ...templateRows]);
console.log("target: 1,000 hosts within 1.10 of one host");
console.log(
  `KV reads during the ${ROUNDS * PER_ROUND * (scenarios.length + 2)} measured requests (1 host + 1,000 hosts; the template's): ${readsMeasured}; ${template.reads() + one.reads() - templateReadsBefore}`,
);
console.log(
  `policies kept on the isolate: ${memory.count}, ${memory.compiled} compiled, ${(memory.textBytes / 1024).toFixed(0)} KiB of policy text; with the template: ${templateMemory.count}, ${templateMemory.compiled} compiled`,
);
