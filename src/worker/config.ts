/**
 * The Worker's vars and secrets, validated once per isolate. Every problem is reported at
 * once with what to fix; nothing falls back silently: a bad value is replaced by its default
 * AND listed in `problems`. Validation never throws, so a typo never takes the site down
 * (issue #15): with problems present the shell passes every request to the origin as with
 * MODE=off, answers a generic 502 only when ORIGIN_URL is unusable, and shows the problems in
 * the admin status and the log, never to visitors.
 *
 * Pure: no Worker APIs, so the CLI's `config check` can run the same validation in Node.
 */

import {
  parseSignatureAgents,
  trustedSignatureAgents,
  type SignatureAgent,
} from "../agents/web-bot-auth/signature-agents.ts";
import type { Mode } from "../policy/mode.ts";
import { parsePolicy, type CompiledPolicy } from "../policy/operator-policy.ts";
import { invalid, valid, type Validated } from "../policy/validated.ts";

export type { Mode };

/** Cloudflare's public resolver, RFC 8484 JSON API: the default for reverse DNS verification. */
export const DEFAULT_DOH_RESOLVER = "https://cloudflare-dns.com/dns-query";

export interface Config {
  readonly mode: Mode;
  readonly blockStatus: number;
  readonly adminPrefix: string;
  /** Undefined when the secret is not set (or too short): then the admin prefix is an ordinary path. */
  readonly adminToken: string | undefined;
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
  /** The operator's per-route policy (POLICY var), layered over robots.txt. */
  readonly policy: CompiledPolicy | undefined;
  /** Which crawler decisions get a log line: all (default), blocked (block/report/503), none. */
  readonly logDecisions: "all" | "blocked" | "none";
  /**
   * Crawl-delay, Request-rate and Visit-time, for groups that declare them: "honoured"
   * (default) binds crawlers the group names and crawlers whose operator documents support;
   * "all" binds every crawler of the group (Googlebot too, which ignores Crawl-delay and reads
   * sustained 429/503 as overload); "off" binds none.
   */
  readonly enforceRates: "honoured" | "all" | "off";
  /** Decision logs carry the query string only when the operator asks (it may hold personal data). */
  readonly logQuery: boolean;
  /** The activity view (issue #13): crawler decisions counted per hour and the recent ones kept (ACTIVITY object). */
  readonly recordActivity: boolean;
  /** Impostors of verifiable crawlers: off (no check), unknown (judged under * only), block (403). */
  readonly verifyCrawlers: "off" | "unknown" | "block";
  /** Content-Usage / Content-Signal preferences: enforce (refuse), report (mark), off. */
  readonly usageSignals: "enforce" | "report" | "off";
  /** A passed crawler response carries the path's `Content-Usage` header (unless the origin sent one). */
  readonly usageHeader: boolean;
  /** The DNS-over-HTTPS endpoint (RFC 8484 JSON API) for reverse DNS verification; https only. */
  readonly dohResolver: string;
  /** Trusted Web Bot Auth signers by directory origin: the built-in table plus SIGNATURE_AGENTS. */
  readonly signatureAgents: ReadonlyMap<string, SignatureAgent>;
  /** SIGNATURE_MAX_WINDOW: the longest Web Bot Auth signature window (expires - created) and oldest `created`, seconds. */
  readonly signatureMaxWindowSeconds: number;
}

/** The outcome of reading the vars: a config that is always usable, and what was wrong. */
export interface ConfigResult {
  readonly config: Config;
  /** Errors, each naming the var and its fix. Non-empty: the shell treats every request as MODE=off. */
  readonly problems: string[];
  /** Worth an operator's attention, but enforcement stays on (shown in the admin status). */
  readonly warnings: string[];
}

/** ADMIN_TOKEN shorter than this is refused: a short bearer token can be guessed. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

const MODES: readonly Mode[] = ["enforce", "report", "off"];

const cache = new WeakMap<object, ConfigResult>();

/** The validated config for this env (memoised per env object, i.e. per isolate). */
export function loadConfig(env: object): ConfigResult {
  const cached = cache.get(env);
  if (cached) return cached;
  const result = parseConfig(env as Record<string, unknown>);
  cache.set(env, result);
  return result;
}

/**
 * Validate every var; never throws. `now` (default Date.now()) dates the PAUSE_UNTIL check.
 * Each bad value is replaced by its default; a bad ORIGIN_URL stays undefined and sets
 * `originUrlProblem`.
 */
