/**
 * `robots-edge config check [wrangler.toml] [--env NAME]`: the configuration as the Worker
 * will read it, checked before deploy. Vars go through the Worker's own parseConfig, so the
 * CLI and the edge never disagree; on top come the traps only the file shows: a var name the
 * Worker never reads (a typo that would pass silently), `routes` written inside any table, a
 * placeholder KV namespace id, a compatibility_date the installed workerd does not know,
 * missing bindings, and the ADMIN_TOKEN secret the file cannot show.
 *
 * smol-toml (a devDependency, CLI only: the Worker never imports this file, so its bundle
 * does not grow) reads the file; wrangler's own reader is not a public API.
 */

import { readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import { parseConfig } from "../config/read-config.ts";
import { CliError, EXIT_NO, EXIT_OK, inputName, readWhole, write, type Io } from "./io.ts";

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
const KV_ID = /^[0-9a-f]{32}$/i;
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
  checkRoutesPlacement(top, options.env, add);
  checkRoutes(scope, add);
  checkKv(scope["kv_namespaces"], add);
  checkDurableObjects(scope["durable_objects"], add);
  checkCompatibilityDate(scope["compatibility_date"], options.workerdDate, add);
  const envFlag = options.env ? ` --env ${options.env}` : "";
  add(
    "note",
    `ADMIN_TOKEN is a secret this file cannot show: \`npx wrangler secret list${envFlag}\` says whether it is set; ` +
      `set it with \`npx wrangler secret put ADMIN_TOKEN${envFlag}\` (16 characters or more), or the admin API and ` +
      "operator page stay off (a shorter one turns only the admin API off, and its answer says why)",
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
  const known = knownVarNames();
  for (const name of Object.keys(vars)) {
    // "routes" inside [vars] has its own message, from parseConfig.
    if (known.includes(name) || name === "routes" || name === "route") continue;
    add(
      "error",
      `${where} has ${JSON.stringify(name)}, a var the Worker never reads: did you mean ${JSON.stringify(closest(name, known))}? (rename it, or remove it)`,
    );
  }
}

/**
 * The var names the Worker reads: exactly those its own reader asks parseConfig's input for, so
 * this list cannot drift from the Worker's.
 */
function knownVarNames(): readonly string[] {
  const asked = new Set<string>();
  const recorder = new Proxy({} as Record<string, unknown>, {
    get: (_target, name) => {
      if (typeof name === "string") asked.add(name);
      return undefined;
    },
  });
  parseConfig(recorder);
  asked.delete("routes");
  return [...asked];
}

/** The known name nearest to `name` (case-insensitive edit distance, a swap of two letters counting one). */
function closest(name: string, known: readonly string[]): string {
  let best = known[0] ?? "";
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(name.toUpperCase(), candidate.toUpperCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_cell, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] ?? [];
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row[j] = distance;
    }
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * `routes` (or `route`) anywhere but the top level or an [env.NAME] table is an error: TOML puts
 * a key written below a [table] header into that table, and wrangler then deploys with no
 * route at all. The [vars] table in force is left to parseConfig, which says it the Worker's way.
 */
function checkRoutesPlacement(top: Table, env: string | undefined, add: Add): void {
  const inForceVars = env === undefined ? "vars" : `env.${env}.vars`;
  const visit = (table: Table, path: readonly string[], arrayItem: boolean): void => {
    const name = path.join(".");
    const allowed = path.length === 0 || (path.length === 2 && path[0] === "env");
    for (const key of ["routes", "route"]) {
      if (table[key] === undefined || allowed || name === inForceVars) continue;
      const header = arrayItem ? `[[${name}]]` : `[${name}]`;
      add(
        "error",
        `\`${key}\` is inside ${header}, where wrangler does not read it, so the Worker gets no route: move the line to the top of wrangler.toml, before any [table] (or into an [env.NAME] table)`,
      );
    }
    for (const [key, value] of Object.entries(table)) {
      const child = asTable(value);
      if (child) visit(child, [...path, key], false);
      else for (const item of asArray(value).map(asTable)) if (item) visit(item, [...path, key], true);
    }
  };
  visit(top, [], false);
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
    add("error", 'no KV namespace bound as ROBOTS: add [[kv_namespaces]] with binding = "ROBOTS"');
    return;
  }
  const id = robots["id"];
  // wrangler 4.45 and newer create a binding's KV namespace on deploy when it has no id, and keep
  // it linked on later deploys: a fresh account needs no id, and a wrong one is worse than none.
  const fix =
    "remove the id line (`wrangler deploy` creates the namespace), or paste the id `npx wrangler kv namespace list` shows";
  if (id === undefined) return;
  if (typeof id !== "string" || id === "") add("error", `the ROBOTS KV namespace id is empty: ${fix}`);
  else if (PLACEHOLDER_KV_ID.test(id)) add("error", `the ROBOTS KV namespace id is the placeholder ${id}: ${fix}`);
  else if (!KV_ID.test(id))
    add("error", `the ROBOTS KV namespace id ${JSON.stringify(id)} is not 32 hex digits: ${fix}`);
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
function installedWorkerdDate(): string | undefined {
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

/** `config check [file|-] [--env NAME] [--json]`. */
export async function configCommand(
  operands: readonly string[],
  { env, json }: { readonly env?: string | undefined; readonly json: boolean },
  io: Io,
): Promise<number> {
  const [sub, file = "wrangler.toml", extra] = operands;
  if (sub !== "check")
    throw new CliError(
      'the only config command is "check": robots-edge config check [wrangler.toml] [--env NAME] [--json]',
    );
  if (extra !== undefined) throw new CliError(`unexpected argument ${JSON.stringify(extra)} (one file per call)`);
  if (env === "") throw new CliError("--env needs a name: --env production");
  const name = inputName(file);
  // A CliError names the file when it cannot be read or is too large.
  const text = new TextDecoder().decode(
    await readWhole(file, io, MAX_CONFIG_BYTES, "more than any wrangler config", "config"),
  );
  const findings = checkWranglerToml(text, { env, workerdDate: installedWorkerdDate() });
  const count = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length;
  const errors = count("error");
  if (json) {
    const report = { file: name, env: env ?? null, errors, warnings: count("warning"), findings };
    await write(io.stdout, `${JSON.stringify(report)}\n`);
  } else {
    await write(io.stdout, findings.map((finding) => `${name}: ${finding.severity}: ${finding.message}\n`).join(""));
    await write(
      io.stderr,
      `${name}${env ? ` (env ${env})` : ""}: ${errors} error(s), ${count("warning")} warning(s)${errors > 0 ? "; fix them before deploying" : ""}\n`,
    );
  }
  return errors > 0 ? EXIT_NO : EXIT_OK;
}

/**
 * A config is read up to 1 MiB, refused past it: Cloudflare caps each var at 5 KB and a
 * Worker's settings far below that, so a larger file is not a config this check can vouch for.
 */
const MAX_CONFIG_BYTES = 1024 * 1024;
