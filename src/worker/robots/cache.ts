/**
 * The robots.txt of an origin for this request: isolate memory first, then KV, then the
 * origin. A warm isolate answers from memory (no KV read); it re-reads KV at most once a
 * MEMORY_RECHECK_MS per origin, to see what other isolates and the cron stored. An expired
 * entry keeps serving while one refresh per isolate and origin runs in ctx.waitUntil; only
 * an origin never seen before is fetched while the request waits.
 *
 * Bounded: memory holds at most MEMORY_MAX_ORIGINS origins, and their text and compiled matchers
 * (robotsWeight) draw on the one budget of the robots.txt memories (memory-budget.ts, shared with
 * `unsaved` and the store's last good values; least recently used go first): enough for every
 * host of a large route-mode deployment to stay warm (500 made each request past 500 hosts a KV
 * read), while files near RFC 9309's 500 KiB cannot pile up without end; a file whose matcher
 * would take over a third of it is not built (capped-matcher.ts: robots.txt unavailable);
 * only served authorities (robots/authorities.ts) are ever fetched; a refresh whose outcome equals
 * the stored one (same state, bytes, status) skips the KV write unless the stored record is
 * older than REWRITE_AFTER_MS, and it re-reads KV before writing so a copy another isolate
 * stored meanwhile is never overwritten by an older one.
 *
 * A refresh whose KV write fails (KV down, or Workers Free's 1,000 writes a day spent) is not
 * retried on the next crawler request: the fetched entry is kept in isolate memory
 * (`unsaved`) and answers, in preference to an older stored one, until its own expiresAt, as a
 * stored entry would. So a failing write costs one origin fetch per entry lifetime and isolate,
 * never one per request.
 *
 * A host served only through a `*.` AUTHORITIES entry is named by the client (any subdomain
 * reaches the zone under a DNS wildcard): its first entry is stored in KV only within
 * NEW_PATTERN_ENTRIES per NEW_PATTERN_WINDOW_MS and isolate. Past it the fetched copy judges from
 * the same bounded isolate memory as an unsaved one, until its expiry, and the next isolate or
 * window with budget stores it: a real crawler on a real subdomain is still judged by that
 * subdomain's robots.txt, while a client inventing subdomains buys at most NEW_PATTERN_ENTRIES KV
 * writes (and entries the cron refreshes) per window and isolate, not one per request.
 */

import type { RobotsMatcher } from "../../core/index.ts";
import { cappedMatcher, clearMatcherVerdicts, tooLargeFaultKey } from "./capped-matcher.ts";
import { isServedAuthority, isServedByPatternOnly } from "./authorities.ts";
import type { Config } from "../../config/read-config.ts";
import { IsolateMemory } from "../isolate-memory.ts";
import { robotsMemoryBudget } from "../memory-budget.ts";
import { clearOwnFault } from "../own-faults.ts";
import { fetchRobotsTxt } from "./origin-fetch.ts";
import { fetchWarning, applyFetch, sameOutcome, type RobotsEntry } from "./entry.ts";
import { deleteEntry, readEntry, writeEntry } from "../store.ts";

export const MEMORY_RECHECK_MS = 60_000;
export const MEMORY_MAX_ORIGINS = 5_000;
/**
 * An entry's weight: the text it holds, the copy's base64 and its parsed model, and once its
 * matcher is compiled (on first use, by a crawler's request) an upper estimate of that matcher
 * (compiledMatcherBytes), whose size follows the file's shape rather than its length: 500 KiB
 * of one-line groups is ~2 MB of text and ~37 MB compiled in Node. The entry is weighed again
 * when the matcher is built (IsolateMemory.reweigh), not estimated when remembered: the counts
 * come from the model the matcher revives anyway, and an entry only read (served, or judged for
 * people) never pays for a matcher it does not hold.
 */
export const robotsWeight = (robots: Pick<LoadedRobots, "entry" | "compiledBytes">): number =>
  (robots.entry.copy?.bodyBase64.length ?? 0) +
  (robots.entry.copy?.model.length ?? 0) +
  (robots.compiledBytes?.() ?? 0);
/** An unchanged outcome is still written this often, so the stored times do not grow old. */
export const REWRITE_AFTER_MS = 3_600_000;
/** New KV entries for hosts served only through a `*.` pattern, per isolate and window. */
export const NEW_PATTERN_ENTRIES = 6;
export const NEW_PATTERN_WINDOW_MS = 3_600_000;

/** This isolate's window of new pattern entries stored: when it began, how many, whether its end was logged. */
let patternWindow = { start: 0, stored: 0, warned: false };

/** May a first entry of a pattern-only host be stored now? Spends one of the window's budget when it may. */
function patternEntryAllowed(now: number): boolean {
  if (now - patternWindow.start >= NEW_PATTERN_WINDOW_MS) patternWindow = { start: now, stored: 0, warned: false };
  if (patternWindow.stored >= NEW_PATTERN_ENTRIES) return false;
  patternWindow.stored++;
  return true;
}

