/**
 * What `robots-edge policy plan` (and `apply`, which plans first) finds for a policy file
 * against a running edge, per policy the file names (the default, each host):
 *
 *   - the version in force now and the member-by-member change (document-diff.ts);
 *   - for a change, `POST replay` with the file's policy as the draft: the recorded crawler
 *     requests whose decision would flip, and, with a URL list, each URL asked of each search
 *     crawler and each crawler either document names (replay-asked.ts at the edge), so every
 *     decision shown is the edge's own, never re-derived here;
 *   - the search refusals: a flip where a search-engine crawler (the crawler table's category)
 *     is let through today (pass, report, or its robots.txt) and refused under the file
 *     (block, 503, 429). The one check that makes a plan fail (do no harm: a policy edit must
 *     not get a site dropped from an index by accident).
 *
 * A host the edge does not serve is refused before anything is asked or saved: a file names
 * only what this edge serves (docs/security.md, "The policy file").
 *
 * Where each change is replayed: an exact host on its own traffic (`?host=`). The default and a
 * `*.` pattern judge many sites, so each is replayed on the traffic of every site it will judge
 * once the file is applied (the edge's known origins, GET status, whose most specific policy key
 * among the edge's and the file's host policies is that one), `?origin=` each, live being what
 * judges that site now. Never on the traffic of the site --edge names: that site may be judged by
 * a policy of its own, where a default change flips nothing while it refuses Googlebot elsewhere.
 * No such site, or more than MAX_REPLAYED_SITES: the change stays unchecked (do no harm).
 */

import { agentForTokens } from "../agents/classify.ts";
import { KNOWN_CRAWLERS } from "../agents/operators/tables.ts";
import { productToken } from "../core/index.ts";
import { policyKeysFor } from "../policy/host-names.ts";
import { isCrawlerCategory, type Action } from "../vocabulary.ts";
import { diffDocuments, type DocumentChange } from "./document-diff.ts";
import { answerError, callEdge, isObject, type EdgeAddress, type Fetcher } from "./edge-client.ts";
import { CliError } from "./cli-error.ts";
import { mapBounded } from "./map-bounded.ts";
import type { FilePolicy, PolicyFile } from "./policy-file.ts";

/** Crawlers a URL list is asked of at most: every search crawler of the table and those the documents name. */
export const MAX_ASKED_CRAWLERS = 64;
/** Asked requests per replay call (the edge's MAX_ASKED_REQUESTS). */
const ASKED_PER_CALL = 2_000;
/** Pages of `GET policies` read at most (1,000 hosts each: the edge keeps at most 5,000 host policies). */
const MAX_LIST_PAGES = 10;
/** Sites one default or pattern change is replayed on at most (a call each); past it the change stays unchecked. */
export const MAX_REPLAYED_SITES = 1_000;
/**
 * Replay calls one plan has open at once: 1,000 sites one after another took minutes; more at
 * once would make one operator's plan a burst on the edge's admin API (each call a bounded replay).
 */
const REPLAYS_IN_FLIGHT = 4;
/** Pages of `GET status` read at most for the known origins (1,000 each). */
const MAX_STATUS_PAGES = 10;

const LET_THROUGH: ReadonlySet<string> = new Set<Action>(["pass", "report", "serve-robots-txt"]);
const REFUSED: ReadonlySet<string> = new Set<Action>(["block", "unavailable", "rate-limited"]);

export interface Flip {
  readonly token: string;
  readonly method: string;
  readonly path: string;
  readonly live: { readonly action: string; readonly rule?: string | null };
  readonly draft: { readonly action: string; readonly rule?: string | null };
}

export interface ReplaySummary {
  /** Requests judged, and how many there were (more when the edge's work budget ran out). */
  readonly requests: number;
  readonly recorded: number;
  readonly changedCount: number;
  /** The flips the edge listed, newest first. */
  readonly changed: readonly Flip[];
}

export interface TargetPlan {
  /** null: the default policy. */
  readonly host: string | null;
  /** The version in force now (its own: a host's ETag). */
  readonly version: number;
  readonly changes: readonly DocumentChange[];
  /** The file's policy, as apply sends it. */
  readonly policy: FilePolicy;
  /** The recorded traffic replayed; null when unchanged, or when it cannot be (replayNote says why). */
  readonly replay: ReplaySummary | null;
  readonly replayNote: string | null;
  /** The URL list asked of the crawlers; null without --urls or when unchanged. */
  readonly asked: ReplaySummary | null;
  readonly searchRefusals: readonly (Flip & { readonly source: "traffic" | "urls" })[];
  /**
   * Why the search check could not run for this change (no traffic to replay it on); null when it ran.
   * A change that cannot be checked fails the plan as a refusal does: do no harm, unless told.
   */
  readonly unchecked: string | null;
}

