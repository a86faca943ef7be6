// `npm run bench`: the bounds on what a client can make one request cost (no client can buy
// our CPU, memory or quota). Each row is a hostile input at the size a client can send, next
// to the target it must stay under; it prints numbers and never fails the build.
//
// User-Agent classification: any header up to 64 KB (Cloudflare passes up to 32 KB) costs
// <= 50 us (median), because only the first CLASSIFIED_LENGTH characters are read; real
// corpus strings, also memo misses, are the row to compare with. Before the bound, 4,000
// words `a1bot a2bot …` (35 KB) took ~900 ms: the tokens were deduplicated pairwise. Every call is a
// memo miss: each shape comes in 1,024 variants (twice the memo's size) that differ in their
// first characters, so the memo, cleared when full, never holds the one asked about.
//
// Reverse DNS: what 10,000 addresses of one IPv6 /64 (and of one IPv4 /24) claiming Amazonbot
// cost, counted: lookups (each one or two DoH subrequests) and KV writes. Target: one lookup
// per network and hour, no KV write (identity/reverse-dns.ts keeps answers in memory and the Cache API).
//
// Admin bodies: 8 MiB offered as a stream with no length to each route's bound; bytes read
// counted. Target: never more than the bound plus one chunk (admin/body.ts).
import { Bench } from "tinybench";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { serialize } from "node:v8";
import {
  compileRobots,
  MATCH_STEP_BUDGET,
  MatchingTooCostly,
  parseRobotsTxt,
  resolveUsage,
  withinOneRequestBudget,
  type Decision,
  type RobotsMatcher,
} from "../src/core/index.ts";
import { StepBudget } from "../src/core/match-budget.ts";
import { enforcementMatcher, enforcementSpellings } from "../src/policy/path-spellings.ts";
import { disputedReading } from "../src/policy/readings.ts";
import {
  checkRate,
  MAX_STORED_TIMES,
  rateLimitsAt,
  type RateLimits,
  type RateState,
} from "../src/policy/crawl-rate.ts";
import { CLASSIFIED_LENGTH, classifyUserAgent } from "../src/agents/classify.ts";
import { REVERSE_DNS_RULES } from "../src/agents/operators/tables.ts";
import { readBodyText } from "../src/worker/admin/body.ts";
import { clearReverseDnsMemory, reverseDnsFor, type DnsResolver } from "../src/worker/identity/reverse-dns.ts";

const SIZE = 64 * 1024;
const fill = (unit: (n: number) => string): string => {
  let text = "";
  for (let n = 0; text.length < SIZE; n++) text += unit(n);
  return text.slice(0, SIZE);
};
const hostileShapes: Record<string, string> = {
  "many words": fill((n) => `w${n} `),
  "many `bot` words (a1bot a2bot …)": fill((n) => `a${n}bot `),
  "one long token": "x".repeat(SIZE),
  "parentheses and semicolons": `Mozilla/5.0 (${fill(() => "a;(b);)")}`,
  "many `compatible;` names": fill((n) => `compatible; n${n}bot/1 `),
  "browser-shaped, bot words after it": `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 ${fill((n) => `a${n}bot `)}`,
  "Android comment of builds": `Mozilla/5.0 (Linux; ${fill(() => "; x Build/ROBOT")}) AppleWebKit/537.36`,
  "URL and e-mail pieces": fill((n) => `+http://e${n}.example/bot a${n}@bot.example `),
};
const VARIANTS = 1024;
const variantsOf = (header: string): string[] =>
  Array.from({ length: VARIANTS }, (_, n) => `${n.toString(36)}${header}`.slice(0, SIZE));

