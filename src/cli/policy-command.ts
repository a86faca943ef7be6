/**
 * `robots-edge policy pull | plan | apply`: the edge's policies as one file in git (policy-file.ts),
 * a plan a reviewer reads (policy-plan.ts), and a save per changed policy with If-Match.
 *
 * Exit statuses (main.ts): 0 done; 1 a documented "no": the file has problems, the plan would
 * refuse a search crawler what it is let through today (without --allow-search-changes), or
 * apply met a conflict; 2 usage, the network, the edge refusing the token, a host it does not
 * serve.
 */

import { writeFile } from "node:fs/promises";
import { changeLine } from "./document-diff.ts";
import { answerError, callEdge, edgeAddress, isObject, type EdgeAddress, type Fetcher } from "./edge-client.ts";
import { CliError, EXIT_NO, EXIT_OK, inputName, readWhole, write, type Io } from "./io.ts";
import {
  MAX_POLICY_FILE_BYTES,
  POLICY_FILE_SCHEMA_PATH,
  policyText,
  readPolicyFile,
  type PolicyFile,
} from "./policy-file.ts";
import {
  listHostPolicies,
  planPolicies,
  readInForce,
  type Flip,
  type Plan,
  type ReplaySummary,
  type TargetPlan,
} from "./policy-plan.ts";

export interface PolicyOptions {
  readonly json: boolean;
  readonly edge?: string | undefined;
  readonly token?: string | undefined;
  readonly urls?: string | undefined;
  readonly "allow-search-changes": boolean;
}

/** A URL list is read up to this size, and this many lines. */
const MAX_URLS_BYTES = 1024 * 1024;
const MAX_URLS = 10_000;
/** Paths shown per crawler in the text plan; --json has them all. */
const SHOWN_PER_CRAWLER = 3;

interface Context {
  readonly edge: EdgeAddress;
  readonly fetch: Fetcher;
  readonly io: Io;
  readonly options: PolicyOptions;
}

export async function policyCommand(operands: readonly string[], options: PolicyOptions, io: Io): Promise<number> {
  const [action, ...rest] = operands;
  if (action !== "pull" && action !== "plan" && action !== "apply") {
    throw new CliError(`policy takes pull, plan or apply, got ${JSON.stringify(action ?? "")}`);
  }
  if (rest.length > 1) throw new CliError(`policy ${action} takes one file`);
  if (action === "pull" && options.urls !== undefined) throw new CliError("--urls belongs to plan (and apply)");
  const env = io.env ?? process.env;
  const context: Context = { edge: edgeAddress(options, env), fetch: io.fetch ?? fetch, io, options };
  if (action === "pull") return pull(context, rest[0]);
  const path = rest[0];
  if (path === undefined) throw new CliError(`policy ${action} <file>: which policy file?`);
  return action === "plan" ? plan(context, path) : apply(context, path);
}

// --- pull -------------------------------------------------------------------------------