export interface Plan {
  readonly targets: readonly TargetPlan[];
  /** Hosts with a policy of their own on the edge that the file does not name: left as they are. */
  readonly notInFile: readonly { readonly host: string; readonly version: number }[];
  /** The edge lists no per-host policies (an edge from before them): only the default can be planned. */
  readonly hostsListed: boolean;
}

/** One edge's admin API and how to reach it. */
export interface EdgeLink {
  readonly edge: EdgeAddress;
  readonly fetch: Fetcher;
}

export interface PlanInput extends EdgeLink {
  readonly file: PolicyFile;
  /** Paths to ask of the crawlers (--urls), or none. */
  readonly paths: readonly string[];
}

export async function planPolicies(input: PlanInput): Promise<Plan> {
  const { file } = input;
  const listed = await listHostPolicies(input);
  // The policy keys that will judge once the file is applied: the edge's, and the file's hosts.
  const keys = new Set([...(listed ?? []).map((entry) => entry.host), ...file.hosts.keys()]);
  let sites: readonly string[] | undefined;
  const sitesJudgedBy = async (key: string | null) => {
    sites ??= await knownSites(input);
    return sites.filter((site) => judgingKey(site, keys) === key);
  };
  const named: [string | null, FilePolicy][] = [
    ...(file.default ? [[null, file.default] as [null, FilePolicy]] : []),
    ...file.hosts,
  ];
  // Every host first: a file naming a host the edge does not serve changes nothing at all.
  const current = [];
  for (const [host, policy] of named) current.push({ host, policy, ...(await readInForce(input, host)) });
  const targets: TargetPlan[] = [];
  for (const { host, policy, version, document } of current) {
    targets.push(await planTarget(input, host, policy, version, document, sitesJudgedBy));
  }
  const notInFile = (listed ?? []).filter((entry) => !file.hosts.has(entry.host));
  return { targets, notInFile, hostsListed: listed !== undefined };
}

async function planTarget(
  input: PlanInput,
  host: string | null,
  policy: FilePolicy,
  version: number,
  document: unknown,
  sitesJudgedBy: (key: string | null) => Promise<string[]>,
): Promise<TargetPlan> {
  const changes = diffDocuments(document, policy.document);
  const base = { host, version, changes, policy };
  const unreplayed = { replay: null, asked: null, searchRefusals: [] };
  if (changes.length === 0) return { ...base, ...unreplayed, replayNote: null, unchecked: null };
  const crawlers = askedCrawlers(document, policy.document);
  const asked = input.paths.flatMap((path) => crawlers.map((token) => ({ token, path })));
  let replayed: Replayed | string;
  let replayNote: string | null = null;
  if (host !== null && !host.startsWith("*.")) {
    replayed = await replayDraft(input, { host }, policy.document, asked);
  } else {
    const what = host === null ? "the default" : host;
    const sites = await sitesJudgedBy(host);
    if (sites.length === 0) {
      const note = `${what} judges no site the edge knows (GET status): no traffic to replay it on`;
      return { ...base, ...unreplayed, replayNote: note, unchecked: note };
    }
    if (sites.length > MAX_REPLAYED_SITES) {
      const note = `${what} judges ${sites.length} sites; a plan replays at most ${MAX_REPLAYED_SITES}`;
      return { ...base, ...unreplayed, replayNote: note, unchecked: note };
    }
    replayed = await replayOnSites(input, sites, policy.document, asked);
    replayNote = `replayed on the traffic of the ${sites.length} site(s) ${what} judges: ${sites.slice(0, 10).join(", ")}${sites.length > 10 ? ", …" : ""}`;
  }
  if (typeof replayed === "string") return { ...base, ...unreplayed, replayNote: replayed, unchecked: replayed };
  const { replay, asked: askedSummary } = replayed;
  const searchRefusals = [
    ...replay.changed.filter(refusesSearch).map((flip) => ({ ...flip, source: "traffic" as const })),
    ...(askedSummary?.changed ?? []).filter(refusesSearch).map((flip) => ({ ...flip, source: "urls" as const })),
  ];
  return { ...base, replay, replayNote, asked: askedSummary, searchRefusals, unchecked: null };
}

type Replayed = { replay: ReplaySummary; asked: ReplaySummary | null };

