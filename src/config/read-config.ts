/**
 * The Worker's vars and secrets, validated. Every problem is reported at once with what to
 * fix; nothing falls back silently: a bad value is replaced by its default (settings.ts) AND
 * listed in `problems`. A bad setting degrades only itself, so a typo in one var never turns
 * enforcement off nor takes the site down: a too-short ADMIN_TOKEN turns the admin API off
 * (it answers an error saying so), and only an unusable ORIGIN_URL stops the Worker (a
 * generic 502; there is nowhere to forward). Problems go to the log and the admin status,
 * never to visitors.
 *
 * Pure: no Worker APIs, so the CLI's `config check` runs the same validation in Node.
 */

import {
  parseSignatureAgents,
  trustedSignatureAgents,
  type SignatureAgent,
} from "../agents/web-bot-auth/signature-agents.ts";
import { RANGE_SOURCES } from "../agents/verification.ts";
import { MODES, type Mode } from "../policy/mode.ts";
import type { CompiledPolicy } from "../policy/operator-policy.ts";
import { unservedHostProblem } from "../policy/host-names.ts";
import { parsePolicySet, type PolicySet } from "../policy/policy-set.ts";
import {
  ENFORCE_RATES_WORDS,
  LOG_DECISIONS,
  LOG_FORMATS,
  SETTING_NAMES,
  SETTINGS,
  VERIFY_CRAWLERS,
  type EnforceRates,
  type LogDecisions,
  type LogFormat,
  type SettingName,
  type SettingDeclaration,
  type SettingSource,
  type VerifyCrawlers,
} from "../policy/settings.ts";
import { invalid, valid, type Validated } from "../policy/validated.ts";

/** Cloudflare's public resolver, RFC 8484 JSON API: the default for reverse DNS verification. */
const DEFAULT_DOH_RESOLVER = SETTINGS.DOH_RESOLVER.default;

export interface Config {
  readonly mode: Mode;
  readonly blockStatus: number;
  readonly adminPrefix: string;
  /** Undefined when the secret is not set (the admin prefix is an ordinary path) or refused. */
  readonly adminToken: string | undefined;
  /** ADMIN_TOKEN is set but too short: the admin API is off and answers an error saying so. */
  readonly adminTokenRefused: boolean;
  /** Proxy mode when set: allowed requests go to this origin (scheme, host and port only). */
  readonly originUrl: URL | undefined;
  /**
   * ORIGIN_URL is set but unusable (not an absolute http(s) URL, or with a path, query or
   * userinfo): the shell answers a generic 502 instead of guessing where to forward.
   */
  readonly originUrlProblem: boolean;
  /**
   * Route mode's allow-list (AUTHORITIES var): hosts (`example.com`, `example.com:8443`,
   * `*.example.com` for any subdomain) whose robots.txt the edge fetches, stores and enforces.
   * Undefined when not set: every Host header is accepted (bounded by the LRU and the cron cap).
   */
  readonly authorities: readonly string[] | undefined;
  readonly robotsMaxAgeSeconds: number;
  readonly fetchTimeoutMs: number;
  readonly failOpen: boolean;
  readonly retryAfterSeconds: number;
  readonly pauseUntil: number | undefined;
  readonly maxPauseMinutes: number;
  /** The operator's per-route policy (POLICY var), layered over robots.txt: the default policy. */
  readonly policy: CompiledPolicy | undefined;
  /**
   * The POLICY var's policies per host (`{"default", "hosts"}`), by canonical host name: each
   * host's version 0. Empty for a plain policy document. Only hosts the edge serves.
   */
  readonly hostPolicies: ReadonlyMap<string, CompiledPolicy>;
  /** Which crawler decisions get a log line: all (default), blocked (block/report/503), none. */
  readonly logDecisions: LogDecisions;
  /**
   * Crawl-delay, Request-rate and Visit-time, for groups that declare them: "honoured"
   * (default) binds crawlers the group names and crawlers whose operator documents support;
   * "all" binds every crawler of the group (Googlebot too, which ignores Crawl-delay and reads
   * sustained 429/503 as overload); "off" binds none.
   */
  readonly enforceRates: EnforceRates;
  /** Decision logs carry the query string only when the operator asks (it may hold personal data). */
  readonly logQuery: boolean;
  /** LOG_FORMAT: JSON lines, or one short line per decision (npm run dev sets it). */
  readonly logFormat: LogFormat;
  /** The activity view: crawler decisions counted per hour and the recent ones kept (ACTIVITY object). */
  readonly recordActivity: boolean;
  /** Impostors of verifiable crawlers: off (no check), unknown (judged under * only), block (403). */
  readonly verifyCrawlers: VerifyCrawlers;
  /** Content-Usage / Content-Signal preferences: enforce (refuse), report (mark), off. */
  readonly usageSignals: Mode;
  /** A passed crawler response carries the path's `Content-Usage` header (unless the origin sent one). */
  readonly usageHeader: boolean;
  /**
   * DISGUISED_CRAWLERS: a browser User-Agent from a crawler-only published range is judged as
   * that crawler (enforce), passed and recorded as it (report, the default), or a person (off).
   */
  readonly disguisedCrawlers: Mode;
  /** CRAWLER_RANGES: per range source name, the URL its list is fetched from instead of the built-in one. */
  readonly crawlerRangeUrls: ReadonlyMap<string, string>;
  /** The DNS-over-HTTPS endpoint (RFC 8484 JSON API) for reverse DNS verification; https only. */
  readonly dohResolver: string;
  /** Trusted Web Bot Auth signers by directory origin: the built-in table plus SIGNATURE_AGENTS. */
  readonly signatureAgents: ReadonlyMap<string, SignatureAgent>;
  /** SIGNATURE_MAX_WINDOW: the longest Web Bot Auth signature window (expires - created) and oldest `created`, seconds. */
  readonly signatureMaxWindowSeconds: number;
  /** Where each setting came from; a refused var's default stands in (and it is in `problems`). */
  readonly sources: Readonly<Record<SettingName, SettingSource>>;
}

