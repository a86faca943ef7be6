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
import { Bench } from "tinybench";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CLASSIFIED_LENGTH, classifyUserAgent } from "../src/agents/classify.ts";

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
