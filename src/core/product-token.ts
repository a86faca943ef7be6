/**
 * Product tokens: the one rule for "do a user-agent line and a crawler name the same crawler?"
 * Used by the parser (group keys), the matcher (crawler tokens, the lines a group lists), the
 * policy layer and the agents layer; nowhere else decides it.
 *
 * RFC 9309 §2.2.1: the crawler's product token is matched case-insensitively against the
 * user-agent line. The rule here, on both sides: the leading run of letters, digits, `-`,
 * `_` and `.`, lower-cased, without trailing dots. It ends at `/`, white space, `*`, `;`,
 * `(` and every other character, so Google's reduction of the robots.txt side is kept where
 * it only drops a version or decoration: `googlebot/1.2`, `Googlebot 2.1`, `googlebot*` all
 * name `googlebot`.
 *
 * Deviation from Google's reference (ExtractUserAgent keeps only letters, `-` and `_`):
 * digits and dots are part of the name, because dropping them turns one crawler into
 * another. `MJ12bot` and `360Spider` are names of their own (Google compares them as `mj` and
 * as nothing); `Googlebot2` is not Googlebot; `archive.org_bot` is not `archive`. RFC 9309
 * lists only letters, `-` and `_` as product-token characters and is silent on what to do
 * with others; real files name `MJ12bot`, `360Spider`, `archive.org_bot`, so we read those
 * names whole rather than declare them unusable. The cost: a file that writes
 * `User-agent: Googlebot2` meaning Googlebot binds Googlebot at Google but not here, which
 * only ever lets more through than Google itself would fetch.
 *
 * `*` names the global group only alone or followed by white space (Google: `* all` is `*`);
 * `*foo` names nothing (RFC 9309 and Google agree: it is not `*` and holds no token).
 */

const PRODUCT_TOKEN = /^[A-Za-z0-9._-]*/;
const TRAILING_DOTS = /\.+$/;

/** The name a user-agent value or crawler name carries, lower-cased ("" when there is none). */
export function productToken(name: string): string {
  return (PRODUCT_TOKEN.exec(name)?.[0] ?? "").replace(TRAILING_DOTS, "").toLowerCase();
}

/** The token a `User-agent:` line names: `*`, or its product token ("" when it names none). */
export function userAgentToken(value: string): string {
  if (value.startsWith("*") && (value.length === 1 || isAsciiSpace(value.charCodeAt(1)))) return "*";
  return productToken(value);
}

/** Whether two names are the same crawler under this rule (never true for an empty token). */
export function sameProductToken(a: string, b: string): boolean {
  const token = productToken(a);
  return token !== "" && token === productToken(b);
}

function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}
