/**
 * `check`'s user-agent argument: a product token as robots.txt names it (`Googlebot`,
 * `Googlebot-Image/1.0`), or a whole User-Agent header, whose tokens are derived as the edge
 * derives them (src/agents/classify.ts) and named on stderr. A header that yields no token
 * is refused with a hint rather than silently judged under `*`.
 */

import { CliError } from "./io.ts";

// A product token (RFC 9309 §2.2.1: letters, "-", "_"; we allow digits as crawlers use them),
// an optional "/version", or "*" itself. Anything with spaces, ";" or "(" is a header.
const PRODUCT_TOKEN_ARGUMENT = /^(?:\*|[A-Za-z0-9_-]+(?:\/[^\s;()]*)?)$/;

export interface AgentTokens {
  readonly tokens: readonly string[];
  /** Set when the tokens were derived from a header: what to tell the user on stderr. */
  readonly note: string | undefined;
  /** False when the header names a crawler documented to ignore `*` (AdsBot-Google), as at the edge. */
  readonly obeysGlobalGroup: boolean;
}

/** The tokens to judge with; a CliError when the argument names none. */
export async function agentTokens(argument: string): Promise<AgentTokens> {
  if (PRODUCT_TOKEN_ARGUMENT.test(argument)) return { tokens: [argument], note: undefined, obeysGlobalGroup: true };
  // Loaded only for headers: the crawler table and isbot cost start-up time a token does not need.
  const { classifyUserAgent } = await import("../agents/classify.ts");
  const agent = classifyUserAgent(argument);
  const hint = 'give a product token instead (e.g. Googlebot), or use "robots-edge explain" for a whole header';
  if (!agent.crawler) {
    throw new CliError(
      `${JSON.stringify(argument)} is a browser's User-Agent header (robots.txt does not apply to people at the edge); ${hint}`,
    );
  }
  if (agent.tokens.length === 0) {
    throw new CliError(`no product token found in the User-Agent header ${JSON.stringify(argument)}; ${hint}`);
  }
  const fallback = agent.obeysGlobalGroup ? "(then *)" : "(never *: this crawler ignores it)";
  return {
    tokens: agent.tokens,
    note: `robots-edge check: a User-Agent header; judged as the edge does, with product tokens ${agent.tokens.join(", ")} ${fallback}`,
    obeysGlobalGroup: agent.obeysGlobalGroup,
  };
}
