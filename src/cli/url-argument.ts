/**
 * A URL operand (`check`, `explain`): what the edge itself judges, a path starting with "/" or an
 * absolute http(s) URL. Anything else ("search/foo", "not a url") has no answer, so it must not
 * get one: it is a usage error naming the argument.
 */

import { CliError } from "./io.ts";

const HTTP_URL = /^https?:\/\//i;

/** True for a path starting with "/" or an absolute http(s) URL. */
export function isUrlOrPath(url: string): boolean {
  if (url.startsWith("/")) return true;
  return HTTP_URL.test(url) && URL.canParse(url);
}

/** The argument, or a usage error naming it (`where` says where it came from: "stdin line 3:"). */
export function requireUrlOrPath(url: string, where = "argument"): string {
  if (isUrlOrPath(url)) return url;
  throw new CliError(
    `${where} ${JSON.stringify(url)} is neither an absolute http(s) URL nor a path starting with "/" (write /${url.replace(/^\/*/, "")} for a path)`,
  );
}

/**
 * `isUrlOrPath` for a stream of URLs, most of them on one site. Whether the WHATWG URL parser
 * accepts an http(s) URL is decided by its scheme and authority alone: the path, query and
 * fragment of a special URL never fail (bad characters are percent-encoded), and the authority
 * ends at the first `/`, `\`, `?` or `#` after the scheme's slashes. So once `URL.canParse` has
 * accepted a URL, the next one that starts with the same `scheme://authority` followed by one of
 * those characters (or the end) is accepted without parsing it again: parsing was a tenth of
 * `check`'s time over 200,000 URLs (bench/cli.bench.ts). Only an authority of printable ASCII
 * without spaces is remembered, so the parser's trimming and tab removal never enter into it.
 */
export function urlOrPathTest(): (url: string) => boolean {
  let site = "";
  return (url) => {
    if (url.startsWith("/")) return true;
    if (site !== "" && onSite(url, site)) return true;
    if (!isUrlOrPath(url)) return false;
    site = plainSchemeAndAuthority(url);
    return true;
  };
}

/** Does `url` start with `site` (a scheme and authority), followed by the authority's end? */
function onSite(url: string, site: string): boolean {
  if (url.length < site.length) return false;
  for (let i = 0; i < site.length; i++) if (url.charCodeAt(i) !== site.charCodeAt(i)) return false;
  return url.length === site.length || endsAuthority(url.charCodeAt(site.length));
}

/**
 * `http(s)://authority` of an http(s) URL: up to the first `/`, `\`, `?`, `#` after the
 * scheme's slashes; "" when any character of it is a space, a control or not ASCII.
 */
function plainSchemeAndAuthority(url: string): string {
  let at = url.indexOf(":") + 1;
  while (at < url.length && isSlash(url.charCodeAt(at))) at++;
  for (; at < url.length; at++) {
    const code = url.charCodeAt(at);
    if (endsAuthority(code)) break;
  }
  for (let i = 0; i < at; i++) {
    const code = url.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f) return "";
  }
  return url.slice(0, at);
}

const isSlash = (code: number) => code === 0x2f || code === 0x5c;
const endsAuthority = (code: number) => isSlash(code) || code === 0x3f || code === 0x23;
