// `npm run dev [-- --port N] [--origin URL] [--env-file FILE]`: the Worker under `wrangler dev` (workerd, local KV)
// in proxy mode, in front of your own site (--origin) or of the embedded demo origin, with an
// admin token for the local admin API and the operator page. Ctrl-C stops both.
//
// Local state lives in .wrangler/dev-state/<port> and starts empty each run: the demo origin
// gets a new port every time, and an old run's origins would otherwise pile up on the operator
// page. One folder per port, so a second instance on another port leaves the first one's alone.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { startDemoOrigin } from "./demo-origin.ts";
import { parseDevOptions } from "./dev-options.ts";

const options = parseDevOptions(process.argv.slice(2), process.env);
if (options instanceof Error) {
  console.error(`npm run dev: ${options.message}`);
  process.exit(2);
}
const PORT = String(options.port);
const ADMIN_TOKEN = "dev-admin-token-local";
const STATE = resolve(import.meta.dirname, "../.wrangler/dev-state", PORT);
rmSync(STATE, { recursive: true, force: true });

const demo = options.origin === undefined ? await startDemoOrigin() : undefined;
const origin = options.origin ?? demo?.url ?? "";
const edge = `http://127.0.0.1:${PORT}`;
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

// Said on every start because it is the one way this differs from the edge on Cloudflare.
const relaxed = `Relaxed here: crawler identity checks (VERIFY_CRAWLERS=off: published IP ranges, reverse DNS,
  Web Bot Auth signatures). Every request here comes from 127.0.0.1, which is no crawler
  operator's address, so each "Googlebot" would be an impostor held to User-agent: * alone. With
  the checks off, a crawler's own group in robots.txt is enforced, as for the real crawler once
  deployed, where the checks are on (wrangler.toml).`;

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

console.log(`${demo ? "demo origin:   " : "your site:     "} ${origin}
robots-edge:    ${edge}
operator page:  ${edge}/__robots/   (token: ${ADMIN_TOKEN})

${relaxed}

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
