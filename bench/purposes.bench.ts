// `npm run bench`: what compiling purposes into the served robots.txt costs. The edge pays it
// once per (stored robots.txt, policy version) on an isolate (src/worker/robots/purposes-served.ts),
// never per request; the numbers bound that one-off cost, up to an origin file of the 500 KiB
// a crawler reads (the restated `*` rules then pass the bound: the setting is not applied,
// and the cost of finding that out is what is shown).
import { Bench } from "tinybench";
import { parseRobotsTxt } from "../src/core/index.ts";
import { compilePurposes } from "../src/policy/purposes-robots.ts";
import { readPurposes } from "../src/policy/purposes.ts";

const problems: string[] = [];
const ISSUE_SETTING = readPurposes(
  [
    { path: "/", "search-engine": "allow", "ai-search": "allow", "ai-assistant": "allow", "ai-training": "block" },
    {
      path: "/members/",
      "search-engine": "block",
      "ai-search": "block",
      "ai-assistant": "block",
      "ai-training": "block",
    },
  ],
  "purposes",
  problems,
);
if (problems.length > 0) throw new Error(problems.join("; "));

function starFile(bytes: number): string {
  const lines = ["User-agent: *"];
  let size = 14;
  for (let i = 0; size < bytes; i++) {
    const line = `Disallow: /section-${i}/*.pdf$`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n") + "\n";
}

const origins = [
  { name: "a 60-byte origin file", text: "User-agent: *\nDisallow: /admin/\nAllow: /admin/public/\n" },
  { name: "a 20 KiB `*` group", text: starFile(20 * 1024) },
  { name: "a 490 KiB `*` group (served alone: too large)", text: starFile(490 * 1024) },
];

const bench = new Bench({ time: 1000 });
for (const { name, text } of origins) {
  const bytes = new TextEncoder().encode(text);
  bench.add(name, () => {
    const served = compilePurposes(bytes, ISSUE_SETTING);
    parseRobotsTxt(served.body); // the matcher's model is built from the served bytes too
  });
}
await bench.run();
console.log(`robots-edge purposes benchmark, Node ${process.version}`);
console.log("compile the issue's setting and parse the served file, once per robots.txt and policy version (median)");
for (const task of bench.tasks) {
  const result = task.result;
  const ms = result && "latency" in result ? result.latency.p50 : NaN;
  console.log(`  ${task.name.padEnd(52)} ${ms.toFixed(3)} ms`);
}
