// `npm run dev`: the Worker under `wrangler dev` (workerd, local KV) in proxy mode in front of
// the embedded demo origin, with an admin token for the local admin API. Ctrl-C stops both.
import { spawn } from "node:child_process";
import { startDemoOrigin } from "./demo-origin.ts";

const PORT = process.env["PORT"] ?? "8787";
const ADMIN_TOKEN = "dev-admin-token-local";

const origin = await startDemoOrigin();
const edge = `http://127.0.0.1:${PORT}`;
console.log(`demo origin: ${origin.url}   robots-edge: ${edge}   admin token: ${ADMIN_TOKEN}

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
    "--var",
    `ORIGIN_URL:${origin.url}`,
    "--var",
    `ADMIN_TOKEN:${ADMIN_TOKEN}`,
    // curl on this machine is 127.0.0.1, and wrangler dev's stand-in request.cf says
    // verifiedBot: false for everyone: every "Googlebot" would count as an impostor.
    "--var",
    "VERIFY_CRAWLERS:off",
  ],
  { stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
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
