// `npm run deploy [-- --env NAME ...]`: `robots-edge config check` on the config and env that
// `wrangler deploy` will deploy, then `wrangler deploy` with the same arguments. Errors stop it
// before anything is uploaded.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { configCheckArguments } from "./deploy-options.ts";

const args = process.argv.slice(2);
const checkArgs = configCheckArguments(args);
if (checkArgs instanceof Error) {
  console.error(`npm run deploy: ${checkArgs.message}`);
  process.exit(2);
}
const cli = resolve(import.meta.dirname, "../bin/robots-edge.js");
const check = spawnSync(process.execPath, [cli, "config", "check", ...checkArgs], { stdio: "inherit" });
if (check.status !== 0) {
  console.error("npm run deploy: stopped before deploying; nothing was uploaded");
  process.exit(check.status ?? 1);
}
const deploy = spawnSync("npx", ["wrangler", "deploy", ...args], { stdio: "inherit" });
process.exit(deploy.status ?? 1);