async function pull(context: Context, path: string | undefined): Promise<number> {
  const { io } = context;
  const defaultPolicy = await readInForce(context, null);
  const hosts: Record<string, unknown> = {};
  const versions: { host: string | null; version: number }[] = [{ host: null, version: defaultPolicy.version }];
  for (const { host } of (await listHostPolicies(context)) ?? []) {
    const own = await readInForce(context, host);
    if (own.document === null) continue;
    hosts[host] = own.document;
    versions.push({ host, version: own.version });
  }
  const file = {
    $schema: POLICY_FILE_SCHEMA_PATH,
    ...(defaultPolicy.document !== null && { default: defaultPolicy.document }),
    hosts,
  };
  const text = policyText(file);
  if (path === undefined || path === "-") {
    await write(io.stdout, text);
    return EXIT_OK;
  }
  try {
    await writeFile(path, text);
  } catch (error) {
    throw new CliError(
      `cannot write ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (context.options.json) await write(io.stdout, `${JSON.stringify({ file: path, policies: versions })}\n`);
  else {
    const named = versions.map((entry) => `${entry.host ?? "default"} (version ${entry.version})`);
    await write(io.stdout, `wrote ${path}: ${named.join(", ")}\n`);
  }
  return EXIT_OK;
}

// --- plan -------------------------------------------------------------------------------

async function plan(context: Context, path: string): Promise<number> {
  const file = await readFile(context, path);
  if (!file) return EXIT_NO;
  const computed = await planPolicies({
    edge: context.edge,
    fetch: context.fetch,
    file,
    paths: await readUrls(context),
  });
  const refused = refusesSearch(computed) && !context.options["allow-search-changes"];
  if (context.options.json) await write(context.io.stdout, `${JSON.stringify(planJson(computed, path, refused))}\n`);
  else await write(context.io.stdout, planText(computed, path));
  if (refused) await write(context.io.stderr, REFUSAL);
  return refused ? EXIT_NO : EXIT_OK;
}

const REFUSAL =
  "robots-edge policy: the plan refuses a search crawler what it is let through today, or could not check (lines marked !); if that is meant, plan or apply again with --allow-search-changes\n";

function refusesSearch(computed: Plan): boolean {
  return computed.targets.some((target) => target.searchRefusals.length > 0 || target.unchecked !== null);
}

/** The file, judged; on problems they go to stderr and the answer is undefined (exit 1). */
async function readFile(context: Context, path: string): Promise<PolicyFile | undefined> {
  const bytes = await readWhole(
    path,
    context.io,
    MAX_POLICY_FILE_BYTES,
    "the most a policy file may be",
    "policy file",
  );
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(`${inputName(path)} is not UTF-8 text; a policy file is JSON in UTF-8`);
  }
  const read = readPolicyFile(text);
  if (read.ok) return read.value;
  const name = inputName(path);
  if (context.options.json) {
    await write(context.io.stdout, `${JSON.stringify({ file: name, problems: read.problems })}\n`);
  } else {
    await write(context.io.stderr, read.problems.map((problem) => `${name}: ${problem}\n`).join(""));
  }
  return undefined;
}

/** The --urls list: one URL or path a line, `#` comments and blank lines skipped; the paths. */
async function readUrls(context: Context): Promise<string[]> {
  const path = context.options.urls;
  if (path === undefined) return [];
  const bytes = await readWhole(path, context.io, MAX_URLS_BYTES, "the most a URL list may be", "URL list");
  const paths: string[] = [];
  const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (paths.length >= MAX_URLS) throw new CliError(`${path} has more than ${MAX_URLS} URLs`);
    paths.push(pathOf(line, `${path}:${index + 1}`));
  }
  return paths;
}

/** A path as the edge judges it: a path as written, or an absolute URL's path and query (its host is each planned host). */
function pathOf(line: string, where: string): string {
  if (line.startsWith("/")) return line;
  if (URL.canParse(line)) {
    const url = new URL(line);
    if (url.protocol === "http:" || url.protocol === "https:") return `${url.pathname}${url.search}`;
  }
  throw new CliError(`${where}: expected a path starting with "/" or an http(s) URL, got ${JSON.stringify(line)}`);
}

function label(host: string | null): string {
  return host ?? "default";
}

function planText(computed: Plan, path: string): string {
  const lines = [`plan for ${path}:`];
  for (const target of computed.targets) lines.push(...targetText(target));
  if (computed.notInFile.length > 0) {
    const names = computed.notInFile.map((entry) => `${entry.host} (version ${entry.version})`);
    lines.push(`not in the file, left as they are: ${names.join(", ")}`);
  }
  if (!computed.hostsListed) lines.push("this edge lists no per-host policies: only its default is planned");
  const changing = computed.targets.filter((target) => target.changes.length > 0).length;
  lines.push(`${changing} to change, ${computed.targets.length - changing} unchanged`);
  return `${lines.join("\n")}\n`;
}

function targetText(target: TargetPlan): string[] {
  const name = `${label(target.host)} (version ${target.version})`;
  if (target.changes.length === 0) return [`${name}: no change`];
  const lines = [
    `${name}: ${target.changes.length} change(s)`,
    ...target.changes.map((change) => `  ${changeLine(change)}`),
  ];
  if (target.replayNote) lines.push(`  replay: ${target.replayNote}`);
  if (target.replay) lines.push(...summaryText("recorded traffic", target.replay));
  if (target.asked) lines.push(...summaryText("URL list", target.asked));
  for (const flip of target.searchRefusals) lines.push(`  ! refuses search crawler ${flipText(flip)} (${flip.source})`);
  if (target.unchecked) lines.push("  ! not checked for search crawlers (see replay above)");
  return lines;
}

function summaryText(what: string, summary: ReplaySummary): string[] {
  const judged =
    summary.requests < summary.recorded ? `${summary.requests} of ${summary.recorded}` : `${summary.requests}`;
  const lines = [`  ${what}: ${judged} requests judged, ${summary.changedCount} would change`];
  for (const [token, flips] of byCrawler(summary.changed)) {
    const shown = flips
      .slice(0, SHOWN_PER_CRAWLER)
      .map((flip) => `${flip.method} ${flip.path} ${flip.live.action} -> ${flip.draft.action}`);
    const more = flips.length > SHOWN_PER_CRAWLER ? `; ${flips.length - SHOWN_PER_CRAWLER} more` : "";
    lines.push(`    ${token}: ${flips.length} (${shown.join("; ")}${more})`);
  }
  return lines;
}

function byCrawler(flips: readonly Flip[]): Map<string, Flip[]> {
  const grouped = new Map<string, Flip[]>();
  for (const flip of flips) grouped.set(flip.token, [...(grouped.get(flip.token) ?? []), flip]);
  return grouped;
}

function flipText(flip: Flip): string {
  const rule = flip.draft.rule ? `, ${flip.draft.rule}` : "";
  return `${flip.token} ${flip.method} ${flip.path}: ${flip.live.action} -> ${flip.draft.action}${rule}`;
}

function planJson(computed: Plan, path: string, refused: boolean) {
  return {
    file: path,
    targets: computed.targets.map(({ policy: _policy, ...target }) => ({
      ...target,
      changed: target.changes.length > 0,
      asked: target.asked && { ...target.asked, byCrawler: Object.fromEntries(byCrawler(target.asked.changed)) },
    })),
    notInFile: computed.notInFile,
    hostsListed: computed.hostsListed,
    refusesSearch: refusesSearch(computed),
    refused,
  };
}

// --- apply ------------------------------------------------------------------------------

/** The plan, the same check, then one PUT per changed policy with If-Match: its version at plan time. */
async function apply(context: Context, path: string): Promise<number> {
  const file = await readFile(context, path);
  if (!file) return EXIT_NO;
  const computed = await planPolicies({
    edge: context.edge,
    fetch: context.fetch,
    file,
    paths: await readUrls(context),
  });
  if (refusesSearch(computed) && !context.options["allow-search-changes"]) {
    if (context.options.json)
      await write(context.io.stdout, `${JSON.stringify({ ...planJson(computed, path, true), saved: [] })}\n`);
    else await write(context.io.stdout, `${planText(computed, path)}nothing saved\n`);
    await write(context.io.stderr, REFUSAL);
    return EXIT_NO;
  }
  const results = [];
  for (const target of computed.targets) {
    if (target.changes.length === 0) continue;
    results.push(await save(context, target));
  }
  if (context.options.json) await write(context.io.stdout, `${JSON.stringify({ file: path, results })}\n`);
  else {
    const lines = results.map((result) =>
      result.saved
        ? `${label(result.host)}: version ${result.version} saved (was ${result.was})`
        : `${label(result.host)}: not saved: ${result.error}`,
    );
    const unchanged = computed.targets.length - results.length;
    await write(
      context.io.stdout,
      `${[...lines, `${results.filter((r) => r.saved).length} saved, ${unchanged} unchanged`].join("\n")}\n`,
    );
  }
  return results.every((result) => result.saved) ? EXIT_OK : EXIT_NO;
}

type SaveResult =
  | { host: string | null; saved: true; version: number; was: number }
  | { host: string | null; saved: false; status: number; error: string; was: number };

async function save(context: Context, target: TargetPlan): Promise<SaveResult> {
  const savedBy = savedByHeader(context.io.env ?? process.env);
  const answer = await callEdge(
    context.edge,
    {
      method: "PUT",
      route: "policy",
      query: { host: target.host ?? undefined },
      body: target.policy.text,
      headers: { "if-match": `"${target.version}"`, ...(savedBy && { "x-saved-by": savedBy }) },
    },
    context.fetch,
  );
  const version = isObject(answer.body) ? answer.body["version"] : undefined;
  if (answer.status === 200 && typeof version === "number") {
    return { host: target.host, saved: true, version, was: target.version };
  }
  const conflict = answer.status === 412 || answer.status === 409;
  const error = conflict
    ? `it changed on the edge since the plan read version ${target.version} (${answerError(answer)}); pull, merge and plan again`
    : answerError(answer);
  return { host: target.host, saved: false, status: answer.status, error, was: target.version };
}

/** Who saves, for the edge's history: the CI job, else the user (printable ASCII, at most 100 characters). */
function savedByHeader(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const ci =
    env["GITHUB_ACTOR"] && env["GITHUB_RUN_ID"] ? `${env["GITHUB_ACTOR"]} (run ${env["GITHUB_RUN_ID"]})` : undefined;
  const who = ci ?? env["USER"] ?? env["USERNAME"];
  if (!who) return undefined;
  const text = `robots-edge policy apply: ${who}`.replace(/[^\x20-\x7e]/g, "?");
  return text.slice(0, 100);
}
