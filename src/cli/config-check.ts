/**
 * `robots-edge config check [wrangler.toml] [--env NAME]`: the configuration as the Worker
 * will read it, checked before deploy. Vars go through the Worker's own parseConfig, so the
 * CLI and the edge never disagree; on top come the traps only the file shows: `routes`
 * written inside [vars], the placeholder KV namespace id, a compatibility_date the installed
 * workerd does not know, missing bindings, and the ADMIN_TOKEN secret the file cannot show.
 *
 * smol-toml (a devDependency, CLI only: the Worker never imports this file, so its bundle
 * does not grow) reads the file; wrangler's own reader is not a public API.
 */

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parse as parseToml } from "smol-toml";
import { parseConfig } from "../config/read-config.ts";
import { CliError, EXIT_NO, EXIT_OK, write, type Io } from "./io.ts";

export type Severity = "error" | "warning" | "note";

export interface ConfigFinding {
  readonly severity: Severity;
  readonly message: string;
}

export interface ConfigCheckOptions {
  /** `--env NAME`: the [env.NAME] table, as `wrangler deploy --env NAME` reads it. */
  readonly env?: string | undefined;
  /** The newest compatibility_date the installed workerd supports (YYYY-MM-DD). */
  readonly workerdDate?: string | undefined;
}

const PLACEHOLDER_KV_ID = /^0+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Table = Record<string, unknown>;

/** Every finding for this wrangler.toml text, errors first. Never throws. */
export function checkWranglerToml(text: string, options: ConfigCheckOptions = {}): ConfigFinding[] {
  const findings: ConfigFinding[] = [];
  const add = (severity: Severity, message: string) => findings.push({ severity, message });
  let top: Table;
  try {
    top = parseToml(text) as Table;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return [{ severity: "error", message: `not valid TOML: ${reason}` }];
  }
  let scope = top;
  if (options.env !== undefined) {
    const env = asTable(asTable(top["env"])?.[options.env]);
    if (!env) return [{ severity: "error", message: `no [env.${options.env}] table; add it or drop --env` }];
    // wrangler: vars and bindings are not inherited by an environment; routes and dates are.
    scope = { ...top, vars: undefined, kv_namespaces: undefined, durable_objects: undefined, ...env };
  }
  checkVars(asTable(scope["vars"]) ?? {}, options.env, add);
  checkRoutes(scope, add);
  checkKv(scope["kv_namespaces"], add);
  checkDurableObjects(scope["durable_objects"], add);
  checkCompatibilityDate(scope["compatibility_date"], options.workerdDate, add);
  add(
    "note",
    "ADMIN_TOKEN is a secret this file cannot show: set it with `npx wrangler secret put ADMIN_TOKEN`" +
      `${options.env ? ` --env ${options.env}` : ""} (16 characters or more), or the admin API and operator page stay off`,
  );
  const order: Record<Severity, number> = { error: 0, warning: 1, note: 2 };
  return findings.toSorted((a, b) => order[a.severity] - order[b.severity]);
}

type Add = (severity: Severity, message: string) => void;

function checkVars(vars: Table, env: string | undefined, add: Add): void {
  const where = env ? `[env.${env}.vars]` : "[vars]";
  if (vars["ADMIN_TOKEN"] !== undefined) {
    add(
      "error",
      `ADMIN_TOKEN is in ${where}, readable by anyone who reads the repository: remove it and run \`npx wrangler secret put ADMIN_TOKEN\``,
    );
  }
  const { problems, warnings } = parseConfig(vars);
  for (const problem of problems) add("error", problem);
  for (const warning of warnings) add("warning", warning);
}

function checkRoutes(scope: Table, add: Add): void {
  const routes = scope["routes"] ?? scope["route"];
  const vars = asTable(scope["vars"]) ?? {};
  const proxyMode = typeof vars["ORIGIN_URL"] === "string" && vars["ORIGIN_URL"] !== "";
  if (routes === undefined && !proxyMode) {
    add(
      "warning",
      "route mode (ORIGIN_URL empty) with no routes: the Worker guards no site until a route sends traffic to it; " +
        'add `routes = [{ pattern = "www.example.com/*", zone_name = "example.com" }]` at the top of wrangler.toml, before any [table]',
    );
  }
}

