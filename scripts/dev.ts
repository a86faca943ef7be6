// `npm run dev [-- --port N]`: the Worker under `wrangler dev` (workerd, local KV) in proxy mode
// in front of the embedded demo origin, with an admin token for the local admin API and the
// operator page. Ctrl-C stops both.
//
// Local state lives in .wrangler/dev-state and starts empty each run: the demo origin gets a
// new port every time, and an old run's origins would otherwise pile up on the operator page.
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
const STATE = resolve(import.meta.dirname, "../.wrangler/dev-state");
rmSync(STATE, { recursive: true, force: true });

const origin = await startDemoOrigin();
const edge = `http://127.0.0.1:${PORT}`;
console.log(`demo origin:    ${origin.url}
robots-edge:    ${edge}
operator page:  ${edge}/__robots/   (token: ${ADMIN_TOKEN})

Try:
  curl -i ${edge}/robots.txt
  curl -i -A "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" ${edge}/private/report
  curl -i -A "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36" ${edge}/private/report
  curl -i -A "GPTBot/1.2" ${edge}/blog/
  curl -s -H "Authorization: Bearer ${ADMIN_TOKEN}" "${edge}/__robots/explain?ua=Googlebot/2.1&url=/private/report"
  curl -s -X POST -H "Authorization: Bearer ${ADMIN_TOKEN}" -d '{"minutes":5}' ${edge}/__robots/pause
  curl -i -A "Googlebot/2.1" ${edge}/blog/
  curl -s -X DELETE -H "Authorization: Bearer ${ADMIN_TOKEN}" ${edge}/__robots/pause
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
    `ORIGIN_URL:${origin.url}`,
    "--var",
    `ADMIN_TOKEN:${ADMIN_TOKEN}`,
    // curl on this machine is 127.0.0.1, and wrangler dev's stand-in request.cf says
    // verifiedBot: false for everyone: every "Googlebot" would count as an impostor.
    "--var",
    "VERIFY_CRAWLERS:off",
  ],
  {
    stdio: "inherit",
    // No request.cf download (miniflare's CLOUDFLARE_CF_FETCH_ENABLED): offline it only prints
    // errors, and its stand-in values are all the Worker needs locally.
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  },
);

function stop(): void {
  wrangler.kill("SIGTERM");
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
wrangler.on("exit", async (code) => {
  await origin.close();
  process.exit(code ?? 0);
});
