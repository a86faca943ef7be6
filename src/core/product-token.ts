/**
 * Product tokens: the one rule for "does a user-agent line name this crawler?"
 * Used by the parser (the names a group carries), the matcher (crawler tokens, the lines a
 * group lists), the policy layer and the agents layer; nowhere else decides it.
 *
 * RFC 9309 §2.2.1: the crawler's product token is matched case-insensitively against the
 * user-agent line. A `User-agent:` line names up to two tokens, lower-cased:
 *
 *   - its whole name: the leading run of letters, digits, `-`, `_` and `.`, without trailing
 *     dots. It ends at `/`, white space, `*`, `;`, `(` and every other character, so a version
 *     or decoration is dropped: `googlebot/1.2`, `Googlebot 2.1`, `googlebot*` all name
 *     `googlebot`; `MJ12bot`, `360Spider` and `archive.org_bot` name themselves;
 *   - Google's reading of it: the leading run of letters, `-` and `_` only (the reference
 *     parser's ExtractUserAgent). `Googlebot2` and `Googlebot/1.2` name `googlebot`,
 *     `MJ12bot` names `mj`, `Spinn3r` names `spinn`, `360Spider` names nothing this way.
 *
 * A crawler obeys a line when its own token (the whole name it goes by, `productToken`)
 * equals either. Why both: RFC 9309 lists only letters, `-` and `_` as token characters and
 * is silent on the rest, and the two readings each protect someone. The whole name keeps
 * every crawler whose name has digits or dots obeying the groups written for it (Google's
 * reading alone would leave `360Spider` with no group and put `MJ12bot` in `MJ`'s). Google's
 * reading makes a letters-only crawler (Googlebot, bingbot, GPTBot…) obey exactly the groups
 * its own parser finds: a site that writes `User-agent: Googlebot2` is obeyed by Googlebot,
 * so the edge must apply that group to Googlebot too, or it refuses what Googlebot fetches in
 * good faith, and lets through what Googlebot itself would not fetch.
 *
 * `*` names the global group only alone or followed by white space (Google: `* all` is `*`);
 * `*foo` names nothing (RFC 9309 and Google agree: it is not `*` and holds no token).
 */

const PRODUCT_TOKEN = /^[A-Za-z0-9._-]*/;
const GOOGLE_TOKEN = /^[A-Za-z_-]*/;
const TRAILING_DOTS = /\.+$/;

/** The name a user-agent value or crawler name carries, lower-cased ("" when there is none). */
export function productToken(name: string): string {
  return (PRODUCT_TOKEN.exec(name)?.[0] ?? "").replace(TRAILING_DOTS, "").toLowerCase();
}

/** Google's reading of a user-agent value: its leading letters, `-` and `_`, lower-cased. */
export function googleProductToken(name: string): string {
  return (GOOGLE_TOKEN.exec(name)?.[0] ?? "").toLowerCase();
}

/** The token a `User-agent:` line names as a whole: `*`, or its product token ("" for none). */
export function userAgentToken(value: string): string {
  return isGlobalAgent(value) ? "*" : productToken(value);
}

/**
 * Every token a `User-agent:` line names: `["*"]`; or its whole name, then Google's reading
 * when that differs and is not empty; `[]` when it names none.
 */
export function userAgentNames(value: string): string[] {
  if (isGlobalAgent(value)) return ["*"];
  const names: string[] = [];
  const whole = productToken(value);
  if (whole !== "") names.push(whole);
  const google = googleProductToken(value);
  if (google !== "" && google !== whole) names.push(google);
  return names;
}

/** Whether a `User-agent:` line's value names the crawler going by `crawler` (never `*`). */
export function userAgentNamesCrawler(value: string, crawler: string): boolean {
  const token = productToken(crawler);
  return token !== "" && !isGlobalAgent(value) && userAgentNames(value).includes(token);
}

/** Whether two crawler names are the same crawler: equal whole tokens, never empty. */
export function sameProductToken(a: string, b: string): boolean {
  const token = productToken(a);
  return token !== "" && token === productToken(b);
}

function isGlobalAgent(value: string): boolean {
  return value.startsWith("*") && (value.length === 1 || isAsciiSpace(value.charCodeAt(1)));
}

function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}