const corpus = readFileSync(resolve(import.meta.dirname, "../test/fixtures/corpus/agents/crawlers.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => (JSON.parse(line) as { ua: string }).ua);

const TARGET_US = 50;
const bench = new Bench({ time: 400, warmupTime: 100 });
let next = 0;
bench.add(`User-Agent, the ${corpus.length} corpus crawler strings in turn (reference)`, () => {
  classifyUserAgent(corpus[next++ % corpus.length]);
});
for (const [shape, header] of Object.entries(hostileShapes)) {
  const variants = variantsOf(header);
  let n = 0;
  bench.add(`User-Agent 64 KB, ${shape}`, () => {
    classifyUserAgent(variants[n++ % VARIANTS]);
  });
}
await bench.run();
console.log(`bounds: hostile input, tinybench (User-Agent: first ${CLASSIFIED_LENGTH} characters read, memo misses)`);
for (const task of bench.tasks) {
  const result = task.result;
  const p50 = result && "latency" in result ? result.latency.p50 * 1000 : NaN;
  const p99 = result && "latency" in result ? (result.latency.p99 ?? NaN) * 1000 : NaN;
  const verdict = p50 <= TARGET_US ? "ok" : "OVER";
  console.log(
    `  ${task.name.padEnd(66)} p50 ${p50.toFixed(2)} us (target <= ${TARGET_US} us: ${verdict})   p99 ${p99.toFixed(2)} us`,
  );
}

// --- Reverse DNS: the budget of a network ------------------------------------------------
const amazon = REVERSE_DNS_RULES.filter((rule) => rule.name === "amazonbot");
async function reverseDnsCost(addresses: readonly string[]): Promise<{ lookups: number; kvWrites: number }> {
  clearReverseDnsMemory();
  let lookups = 0;
  const resolver: DnsResolver = async (_name, type) => {
    if (type === "PTR") lookups++;
    return { status: "nxdomain" };
  };
  // No KV is given to reverse DNS at all: the count is 0 by construction, printed so the row says it.
  const options = { cache: undefined, resolve: resolver, timeoutMs: 1000 };
  for (const address of addresses) await reverseDnsFor(address, amazon, options);
  return { lookups, kvWrites: 0 };
}
const ADDRESSES = 10_000;
const ipv6 = Array.from({ length: ADDRESSES }, (_, n) => `2001:db8:1:2::${(n + 1).toString(16)}`);
const ipv4 = Array.from({ length: ADDRESSES }, (_, n) => `198.51.100.${n % 256}`);
// A refuted answer condemns its own address only (issue 30); each network has a budget of 16 refuted lookups an hour.
const REFUTED_PER_NETWORK = 16;
console.log(
  `bounds: reverse DNS, addresses claiming Amazonbot (target: ${REFUTED_PER_NETWORK} lookups per network and hour, 0 KV writes)`,
);
for (const [name, addresses] of [
  [`${ADDRESSES} addresses of one IPv6 /64`, ipv6],
  [`${ADDRESSES} requests from one IPv4 /24`, ipv4],
] as const) {
  const { lookups, kvWrites } = await reverseDnsCost(addresses);
  console.log(
    `  ${name.padEnd(66)} lookups ${lookups}   KV writes ${kvWrites}   ${lookups <= REFUTED_PER_NETWORK ? "ok" : "OVER"}`,
  );
}

// --- Admin bodies: read no further than the bound ------------------------------------------
const BODY_CHUNK = 16 * 1024;
async function bytesRead(max: number): Promise<{ read: number; status: number | undefined }> {
  let read = 0;
  const offered = 8 * 1024 * 1024;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (read >= offered) return controller.close();
      read += BODY_CHUNK;
      controller.enqueue(new Uint8Array(BODY_CHUNK).fill(0x20));
    },
  });
  const request = new Request("https://edge.test/__robots/x", {
    method: "POST",
    body: stream,
    duplex: "half",
  } as RequestInit);
  const body = await readBodyText(request, max);
  return { read, status: body.ok ? undefined : body.status };
}
console.log("bounds: admin bodies, 8 MiB offered without a length (target: read <= bound + one 16 KiB chunk)");
for (const [route, max] of [
  ["POST pause", 16_384],
  ["PUT policy", 65_536],
  ["POST replay, POST test", 1_048_576],
] as const) {
  const { read, status } = await bytesRead(max);
  const verdict = read <= max + BODY_CHUNK && status === 413 ? "ok" : "OVER";
  console.log(`  ${`${route} (bound ${max} bytes)`.padEnd(66)} read ${read} bytes, answer ${status}   ${verdict}`);
}

