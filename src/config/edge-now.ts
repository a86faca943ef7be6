/**
 * What the edge is doing now, in words an operator reads at a glance (GET status, the top of
 * the operator page): the mode in force and why (its var, its default, or its default
 * because the var was refused), the routes whose own mode replaces it, the pause and its
 * end, and every configuration problem and warning. Pure: the Worker gathers, this words it.
 * The identity sources (lists, reverse DNS, Cloudflare's fields) are GET status's `identity`
 * (worker/identity-sources.ts), shown beside this on the page.
 */

import type { Mode } from "../policy/mode.ts";
import type { CompiledPolicy } from "../policy/operator-policy.ts";
import type { ConfigResult } from "./read-config.ts";
import type { SettingSource } from "../policy/settings.ts";

export interface ModeNow {
  /** The mode for every path no policy route with a mode covers. */
  readonly mode: Mode;
  /** Where it comes from: MODE as set, its default, or its default because MODE was refused. */
  readonly source: SettingSource;
  /** One line, e.g. `enforce: MODE = "enforse" is refused, so its default applies (see problems)`. */
  readonly why: string;
  /** Policy routes whose own mode replaces MODE for the paths they cover (none under MODE=off). */
  readonly routes: readonly { readonly pattern: string; readonly mode: Mode }[];
}

export interface PauseNow {
  readonly until: string;
  readonly retryAfter: number;
  /** The admin API's reason, or "PAUSE_UNTIL" for a pause set in the vars. */
  readonly reason: string | null;
}

export interface EdgeNow {
  readonly mode: ModeNow;
  /** A crawl pause in force (every crawler request and /robots.txt get 503), or null. */
  readonly pause: PauseNow | null;
  /** Whether proxy mode forwards anywhere: false only for an unusable ORIGIN_URL (every request 502). */
  readonly forwarding: boolean;
  /** Errors: a var was refused and its default stands in (or nowhere to forward). The page's banner. */
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
}

export function edgeNow(
  { config, problems, warnings }: ConfigResult,
  policy: CompiledPolicy | undefined,
  pause: { readonly until: number; readonly retryAfter: number; readonly reason?: string | undefined } | undefined,
): EdgeNow {
  return {
    mode: modeNow(config.mode, config.sources.MODE, policy),
    pause: pause
      ? { until: new Date(pause.until).toISOString(), retryAfter: pause.retryAfter, reason: pause.reason ?? null }
      : null,
    forwarding: !config.originUrlProblem,
    problems,
    warnings,
  };
}

function modeNow(mode: Mode, source: SettingSource, policy: CompiledPolicy | undefined): ModeNow {
  // MODE=off wins over every route's mode: nothing is judged.
  const candidates = mode === "off" ? [] : (policy?.policy.routes ?? []);
  const routes = candidates.flatMap((route) =>
    route.mode !== undefined && route.mode !== mode ? [{ pattern: route.pattern, mode: route.mode }] : [],
  );
  const why =
    source === "var"
      ? `MODE = "${mode}"`
      : source === "refused"
        ? `MODE was refused, so its default "${mode}" applies (see problems)`
        : `MODE is not set; the default is "${mode}"`;
  const overridden = routes.map((route) => `${route.pattern}: ${route.mode}`).join(", ");
  return { mode, source, why: overridden ? `${why}; policy routes with their own mode: ${overridden}` : why, routes };
}