/** The outcome of reading the vars: a config that is always usable, and what was wrong. */
export interface ConfigResult {
  readonly config: Config;
  /** Errors, each naming the var and its fix; each var's default stands in for its bad value. */
  readonly problems: string[];
  /** Worth an operator's attention, but enforcement stays on (shown in the admin status). */
  readonly warnings: string[];
}

/** ADMIN_TOKEN shorter than this is refused: a short bearer token can be guessed. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/**
 * Validate every var; never throws. `now` (default Date.now()) dates the PAUSE_UNTIL check.
 * Each bad value is replaced by its default; a bad ORIGIN_URL stays undefined and sets
 * `originUrlProblem`.
 */
export function parseConfig(vars: Record<string, unknown>, options: { now?: number } = {}): ConfigResult {
  const read = new VarReader(vars);
  const origin = read.setting("ORIGIN_URL", readOriginUrl);
  const maxPauseMinutes = read.setting("MAX_PAUSE_MINUTES", integerIn(1, 20_160));
  const now = options.now ?? Date.now();
  const policySet = read.setting("POLICY", readPolicy);
  const authorities = read.setting("AUTHORITIES", readAuthorities);
  const config: Config = {
    mode: read.setting("MODE", oneOf(MODES)),
    blockStatus: read.setting("BLOCK_STATUS", integerIn(400, 599)),
    adminPrefix: read.setting("ADMIN_PREFIX", readPrefix),
    adminToken: read.setting("ADMIN_TOKEN", readAdminToken),
    adminTokenRefused: read.refused.has("ADMIN_TOKEN"),
    originUrl: origin,
    originUrlProblem: read.refused.has("ORIGIN_URL"),
    authorities,
    robotsMaxAgeSeconds: read.setting("ROBOTS_MAX_AGE", integerIn(60, 7 * 86_400)),
    fetchTimeoutMs: read.setting("FETCH_TIMEOUT_MS", integerIn(100, 60_000)),
    failOpen: read.setting("FAIL_OPEN", readBoolean),
    retryAfterSeconds: read.setting("RETRY_AFTER", integerIn(1, 86_400)),
    pauseUntil: read.setting("PAUSE_UNTIL", pauseUntilWithin(maxPauseMinutes, now)),
    maxPauseMinutes,
    policy: policySet?.default,
    hostPolicies: servedHostPolicies(policySet, { proxy: origin !== undefined, authorities }, read.problems),
    logDecisions: read.setting("LOG_DECISIONS", oneOf(LOG_DECISIONS)),
    enforceRates: read.setting("ENFORCE_RATES", readEnforceRates),
    logQuery: read.setting("LOG_QUERY", readBoolean),
    logFormat: read.setting("LOG_FORMAT", oneOf(LOG_FORMATS)),
    recordActivity: read.setting("RECORD_ACTIVITY", readBoolean),
    verifyCrawlers: read.setting("VERIFY_CRAWLERS", oneOf(VERIFY_CRAWLERS)),
    usageSignals: read.setting("USAGE_SIGNALS", oneOf(MODES)),
    usageHeader: read.setting("USAGE_HEADER", readBoolean),
    disguisedCrawlers: read.setting("DISGUISED_CRAWLERS", oneOf(MODES)),
    crawlerRangeUrls: read.setting("CRAWLER_RANGES", readCrawlerRanges) ?? new Map(),
    dohResolver: read.setting("DOH_RESOLVER", readHttpsUrl),
    signatureAgents: read.setting("SIGNATURE_AGENTS", readSignatureAgents) ?? trustedSignatureAgents([]),
    signatureMaxWindowSeconds: read.setting("SIGNATURE_MAX_WINDOW", integerIn(1, 86_400)),
    sources: read.sources(),
  };
  if (vars["routes"] !== undefined) {
    read.problems.push(
      'a var named "routes" exists: `routes = [...]` was written inside [vars] in wrangler.toml; move it to the top level, before any [table], or the Worker gets no route',
    );
  }
  return { config, problems: read.problems, warnings: warningsFor(config) };
}

