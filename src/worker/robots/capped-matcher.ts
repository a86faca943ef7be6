/**
 * A robots.txt's compiled matcher, built only when its upper estimate (compiledMatcherBytes) is
 * within ROBOTS_ENTRY_MAX_BYTES, a third of the robots.txt memories' budget
 * (memory-budget.ts says why). A tenant under a `*.` AUTHORITIES pattern writes its own robots.txt: without the cap one
 * file shaped to compile large (500 KiB of one-rule groups: ~170 MiB estimated) would be built
 * and kept whatever it weighs. Real files stay clear: the largest estimate of test/fixtures/corpus
 * is 15.1 MiB (0297.txt, www.xuexi.cn, at the 500 KiB parse limit), then 10.4 MiB (0062.txt,
 * SmugMug's); the cap is 21.3 MiB; an ordinary file is weighed at ~36 KB.
 *
 * A file over the cap is a robots.txt we cannot use, answered where every such one is: the
 * decision's robots.txt step with state "unavailable" (policy/judge.ts, edge-decision.ts
 * "robots-unavailable"): a person passes to the origin as always, a crawler gets 503 with
 * Retry-After until the next fetch (never 403: the file may say "allow"; FAIL_OPEN passes it),
 * /robots.txt itself is still served. The operator sees the origin named in GET status
 * (own-faults.ts) with its repair; a new file fetched (POST refresh) is judged afresh.
 *
 * The verdict costs no CPU per request: it is kept on the loaded entry, which asks once, and in
 * `verdicts` (bounded: MAX_VERDICTS copies), so the same copy re-read from KV is not parsed again.
 */

import type { RobotsMatcher, RobotsTxt } from "../../core/index.ts";
import { enforcementMatcher } from "../../policy/path-spellings.ts";
import { IsolateMemory } from "../isolate-memory.ts";
import { ROBOTS_ENTRY_MAX_BYTES } from "../memory-budget.ts";
import { clearOwnFault, noteOwnFault } from "../own-faults.ts";
import { compiledMatcherBytes } from "./compiled-weight.ts";
import { modelOf, type StoredCopy } from "./entry.ts";

const MAX_VERDICTS = 100;
const MiB = 1024 * 1024;

/** A matcher built and its estimate, or a file not built: its estimate, over the cap. */
export type CappedMatcher =
  | { readonly matcher: RobotsMatcher; readonly bytes: number }
  | { readonly matcher: undefined; readonly tooLarge: number };

/** Copies found over the cap, by authority and copy: their estimate. */
const verdicts = new IsolateMemory<string, number>({ maxEntries: MAX_VERDICTS, maxAgeMs: Number.MAX_SAFE_INTEGER });

/** Forget the verdicts (tests: each starts as a new isolate would). */
export function clearMatcherVerdicts(): void {
  verdicts.clear();
}

/** The matcher of `authority`'s `copy` (its model given when already parsed), or why it is not built. */
export function cappedMatcher(authority: string, copy: StoredCopy, parsed?: RobotsTxt): CappedMatcher {
  const fingerprint = `${authority}\n${copy.fetchedAt}\n${copy.bodyBase64.length}\n${copy.model.length}`;
  const known = verdicts.get(fingerprint, 0);
  if (known !== undefined) return tooLarge(authority, known);
  const model = parsed ?? modelOf(copy);
  const bytes = compiledMatcherBytes(model, copy.model.length);
  if (bytes > ROBOTS_ENTRY_MAX_BYTES) {
    verdicts.set(fingerprint, bytes, 0);
    return tooLarge(authority, bytes);
  }
  clearOwnFault(tooLargeFaultKey(authority));
  return { matcher: enforcementMatcher(model), bytes };
}

function tooLarge(authority: string, bytes: number): CappedMatcher {
  noteOwnFault(
    tooLargeFaultKey(authority),
    `its robots.txt would compile to an estimated ${(bytes / MiB).toFixed(1)} MiB, over the ${(ROBOTS_ENTRY_MAX_BYTES / MiB).toFixed(1)} MiB one file may take of the isolate's robots.txt memory: robots.txt is unavailable for it (crawlers are answered 503 with Retry-After, people pass)`,
    `have the site serve a smaller robots.txt (fewer groups, user-agent lines and rules), then POST refresh?origin=${authority}`,
  );
  return { matcher: undefined, tooLarge: bytes };
}

/** The own fault naming an origin whose robots.txt is over the cap (GET status). */
export function tooLargeFaultKey(authority: string): string {
  return `robots.txt of ${authority}`;
}
