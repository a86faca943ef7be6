/** The Worker's configuration, read once per isolate (config/read-config.ts validates it). */

import { parseConfig, type ConfigResult } from "../config/read-config.ts";

const cache = new WeakMap<object, ConfigResult>();

/** The validated config for this env (memoised per env object, i.e. per isolate). */
export function loadConfig(env: object): ConfigResult {
  const cached = cache.get(env);
  if (cached) return cached;
  const result = parseConfig(env as Record<string, unknown>);
  cache.set(env, result);
  return result;
}
