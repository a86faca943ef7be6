/**
 * Product tokens: the part of a user-agent name that robots.txt matching compares.
 *
 * RFC 9309 §2.2.1: a product token is letters, "-" and "_"; matching is case-insensitive.
 * Google's reference compares only the leading run of those characters, on both sides:
 * `googlebot/1.2` and `googlebot*` mean `googlebot`; `MJ12bot` is compared as `mj`. We do
 * the same, so a crawler token and a user-agent line that name the same crawler always
 * meet, whatever extra characters either carries.
 */

const PRODUCT_TOKEN = /^[A-Za-z_-]*/;

/** The leading run of letters, "-" and "_", lower-cased ("" when there is none). */
export function productToken(name: string): string {
  return (PRODUCT_TOKEN.exec(name)?.[0] ?? "").toLowerCase();
}