// --- The crawl-rate limiter at its bound -----------------------------------------------------
// What one crawler request costs the limiter's Durable Object under the largest state a
// robots.txt can make it keep (policy/crawl-rate.ts): a Request-rate of MAX_STORED_TIMES
// requests with as many times kept, and `Request-rate: 1000000/24h`, counted by a token bucket
// (one time kept). Before the bound the latter kept 100,001 times and one checkRate over them
// took 92-107 ms (attack session 9). Bytes: the state the object writes per allowed request
// (V8 serialization, as Durable Object storage uses). rateLimitsAt: a group of 5,000
// Request-rate lines, each request of that crawler (the lines sorted once per group).
const RATE_TARGET_MS = 1;
const rateGroupOf = (robots: string) => {
  const group = compileRobots(parseRobotsTxt(robots)).groupFor(["somebot"]);
  if (!group) throw new Error("no group");
  return group;
};
const T_RATE = Date.UTC(2026, 10, 27, 12, 0, 0);
const atBound: RateState = { recent: Array.from({ length: MAX_STORED_TIMES }, (_, i) => T_RATE - 3_600_000 + i) };
const rateCases: { name: string; limits: RateLimits; state: RateState }[] = [
  {
    name: `Request-rate: ${MAX_STORED_TIMES}/1h, ${MAX_STORED_TIMES} times kept`,
    limits: rateLimitsAt(rateGroupOf(`User-agent: somebot\nRequest-rate: ${MAX_STORED_TIMES}/1h\n`), T_RATE),
    state: atBound,
  },
  {
    name: "Request-rate: 1000000/24h (a token bucket)",
    limits: rateLimitsAt(rateGroupOf("User-agent: somebot\nRequest-rate: 1000000/24h\n"), T_RATE),
    state: { recent: [T_RATE - 1000], buckets: { "1000000/86400000": { tokens: 500_000, at: T_RATE - 1000 } } },
  },
];
const manyRates = rateGroupOf(
  `User-agent: somebot\n${Array.from({ length: 5000 }, (_, i) => `Request-rate: ${i + 1}/${i + 60}\n`).join("")}`,
);
// Attack 12 (A12-2 aside): 8 groups, token k named by every group but group k, Request-rate
// lines to 500 KiB: each set's 22,575 lines, past the bound a merged list made on each read.
// Before, the limiter's sort keyed on that list missed on every request (21.8 ms, 38 ms when
// the list was rebuilt), and every request walked every line.
const rateNames = ["ka", "kb", "kc", "kd", "ke", "kf", "kg", "kh"];
const rateSets = compileRobots(
  parseRobotsTxt(
    rateNames
      .map((_, g) => {
        let text = `${rateNames
          .filter((token) => token !== rateNames[g])
          .map((token) => `user-agent:${token}\n`)
          .join("")}disallow:/p\n`;
        for (let n = g; text.length < (500 * 1024) / 8 - 30; n++)
          text += `request-rate:${(n % 97) + 1}/${(n % 89) + 1}s\n`;
        return text;
      })
      .join(""),
  ),
);
let rateTurn = 0;
const rateBench = new Bench({ time: 400, warmupTime: 100 });
for (const { name, limits, state } of rateCases) {
  let now = T_RATE;
  rateBench.add(`checkRate, ${name}`, () => {
    checkRate(state, limits, (now += 1));
  });
}
rateBench.add("rateLimitsAt, a group of 5,000 Request-rate lines", () => {
  rateLimitsAt(manyRates, T_RATE);
});
rateBench.add("rateLimitsAt, 8 sets of 7 groups of Request-rate lines, in turn", () => {
  const group = rateSets.groupFor([rateNames[rateTurn++ % 8] ?? "ka"]);
  if (group) rateLimitsAt(group, T_RATE);
});
await rateBench.run();
console.log(`bounds: the crawl-rate limiter at its bound (target: <= ${RATE_TARGET_MS} ms a request)`);
for (const task of rateBench.tasks) {
  const p50 = task.result && "latency" in task.result ? task.result.latency.p50 : NaN;
  const verdict = p50 <= RATE_TARGET_MS ? "ok" : "OVER";
  console.log(`  ${task.name.padEnd(66)} p50 ${p50.toFixed(3)} ms   ${verdict}`);
}
for (const { name, limits, state } of rateCases) {
  const written = checkRate(state, limits, T_RATE + 1).state;
  console.log(
    `  ${`state written, ${name}`.padEnd(66)} ${written.recent.length} times, ${serialize(written).length} bytes`,
  );
}

