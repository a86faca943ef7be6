/**
 * The licence terms of the live policy (RSL 1.0, Really Simple Licensing): where the site's
 * licence file is, which routes require a licence, and the licence server that confirms a
 * crawler's token. Pure: read and validated here, judged per request in terms.ts.
 *
 *   {"licence": {"url": "https://www.example.com/license.xml",
 *                "server": "https://olp.example.com", "robotsTxt": false},
 *    "tdmPolicy": "https://www.example.com/tdm-policy.json",
 *    "routes": [{"pattern": "/premium/", "licence": {"required": true}}]}
 *
 * Choices (docs/decisions.md "Terms: licence and TDM reservation"):
 *   - the licence URL is announced on answers to crawlers with `Link: <url>; rel="license";
 *     type="application/rsl+xml"` (RSL's HTTP binding); a `License:` line in the served
 *     robots.txt only when `robotsTxt` is true, since Lighthouse counts it an unknown directive;
 *   - a route may name its own licence file (`url`), and `required: true` makes its crawlers
 *     present `Authorization: License <token>`; the token is confirmed by `server`, which comes
 *     only from this setting (the operator's), never from a request;
 *   - who must hold a licence: the crawlers `crawlers` names (tokens or `category:NAME`, as a
 *     rule names them); by default every crawler but a proven search-engine crawler or a
 *     fetcher acting for a person, or a search-engine claim no retry can prove (terms.ts
 *     appliesTo), so nothing here can drop a site from an index.
 */

import { productToken } from "../core/index.ts";
import { CRAWLER_CATEGORIES, isCrawlerCategory } from "../vocabulary.ts";

export interface SiteLicence {
  /** The RSL licence file, for the Link header (and the robots.txt line, when asked). */
  readonly url: string;
  /** The licence server's base URL (RSL `server`): `<server>/introspect` confirms tokens. */
  readonly server?: string;
  /** Whether the served robots.txt carries a `License:` line (opt-in). */
  readonly robotsTxt: boolean;
}

export interface RouteLicence {
  /** The route's own licence file; else the site's. */
  readonly url?: string;
  /** Crawlers on this route must present a licence token the server confirms. */
  readonly required: boolean;
  /** Whom `required` applies to (product tokens, `category:NAME`); absent: see the file comment. */
  readonly crawlers?: readonly string[];
  /** The `resource` sent to the licence server (the RSL `<content url>` tokens are issued for); default the route's pattern on the site. */
  readonly resource?: string;
}

/** Bounds: every value is copied into response headers. */
export const MAX_TERMS_URL = 2048;

/**
 * An absolute http(s) URL that can stand in a header as written: printable ASCII, no space,
 * `<`, `>`, `"` or `,` (Link's delimiters), at most MAX_TERMS_URL. Read by pattern, not by a
 * URL parser: the policy layer runs without one (src/agents/tsconfig.json), and the edge only
 * ever copies these values into headers or, for the server, fetches the one the operator wrote.
 */
const ABSOLUTE_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#@]+)([/?#].*)?$/;