/** One draft replayed on each site (`?origin=`), the answers summed; a site that cannot be replayed leaves it unchecked. */
async function replayOnSites(
  input: PlanInput,
  sites: readonly string[],
  policy: unknown,
  asked: readonly { token: string; path: string }[],
): Promise<Replayed | string> {
  // A site's error is kept as its answer, so what is reported is the first site's, in order, as
  // when the sites were replayed one after another (not whichever of four in flight failed first).
  const answers = await mapBounded(
    sites,
    REPLAYS_IN_FLIGHT,
    (origin) => replayDraft(input, { origin }, policy, asked).catch((error: unknown) => new ReplayFailed(error)),
    (replayed) => typeof replayed === "string" || replayed instanceof ReplayFailed,
  );
  const sums: Replayed[] = [];
  for (const replayed of answers) {
    if (typeof replayed === "string") return replayed;
    if (replayed instanceof ReplayFailed) throw replayed.error;
    if (replayed !== undefined) sums.push(replayed);
  }
  const askedSums = sums.flatMap((one) => (one.asked ? [one.asked] : []));
  return { replay: total(sums.map((one) => one.replay)), asked: askedSums.length > 0 ? total(askedSums) : null };
}

/** A site's replay that threw, held as its answer until the sites before it are read. */
class ReplayFailed {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/** Replay summaries of several sites as one. */
function total(summaries: readonly ReplaySummary[]): ReplaySummary {
  return {
    requests: summaries.reduce((sum, one) => sum + one.requests, 0),
    recorded: summaries.reduce((sum, one) => sum + one.recorded, 0),
    changedCount: summaries.reduce((sum, one) => sum + one.changedCount, 0),
    changed: summaries.flatMap((one) => one.changed),
  };
}

/** The key of the policy that judges a site: its most specific exact or `*.` key among `keys`, else null (the default). */
function judgingKey(origin: string, keys: ReadonlySet<string>): string | null {
  const host = URL.canParse(origin) ? new URL(origin).host : origin;
  return policyKeysFor(host).find((key) => keys.has(key)) ?? null;
}

/** The origins the edge knows and serves (GET status, every page), as it writes them (`https://docs.example`). */
async function knownSites(input: EdgeLink): Promise<string[]> {
  const sites: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_STATUS_PAGES; page++) {
    const query = { limit: "1000", cursor };
    const answer = await callEdge(input.edge, { method: "GET", route: "status", query }, input.fetch);
    if (answer.status !== 200 || !isObject(answer.body) || !Array.isArray(answer.body["origins"])) {
      throw new CliError(`GET status: ${answerError(answer)}`);
    }
    for (const entry of answer.body["origins"]) {
      if (isObject(entry) && typeof entry["authority"] === "string" && entry["served"] !== false) {
        sites.push(entry["authority"]);
      }
    }
    const next = answer.body["next"];
    if (typeof next !== "string" || next === "") break;
    cursor = next;
  }
  return sites;
}

/** A flip that refuses a search-engine crawler what it is let through today. */
export function refusesSearch(flip: Flip): boolean {
  const category = agentForTokens([flip.token]).known?.category;
  return category === "search-engine" && LET_THROUGH.has(flip.live.action) && REFUSED.has(flip.draft.action);
}

/** The search crawlers of the table, then every product token either document names, once each. */
export function askedCrawlers(...documents: unknown[]): string[] {
  const tokens = new Map<string, string>();
  const add = (name: string) => {
    const token = productToken(name);
    if (token !== "" && !tokens.has(token)) tokens.set(token, name);
  };
  for (const crawler of KNOWN_CRAWLERS) if (crawler.category === "search-engine") add(crawler.token);
  for (const document of documents) for (const name of namedCrawlers(document)) add(name);
  return [...tokens.values()].slice(0, MAX_ASKED_CRAWLERS);
}

