/**
 * What the Durable Objects (activity/object.ts, edge/crawl-rate-object.ts) said was wrong with
 * their own storage, as this isolate last heard it, for GET status: a stored value of the
 * wrong shape (read as absent), a storage write that failed (kept in memory, tried again), an
 * object that could not be reached. Each object's answer carries its problems; the caller notes
 * them here under the object's name, and a later answer with none clears them (repaired).
 *
 * Isolate memory, not storage: an object that cannot write cannot store its problems either,
 * and a request never waits for status. So an isolate shows what its own calls met; each
 * problem is also logged where it happened. Bounded: MAX_OBJECTS names, MAX_PER_OBJECT
 * problems each, none older than MAX_AGE_MS.
 */

const MAX_OBJECTS = 64;
const MAX_PER_OBJECT = 8;
const MAX_AGE_MS = 60 * 60_000;

const noted = new Map<string, { readonly problems: readonly string[]; readonly at: number }>();

/** The object's problems as of its last answer (none: repaired, or never wrong). */
export function noteObjectProblems(object: string, problems: readonly string[], now = Date.now()): void {
  noted.delete(object);
  if (problems.length === 0) return;
  noted.set(object, { problems: problems.slice(0, MAX_PER_OBJECT), at: now });
  while (noted.size > MAX_OBJECTS) {
    const oldest = noted.keys().next();
    if (oldest.done) break;
    noted.delete(oldest.value);
  }
}

/** Every problem heard within MAX_AGE_MS, each naming its object: GET status `objects.problems`. */
export function objectProblems(now = Date.now()): string[] {
  const problems: string[] = [];
  for (const [object, entry] of noted) {
    if (now - entry.at >= MAX_AGE_MS) continue;
    for (const problem of entry.problems) problems.push(`${object}: ${problem}`);
  }
  return problems;
}

/** Forget everything (tests: a clean slate). */
export function clearObjectProblems(): void {
  noted.clear();
}