export function parseConfig(vars: Record<string, unknown>, options: { now?: number } = {}): ConfigResult {
  const read = new VarReader(vars);
  const origin = read.field("ORIGIN_URL", readOriginUrl, undefined);
  const maxPauseMinutes = read.field("MAX_PAUSE_MINUTES", integerIn(1, 20_160), 2_880);
  const now = options.now ?? Date.now();
  const config: Config = {
    mode: read.field("MODE", oneOf(MODES), "enforce"),
    blockStatus: read.field("BLOCK_STATUS", integerIn(400, 599), 403),
    adminPrefix: read.field("ADMIN_PREFIX", readPrefix, "/__robots/"),
    adminToken: read.field("ADMIN_TOKEN", readAdminToken, undefined),
    originUrl: origin,
    originUrlProblem: read.isSet("ORIGIN_URL") && origin === undefined,
    authorities: read.field("AUTHORITIES", readAuthorities, undefined),
    robotsMaxAgeSeconds: read.field("ROBOTS_MAX_AGE", integerIn(60, 7 * 86_400), 86_400),
    fetchTimeoutMs: read.field("FETCH_TIMEOUT_MS", integerIn(100, 60_000), 5_000),
    failOpen: read.field("FAIL_OPEN", readBoolean, false),
    retryAfterSeconds: read.field("RETRY_AFTER", integerIn(1, 86_400), 3_600),
    pauseUntil: read.field("PAUSE_UNTIL", pauseUntilWithin(maxPauseMinutes, now), undefined),
    maxPauseMinutes,
    policy: read.field("POLICY", readPolicy, undefined),
    logDecisions: read.field("LOG_DECISIONS", oneOf(["all", "blocked", "none"] as const), "all"),
    enforceRates: read.field("ENFORCE_RATES", readEnforceRates, "honoured"),
    logQuery: read.field("LOG_QUERY", readBoolean, false),
    recordActivity: read.field("RECORD_ACTIVITY", readBoolean, true),
    verifyCrawlers: read.field("VERIFY_CRAWLERS", oneOf(["off", "unknown", "block"] as const), "unknown"),
    usageSignals: read.field("USAGE_SIGNALS", oneOf(MODES), "enforce"),
    usageHeader: read.field("USAGE_HEADER", readBoolean, true),
    dohResolver: read.field("DOH_RESOLVER", readHttpsUrl, DEFAULT_DOH_RESOLVER),
    signatureAgents: read.field("SIGNATURE_AGENTS", readSignatureAgents, trustedSignatureAgents([])),
    signatureMaxWindowSeconds: read.field("SIGNATURE_MAX_WINDOW", integerIn(1, 86_400), 300),
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

/** Reads one var at a time, recording problems instead of stopping at the first. */
class VarReader {
  readonly problems: string[] = [];
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

  field<T, D extends T | undefined>(name: string, parse: VarParser<T>, fallback: D): T | D {
    const raw = this.vars[name];
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      this.problems.push(`${name} must be a string in wrangler.toml [vars] (quote it), got ${typeof raw}`);
      return fallback;
    }
    const value = this.text(name);
    if (value === undefined) return fallback;
    const result = parse(name, value);
    if (result.ok) return result.value;
    this.problems.push(...result.problems);
    return fallback;
  }
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

const ENFORCE_RATES_WORDS = new Map<string, Config["enforceRates"]>([
  ["true", "honoured"],
  ["honoured", "honoured"],
  ["all", "all"],
  ["false", "off"],
  ["off", "off"],
]);

/** "true" is the default, "honoured"; "false" is "off"; "all" opts every crawler in. */
function readEnforceRates(name: string, value: string): Validated<Config["enforceRates"]> {
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
 * resolved against (issue #9), and userinfo would send credentials with every request.
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

function readSignatureAgents(_name: string, value: string): Validated<ReadonlyMap<string, SignatureAgent>> {
  const agents = parseSignatureAgents(value);
  return agents.ok ? valid(trustedSignatureAgents(agents.value)) : invalid(agents.problems);
}

function readPolicy(name: string, value: string): Validated<CompiledPolicy> {
  const policy = parsePolicy(value);
  return policy.ok ? policy : invalid(policy.problems.map((problem) => `${name}: ${problem}`));
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