// robots.txt matcher, tokens asked in turn (a tenant under a `*.` AUTHORITIES entry writes the
// file, clients the User-Agent), a request per token in turn:
//   - 2 groups each naming a, b, c over 5,500 rules (462 KiB). Tokens named by the same groups
//     share one merged list and its trees (core/match.ts). Before, each token merged its own, the
//     third passed the bound, the bound dropped everything: every request rebuilt 11,000 rules
//     (12.7 ms here, 47.5 ms in the finding's file).
//   - 4 groups of 2,750 rules and a token for each pair: six merged lists, more trees than the
//     bound holds. Trees are built while they fit and kept; the other sets are answered from
//     their groups' own trees. Before, the least recently used set's trees were rebuilt.
//   - a token named by 6,800 one-rule groups, its merged trees past the bound (three other
//     tokens each named by all but one group filled it first): answered from each group's own
//     trees, one walk per group, the most a set costs a request (497 KiB).
//   - 8 groups, token k named by every group but group k, each `disallow:/p` then `x:y` records
//     to 500 KiB (attack 12, A12-2): 8 sets of 7 groups whose merged lists were ~7 times the
//     file. Each set's lists are a view of its groups' (core/merged-group.ts). Before, the least
//     recently used list was always the next asked: 112,000 references copied a request (11-18 ms).
// Reference: one token asked again and again. Target: <= 1 ms a request.
const MATCHER_TARGET_MS = 1;
const MATCHER_PATH = "/y/000007/some/long/path/segment";
const abcGroup = (prefix: string) =>
  `User-agent: a\nUser-agent: b\nUser-agent: c\n${Array.from({ length: 5_500 }, (_, n) => `Disallow: /${prefix}/${n.toString().padStart(6, "0")}/some/long/path/segment\n`).join("")}\n`;
const abc = compileRobots(parseRobotsTxt(abcGroup("x") + abcGroup("y")));
const pairTokens = ["p01", "p02", "p03", "p12", "p13", "p23"];
const pairGroup = (g: number) =>
  `${pairTokens
    .filter((token) => token.includes(String(g)))
    .map((token) => `User-agent: ${token}\n`)
    .join(
      "",
    )}${Array.from({ length: 2_750 }, (_, n) => `Disallow: /${["w", "x", "y", "z"][g]}/${n.toString().padStart(6, "0")}/some/long/path/segment\n`).join("")}\n`;
const pairs = compileRobots(parseRobotsTxt([0, 1, 2, 3].map(pairGroup).join("")));
let nearlyAll = "";
for (let n = 0; n < 6_800; n++) {
  const others = ["b", "c", "d"].filter((_, i) => i !== n).map((token) => `User-agent: ${token}\n`);
  nearlyAll += `User-agent: a\n${others.join("")}Disallow: /y/${n}\n\n`;
}
const across = compileRobots(parseRobotsTxt(nearlyAll));
for (const token of ["b", "c", "d"]) across.decide([token], MATCHER_PATH);
const sevenNames = ["ka", "kb", "kc", "kd", "ke", "kf", "kg", "kh"];
const sevenHeader = (g: number) =>
  `${sevenNames
    .filter((_, k) => k !== g)
    .map((token) => `user-agent:${token}\n`)
    .join("")}disallow:/p\n`;
