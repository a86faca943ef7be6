// `npm run bench`: the CPU crawler verification adds to one request on a warm isolate (issue
// #12), through the Worker's own code: the verification facts, the address check
// (worker/verify-crawler.ts's steps: crawlerRanges from isolate memory, reverseDnsFor answered
// from isolate memory), the second decision round and the outcome the log line shows.
//   - an unsigned crawler verified by IP list (Googlebot, GPTBot; every list loaded, as large
//     as the operators publish them)
//   - an unsigned crawler verified by reverse DNS, the answer cached (Amazonbot)
//   - an unsigned browser, with verification on and off: it must cost nothing extra
// Each is compared with the same request under VERIFY_CRAWLERS=off. KV is a stub that serves
// the stored lists once; after that the isolate's memory answers, as on a warm isolate.
import { Bench } from "tinybench";
import { classifyUserAgent, type AgentInfo } from "../src/agents/classify.ts";
import {
  cloudflareBotOf,
  needsReverseDns,
  outcomeOfCheck,
  verificationPlan,
  verifyCrawlerDetailed,
} from "../src/agents/verification.ts";
import { RANGE_SOURCES } from "../src/agents/operators/tables.ts";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { decideEdge } from "../src/policy/edge-decision.ts";
import { NOTHING_GATHERED, type EdgeFacts } from "../src/policy/edge-facts.ts";
import { crawlerRanges } from "../src/worker/identity/crawler-ranges.ts";
import { reverseDnsFor, type DnsResolver } from "../src/worker/identity/reverse-dns.ts";
import { random } from "./random.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const AMAZONBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const matcher = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nAllow: /\n"));

// Every source's list at the size operators publish (Googlebot's has ~300 prefixes): 300
// random /24s and /64s each, the first of each source holding the address we send.
const next = random(12);
const octet = () => Math.floor(next() * 223) + 1;
const stored = {
  sources: Object.fromEntries(
    RANGE_SOURCES.map((source, index) => [
      source.name,
      {
        fetchedAt: 0,
        cidrs: [
          `10.${index}.0.0/24`,
          ...Array.from({ length: 150 }, () => `${octet()}.${octet()}.${octet()}.0/24`),
          ...Array.from({ length: 150 }, () => `2001:db8:${Math.floor(next() * 65535).toString(16)}::/64`),
        ],
      },
    ]),
  ),
};
const addressIn = (name: string) => `10.${RANGE_SOURCES.findIndex((source) => source.name === name)}.0.7`;

/** KV as the Worker sees it: the stored lists; reverse DNS answers are only ever in memory here. */
const kv = {
  // As KV returns it to the validated reader (store.ts readRecord): the stored text.
  get: async (key: string) => (key === "crawler-ranges" ? JSON.stringify(stored) : null),
  put: async () => undefined,
} as unknown as KVNamespace;
const AMAZON_ADDRESS = "192.0.2.10";
const resolver: DnsResolver = async (name, type) =>
  type === "PTR" ? { status: "ok", data: ["c1.crawl.amazonbot.amazon."] } : { status: "ok", data: [AMAZON_ADDRESS] };
const dnsOptions = { cache: undefined, resolve: resolver, timeoutMs: 1000 };

function baseFacts(agent: AgentInfo, verifyCrawlers: EdgeFacts["verifyCrawlers"]): EdgeFacts {
  return {
    originUnusable: false,
    selfAddressed: false,
    mode: "enforce",
    served: true,
    isRobotsTxt: false,
    pathAndQuery: "/news/today",
    agent,
    signed: false,
    verifyCrawlers,
    // edge/request-path.ts / identity/verify-crawler.ts needsVerification: a browser stops at `crawler`.
    needsVerification: verifyCrawlers !== "off" && agent.crawler && verificationPlan(agent).methods.length > 0,
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

/** One unsigned request, decided as edge/request-path.ts decides it, with the log line's outcome. */
async function request(ua: string, address: string, verifyCrawlers: EdgeFacts["verifyCrawlers"]): Promise<string> {
  const agent = classifyUserAgent(ua);
  let facts = baseFacts(agent, verifyCrawlers);
  let answer = decideEdge(facts);
  if ("gather" in answer && answer.gather === "verification") {
    const cloudflare = cloudflareBotOf(undefined); // a zone without bot products
    const input = {
      agent,
      address,
      cfVerifiedBot: cloudflare.verified,
      cfCategory: cloudflare.category,
      ranges: await crawlerRanges(kv),
    };
    const reverseDns = needsReverseDns(input)
      ? await reverseDnsFor(address, verificationPlan(agent).reverseDns, dnsOptions)
      : undefined;
    const verification = outcomeOfCheck(verifyCrawlerDetailed({ ...input, ...(reverseDns && { reverseDns }) }));
    facts = { ...facts, verification };
    answer = decideEdge(facts);
  }
  if ("gather" in answer) return `gather ${answer.gather}`;
  return agent.crawler ? `${answer.action} ${answer.identity.verification.status}` : answer.layer;
}

// Warm the isolate: lists into memory, Amazonbot's answer into the reverse DNS cache; and make
// sure each case takes the path it is named for.
const expected: [string, string, EdgeFacts["verifyCrawlers"], string][] = [
  [GOOGLEBOT, addressIn("googlebot"), "unknown", "pass verified"],
  [GPTBOT, addressIn("gptbot"), "unknown", "pass verified"],
  [AMAZONBOT, AMAZON_ADDRESS, "unknown", "pass verified"],
  [CHROME, "203.0.113.9", "unknown", "human"],
];
for (const [ua, address, verify, answer] of expected) {
  const got = await request(ua, address, verify);
  if (got !== answer) throw new Error(`bench setup: ${ua} from ${address} gave ${got}, expected ${answer}`);
}

const bench = new Bench({ time: 1500, warmupTime: 300 });
const cases = [
  { name: "Googlebot, verified by IP list", ua: GOOGLEBOT, address: addressIn("googlebot") },
  { name: "GPTBot, verified by IP list", ua: GPTBOT, address: addressIn("gptbot") },
  { name: "Amazonbot, verified by reverse DNS (answer cached)", ua: AMAZONBOT, address: AMAZON_ADDRESS },
  { name: "browser", ua: CHROME, address: "203.0.113.9" },
];
for (const { name, ua, address } of cases) {
  bench
    .add(`${name}: VERIFY_CRAWLERS=off`, async () => {
      await request(ua, address, "off");
    })
    .add(`${name}: verification on`, async () => {
      await request(ua, address, "unknown");
    });
}
await bench.run();

const p50 = (name: string) => {
  const result = bench.tasks.find((task) => task.name === name)?.result;
  return result && "latency" in result ? result.latency.p50 * 1000 : NaN;
};
console.log(
  "crawler verification per unsigned request on a warm isolate (lists and DNS answers in memory), tinybench median",
);
for (const { name } of cases) {
  const off = p50(`${name}: VERIFY_CRAWLERS=off`);
  const on = p50(`${name}: verification on`);
  console.log(
    `  ${name.padEnd(52)} off ${off.toFixed(2)} us   on ${on.toFixed(2)} us   added ${(on - off).toFixed(2)} us`,
  );
}