function warningsFor(config: Config): string[] {
  const warnings: string[] = [];
  if (config.originUrl && config.authorities) {
    warnings.push("AUTHORITIES is ignored in proxy mode: the only authority is ORIGIN_URL's");
  }
  if (!config.originUrl && !config.originUrlProblem && !config.authorities) {
    warnings.push(
      "route mode without AUTHORITIES: any Host header reaching the Worker gets a stored robots.txt entry; list your hosts in AUTHORITIES",
    );
  }
  return warnings;
}

/** Validates one var's text (never empty: missing or empty vars take the default). */
type VarParser<T> = (name: string, value: string) => Validated<T>;

/** A setting's value type: T, or T | undefined when it has no default (settings.ts). */
type Setting<N extends SettingName, T> = (typeof SETTINGS)[N]["default"] extends string ? T : T | undefined;

/** Reads one var at a time, recording problems instead of stopping at the first. */
class VarReader {
  readonly problems: string[] = [];
  readonly refused = new Set<SettingName>();
  private readonly given = new Set<SettingName>();
  private readonly vars: Record<string, unknown>;

  constructor(vars: Record<string, unknown>) {
    this.vars = vars;
  }

  /** Whether the var has a value at all (a non-string value counts: it is set, wrongly). */
  isSet(name: string): boolean {
    const value = this.vars[name];
    return typeof value === "string" ? value.trim() !== "" : value !== undefined && value !== null;
  }

  /** The var's trimmed text; undefined when missing, empty or not a string (a problem then). */
  text(name: string): string | undefined {
    const value = this.vars[name];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") return undefined;
    return value.trim() === "" ? undefined : value.trim();
  }

  /** The var's value, or its declared default (settings.ts) when it is unset or refused. */
  setting<N extends SettingName, T>(name: N, parse: VarParser<T>): Setting<N, T> {
    const fallback = defaultOf(name, parse) as Setting<N, T>;
    const raw = this.vars[name];
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      this.refuse(name, [`${name} must be a string in wrangler.toml [vars] (quote it), got ${typeof raw}`]);
      return fallback;
    }
    // A secret set to white space only was set on purpose and went wrong (a paste that lost
    // its value): refused and named, never read as unset. An empty value is unset.
    if (typeof raw === "string" && raw !== "" && raw.trim() === "" && isSecret(name)) {
      this.refuse(name, [
        `${name} is set but blank (white space only); it stays off until it holds a value. Set it again with \`npx wrangler secret put ${name}\``,
      ]);
      return fallback;
    }
    const value = this.text(name);
    if (value === undefined) return fallback;
    const result = parse(name, value);
    if (result.ok) {
      this.given.add(name);
      return result.value as Setting<N, T>;
    }
    this.refuse(name, result.problems);
    return fallback;
  }

  sources(): Record<SettingName, SettingSource> {
    const source = (name: SettingName): SettingSource =>
      this.refused.has(name) ? "refused" : this.given.has(name) ? "var" : "default";
    return Object.fromEntries(SETTING_NAMES.map((name) => [name, source(name)])) as Record<SettingName, SettingSource>;
  }

  private refuse(name: SettingName, problems: readonly string[]): void {
    this.refused.add(name);
    this.problems.push(...problems);
  }
}