const sevenRecords = Math.floor((500 * 1024 - 8 * sevenHeader(0).length) / 8 / "x:y\n".length);
const sevenOfEight = compileRobots(
  parseRobotsTxt(sevenNames.map((_, g) => sevenHeader(g) + "x:y\n".repeat(sevenRecords)).join("")),
);
const matcherBench = new Bench({ time: 400, warmupTime: 100 });
let turn = 0;
matcherBench.add("2 groups naming a, b, c over 11,000 rules: one token (reference)", () => {
  abc.decide(["a"], MATCHER_PATH);
});
matcherBench.add("2 groups naming a, b, c over 11,000 rules: a, b, c in turn", () => {
  abc.decide([["a", "b", "c"][turn++ % 3] ?? "a"], MATCHER_PATH);
});
matcherBench.add("4 groups of 2,750 rules, a token per pair: the six in turn", () => {
  pairs.decide([pairTokens[turn++ % 6] ?? "p01"], MATCHER_PATH);
});
matcherBench.add("a token of 6,800 groups, answered across their own trees", () => {
  across.decide(["a"], MATCHER_PATH);
});
matcherBench.add("8 sets of 7 groups over 500 KiB of records: the eight in turn", () => {
  sevenOfEight.decide([sevenNames[turn++ % 8] ?? "ka"], "/x");
});
await matcherBench.run();
console.log(`bounds: robots.txt matcher, tokens asked in turn (target: <= ${MATCHER_TARGET_MS} ms a request)`);
for (const task of matcherBench.tasks) {
  const mean = task.result && "latency" in task.result ? task.result.latency.mean : NaN;
  const verdict = mean <= MATCHER_TARGET_MS ? "ok" : "OVER";
  console.log(`  ${task.name.padEnd(66)} mean ${(mean * 1000).toFixed(1)} us   ${verdict}`);
}

// The matching work of one decision (core/match-budget.ts, attack 12 A12-1 and A12-6): every tree
// a `decide` call asks spends one budget of MATCH_STEP_BUDGET steps; past it decide throws
// MatchingTooCostly (the edge answers a crawler 503, a person never matches). The worst decision
// is one that ends just under or at the budget. Before the budget: A12-1 (a token of 3,764 groups
// of 6 `/*ab`, answered across their own trees, 8 KB path) 1,077-2,053 ms; A12-6 (one group of
// 32,082 `/*a<n>`, 8 KB path) 77-100 ms. Target: <= 5 ms a decision (median), thrown or answered.
const BUDGET_TARGET_MS = 5;
const KB8 = `/${"a".repeat(7_999)}`;
let sixWild = "";
for (let n = 0; ; n++) {
  const others = ["b", "c", "d"].filter((_, i) => i !== n).map((token) => `user-agent:${token}\n`);
  const group = `user-agent:a\n${others.join("")}${"disallow:/*ab\n".repeat(6)}`;
  if (sixWild.length + group.length > 500 * 1024) break;
  sixWild += group;
}
const acrossWild = compileRobots(parseRobotsTxt(new TextEncoder().encode(sixWild)));
for (const token of ["b", "c", "a"]) acrossWild.decide([token], "/");
const manyWild = (count: number) => {
  let text = "user-agent:a\n";
  for (let n = 0; n < count && text.length < 500 * 1024 - 20; n++) text += `disallow:/*a${n.toString(36)}\n`;
  return compileRobots(parseRobotsTxt(new TextEncoder().encode(text)));
};
const allWild = manyWild(Infinity);
const someWild = manyWild(1_500);
// Attack 13, A13-8: a group's usage lines (core/usage-resolve.ts) on every allowed request; before
// the fix matched one by one, unbudgeted: 702 ms on 8 KB for 15,554 lines. Now a tree and the
// request's budget. A13-2: one request's 20 decisions (10 spellings x the record reading), each
// ~297,000 steps, were 20 budgets (2.4 million steps, 5-12 ms); now one (policy/edge-decision.ts).
const manyUsage = (count: number) => {
  let text = "user-agent: *\nallow: /\n";
  for (let n = 0; n < count && text.length < 500 * 1024 - 40; n++) {
    text += `content-usage: /*a${n.toString(36)} train-ai=n\n`;
  }
  return compileRobots(parseRobotsTxt(new TextEncoder().encode(text)));
};
const allUsage = manyUsage(Infinity);
const someUsage = manyUsage(1_000);
const usageOf = (matcher: RobotsMatcher) => {
  const decision = matcher.decide(["somebot"], KB8);
  resolveUsage(decision.group, KB8, { allowed: true });
  return decision;
};
const spaced = enforcementMatcher(
  parseRobotsTxt(new TextEncoder().encode(`user-agent: a\ndisallow: /sp ace\n${sixWild}`)),
);
for (const token of ["b", "c", "a", "d"]) spaced.decide([token], "/");
const SPELLED = "//a;x%2Fa%3Aa/a;y=%2F..%2Fa%40a";
const agentA = { crawler: true, tokens: ["a"], known: undefined, obeysGlobalGroup: true, honoursRateLimits: false };
const oneRequest = () =>
  withinOneRequestBudget(() => {
    let last: Decision | undefined;
    for (const spelling of enforcementSpellings(SPELLED)) {
      last = spaced.decide(["a"], spelling);
      disputedReading(spaced, last, agentA, spelling);
    }
    return last;
  });
