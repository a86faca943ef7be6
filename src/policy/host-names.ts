/**
 * Host names as policies per host are keyed: one canonical spelling, and which key judges a
 * request's host. Pure (the URL parser is the web platform's, no Worker API).
 *
 * The canonical spelling is the one AUTHORITIES uses (config/read-config.ts): what `URL.host`
 * prints for the name — lower case, an internationalised name as its ASCII (punycode) form —
 * without trailing dots and without the web ports 80 and 443 (Cloudflare routes by host name,
 * robots/authorities.ts). So `SHOP.Example.:443`, `shop.example.` and `shop.example` are one
 * key, and a policy saved under one spelling judges the requests of every other.
 */

import { invalid, valid, type Validated } from "./validated.ts";

/** Longest host name accepted (DNS's 253, a `*.` and a port besides). */
export const MAX_HOST_NAME_LENGTH = 270;

const WEB_PORTS: ReadonlySet<string> = new Set(["", "80", "443"]);

/**
 * A host name (`shop.example`, `shop.example:8443`, `*.example.org`) in its canonical spelling,
 * or why it is not one. No scheme, path, user name or wildcard but a leading `*.`.
 */
export function canonicalHostName(given: string): Validated<string> {
  const text = given.trim();
  const problem = () =>
    invalid([
      `host must be a host name as AUTHORITIES spells it (shop.example, shop.example:8443, *.example.org), got ${JSON.stringify(given.slice(0, 100))}`,
    ]);
  if (text === "" || text.length > MAX_HOST_NAME_LENGTH) return problem();
  const pattern = text.startsWith("*.");
  const name = pattern ? text.slice(2) : text;
  if (name === "" || /[\s/\\?#@*]/.test(name)) return problem();
  const url = URL.canParse(`https://${name}/`) ? new URL(`https://${name}/`) : undefined;
  if (!url || url.pathname !== "/" || url.username !== "" || url.password !== "") return problem();
  const hostname = url.hostname.replace(/\.+$/, "");
  if (hostname === "" || hostname.startsWith(".")) return problem();
  const port = WEB_PORTS.has(url.port) ? "" : `:${url.port}`;
  return valid(`${pattern ? "*." : ""}${hostname}${port}`);
}

/**
 * The keys that may judge a canonical exact host, most specific first: the name itself, then
 * each `*.` pattern above it, nearest first (`a.b.example.org` → `*.b.example.org`,
 * `*.example.org`, `*.org`). A pattern covers subdomains only, never its apex, as in AUTHORITIES.
 */
export function policyKeysFor(host: string): string[] {
  const colon = host.lastIndexOf(":");
  const hasPort = colon > host.lastIndexOf("]");
  const name = hasPort ? host.slice(0, colon) : host;
  const port = hasPort ? host.slice(colon) : "";
  const keys = [host];
  if (name.startsWith("[")) return keys; // an IPv6 literal has no parent domain
  let rest = name;
  for (let dot = rest.indexOf("."); dot !== -1; dot = rest.indexOf(".")) {
    rest = rest.slice(dot + 1);
    keys.push(`*.${rest}${port}`);
  }
  return keys;
}

/** Is the exact or `*.` host `key` covered whole by a `*.` pattern `pattern` (or equal to it)? */
export function patternCovers(pattern: string, key: string): boolean {
  if (!pattern.startsWith("*.")) return pattern === key;
  const suffix = pattern.slice(1); // ".example.org"
  const name = key.startsWith("*.") ? key.slice(1) : key;
  return key === pattern || name.endsWith(suffix);
}

/** What decides which host keys may have a policy: the mode and AUTHORITIES. */
export interface ServedHosts {
  /** Proxy mode (ORIGIN_URL set): one origin, judged by the default alone. */
  readonly proxy: boolean;
  readonly authorities: readonly string[] | undefined;
}

/**
 * Why a canonical host key may not have a policy of its own, or undefined when it may: an exact
 * name AUTHORITIES serves, or a `*.` pattern that AUTHORITIES covers whole. Proxy mode and route
 * mode without AUTHORITIES have the default only: there, a mistyped host could never be noticed.
 */
export function unservedHostProblem(
  key: string,
  served: ServedHosts,
): { status: 400 | 404; problem: string } | undefined {
  if (served.proxy) {
    return { status: 400, problem: "proxy mode serves one origin: its policy is the default (leave out host=)" };
  }
  if (!served.authorities) {
    return {
      status: 400,
      problem: "policies per host need AUTHORITIES (route mode): list the hosts the edge serves, or leave out host=",
    };
  }
  const listed = served.authorities.map((entry) => entry.replace(/\.+$/, ""));
  const covered = key.startsWith("*.")
    ? listed.some((entry) => entry.startsWith("*.") && patternCovers(entry, key))
    : listed.some((entry) => entry === key || patternCovers(entry, key));
  if (covered) return undefined;
  return {
    status: 404,
    problem: `${key} is not a host this edge serves: AUTHORITIES is ${listed.join(", ")}${key.startsWith("*.") ? " (a pattern must be listed, or lie under a listed pattern)" : ""}`,
  };
}