function checkKv(kv: unknown, add: Add): void {
  const robots = asArray(kv)
    .map(asTable)
    .find((entry) => entry?.["binding"] === "ROBOTS");
  if (!robots) {
    add("error", 'no KV namespace bound as ROBOTS: add [[kv_namespaces]] with binding = "ROBOTS" and its id');
    return;
  }
  const id = robots["id"];
  const create = "run `npx wrangler kv namespace create ROBOTS` and paste the printed id into [[kv_namespaces]]";
  if (typeof id !== "string" || id === "") add("error", `the ROBOTS KV namespace has no id: ${create}`);
  else if (PLACEHOLDER_KV_ID.test(id)) add("error", `the ROBOTS KV namespace id is the placeholder ${id}: ${create}`);
}

function checkDurableObjects(durableObjects: unknown, add: Add): void {
  const bindings = asArray(asTable(durableObjects)?.["bindings"]).map(asTable);
  const rate = bindings.find((binding) => binding?.["name"] === "CRAWL_RATE");
  if (!rate) {
    add(
      "error",
      'no Durable Object bound as CRAWL_RATE: add [[durable_objects.bindings]] name = "CRAWL_RATE", class_name = "CrawlRate" (Crawl-delay and Request-rate need it)',
    );
  } else if (rate["class_name"] !== "CrawlRate") {
    add("error", `CRAWL_RATE's class_name is ${JSON.stringify(rate["class_name"])}: it must be "CrawlRate"`);
  }
  const activity = bindings.find((binding) => binding?.["name"] === "ACTIVITY");
  if (!activity) {
    add(
      "warning",
      'no Durable Object bound as ACTIVITY: the activity view and replay record nothing; add [[durable_objects.bindings]] name = "ACTIVITY", class_name = "ActivityLog" (and its migration)',
    );
  } else if (activity["class_name"] !== "ActivityLog") {
    add("error", `ACTIVITY's class_name is ${JSON.stringify(activity["class_name"])}: it must be "ActivityLog"`);
  }
}

function checkCompatibilityDate(date: unknown, workerdDate: string | undefined, add: Add): void {
  if (date === undefined) {
    add(
      "error",
      'no compatibility_date: add compatibility_date = "YYYY-MM-DD" (a date the installed workerd supports)',
    );
  } else if (typeof date !== "string" || !DATE.test(date)) {
    add("error", `compatibility_date must be a quoted "YYYY-MM-DD" string, got ${String(date)}`);
  } else if (workerdDate !== undefined && date > workerdDate) {
    add(
      "error",
      `compatibility_date ${date} is newer than the installed workerd supports (${workerdDate}): local runs fail at start-up; set it to ${workerdDate} or earlier, or update wrangler`,
    );
  }
}

function asTable(value: unknown): Table | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Table) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The compatibility date of the installed workerd (its version is 1.YYYYMMDD.N), if found. */
export function installedWorkerdDate(): string | undefined {
  try {
    const manifest = JSON.parse(
      readFileSync(new URL("../../node_modules/workerd/package.json", import.meta.url), "utf8"),
    ) as { version?: unknown };
    const digits = /^\d+\.(\d{4})(\d{2})(\d{2})\./.exec(String(manifest.version));
    return digits ? `${digits[1]}-${digits[2]}-${digits[3]}` : undefined;
  } catch {
    return undefined;
  }
}

/** `config check [file] [--env NAME]`. */
export async function configCommand(args: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "check")
    throw new CliError('the only config command is "check": robots-edge config check [wrangler.toml] [--env NAME]');
  let file: string | undefined;
  let env: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (arg === "--env") {
      env = rest[++i];
      if (env === undefined || env.startsWith("-")) throw new CliError("--env needs a name: --env production");
    } else if (arg.startsWith("--env=")) env = arg.slice("--env=".length);
    else if (arg.startsWith("-")) throw new CliError(`unknown option ${JSON.stringify(arg)}`);
    else if (file === undefined) file = arg;
    else throw new CliError(`unexpected argument ${JSON.stringify(arg)} (one file per call)`);
  }
  file ??= "wrangler.toml";
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${JSON.stringify(file)}: ${error instanceof Error ? error.message : error}`);
  }
  const findings = checkWranglerToml(text, { env, workerdDate: installedWorkerdDate() });
  await write(io.stdout, findings.map((finding) => `${file}: ${finding.severity}: ${finding.message}\n`).join(""));
  const count = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length;
  const errors = count("error");
  await write(
    io.stderr,
    `${file}${env ? ` (env ${env})` : ""}: ${errors} error(s), ${count("warning")} warning(s)${errors > 0 ? "; fix them before deploying" : ""}\n`,
  );
  return errors > 0 ? EXIT_NO : EXIT_OK;
}