/** An entry with its compiled matcher (built on first use). */
export interface LoadedRobots {
  readonly entry: RobotsEntry;
  matcher(): RobotsMatcher | undefined;
  /** The upper estimate of the compiled matcher's heap, 0 until it is built (robotsWeight). */
  compiledBytes?(): number;
  /** The estimate of a matcher not built, over the cap (capped-matcher.ts); known once matcher() was asked. */
  tooLarge?(): number | undefined;
}

/**
 * What the decision judges by (its robots fact, explain, the tester): the entry's state and
 * matcher, or "unavailable" for a file whose matcher is over the cap (capped-matcher.ts), so it
 * takes the decision's one path for a robots.txt we cannot use.
 */
export function judgedRobots(robots: LoadedRobots): {
  readonly state: RobotsEntry["state"];
  readonly matcher: RobotsMatcher | undefined;
} {
  const matcher = robots.matcher();
  return { state: robots.tooLarge?.() === undefined ? robots.entry.state : "unavailable", matcher };
}

const memory = new IsolateMemory<string, LoadedRobots>({
  maxEntries: MEMORY_MAX_ORIGINS,
  maxAgeMs: MEMORY_RECHECK_MS,
  weigh: robotsWeight,
  budget: robotsMemoryBudget,
});
const refreshing = new Map<string, Promise<LoadedRobots>>();
/**
 * Entries fetched but not stored (their KV write failed); each answers until its expiresAt. The
 * only copy of what was fetched: dropped last (`precious`, memory-budget.ts).
 */
const unsaved = new IsolateMemory<string, LoadedRobots>({
  maxEntries: MEMORY_MAX_ORIGINS,
  maxAgeMs: Number.MAX_SAFE_INTEGER,
  weigh: robotsWeight,
  budget: robotsMemoryBudget,
  precious: true,
});

/**
 * What this isolate's robots.txt memory holds: origins and their weight (robotsWeight), its
 * unsaved entries, and what the three memories of the one budget weigh together (memory-budget.ts).
 */
export function robotsMemoryUse(): {
  readonly origins: number;
  readonly bytes: number;
  readonly unsaved: number;
  readonly budgetBytes: number;
} {
  return {
    origins: memory.size,
    bytes: memory.totalWeight,
    unsaved: unsaved.size,
    budgetBytes: robotsMemoryBudget.totalWeight,
  };
}

/** Forget everything this isolate remembers (tests; a new deploy does this by itself). */
export function clearRobotsMemory(): void {
  memory.clear();
  refreshing.clear();
  unsaved.clear();
  clearMatcherVerdicts();
  patternWindow = { start: 0, stored: 0, warned: false };
}

/** The robots.txt in force for `authority`, loading or refreshing as needed. */
export async function robotsFor(
  authority: string,
  kv: KVNamespace,
  config: Config,
  ctx: ExecutionContext,
): Promise<LoadedRobots> {
  const now = Date.now();
  const remembered = memory.get(authority, now);
  if (remembered) return serveAndMaybeRefresh(remembered, kv, config, ctx, now);
  const stored = await readEntry(kv, authority);
  const kept = unsavedNewerThan(stored, authority, now);
  if (kept) return serveAndMaybeRefresh(rememberLoaded(kept, now), kv, config, ctx, now);
  if (!stored) return refresh(authority, kv, config, undefined);
  const robots = remember(stored, now);
  return serveAndMaybeRefresh(robots, kv, config, ctx, now);
}

