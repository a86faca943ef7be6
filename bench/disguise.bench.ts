// `npm run bench`: what finding crawlers in disguise (issue 24) adds to a browser's request, and
// to a bot's whose claim is not proven (judged as the list's crawler too), on a warm isolate, through the Worker's own code: the decision asks for the disguise fact, the
// shell looks the client's address up in the crawler-only lists compiled once per load
// (identity/disguised.ts -> crawler-ranges.ts crawlerOnlyIndex), the decision answers again.
// Compared with the same request under DISGUISED_CRAWLERS=off. Also: the lookup alone, the
// compiled structure's memory and its compile time, with every list at the size operators
// publish (300 prefixes each) and at the bound a list may reach (MAX_RANGE_PREFIXES each).
// KV is a stub serving the stored lists; after the first read the isolate's memory answers.
import { Bench } from "tinybench";
import { compileAddressIndex } from "../src/agents/address-intervals.ts";
import { classifyUserAgent } from "../src/agents/classify.ts";
import { rangeUseOf } from "../src/agents/operators/tables.ts";
import { RANGE_SOURCES } from "../src/agents/operators/tables.ts";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { decideEdge } from "../src/policy/edge-decision.ts";
import { NOTHING_GATHERED, type EdgeFacts } from "../src/policy/edge-facts.ts";
import type { Mode } from "../src/policy/mode.ts";
import { crawlerOnlyIndex, MAX_RANGE_PREFIXES } from "../src/worker/identity/crawler-ranges.ts";
import { disguiseOf } from "../src/worker/identity/disguised.ts";
import { random } from "./random.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const matcher = compileRobots(
  parseRobotsTxt("User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"),
);

/** Every source's list with `size` prefixes, half random /24s, half random /64s; the first holds 10.<index>.0.0/24. */
function lists(size: number, seed: number) {
  const next = random(seed);
  const octet = () => Math.floor(next() * 223) + 1;
  const hex = () => Math.floor(next() * 65535).toString(16);
  return RANGE_SOURCES.map((source, index) => ({
    name: source.name,
    crawlerOnly: rangeUseOf(source.name)?.use === "crawler-only",
    cidrs: [
      `10.${index}.0.0/24`,
      ...Array.from({ length: size / 2 - 1 }, () => `${octet()}.${octet()}.${octet()}.0/24`),
      ...Array.from({ length: size / 2 }, () => `2001:${hex()}:${hex()}:${hex()}::/64`),
    ],
  }));
}

const published = lists(300, 31);
const stored = {
  sources: Object.fromEntries(published.map((list) => [list.name, { fetchedAt: Date.now(), cidrs: list.cidrs }])),
};
const kv = {
  // As KV returns it to the validated reader (store.ts readRecord): the stored text.
  get: async (key: string) => (key === "crawler-ranges" ? JSON.stringify(stored) : null),
  put: async () => undefined,
} as unknown as KVNamespace;
const addressIn = (name: string) => `10.${RANGE_SOURCES.findIndex((source) => source.name === name)}.0.7`;
const PERSON_V4 = "203.0.113.9";
const PERSON_V6 = "2a02:c7f:1234:5678:9abc:def0:1234:5678";

const CURL = "curl/8.5.0";

function edgeFor(address: string, ua = CHROME) {
  const browser = new Request("https://www.example.com/news/today", {
    headers: { "user-agent": ua, "cf-connecting-ip": address },
  });
  return { request: browser, env: { ROBOTS: kv } as unknown as Env, ua };
}

function baseFacts(disguisedCrawlers: Mode, ua: string): EdgeFacts {
  return {
    originUnusable: false,
    selfAddressed: false,
    mode: "enforce",
    served: true,
    isRobotsTxt: false,
    pathAndQuery: "/news/today",
    agent: classifyUserAgent(ua),
    signed: false,
    verifyCrawlers: "unknown",
    disguisedCrawlers,
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
}

/** One request, decided as edge/request-path.ts decides it. */
async function request(edge: ReturnType<typeof edgeFor>, setting: Mode): Promise<string> {
  let facts = baseFacts(setting, edge.ua);
  let answer = decideEdge(facts);
  if ("gather" in answer && answer.gather === "disguise") {
    facts = { ...facts, disguise: (await disguiseOf(edge)) ?? "none" };
    answer = decideEdge(facts);
  }
  return "gather" in answer ? `gather ${answer.gather}` : `${answer.action} ${answer.layer}`;
}

const cases = [
  { name: "browser, IPv4 in no list", edge: edgeFor(PERSON_V4), expected: "pass human" },
  { name: "browser, IPv6 in no list", edge: edgeFor(PERSON_V6), expected: "pass human" },
  {
    name: "browser from the gptbot list (enforce: 403)",
    edge: edgeFor(addressIn("gptbot")),
    expected: "block robots.txt",
  },
  { name: "curl (a claim not proven), in no list", edge: edgeFor(PERSON_V4, CURL), expected: "pass robots.txt" },
  {
    name: "curl from the gptbot list (enforce: 403)",
    edge: edgeFor(addressIn("gptbot"), CURL),
    expected: "block robots.txt",
  },
];
// Warm the isolate (lists read and compiled) and check each case takes its path.
for (const { name, edge, expected } of cases) {
  const got = await request(edge, "enforce");
  if (got !== expected) throw new Error(`bench setup: ${name} gave ${got}, expected ${expected}`);
}

const index = await crawlerOnlyIndex(kv);
const bench = new Bench({ time: 1500, warmupTime: 300 });
for (const { name, edge } of cases) {
  bench
    .add(`${name}: off`, async () => {
      await request(edge, "off");
    })
    .add(`${name}: enforce`, async () => {
      await request(edge, "enforce");
    });
}
const lookups = [PERSON_V4, PERSON_V6, addressIn("gptbot"), "::ffff:203.0.113.9"];
bench.add("lookup alone, 4 addresses", () => {
  for (const address of lookups) index.lookup(address);
});
await bench.run();

const p50 = (name: string) => {
  const result = bench.tasks.find((task) => task.name === name)?.result;
  return result && "latency" in result ? result.latency.p50 * 1000 : NaN;
};
console.log(
  "crawlers in disguise per browser request, and per bot whose claim is not proven, on a warm isolate (lists compiled in memory), tinybench median",
);
for (const { name } of cases) {
  const off = p50(`${name}: off`);
  const on = p50(`${name}: enforce`);
  console.log(
    `  ${name.padEnd(46)} off ${off.toFixed(2)} us   on ${on.toFixed(2)} us   added ${(on - off).toFixed(2)} us (target <= 1 us)`,
  );
}
console.log(`  the address lookup alone: ${(p50("lookup alone, 4 addresses") / 4).toFixed(3)} us per address`);

for (const [label, size] of [
  ["as published (300 prefixes per list)", 300],
  [`at the bound (${MAX_RANGE_PREFIXES} prefixes per list)`, MAX_RANGE_PREFIXES],
] as const) {
  const input = size === 300 ? published : lists(size, 32);
  const started = performance.now();
  const compiled = compileAddressIndex(input);
  const ms = performance.now() - started;
  const crawlerOnly = input.filter((list) => list.crawlerOnly).length;
  console.log(
    `  compiled ranges, ${label}: ${crawlerOnly} crawler-only of ${input.length} lists, ${compiled.intervals} intervals, ${(compiled.bytes / 1024).toFixed(1)} KiB, compiled in ${ms.toFixed(1)} ms (once per load)`,
  );
}
