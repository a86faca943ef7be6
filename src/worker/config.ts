/**
 * The Worker's vars and secrets, validated once per isolate. Every problem is reported at
 * once with what to fix; nothing falls back silently to a default when a value is present
 * but wrong. Defaults apply only to vars that are missing or empty.
 */

import type { Mode } from "../policy/mode.ts";
import { parsePolicy, type CompiledPolicy } from "../policy/operator-policy.ts";

export type { Mode };

export interface Env {
  readonly ROBOTS: KVNamespace;
  readonly CRAWL_RATE?: DurableObjectNamespace<import("./crawl-rate-object.ts").CrawlRate>;
  readonly MODE?: string;
  readonly BLOCK_STATUS?: string;
  readonly ADMIN_PREFIX?: string;
  readonly ADMIN_TOKEN?: string;
  readonly ORIGIN_URL?: string;
  readonly ROBOTS_MAX_AGE?: string;
  readonly FETCH_TIMEOUT_MS?: string;
  readonly FAIL_OPEN?: string;
  readonly RETRY_AFTER?: string;
  readonly PAUSE_UNTIL?: string;
  readonly MAX_PAUSE_MINUTES?: string;
  readonly POLICY?: string;
  readonly LOG_DECISIONS?: string;
  readonly ENFORCE_RATES?: string;
  readonly VERIFY_CRAWLERS?: string;
}

export interface Config {
  readonly mode: Mode;
  readonly blockStatus: number;
  readonly adminPrefix: string;
  /** Undefined when the secret is not set: then the admin prefix is an ordinary path. */
  readonly adminToken: string | undefined;
  /** Proxy mode when set: allowed requests go to this origin. */
  readonly originUrl: URL | undefined;
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
  /** Enforce Crawl-delay, Request-rate and Visit-time for crawlers whose group declares them. */
  readonly enforceRates: boolean;
  /** Impostors of verifiable crawlers: off (no check), unknown (judged under * only), block (403). */
  readonly verifyCrawlers: "off" | "unknown" | "block";
}

/** Invalid configuration: the message lists every problem found. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

const MODES: readonly Mode[] = ["enforce", "report", "off"];

const cache = new WeakMap<object, Config>();

/** The validated config for this env (memoised per env object, i.e. per isolate). */
export function loadConfig(env: Env): Config {
  const cached = cache.get(env);
  if (cached) return cached;
  const config = parseConfig(env);
  cache.set(env, config);
  return config;
}

/** Validate every var; throws ConfigError naming each bad one. */
export function parseConfig(env: Env): Config {
  const problems: string[] = [];
  const read = new VarReader(env as unknown as Record<string, unknown>, problems);
  const config: Config = {
    mode: read.oneOf("MODE", MODES, "enforce"),
    blockStatus: read.integer("BLOCK_STATUS", 403, 400, 599),
    adminPrefix: read.prefix("ADMIN_PREFIX", "/__robots/"),
    adminToken: read.text("ADMIN_TOKEN"),
    originUrl: read.url("ORIGIN_URL"),
    robotsMaxAgeSeconds: read.integer("ROBOTS_MAX_AGE", 86_400, 60, 7 * 86_400),
    fetchTimeoutMs: read.integer("FETCH_TIMEOUT_MS", 5_000, 100, 60_000),
    failOpen: read.boolean("FAIL_OPEN", false),
    retryAfterSeconds: read.integer("RETRY_AFTER", 3_600, 1, 86_400),
    pauseUntil: read.time("PAUSE_UNTIL"),
    maxPauseMinutes: read.integer("MAX_PAUSE_MINUTES", 2_880, 1, 20_160),
    policy: read.policy("POLICY"),
    logDecisions: read.oneOf("LOG_DECISIONS", ["all", "blocked", "none"] as const, "all"),
    enforceRates: read.boolean("ENFORCE_RATES", true),
    verifyCrawlers: read.oneOf("VERIFY_CRAWLERS", ["off", "unknown", "block"] as const, "unknown"),
  };
  if (problems.length > 0) {
    throw new ConfigError(`invalid configuration (fix in wrangler.toml [vars] or secrets): ${problems.join("; ")}`);
  }
  return config;
}

/** Reads one var at a time, recording problems instead of throwing at the first. */
class VarReader {
  private readonly env: Record<string, unknown>;
  private readonly problems: string[];

  constructor(env: Record<string, unknown>, problems: string[]) {
    this.env = env;
    this.problems = problems;
  }

  text(name: string): string | undefined {
    const value = this.env[name];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") {
      this.problems.push(`${name} must be a string, got ${typeof value}`);
      return undefined;
    }
    return value.trim() === "" ? undefined : value.trim();
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.text(name);
    if (value === undefined) return fallback;
    const found = allowed.find((option) => option === value.toLowerCase());
    if (!found) this.problems.push(`${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
    return found ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.text(name);
    if (value === undefined) return fallback;
    const number = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(number >= min && number <= max)) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return number;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.text(name);
    if (value === undefined) return fallback;
    if (value === "true" || value === "false") return value === "true";
    this.problems.push(`${name} must be "true" or "false", got ${JSON.stringify(value)}`);
    return fallback;
  }

  prefix(name: string, fallback: string): string {
    const value = this.text(name) ?? fallback;
    if (!value.startsWith("/") || !value.endsWith("/") || value === "/") {
      this.problems.push(`${name} must start and end with "/" and not be "/", got ${JSON.stringify(value)}`);
    }
    return value;
  }

  url(name: string): URL | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      this.problems.push(
        `${name} must be an absolute http(s) URL such as https://origin.example.com, got ${JSON.stringify(value)}`,
      );
      return undefined;
    }
    return url;
  }

  policy(name: string): CompiledPolicy | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const { policy, problems } = parsePolicy(value);
    for (const problem of problems) this.problems.push(`${name}: ${problem}`);
    return policy;
  }

  time(name: string): number | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const time = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(time)) {
      this.problems.push(`${name} must be an ISO 8601 time such as 2026-12-01T06:00:00Z, got ${JSON.stringify(value)}`);
      return undefined;
    }
    return time;
  }
}