const budgetRows: [string, () => unknown][] = [
  ["A12-1: a of 3,764 groups of 6 /*ab, 8 KB path (too costly)", () => acrossWild.decide(["a"], KB8)],
  [
    "A12-1: a of 3,764 groups of 6 /*ab, 100-character path (too costly)",
    () => acrossWild.decide(["a"], KB8.slice(0, 100)),
  ],
  [
    "A12-1: a of 3,764 groups of 6 /*ab, 10-character path (answered)",
    () => acrossWild.decide(["a"], KB8.slice(0, 10)),
  ],
  ["A12-6: 32,082 /*a<n> in one group, 8 KB path (too costly)", () => allWild.decide(["a"], KB8)],
  ["1,500 /*a<n> in one group, 8 KB path (answered, one pass)", () => someWild.decide(["a"], KB8)],
  ["A13-8: usage of 15,554 content-usage /*a<n>, 8 KB path (too costly)", () => usageOf(allUsage)],
  ["A13-8: usage of 1,000 content-usage /*a<n>, 8 KB path (answered)", () => usageOf(someUsage)],
  ["A13-2: one request, 10 spellings x 2 readings, one budget (too costly)", oneRequest],
];
const budgetBench = new Bench({ time: 400, warmupTime: 100 });
const outcome = new Map<string, string>();
for (const [name, decide] of budgetRows) {
  budgetBench.add(name, () => {
    try {
      outcome.set(name, String((decide() as { allowed: boolean }).allowed));
    } catch (error) {
      if (!(error instanceof MatchingTooCostly)) throw error;
      outcome.set(name, error.name);
    }
  });
}
await budgetBench.run();
console.log(
  `bounds: matching work of one decision, ${MATCH_STEP_BUDGET} steps (target: <= ${BUDGET_TARGET_MS} ms a decision)`,
);
for (const task of budgetBench.tasks) {
  const latency = task.result && "latency" in task.result ? task.result.latency : undefined;
  const worst = latency?.max ?? NaN;
  const median = latency?.p50 ?? NaN;
  const verdict = median <= BUDGET_TARGET_MS ? "ok" : "OVER";
  console.log(
    `  ${task.name.padEnd(70)} median ${median.toFixed(2)} ms, max ${worst.toFixed(2)} ms ${outcome.get(task.name) ?? "?"}   ${verdict}`,
  );
}
// A13-2 in steps: one request's matching, counted by the budget it spends (at most MATCH_STEP_BUDGET).
let requestSteps = 0;
const spend = StepBudget.prototype.spend;
StepBudget.prototype.spend = function (this: StepBudget, n: number) {
  spend.call(this, n);
  requestSteps += n;
};
try {
  oneRequest();
} catch (error) {
  if (!(error instanceof MatchingTooCostly)) throw error;
} finally {
  StepBudget.prototype.spend = spend;
}
console.log(
  `  A13-2: steps one request spent (10 spellings x 2 readings): ${requestSteps} (bound ${MATCH_STEP_BUDGET})`,
);