/** A declared default, read by the var's own parser (a default it refuses is our bug: it throws). */
function defaultOf<T>(name: SettingName, parse: VarParser<T>): T | undefined {
  const text: string | null = SETTINGS[name].default;
  if (text === null) return undefined;
  const result = parse(name, text);
  if (!result.ok) throw new TypeError(`the declared default of ${name} is refused: ${result.problems.join("; ")}`);
  return result.value;
}

function oneOf<T extends string>(allowed: readonly T[]): VarParser<T> {
  return (name, value) => {
    const found = allowed.find((option) => option === value.toLowerCase());
    return found !== undefined
      ? valid(found)
      : invalid([`${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`]);
  };
}

function integerIn(min: number, max: number): VarParser<number> {
  return (name, value) => {
    const number = /^\d+$/.test(value) ? Number(value) : NaN;
    return number >= min && number <= max
      ? valid(number)
      : invalid([`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`]);
  };
}

function readBoolean(name: string, value: string): Validated<boolean> {
  if (value === "true" || value === "false") return valid(value === "true");
  return invalid([`${name} must be "true" or "false", got ${JSON.stringify(value)}`]);
}

/** "true" is the default, "honoured"; "false" is "off"; "all" opts every crawler in. */
function readEnforceRates(name: string, value: string): Validated<EnforceRates> {
  const found = ENFORCE_RATES_WORDS.get(value.toLowerCase());
  if (found !== undefined) return valid(found);
  return invalid([
    `${name} must be "true" (crawlers that honour the lines), "all" or "false", got ${JSON.stringify(value)}`,
  ]);
}

function readPrefix(name: string, value: string): Validated<string> {
  if (value.startsWith("/") && value.endsWith("/") && value !== "/" && !value.startsWith("//")) return valid(value);
  return invalid([
    `${name} must start and end with "/" and not be "/" (e.g. "/__robots/"), got ${JSON.stringify(value)}`,
  ]);
}

/** The value is a secret: messages never repeat it. */
function readAdminToken(name: string, value: string): Validated<string> {
  if (value.length >= MIN_ADMIN_TOKEN_LENGTH) return valid(value);
  return invalid([
    `${name} must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (it has ${value.length}); the admin API stays off until it is. Generate one with \`openssl rand -hex 24 | npx wrangler secret put ${name}\``,
  ]);
}

/**
 * ORIGIN_URL names an origin, nothing more: a path would be silently dropped or, worse,
 * resolved against (a request path is never resolved as a URL reference), and userinfo would send credentials with every request.
 */
function readOriginUrl(name: string, value: string): Validated<URL> {
  const example = "such as https://origin.example.com";
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return invalid([`${name} must be an absolute http(s) URL ${example}, got ${JSON.stringify(value)}`]);
  }
  const problems: string[] = [];
  if (url.username !== "" || url.password !== "") {
    problems.push(
      `${name} must not contain a user name or password (userinfo); put credentials in a header at the origin instead`,
    );
  }
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    problems.push(
      `${name} must be an origin only (scheme, host, port) ${example}; the request's path is appended, so remove ${JSON.stringify(url.pathname + url.search + url.hash)}`,
    );
  }
  return problems.length > 0 ? invalid(problems) : valid(new URL(url.origin));
}

function readAuthorities(name: string, value: string): Validated<readonly string[]> {
  const entries = value.split(",").map((entry) => entry.trim().toLowerCase());
  const problems: string[] = [];
  for (const entry of entries) {
    if (!isHostPattern(entry)) {
      problems.push(
        `${name} must be a comma-separated list of hosts such as "example.com, www.example.com, *.example.org" (no scheme or path), got ${JSON.stringify(entry)}`,
      );
    }
  }
  return problems.length > 0 ? invalid(problems) : valid([...new Set(entries)]);
}

/** `host`, `host:port` or `*.host`: what URL.host would print for that host, nothing else. */
function isHostPattern(entry: string): boolean {
  const host = entry.startsWith("*.") ? entry.slice(2) : entry;
  if (host === "" || host.includes("*")) return false;
  const candidate = `https://${host}/`;
  return URL.canParse(candidate) && new URL(candidate).host === host && !host.includes("@");
}

