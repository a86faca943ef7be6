/**
 * Every var the Worker reads, declared once: its name, the values it takes when they are a
 * list, its default as written in wrangler.toml, and what it does. The reader
 * (src/config/read-config.ts) takes its defaults and lists from here, and so can the CLI's
 * `config check`, without importing the Worker. Pure.
 */

import { MODES } from "./mode.ts";

/** VERIFY_CRAWLERS: impostors of verifiable crawlers are not checked, judged under `*` only, or refused. */
export const VERIFY_CRAWLERS = ["off", "unknown", "block"] as const;
export type VerifyCrawlers = (typeof VERIFY_CRAWLERS)[number];

/** ENFORCE_RATES, as the decision uses it (the var also takes "true" and "false": ENFORCE_RATES_WORDS). */
export const ENFORCE_RATES = ["honoured", "all", "off"] as const;
export type EnforceRates = (typeof ENFORCE_RATES)[number];

/** The words ENFORCE_RATES accepts: "true" is the default, "honoured"; "false" is "off". */
export const ENFORCE_RATES_WORDS: ReadonlyMap<string, EnforceRates> = new Map([
  ["true", "honoured"],
  ["honoured", "honoured"],
  ["all", "all"],
  ["false", "off"],
  ["off", "off"],
]);

/** LOG_DECISIONS: which crawler decisions get a log line. */
export const LOG_DECISIONS = ["all", "blocked", "none"] as const;
export type LogDecisions = (typeof LOG_DECISIONS)[number];

/** LOG_FORMAT: a decision's log line as JSON (deployments: Workers Logs, `wrangler tail`) or one short line (npm run dev). */
export const LOG_FORMATS = ["json", "line"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const BOOLEAN = ["true", "false"] as const;

export interface SettingDeclaration {
  /** The values the var takes, when they are a list. */
  readonly values?: readonly string[];
  /** The default as the var's text; null: unset unless the operator sets it. */
  readonly default: string | null;
  /** A secret (`wrangler secret put`), never a [vars] entry. */
  readonly secret?: true;
  readonly what: string;
}

export const SETTINGS = {
  MODE: {
    values: MODES,
    default: "enforce",
    what: "a disallowed crawler request is refused (enforce), marked (report), or not judged (off)",
  },
  ORIGIN_URL: { default: null, what: "proxy mode: the origin allowed requests go to (scheme, host, port)" },
  AUTHORITIES: { default: null, what: "route mode: the hosts the edge protects" },
  BLOCK_STATUS: { default: "403", what: "the status of a refusal, 400 to 599" },
  ADMIN_PREFIX: { default: "/__robots/", what: "where the admin API and the operator page live" },
  ADMIN_TOKEN: {
    default: null,
    secret: true,
    what: "the admin API's bearer token, 16 characters or more; without it the admin API is off",
  },
  ROBOTS_MAX_AGE: { default: "86400", what: "seconds a stored robots.txt is used before it is fetched again" },
  FETCH_TIMEOUT_MS: { default: "5000", what: "how long a robots.txt fetch may take" },
  FAIL_OPEN: { values: BOOLEAN, default: "false", what: "pass crawlers while robots.txt cannot be had" },
  RETRY_AFTER: { default: "3600", what: "Retry-After seconds of a pause started without one" },
  PAUSE_UNTIL: { default: null, what: "a crawl pause until this ISO 8601 time" },
  MAX_PAUSE_MINUTES: { default: "2880", what: "the longest pause the edge accepts" },
  POLICY: { default: null, what: "the operator's per-route policy (JSON), layered over robots.txt" },
  LOG_DECISIONS: { values: LOG_DECISIONS, default: "all", what: "which crawler decisions are logged" },
  LOG_QUERY: { values: BOOLEAN, default: "false", what: "decision logs carry the query string" },
  LOG_FORMAT: {
    values: LOG_FORMATS,
    default: "json",
    what: "a decision's log line: JSON (json) or one short line for a person at a terminal (line)",
  },
  ENFORCE_RATES: {
    values: [...ENFORCE_RATES_WORDS.keys()],
    default: "honoured",
    what: "Crawl-delay, Request-rate, Visit-time bind crawlers that honour them (honoured), every crawler (all), or none (off)",
  },
  RECORD_ACTIVITY: { values: BOOLEAN, default: "true", what: "crawler decisions are counted for the activity view" },
  VERIFY_CRAWLERS: {
    values: VERIFY_CRAWLERS,
    default: "unknown",
    what: "an impostor of a verifiable crawler is not checked (off), judged under * (unknown), or refused (block)",
  },
  USAGE_SIGNALS: {
    values: MODES,
    default: "enforce",
    what: "a Content-Usage / Content-Signal `no` refuses (enforce), marks (report), or does nothing (off)",
  },
  USAGE_HEADER: {
    values: BOOLEAN,
    default: "true",
    what: "a passed crawler response carries the path's Content-Usage",
  },
  DISGUISED_CRAWLERS: {
    values: MODES,
    default: "report",
    what: "a browser User-Agent from a crawler-only published range is judged as that crawler (enforce), passed and recorded as it (report), or a person (off)",
  },
  CRAWLER_RANGES: {
    default: null,
    what: "JSON: a range source's name (googlebot, gptbot, …) to the URL its list is fetched from instead of the built-in one (https; http only for a loopback host)",
  },
  CRAWLER_CATALOGUES: {
    default: null,
    what: "JSON: a name to the URL of a crawler catalogue (ai.robots.txt's robots.json, or our operators shape) whose categories reach tokens the built-in table lacks; it can only restrict (https; http only for a loopback host)",
  },
  DOH_RESOLVER: {
    default: "https://cloudflare-dns.com/dns-query",
    what: "the DNS-over-HTTPS endpoint (RFC 8484 JSON) for reverse DNS verification",
  },
  SIGNATURE_AGENTS: { default: null, what: "more trusted Web Bot Auth signers, beyond the built-in table" },
  SIGNATURE_MAX_WINDOW: {
    default: "300",
    what: "the longest Web Bot Auth signature window (expires - created) and oldest `created`, seconds",
  },
} as const satisfies Record<string, SettingDeclaration>;

export type SettingName = keyof typeof SETTINGS;

/** Where a setting's value came from: its var, its default (unset), or its default because the var was refused. */
export type SettingSource = "var" | "default" | "refused";

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
