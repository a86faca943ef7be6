// `npm run bench`: what crawler catalogues (CRAWLER_CATALOGUES) cost. Per request, the lookup
// a crawler the built-in table lacks pays (cataloguedOf: at most MAX_TOKENS map lookups), and
// a browser's and a known crawler's (nothing); once per load of the stored record, building
// the table, at the size ai.robots.txt publishes and at the bound (8 catalogues of
// MAX_CATALOGUE_ENTRIES each); and reading a robots.json at the byte bound.
import { Bench } from "tinybench";
import {
  catalogueTable,
  cataloguedOf,
  MAX_CATALOGUE_ENTRIES,
  parseCatalogue,
  type LoadedCatalogue,
} from "../src/agents/catalogue.ts";
import { classifyUserAgent } from "../src/agents/classify.ts";
import { MAX_CRAWLER_CATALOGUES } from "../src/config/read-config.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** A robots.json of `size` made-up names (Bot<catalogue>x<i>), every function a category name. */
function robotsJson(size: number, catalogue: number): Record<string, unknown> {
  const functions = ["AI Data Scrapers", "AI Assistants", "AI Search Crawlers", "Data is sold."];
  return Object.fromEntries(
    Array.from({ length: size }, (_, i) => [
      `Bot${catalogue}x${i}`,
      { operator: "Unclear at this time.", respect: "Unclear at this time.", function: functions[i % 4] },
    ]),
  );
}

function loaded(count: number, size: number): LoadedCatalogue[] {
  return Array.from({ length: count }, (_, catalogue) => {
    const parsed = parseCatalogue(robotsJson(size, catalogue));
    if (!parsed.ok) throw new Error(parsed.error);
    return { name: `c${catalogue}`, fetchedAt: Date.now(), entries: parsed.value.entries };
  });
}

const atBound = loaded(MAX_CRAWLER_CATALOGUES, MAX_CATALOGUE_ENTRIES);
const table = catalogueTable(atBound);
const agents = {
  "a listed crawler (last catalogue, last entry)": classifyUserAgent(
    `Mozilla/5.0 (compatible; Bot${MAX_CRAWLER_CATALOGUES - 1}x${MAX_CATALOGUE_ENTRIES - 1}/1.0)`,
  ),
  "an unlisted crawler with 8 tokens": classifyUserAgent(
    "AlphaBot/1 BetaBot/1 GammaBot/1 DeltaBot/1 EpsilonBot/1 ZetaBot/1 EtaBot/1 ThetaBot/1 IotaBot/1",
  ),
  "a known crawler (GPTBot)": classifyUserAgent("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"),
  "a browser": classifyUserAgent(CHROME),
};
if (!cataloguedOf(table, agents["a listed crawler (last catalogue, last entry)"])) {
  throw new Error("bench setup: the listed crawler is not found");
}

const bench = new Bench({ time: 1000, warmupTime: 200 });
for (const [name, agent] of Object.entries(agents)) {
  bench.add(name, () => {
    cataloguedOf(table, agent);
  });
}
await bench.run();
console.log(
  `crawler catalogues, the lookup per request, table at the bound (${MAX_CRAWLER_CATALOGUES} x ${MAX_CATALOGUE_ENTRIES} names), tinybench median`,
);
for (const task of bench.tasks) {
  const result = task.result;
  const p50 = result && "latency" in result ? result.latency.p50 * 1000 : NaN;
  console.log(`  ${task.name.padEnd(48)} ${p50.toFixed(3)} us`);
}

for (const [label, count, size] of [
  ["as ai.robots.txt publishes (1 x 166 names)", 1, 166],
  [
    `at the bound (${MAX_CRAWLER_CATALOGUES} x ${MAX_CATALOGUE_ENTRIES} names)`,
    MAX_CRAWLER_CATALOGUES,
    MAX_CATALOGUE_ENTRIES,
  ],
] as const) {
  const input = loaded(count, size);
  // The best of five builds: the machine is shared, and the first build also compiles the code.
  const times = Array.from({ length: 5 }, () => {
    const started = performance.now();
    catalogueTable(input);
    return performance.now() - started;
  });
  const best = Math.min(...times);
  console.log(`  table built ${label}: ${best.toFixed(1)} ms, best of 5 (once per load, every 10 minutes per isolate)`);
}

const text = JSON.stringify(robotsJson(MAX_CATALOGUE_ENTRIES, 0));
const started = performance.now();
parseCatalogue(JSON.parse(text));
console.log(
  `  one catalogue of ${MAX_CATALOGUE_ENTRIES} names (${(text.length / 1024).toFixed(0)} KiB) parsed in ${(performance.now() - started).toFixed(1)} ms (by the cron or the admin API, never a request)`,
);