export function termsUrlProblem(value: unknown, where: string): string | undefined {
  const shown = JSON.stringify(value);
  if (typeof value !== "string" || value.length > MAX_TERMS_URL || !/^[!-~]+$/.test(value) || /[<>",]/.test(value)) {
    return `${where} must be an absolute URL of at most ${MAX_TERMS_URL} printable characters (no spaces, <, >, " or ,), got ${shown}`;
  }
  const scheme = ABSOLUTE_URL.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return `${where} must be an absolute URL, got ${shown}`;
  if (scheme !== "https" && scheme !== "http") return `${where} must be an http(s) URL, got ${shown}`;
  return undefined;
}

/**
 * The licence server: https, or http to a loopback host only (a local stub while testing);
 * no credentials, query or fragment in it (the secret is LICENCE_SERVER_CREDENTIALS).
 */
function serverProblem(value: unknown, where: string): string | undefined {
  const problem = termsUrlProblem(value, where);
  if (problem) return problem;
  const [, scheme = "", host = "", rest = ""] = ABSOLUTE_URL.exec(String(value)) ?? [];
  const loopback = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i.test(host);
  if (scheme.toLowerCase() !== "https" && !loopback) {
    return `${where} must be an https URL (tokens travel to it), got ${JSON.stringify(value)}`;
  }
  if (/[?#]/.test(rest)) {
    return `${where} must be a base URL without credentials, query or fragment (the credentials are the LICENCE_SERVER_CREDENTIALS secret), got ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** The policy's top-level `licence`, validated; problems pushed to `problems`. */
export function readSiteLicence(value: unknown, where: string, problems: string[]): SiteLicence | undefined {
  if (!isObject(value)) {
    problems.push(`${where} must be an object {"url": …, "server": …, "robotsTxt": false}`);
    return undefined;
  }
  const { url, server, robotsTxt, ...rest } = value;
  for (const key of Object.keys(rest)) problems.push(`${where}.${key} is not known (url, server, robotsTxt)`);
  const urlProblem = termsUrlProblem(url, `${where}.url`);
  if (urlProblem) problems.push(urlProblem);
  const badServer = server === undefined ? undefined : serverProblem(server, `${where}.server`);
  if (badServer) problems.push(badServer);
  if (robotsTxt !== undefined && typeof robotsTxt !== "boolean") {
    problems.push(`${where}.robotsTxt must be true or false, got ${JSON.stringify(robotsTxt)}`);
  }
  if (urlProblem) return undefined;
  return {
    url: String(url),
    ...(server !== undefined && !badServer && { server: String(server).replace(/\/+$/, "") }),
    robotsTxt: robotsTxt === true,
  };
}

/** A route's `licence`, validated against the site's (a required licence needs a server). */
export function readRouteLicence(
  value: unknown,
  where: string,
  site: SiteLicence | undefined,
  problems: string[],
): RouteLicence | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    problems.push(`${where} must be an object {"required": true, "url": …, "crawlers": […]}`);
    return undefined;
  }
  const { url, required, crawlers, resource, ...rest } = value;
  for (const key of Object.keys(rest))
    problems.push(`${where}.${key} is not known (url, required, crawlers, resource)`);
  const urlProblem = url === undefined ? undefined : termsUrlProblem(url, `${where}.url`);
  if (urlProblem) problems.push(urlProblem);
  const resourceProblem = resource === undefined ? undefined : termsUrlProblem(resource, `${where}.resource`);
  if (resourceProblem) problems.push(resourceProblem);
  if (required !== undefined && typeof required !== "boolean") {
    problems.push(`${where}.required must be true or false, got ${JSON.stringify(required)}`);
  }
  const names = readCrawlers(crawlers, `${where}.crawlers`, problems);
  if (required === true && !site?.server) {
    problems.push(
      `${where}.required needs a licence server to confirm tokens: set "licence": {"url": …, "server": …} at the top of the policy`,
    );
  }
  if (url === undefined && !site) {
    problems.push(`${where} needs a licence file: its own "url", or "licence": {"url": …} at the top of the policy`);
  }
  return {
    ...(url !== undefined && !urlProblem && { url: String(url) }),
    required: required === true,
    ...(names && { crawlers: names }),
    ...(resource !== undefined && !resourceProblem && { resource: String(resource) }),
  };
}

function readCrawlers(value: unknown, where: string, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((name) => typeof name === "string")) {
    problems.push(`${where} must be a non-empty list of product tokens or "category:NAME"`);
    return undefined;
  }
  for (const name of value as string[]) {
    if (name.startsWith("category:") && !isCrawlerCategory(name.slice("category:".length))) {
      problems.push(`${where}: unknown ${JSON.stringify(name)}; categories are ${CRAWLER_CATEGORIES.join(", ")}`);
    } else if (!name.startsWith("category:") && productToken(name) === "") {
      problems.push(`${where}: ${JSON.stringify(name)} has no product token`);
    }
  }
  return value as string[];
}

/** The policy's `tdmPolicy`: the URL of the site's TDM policy, sent as `tdm-policy` beside `tdm-reservation: 1`. */
export function readTdmPolicy(value: unknown, where: string, problems: string[]): string | undefined {
  const problem = termsUrlProblem(value, where);
  if (problem) {
    problems.push(problem);
    return undefined;
  }
  return String(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
