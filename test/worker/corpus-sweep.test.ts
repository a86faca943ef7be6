// The corpus sweeps: browser and crawler User-Agents of the corpus (test/fixtures/corpus/agents)
// on every page of the demo site, straight into the Worker in workerd. They ran through `wrangler
// dev` in edge.e2e (about 5,500 requests at ~10 ms of CPU each, most of that file's time); they
// check the Worker's answers, which the runtime gives alike here. edge.e2e keeps a sample of the
// same strings (every 64th and 96th) through wrangler dev, for the path a site owner runs.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import browsers from "../fixtures/corpus/agents/browsers.jsonl?raw";
import crawlers from "../fixtures/corpus/agents/crawlers.jsonl?raw";
import { DEMO_ROBOTS } from "../../scripts/demo-site.ts";
import { corpusAgents, expectedStatus, sweepOf } from "../corpus-sweep.ts";
import worker from "../../src/worker/index.ts";
import { fakeOrigin, freshState, SITE } from "./helpers.ts";

// As edge.e2e's edge: every client there is 127.0.0.1 with wrangler's stand-in request.cf, which
// proves no crawler; verification is tested in verification.test.ts. One env object for the whole
// sweep, so the Worker reads its config once (src/worker/config.ts keeps it per env object) as
// a deployed isolate does: helpers.ts call() makes a new one per request.
const sweepEnv = { ...env, VERIFY_CRAWLERS: "off" } as Env;

async function statusOf(path: string, ua: string): Promise<number> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${SITE}${path}`, { headers: { "user-agent": ua } }), sweepEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response.status;
}

beforeEach(async () => {
  await freshState();
  // The fake origin answers 200 for every page, as the demo origin does for each of its pages.
  fakeOrigin({ body: DEMO_ROBOTS });
});
afterEach(freshState);

// Eight in flight, as edge.e2e sent them: the Worker's waitUntil work (activity) overlaps.
const IN_FLIGHT = 8;
async function statusesOf(requests: readonly { ua: string; path: string }[]): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const index = next++;
      const { ua, path } = requests[index] as { ua: string; path: string };
      statuses[index] = await statusOf(path, ua);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return statuses;
}

describe("crawlers and browsers from the corpus, every page of the demo site", () => {
  it("every browser string passes everywhere (every 8th of the corpus, every page)", async () => {
    const requests = sweepOf(corpusAgents(browsers, 8));
    const statuses = await statusesOf(requests);
    const failures = requests.flatMap(({ ua, path }, i) => {
      const status = statuses[i];
      return status !== expectedStatus(ua, path) || status === 403 || status === 503 ? [`${status} ${path} ${ua}`] : [];
    });
    expect(failures).toEqual([]);
  }, 120_000);

  it("crawler strings get exactly what robots.txt says for their group (every 12th, every page)", async () => {
    const requests = sweepOf(corpusAgents(crawlers, 12));
    const statuses = await statusesOf(requests);
    const failures = requests.flatMap(({ ua, path }, i) =>
      statuses[i] === expectedStatus(ua, path)
        ? []
        : [`${statuses[i]} (expected ${expectedStatus(ua, path)}) ${path} ${ua}`],
    );
    expect(failures).toEqual([]);
    expect(statuses.filter((status) => status === 403).length).toBeGreaterThan(100);
  }, 120_000);
});
