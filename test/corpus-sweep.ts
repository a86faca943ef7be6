// The corpus sweep shared by the Worker tests (test/worker/corpus-sweep.test.ts: straight into
// workerd) and the end-to-end tests (test/e2e/edge.e2e.test.ts: through `wrangler dev`): corpus
// User-Agents on every page of the demo site under the demo robots.txt, and the status each
// must get. Pure: the callers read the corpus files (fs in Node, a `?raw` import in workerd).
import { classifyUserAgent } from "../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { DEMO_ROBOTS, PAGES } from "../scripts/demo-site.ts";

/** Every page of the demo origin, as a client puts it on the wire. */
export const SITE_PATHS: readonly string[] = Object.keys(PAGES).map((path) => encodeURI(path));

/** Every `every`th User-Agent of a corpus file (JSON lines with a `ua`), from its first. */
export function corpusAgents(jsonl: string, every: number): string[] {
  return jsonl
    .trim()
    .split("\n")
    .filter((_, i) => i % every === 0)
    .map((line) => (JSON.parse(line) as { ua: string }).ua);
}

/** Every agent on every page. */
export function sweepOf(agents: readonly string[]): { ua: string; path: string }[] {
  return agents.flatMap((ua) => SITE_PATHS.map((path) => ({ ua, path })));
}

const demo = compileRobots(parseRobotsTxt(DEMO_ROBOTS));

/**
 * The status the edge must answer, computed with the product's own classifier and matcher: the
 * sweeps check that the edge agrees with the engine over the corpus, not that the engine is
 * right (the literal rows of the tests and the spec tables in test/core do that). With
 * VERIFY_CRAWLERS=off: a claim selects its group, but an exemption from * needs proof. What
 * passes gets the demo origin's answer: 200 for a page it has, 404 for one it lacks.
 */
export function expectedStatus(ua: string, path: string): number {
  const agent = classifyUserAgent(ua);
  const page = PAGES[decodeURI(path.split("?")[0] ?? "")] === undefined ? 404 : 200;
  if (!agent.crawler) return page;
  return demo.decide(agent.tokens, path, { obeysGlobalGroup: true }).allowed ? page : 403;
}
