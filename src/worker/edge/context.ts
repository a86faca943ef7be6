/** One request's context at the edge, passed whole instead of 4–6 positional arguments. */

import type { Config } from "../../config/read-config.ts";

export interface EdgeContext {
  readonly request: Request;
  /** The request URL as parsed once; its path and query are both judged and forwarded. */
  readonly url: URL;
  readonly config: Config;
  /** loadConfig's problems (each bad var's default stands in) and warnings: the log and the admin status show them. */
  readonly configProblems: readonly string[];
  readonly configWarnings: readonly string[];
  readonly env: Env;
  readonly ctx: ExecutionContext;
  /** The origin this request belongs to: ORIGIN_URL's (proxy mode) or the request's own. */
  readonly authority: string;
}