function readHttpsUrl(name: string, value: string): Validated<string> {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol === "https:" && !url.username && !url.password) return valid(url.href);
  return invalid([`${name} must be an https URL such as ${DEFAULT_DOH_RESOLVER}, got ${JSON.stringify(value)}`]);
}

/**
 * CRAWLER_RANGES: a JSON object from range source names (agents/verification.ts RANGE_SOURCES)
 * to the URLs their lists are fetched from. https, or http for a loopback host only (a local
 * run or a test serving a list): a list decides who is a crawler, so it is never read in the
 * clear from the network. Every problem is reported; one bad entry refuses the whole var (the
 * built-in addresses stand in), so a half-applied mirror never mixes with the operators' lists.
 */
function readCrawlerRanges(name: string, value: string): Validated<ReadonlyMap<string, string>> {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return invalid([`${name} must be a JSON object such as {"gptbot": "https://mirror.example/gptbot.json"}`]);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return invalid([`${name} must be a JSON object from list names to URLs, got ${JSON.stringify(value)}`]);
  }
  const known = RANGE_SOURCES.map((source) => source.name);
  const problems: string[] = [];
  const urls = new Map<string, string>();
  for (const [source, url] of Object.entries(json)) {
    if (!known.includes(source)) {
      problems.push(`${name}: ${JSON.stringify(source)} is no list the edge loads; the lists are ${known.join(", ")}`);
    } else if (typeof url !== "string" || !isRangeListUrl(url)) {
      problems.push(
        `${name}: the URL of ${source} must be an https URL (http only for localhost, 127.0.0.0/8 or [::1]) without user name or password, got ${JSON.stringify(url)}`,
      );
    } else {
      urls.set(source, new URL(url).href);
    }
  }
  return problems.length > 0 ? invalid(problems) : valid(urls);
}

function isRangeListUrl(text: string): boolean {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || url.username !== "" || url.password !== "") return false;
  if (url.protocol === "https:") return true;
  const host = url.hostname;
  const loopback = host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return url.protocol === "http:" && loopback;
}

function readSignatureAgents(_name: string, value: string): Validated<ReadonlyMap<string, SignatureAgent>> {
  const agents = parseSignatureAgents(value);
  return agents.ok ? valid(trustedSignatureAgents(agents.value)) : invalid(agents.problems);
}

function readPolicy(name: string, value: string): Validated<PolicySet> {
  const policy = parsePolicySet(value);
  return policy.ok ? policy : invalid(policy.problems.map((problem) => `${name}: ${problem}`));
}

/** The var's host policies the edge serves; each refused entry is a problem of its own, the rest stands. */
function servedHostPolicies(
  set: PolicySet | undefined,
  served: Parameters<typeof unservedHostProblem>[1],
  problems: string[],
): ReadonlyMap<string, CompiledPolicy> {
  const hosts = new Map<string, CompiledPolicy>();
  problems.push(
    ...(set?.hostProblems ?? []).map((problem) => `POLICY: ${problem} (that host is judged by the default)`),
  );
  for (const [host, policy] of set?.hosts ?? []) {
    const unserved = unservedHostProblem(host, served);
    if (unserved) problems.push(`POLICY: hosts.${host}: ${unserved.problem} (dropped)`);
    else hosts.set(host, policy);
  }
  return hosts;
}

/** A pause longer than the cap is refused here as the admin API refuses it (see pause.ts). */
function pauseUntilWithin(maxPauseMinutes: number, now: number): VarParser<number> {
  return (name, value) => {
    const time = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(time)) {
      return invalid([`${name} must be an ISO 8601 time such as 2026-12-01T06:00:00Z, got ${JSON.stringify(value)}`]);
    }
    if (time - now > maxPauseMinutes * 60_000) {
      return invalid([
        `${name} ${value} is more than MAX_PAUSE_MINUTES (${maxPauseMinutes}) from now; long runs of 503 get pages dropped from search indexes. Choose an earlier end or raise MAX_PAUSE_MINUTES`,
      ]);
    }
    return valid(time);
  };
}

function isSecret(name: SettingName): boolean {
  const declared: SettingDeclaration = SETTINGS[name];
  return declared.secret === true;
}
