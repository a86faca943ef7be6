/**
 * The operator's settings as the one decision reads them (policy/edge-facts.ts EdgeSettings),
 * copied from the config the reader made (read-config.ts) in this one place: the request path,
 * explain (the admin API and the page's tester), replay and the CLI decide by the same values,
 * and a setting nobody set has one default everywhere: its default in the settings table
 * (policy/settings.ts), which the reader applies.
 *
 * Before this file each caller copied the fields itself and explain had its own defaults:
 * VERIFY_CRAWLERS defaulted to `off` there (`unknown` in the table and at the edge), and
 * DISGUISED_CRAWLERS to off (`report`). A caller of explainRequest that names no setting is
 * now judged as an edge with no vars: an unverifiable claim under its group and `*`.
 */

import type { EdgeSettings } from "../policy/edge-facts.ts";
import { parseConfig, type Config } from "./read-config.ts";

/**
 * The decision's settings from the config. `rateLimiter`: whether the CRAWL_RATE binding exists
 * (a binding, not a var); explain says "limited if faster than…" as if it did.
 */
export function settingsOf(config: Config, { rateLimiter }: { readonly rateLimiter: boolean }): EdgeSettings {
  return {
    originUnusable: config.originUrlProblem,
    mode: config.mode,
    verifyCrawlers: config.verifyCrawlers,
    failOpen: config.failOpen,
    blockStatus: config.blockStatus,
    enforceRates: config.enforceRates,
    usageSignals: config.usageSignals,
    usageHeader: config.usageHeader,
    rateLimiter,
    disguisedCrawlers: config.disguisedCrawlers,
  };
}

/**
 * Every setting at its default, as a Worker without vars reads them (the CLI decides by these).
 * Made when asked, so nothing is parsed when a module imports this file.
 */
export function defaultSettings(): EdgeSettings {
  return settingsOf(parseConfig({}).config, { rateLimiter: true });
}
