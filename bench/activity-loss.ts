// Activity lost when the edge is killed (issue 30; not CI, not `npm test`): `wrangler dev`
// (local workerd, state persisted to a folder) in front of the demo origin takes continuous
// crawler traffic (bingbot, one request every TRAFFIC_INTERVAL_MS) for --seconds, is then
// SIGKILLed (no shutdown of any kind), and started again on the same state. GET activity then
// says how many of the answered requests were recorded; the rest were lost, said also as the
// seconds of traffic they were: activity is recorded in order, so R recorded means the first R
// answered, and the loss is the time from the (R+1)th answer to the kill. Target: at most the last 60 s (activity/store.ts
// JOURNAL_MS: 20 s, plus the isolates' 2 s batches). Loopback only.
//
//   node bench/activity-loss.ts [--seconds 70]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startDemoOrigin } from "../scripts/demo-origin.ts";
import { startEdge, type EdgeOptions } from "../scripts/edge-process.ts";

const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const TOKEN = "bench-admin-token";
const TRAFFIC_INTERVAL_MS = 50;
const TARGET_LOSS_SECONDS = 60;

const { values } = parseArgs({ options: { seconds: { type: "string", default: "70" } } });
const seconds = Number(values.seconds);

const origin = await startDemoOrigin();
const state = mkdtempSync(join(tmpdir(), "robots-edge-loss-"));
const options: EdgeOptions = {
  vars: {
    ORIGIN_URL: origin.url,
    MODE: "enforce",
    VERIFY_CRAWLERS: "off",
    ADMIN_TOKEN: TOKEN,
    LOG_DECISIONS: "blocked",
  },
  persistTo: state,
};
try {
  const edge = await startEdge(options);
  let answered = 0;
  const answeredAt: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const started = Date.now();
    const response = await fetch(`${edge.url}/products/${answered % 50}`, { headers: { "user-agent": BINGBOT } });
    await response.body?.cancel();
    if (response.status < 500) {
      answered++;
      answeredAt.push(Date.now());
    }
    await new Promise((done) => setTimeout(done, Math.max(0, TRAFFIC_INTERVAL_MS - (Date.now() - started))));
  }
  const rate = answered / seconds;
  const killedAt = Date.now();
  await edge.kill();
  const again = await startEdge(options);
  try {
    const response = await fetch(`${again.url}/__robots/activity?hours=1`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const answer = (await response.json()) as { crawlers: { token: string; requests: number }[] };
    const recorded = answer.crawlers.find((crawler) => crawler.token === "bingbot")?.requests ?? 0;
    const lost = answered - recorded;
    const lostSeconds = lost === 0 ? 0 : (killedAt - (answeredAt[recorded] ?? killedAt)) / 1000;
    console.log(
      `continuous traffic for ${seconds} s (${rate.toFixed(1)} requests/s), then SIGKILL and a restart on the same state:`,
    );
    console.log(`  ${answered} answered, ${recorded} recorded, ${lost} lost = the last ${lostSeconds.toFixed(1)} s`);
    console.log(
      `${lostSeconds <= TARGET_LOSS_SECONDS ? "PASS" : "MISS"}  activity lost after SIGKILL at most the last ${TARGET_LOSS_SECONDS} s`,
    );
  } finally {
    await again.stop();
  }
} finally {
  await origin.close();
  rmSync(state, { recursive: true, force: true });
}