/** This isolate's unsaved entry for `authority`, while in its lifetime and newer than `stored`. */
function unsavedNewerThan(stored: RobotsEntry | undefined, authority: string, now: number): LoadedRobots | undefined {
  const kept = unsaved.get(authority, now);
  if (!kept || kept.entry.expiresAt <= now || (stored && stored.lastFetchAt >= kept.entry.lastFetchAt)) {
    return undefined;
  }
  return kept;
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

/** What is stored for `authority` (isolate memory, then KV), without fetching anything. */
export async function storedRobots(authority: string, kv: KVNamespace): Promise<LoadedRobots | undefined> {
  const now = Date.now();
  const remembered = memory.get(authority, now);
  if (remembered) return remembered;
  const stored = await readEntry(kv, authority);
  const kept = unsavedNewerThan(stored, authority, now);
  if (kept) return rememberLoaded(kept, now);
  return stored ? remember(stored, now) : undefined;
}

/** Whether this isolate holds `authority`'s entry in force unsaved (its KV write failed). */
export function isUnsaved(authority: string): boolean {
  const kept = unsaved.get(authority, Date.now());
  return kept !== undefined && kept.entry.expiresAt > Date.now();
}

/**
 * The last robots.txt this isolate loaded for `authority`, however old, without I/O: what
 * /robots.txt serves when the request handler itself failed (edge/own-fault.ts).
 */
export function lastLoadedRobots(authority: string): LoadedRobots | undefined {
  return unsaved.peek(authority) ?? memory.peek(authority);
}

/** Forget an origin: its stored entry and this isolate's memory of it (admin DELETE origin). */
export async function forgetRobots(authority: string, kv: KVNamespace): Promise<void> {
  memory.delete(authority);
  unsaved.delete(authority);
  clearOwnFault(tooLargeFaultKey(authority));
  await deleteEntry(kv, authority);
}

/**
 * Fetch the origin now and store the result; one refresh per authority at a time.
 * Throws TypeError for an authority the edge does not serve: callers check isServedAuthority.
 */
export function refresh(
  authority: string,
  kv: KVNamespace,
  config: Config,
  previous: RobotsEntry | undefined,
): Promise<LoadedRobots> {
  if (!isServedAuthority(config, authority)) {
    return Promise.reject(new TypeError(`not a served authority: ${authority} (see AUTHORITIES / ORIGIN_URL)`));
  }
  const running = refreshing.get(authority);
  if (running) return running;
  const work = (async () => {
    const fetched = await fetchRobotsTxt(robotsUrlOf(authority), config.fetchTimeoutMs);
    // Re-read: another isolate or the cron may have stored a newer entry while we fetched.
    const stored = await readEntry(kv, authority);
    const now = Date.now();
    const entry = applyFetch(newer(stored, previous), authority, fetched, {
      now,
      maxAgeSeconds: config.robotsMaxAgeSeconds,
    });
    const unchanged = sameOutcome(stored, entry) && stored !== undefined && now - stored.lastFetchAt < REWRITE_AFTER_MS;
    // A host a client may have invented: its first entry within the isolate's budget, else memory only.
    const overBudget = stored === undefined && isServedByPatternOnly(config, authority) && !patternEntryAllowed(now);
    if (overBudget && !patternWindow.warned) {
      patternWindow.warned = true;
      logRobotsWarning(
        authority,
        `more than ${NEW_PATTERN_ENTRIES} new hosts under a *. AUTHORITIES entry this hour on this isolate: their robots.txt is kept in isolate memory, not stored, until the next hour`,
      );
    }
    const saved =
      unchanged ||
      (!overBudget &&
        (await writeEntry(kv, entry).then(
          () => true,
          (error: unknown) => {
            logRobotsWarning(
              authority,
              `the fetched robots.txt could not be stored (${String(error)}); this isolate keeps it until it expires`,
            );
            return false;
          },
        )));
    const warning = fetchWarning(entry);
    if (warning && !(stored && fetchWarning(stored))) logRobotsWarning(authority, warning);
    const robots = remember(entry, now);
    if (saved) unsaved.delete(authority);
    else unsaved.set(authority, robots, now);
    return robots;
  })();
  refreshing.set(authority, work);
  return work.finally(() => refreshing.delete(authority));
}

function robotsUrlOf(authority: string): URL {
  return new URL("/robots.txt", authority);
}

function newer(a: RobotsEntry | undefined, b: RobotsEntry | undefined): RobotsEntry | undefined {
  if (!a || !b) return a ?? b;
  return a.lastFetchAt >= b.lastFetchAt ? a : b;
}

/** One JSON line, like the decision logs, when the origin starts refusing the edge's fetch. */
function logRobotsWarning(authority: string, warning: string): void {
  console.warn(
    JSON.stringify({ event: "robots-edge.robots-warning", time: new Date().toISOString(), authority, warning }),
  );
}

function remember(entry: RobotsEntry, now: number): LoadedRobots {
  return rememberLoaded(loaded(entry), now);
}

function rememberLoaded(robots: LoadedRobots, now: number): LoadedRobots {
  memory.set(robots.entry.authority, robots, now);
  return robots;
}

function loaded(entry: RobotsEntry): LoadedRobots {
  let built: ReturnType<typeof cappedMatcher> | undefined;
  const robots: LoadedRobots = {
    entry,
    matcher() {
      if (entry.state !== "ok" || !entry.copy) return undefined;
      if (!built) {
        // Asked once per loaded entry: a file over the cap is not built, and not asked again.
        built = cappedMatcher(entry.authority, entry.copy);
        // It weighs more now: the least recently used make room (the budget counts it).
        memory.reweigh(entry.authority, robots);
        unsaved.reweigh(entry.authority, robots);
      }
      return built.matcher;
    },
    compiledBytes: () => (built && "bytes" in built ? built.bytes : 0),
    tooLarge: () => (built && "tooLarge" in built ? built.tooLarge : undefined),
  };
  return robots;
}
