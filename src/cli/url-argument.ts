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
