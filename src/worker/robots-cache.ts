/**
 * The robots.txt of an origin for this request: isolate memory first, then KV, then the
 * origin. A warm isolate answers from memory (no KV read); it re-reads KV at most once a
 * MEMORY_RECHECK_MS per origin, to see what other isolates and the cron stored. An expired
 * entry keeps serving while one refresh per isolate and origin runs in ctx.waitUntil; only
 * an origin never seen before is fetched while the request waits.
 */

import { compileRobots, type RobotsMatcher } from "../core/index.ts";
import type { Config } from "./config.ts";
import { fetchRobotsTxt } from "./origin-fetch.ts";
import { applyFetch, modelOf, type RobotsEntry } from "./robots-entry.ts";
import { readEntry, writeEntry } from "./store.ts";

export const MEMORY_RECHECK_MS = 60_000;

/** An entry with its compiled matcher (built on first use). */
export interface LoadedRobots {
  readonly entry: RobotsEntry;
  matcher(): RobotsMatcher | undefined;
}

interface Remembered {
  readonly robots: LoadedRobots;
  readonly checkedAt: number;
}

const memory = new Map<string, Remembered>();
const refreshing = new Map<string, Promise<LoadedRobots>>();

/** Forget everything this isolate remembers (tests; a new deploy does this by itself). */
export function clearRobotsMemory(): void {
  memory.clear();
  refreshing.clear();
}

/** The robots.txt in force for `authority`, loading or refreshing as needed. */
export async function robotsFor(
  authority: string,
  kv: KVNamespace,
  config: Config,
  ctx: ExecutionContext,
): Promise<LoadedRobots> {
  const now = Date.now();
  const remembered = memory.get(authority);
  if (remembered && now - remembered.checkedAt < MEMORY_RECHECK_MS)
    return serveAndMaybeRefresh(remembered.robots, kv, config, ctx, now);
  const stored = await readEntry(kv, authority);
  if (!stored) return refresh(authority, kv, config, undefined);
  const robots = remember(stored, now);
  return serveAndMaybeRefresh(robots, kv, config, ctx, now);
}

function serveAndMaybeRefresh(
  robots: LoadedRobots,
  kv: KVNamespace,
  config: Config,
  ctx: ExecutionContext,
  now: number,
): LoadedRobots {
  if (robots.entry.expiresAt <= now && !refreshing.has(robots.entry.authority)) {
    ctx.waitUntil(refresh(robots.entry.authority, kv, config, robots.entry).catch(() => undefined));
  }
  return robots;
}

/** Fetch the origin now and store the result; one refresh per authority at a time. */
export function refresh(
  authority: string,
  kv: KVNamespace,
  config: Config,
  previous: RobotsEntry | undefined,
): Promise<LoadedRobots> {
  const running = refreshing.get(authority);
  if (running) return running;
  const work = (async () => {
    const fetched = await fetchRobotsTxt(robotsUrlOf(authority), config.fetchTimeoutMs);
    const before = previous ?? (await readEntry(kv, authority));
    const entry = applyFetch(before, authority, fetched, {
      now: Date.now(),
      maxAgeSeconds: config.robotsMaxAgeSeconds,
    });
    await writeEntry(kv, entry);
    return remember(entry, Date.now());
  })();
  refreshing.set(authority, work);
  return work.finally(() => refreshing.delete(authority));
}

function robotsUrlOf(authority: string): URL {
  return new URL("/robots.txt", authority);
}

function remember(entry: RobotsEntry, now: number): LoadedRobots {
  const robots = loaded(entry);
  memory.set(entry.authority, { robots, checkedAt: now });
  return robots;
}

function loaded(entry: RobotsEntry): LoadedRobots {
  let matcher: RobotsMatcher | undefined;
  return {
    entry,
    matcher() {
      if (entry.state !== "ok" || !entry.copy) return undefined;
      matcher ??= compileRobots(modelOf(entry.copy));
      return matcher;
    },
  };
}
