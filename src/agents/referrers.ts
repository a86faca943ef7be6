/**
 * The products a person arrives from — search pages, assistants, answer engines — as data,
 * each in its crawler operator's file (src/agents/operators/; REFERRER_PRODUCTS is derived from them), so the edge
 * can set what an operator's crawlers take beside the visits its products send back.
 *
 * A product is named by the registrable domains it serves from (`google.de`, `chatgpt.com`)
 * or by a host under one (`copilot.microsoft.com`). A referrer host matches a row only when it
 * IS that name or ends with "." and that name: `www.google.de` is Google's, `evilgoogle.com`,
 * `evil-google.com` and `google.com.evil.net` are nobody's. Every name is written out in full
 * (Google's country domains included, from the list Google publishes), so no wildcard or
 * public-suffix guess can ever widen a row. Some products add `utm_source` to the links they
 * send people to; those values are listed too, matched exactly (case-insensitive).
 *
 * Both the Referer and `utm_source` are chosen by the client: this table only ever ATTRIBUTES
 * a visit to an operator it lists (a forged value can add to a listed operator's count, never
 * create a new one; docs/security.md "Referer and utm_source"). Only the operator's name is
 * kept, never the referrer, the query or anything about the person.
 *
 * Left out, with the reason: Apple (Siri and Spotlight suggestions open pages without a
 * Referer and Apple documents no `utm_source`), social networks (their crawlers fetch link
 * previews; a share is not a referral the crawl paid for), and operators whose products we
 * could not cite.
 */

import { REFERRER_PRODUCTS } from "./operators/tables.ts";

/** Longest Referer read: a real one is a page URL; past this it is not looked at (no referral). */
export const MAX_REFERER_LENGTH = 2_048;
/** RFC 1035 §2.3.4: a host name is at most 253 characters. */
const MAX_HOST_LENGTH = 253;
/** Longest utm_source value compared; longer values name no product. */
const MAX_UTM_SOURCE_LENGTH = 64;

/** Host -> operator and utm_source -> operator, built once from the table. */
const BY_HOST = new Map<string, string>();
const BY_UTM_SOURCE = new Map<string, string>();
for (const row of REFERRER_PRODUCTS) {
  for (const host of row.hosts) BY_HOST.set(host, row.operator);
  for (const value of row.utmSources) BY_UTM_SOURCE.set(value, row.operator);
}

/** Every operator the table can name: the only keys a referral can ever be counted under. */
export const REFERRING_OPERATORS: ReadonlySet<string> = new Set(REFERRER_PRODUCTS.map((row) => row.operator));

/**
 * The operator whose product referred this request: by its Referer's host, else by its
 * `utm_source`; undefined for anything else. `search` is the request's query with its `?`
 * (URL.search). Cost: one bounded scan of each, and a map look-up per label of the host.
 */
export function referringOperator(referer: string | null, search: string): string | undefined {
  const host = referer === null ? undefined : refererHost(referer);
  const byHost = host === undefined ? undefined : operatorOfHost(host);
  if (byHost !== undefined || search.length < "?utm_source=".length) return byHost;
  return operatorOfUtmSource(search);
}

/** The most labels a name of the table has (`search.yahoo.co.jp`: 4): no longer suffix can match. */
const MAX_LABELS = Math.max(...[...BY_HOST.keys()].map((host) => host.split(".").length));

/**
 * The operator of a host: the host itself or a parent domain of it in the table. Its suffixes
 * of 2 to MAX_LABELS labels are looked up, shortest first (one map look-up each, whatever the
 * host's length); nested names of the table belong to one operator (a test holds it so).
 */
export function operatorOfHost(host: string): string | undefined {
  let dot = host.lastIndexOf(".");
  for (let labels = 2; labels <= MAX_LABELS && dot > 0; labels++) {
    dot = host.lastIndexOf(".", dot - 1);
    const operator = BY_HOST.get(dot < 0 ? host : host.slice(dot + 1));
    if (operator !== undefined) return operator;
  }
  return undefined;
}

/**
 * The host of an http(s) Referer, lower case, without a port or trailing dot, read as a URL
 * parser reads the authority (userinfo before the last `@` skipped, `\` ends it as `/` does);
 * undefined for anything that is not an http(s) URL with a DNS name.
 */
export function refererHost(referer: string): string | undefined {
  if (referer.length > MAX_REFERER_LENGTH) return undefined;
  const start = schemeLength(referer);
  if (start === 0) return undefined;
  let end = start;
  let userinfoEnd = -1;
  for (; end < referer.length; end++) {
    const code = referer.charCodeAt(end);
    if (code === 0x2f || code === 0x3f || code === 0x23 || code === 0x5c) break; // / ? # \
    if (code === 0x40) userinfoEnd = end; // @: what came before was userinfo
  }
  let host = referer.slice(userinfoEnd < 0 ? start : userinfoEnd + 1, end).toLowerCase();
  if (host.startsWith("[")) return undefined; // an IPv6 literal is no product
  const colon = host.indexOf(":");
  if (colon >= 0) host = host.slice(0, colon);
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "" || host.length > MAX_HOST_LENGTH || !DNS_NAME.test(host)) return undefined;
  return host;
}

const DNS_NAME = /^[a-z0-9.-]+$/;

/** The length of a leading `http://` or `https://` (any case), else 0; no string is made. */
function schemeLength(referer: string): number {
  // "http" in any case: each letter's code with the ASCII case bit (0x20) set.
  const http =
    (referer.charCodeAt(0) | 0x20) === 0x68 &&
    (referer.charCodeAt(1) | 0x20) === 0x74 &&
    (referer.charCodeAt(2) | 0x20) === 0x74 &&
    (referer.charCodeAt(3) | 0x20) === 0x70;
  if (!http) return 0;
  const secure = (referer.charCodeAt(4) | 0x20) === 0x73 ? 1 : 0;
  return referer.startsWith("://", 4 + secure) ? 7 + secure : 0;
}

/** The operator a `utm_source` query parameter names (the first one in the query), if any. */
export function operatorOfUtmSource(search: string): string | undefined {
  const value = utmSource(search);
  return value === undefined ? undefined : BY_UTM_SOURCE.get(value);
}

/** The first `utm_source` value of a query (`?a=1&utm_source=x`), decoded and lower case; bounded. */
export function utmSource(search: string): string | undefined {
  let at = search.indexOf("utm_source=");
  while (at > 0 && search[at - 1] !== "?" && search[at - 1] !== "&") {
    at = search.indexOf("utm_source=", at + 1);
  }
  if (at < 0) return undefined;
  const from = at + "utm_source=".length;
  let end = from;
  while (end < search.length && search[end] !== "&" && search[end] !== "#") end++;
  if (end - from > 3 * MAX_UTM_SOURCE_LENGTH) return undefined;
  try {
    const value = decodeURIComponent(search.slice(from, end).replaceAll("+", " ")).toLowerCase();
    return value.length <= MAX_UTM_SOURCE_LENGTH ? value : undefined;
  } catch {
    return undefined;
  }
}
