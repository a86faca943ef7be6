// `npm run dev [-- --port N] [--origin URL] [--env-file FILE] [--persist] [--json-logs]`: the Worker
// under `wrangler dev` (workerd, local KV) in proxy mode, in front of your own site (--origin) or
// of the embedded demo origin, with an admin token for the local admin API and the operator page.
// Ctrl-C stops both.
//
// Local state lives in .wrangler/dev-state/<port> and starts empty each run, as the banner says:
// the demo origin gets a new port every time, and an old run's origins would otherwise pile up on
// the operator page. --persist keeps it, and gives the demo origin its last port again. One folder
// per port, so a second instance on another port leaves the first one's alone.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startDemoOrigin, type DemoOrigin } from "./demo-origin.ts";
import { portInUse, portInUseMessage, probeOrigin } from "./dev-checks.ts";
import { parseDevOptions, type DevOptions } from "./dev-options.ts";

const parsed = parseDevOptions(process.argv.slice(2), process.env);
if (parsed instanceof Error) {
  console.error(`npm run dev: ${parsed.message}`);
  process.exit(2);
}
const options: DevOptions = parsed;
// Before the banner: a busy port would otherwise fail in wrangler after all of it was printed.
if (await portInUse(options.port)) {
  console.error(`npm run dev: ${portInUseMessage(options.port)}`);
  process.exit(2);
}
const PORT = String(options.port);
const ADMIN_TOKEN = "dev-admin-token-local";
const STATE = resolve(import.meta.dirname, "../.wrangler/dev-state", PORT);
if (!options.persist) rmSync(STATE, { recursive: true, force: true });

const demo = options.origin === undefined ? await demoOrigin() : undefined;
const origin = options.origin ?? demo?.url ?? "";
const probe = options.origin === undefined ? undefined : await probeOrigin(options.origin);

/** The demo origin; with --persist on its last port, so the kept state's origin is this one. */
async function demoOrigin(): Promise<DemoOrigin> {
  const portFile = join(STATE, "demo-origin-port");
  const lastPort = options.persist && existsSync(portFile) ? Number(readFileSync(portFile, "utf8")) : 0;
  // The Sitemap line of its robots.txt names the site where visitors reach it: this edge.
  const site = `http://127.0.0.1:${PORT}`;
  const started = await startDemoOrigin(lastPort, site).catch(() => startDemoOrigin(0, site));
  if (options.persist) {
    mkdirSync(STATE, { recursive: true });
    writeFileSync(portFile, new URL(started.url).port);
  }
  return started;
}
const edge = `http://127.0.0.1:${PORT}`;
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

// Said on every start because it is the one way this differs from the edge on Cloudflare.
const relaxed = `Relaxed here: crawler identity checks (VERIFY_CRAWLERS=off: published IP ranges, reverse DNS,
  Web Bot Auth signatures; DISGUISED_CRAWLERS=off: browsers from a crawler's addresses). Every request here
  comes from 127.0.0.1, which is no crawler operator's address, so each "Googlebot" would be an
  impostor held to User-agent: * alone. With the checks off, a crawler's own group in robots.txt
  is enforced, as for the real crawler once deployed, where the checks are on (wrangler.toml).`;

// What a restart does to what you set up, and what an edit of wrangler.toml does while this runs.
const state = options.persist
  ? `State: kept from the last run on port ${PORT} (live policy, pause, activity, robots.txt copies) in
  .wrangler/dev-state/${PORT}; without --persist each start begins empty.`
  : `State: empty at every start (live policy, pause, activity, robots.txt copies);
  npm run dev -- --persist keeps it from one run to the next.`;
const reload = `Edits to wrangler.toml apply on save (wrangler reloads: "Local server updated and ready");
  the operator page shows them when it next reads the status (on focus, or reload it).`;
const logs = options.jsonLogs
  ? "Logs: one JSON line per crawler decision, as the deployed edge writes them."
  : `Logs: one line per crawler decision, e.g. "403 GPTBot /blog/ disallow: / (line 12)";
  npm run dev -- --json-logs prints the JSON lines the deployed edge writes.`;

const demoTries = `Try:
  curl -i ${edge}/robots.txt
  curl -i -A "${GOOGLEBOT}" ${edge}/private/report
  curl -i -A "${CHROME}" ${edge}/private/report
  curl -i -A "GPTBot/1.2" ${edge}/blog/
  curl -s -H "Authorization: Bearer ${ADMIN_TOKEN}" "${edge}/__robots/explain?ua=Googlebot/2.1&url=/private/report"
  curl -s -X POST -H "Authorization: Bearer ${ADMIN_TOKEN}" -d '{"minutes":5}' ${edge}/__robots/pause
  curl -i -A "Googlebot/2.1" ${edge}/blog/
  curl -s -X DELETE -H "Authorization: Bearer ${ADMIN_TOKEN}" ${edge}/__robots/pause`;

const siteTries = `Try (your robots.txt decides):
  curl -i ${edge}/robots.txt
  curl -i -A "Googlebot/2.1" ${edge}/
  curl -s -H "Authorization: Bearer ${ADMIN_TOKEN}" "${edge}/__robots/explain?ua=Googlebot/2.1&url=/"`;

console.log(`${demo ? "demo origin:   " : "your site:     "} ${origin}${probe ? `   ${probe.line}` : ""}
robots-edge:    ${edge}
operator page:  ${edge}/__robots/   (token: ${ADMIN_TOKEN})

${relaxed}

${state}
${reload}
${logs}

${demo ? demoTries : siteTries}
`);

const wrangler = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    PORT,
    "--persist-to",
    STATE,
    "--var",
    `ORIGIN_URL:${origin}`,
    "--var",
    `ADMIN_TOKEN:${ADMIN_TOKEN}`,
    "--var",
    "VERIFY_CRAWLERS:off",
    "--var",
    "DISGUISED_CRAWLERS:off",
    "--var",
    `LOG_FORMAT:${options.jsonLogs ? "json" : "line"}`,
    ...(options.envFile === undefined ? [] : ["--env-file", options.envFile]),
  ],
  {
    stdio: "inherit",
    // No request.cf download (miniflare's CLOUDFLARE_CF_FETCH_ENABLED): offline it only prints
    // a stack trace (ENOTFOUND), and its stand-in values are all the Worker needs locally.
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  },
);

function stop(): void {
  wrangler.kill("SIGTERM");
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
wrangler.on("exit", async (code) => {
  await demo?.close();
  process.exit(code ?? 0);
});