function namedCrawlers(document: unknown): string[] {
  if (!isObject(document)) return [];
  const routes = Array.isArray(document["routes"]) ? document["routes"] : [];
  const ruleNames = routes.flatMap((route: unknown) =>
    isObject(route) && Array.isArray(route["rules"])
      ? route["rules"].flatMap((rule: unknown) =>
          isObject(rule) && Array.isArray(rule["crawlers"]) ? rule["crawlers"].filter(isString) : [],
        )
      : [],
  );
  const purposes = Array.isArray(document["purposes"]) ? document["purposes"] : [];
  const purposeNames = purposes.flatMap((entry: unknown) => (isObject(entry) ? Object.keys(entry) : []));
  // Categories and a purposes entry's `path` are no crawler; what is left are product tokens.
  return [...ruleNames, ...purposeNames].filter(
    (name) => name !== "path" && !name.startsWith("category:") && !isCrawlerCategory(name),
  );
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** The policy in force now for the default or a host: its own version and document (null: none). */
export async function readInForce(
  input: EdgeLink,
  host: string | null,
): Promise<{ version: number; document: unknown }> {
  const answer = await callEdge(
    input.edge,
    { method: "GET", route: "policy", query: { host: host ?? undefined } },
    input.fetch,
  );
  if (answer.status === 200 && isObject(answer.body) && typeof answer.body["version"] === "number") {
    return { version: answer.body["version"], document: answer.body["policy"] ?? null };
  }
  if (host !== null && (answer.status === 404 || answer.status === 400)) {
    throw new CliError(
      `the file names ${JSON.stringify(host)}, which this edge does not serve (${answerError(answer)}); nothing was planned or saved: remove it from the file, or add it to AUTHORITIES first`,
    );
  }
  throw new CliError(`GET policy${host === null ? "" : `?host=${host}`}: ${answerError(answer)}`);
}

/** The hosts with a policy of their own on the edge; undefined when the edge lists none (before per-host policies). */
export async function listHostPolicies(input: EdgeLink): Promise<{ host: string; version: number }[] | undefined> {
  const hosts: { host: string; version: number }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const query = { limit: "1000", cursor };
    const answer = await callEdge(input.edge, { method: "GET", route: "policies", query }, input.fetch);
    if (answer.status === 404 && page === 0) return undefined;
    if (answer.status !== 200 || !isObject(answer.body) || !Array.isArray(answer.body["hosts"])) {
      throw new CliError(`GET policies: ${answerError(answer)}`);
    }
    for (const entry of answer.body["hosts"]) {
      if (isObject(entry) && typeof entry["host"] === "string" && typeof entry["version"] === "number") {
        hosts.push({ host: entry["host"], version: entry["version"] });
      }
    }
    const next = answer.body["next"];
    if (typeof next !== "string" || next === "") return hosts;
    cursor = next;
  }
  return hosts;
}

/**
 * The recorded traffic and the asked requests judged under the file's policy. The asked go in
 * calls of ASKED_PER_CALL; an answer that judged only the last N of them (the edge's work
 * budget) is followed by a call for the rest, so every asked request is judged. `where` is an
 * exact host's policy (`host=`) or one site the default or a pattern judges (`origin=`).
 */
async function replayDraft(
  input: PlanInput,
  where: { readonly host: string } | { readonly origin: string },
  policy: unknown,
  asked: readonly { token: string; path: string }[],
): Promise<Replayed | string> {
  let replay: ReplaySummary | undefined;
  const askedFlips: Flip[] = [];
  let askedChanged = 0;
  let pending = asked;
  do {
    const batch = pending.slice(0, ASKED_PER_CALL);
    const body = { policy, ...(asked.length > 0 && { requests: batch }) };
    const answer = await callEdge(
      input.edge,
      { method: "POST", route: "replay", query: { ...where }, body: JSON.stringify(body) },
      input.fetch,
    );
    const named = "host" in where ? `host=${where.host}` : `origin=${where.origin}`;
    if ("origin" in where && (answer.status === 404 || answer.status === 400)) {
      return `the edge would not replay ${where.origin} (${answerError(answer)})`;
    }
    if (answer.status !== 200 || !isObject(answer.body)) {
      throw new CliError(`POST replay?${named}: ${answerError(answer)}`);
    }
    replay ??= summaryOf(answer.body);
    if (asked.length === 0) break;
    const result = answer.body["asked"];
    if (!isObject(result)) {
      throw new CliError(
        "this edge's replay does not judge a URL list (an older release): update it, or plan without --urls",
      );
    }
    const judged = summaryOf(result);
    if (judged.requests === 0)
      throw new CliError("replay judged none of the URLs asked: one path costs more than its work budget");
    askedFlips.push(...judged.changed);
    askedChanged += judged.changedCount;
    // The edge judges the last first: what it did not reach is the start of the batch.
    pending = [...batch.slice(0, batch.length - judged.requests), ...pending.slice(batch.length)];
  } while (pending.length > 0);
  const askedSummary =
    asked.length === 0
      ? null
      : { requests: asked.length, recorded: asked.length, changedCount: askedChanged, changed: askedFlips };
  return { replay: replay as ReplaySummary, asked: askedSummary };
}

function summaryOf(body: Record<string, unknown>): ReplaySummary {
  const number = (name: string) => (typeof body[name] === "number" ? body[name] : 0);
  const changed = Array.isArray(body["changed"]) ? body["changed"].filter(isFlip) : [];
  return { requests: number("requests"), recorded: number("recorded"), changedCount: number("changedCount"), changed };
}

function isFlip(value: unknown): value is Flip {
  return (
    isObject(value) &&
    typeof value["token"] === "string" &&
    typeof value["path"] === "string" &&
    isObject(value["live"]) &&
    isObject(value["draft"]) &&
    typeof value["live"]["action"] === "string" &&
    typeof value["draft"]["action"] === "string"
  );
}
