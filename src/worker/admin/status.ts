/** GET status: what the edge does now, the known origins (paged), the policy and identity sources, the vocabulary. */

import { edgeNow } from "../../config/edge-now.ts";
import { VOCABULARY } from "../../vocabulary.ts";
import { cataloguesStatus } from "../identity/catalogues.ts";
import { identitySources } from "../identity/sources.ts";
import { policyCacheProblems, policyInForce } from "../live-policy.ts";
import { activePause, retryAfterOf } from "../pause.ts";
import { jsonResponse } from "../responses.ts";
import { hostOfAuthority, isServedAuthority } from "../robots/authorities.ts";
import { listAuthorityPage, readSignatureDirectory } from "../store.ts";
import { objectProblems } from "../object-problems.ts";
import { isUnsaved, storedRobots } from "../robots/cache.ts";
import { ownFaultLines, ownFaults } from "../own-faults.ts";
import { adminError, type AdminContext } from "./context.ts";
import { originStatus } from "./origins.ts";
import { purposesProblemsByPolicy } from "./purposes-problems.ts";
import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import type { RobotsEntry } from "../robots/entry.ts";
import { hostPolicyStatus } from "./policies.ts";

const STATUS_PAGE_DEFAULT = 100;
const STATUS_PAGE_MAX = 1000;

/** What the edge does now (edge-now.ts), one page of known origins (`next` is the cursor of the next page). */
export async function status(admin: AdminContext): Promise<Response> {
  const limitParam = admin.url.searchParams.get("limit");
  const limit = limitParam === null ? STATUS_PAGE_DEFAULT : Number(limitParam);
  if (!Number.isInteger(limit) || limit < 1 || limit > STATUS_PAGE_MAX) {
    return adminError(
      400,
      `limit must be a whole number from 1 to ${STATUS_PAGE_MAX}, got ${JSON.stringify(limitParam)}`,
    );
  }
  const now = Date.now();
  const cursor = admin.url.searchParams.get("cursor") ?? undefined;
  const page = await listAuthorityPage(admin.kv, { limit, cursor }).catch((error: unknown) => asError(error));
  if (page instanceof Error) return listFailure(admin.kv, cursor, page);
  const origins = [];
  const entries = [];
  for (const { authority } of page.authorities) {
    // The entry in force on this isolate, an unsaved one included (its KV write failed), rather
    // than the stored one; an entry that cannot be read is left out here and named in ownFaults.
    const robots = await storedRobots(authority, admin.kv);
    if (robots) entries.push({ authority, entry: robots.entry });
    if (robots)
      origins.push({
        ...originStatus(robots, now),
        served: isServedAuthority(admin.config, authority),
        unsaved: isUnsaved(authority),
      });
  }
  const pause = await activePause(admin.kv, admin.config);
  const policy = (await policyInForce(admin.kv, admin.config)).compiled;
  const configResult = {
    config: admin.config,
    // The purposes' problems are the banner's too: a setting that stopped applying.
    problems: [
      ...admin.configProblems,
      ...unreachableOrigins(origins),
      ...purposesProblemsByPolicy(await policiesJudging(admin, entries, policy), policy),
    ],
    warnings: [...admin.configWarnings],
  };
  const policySummary = await policyStatus(admin);
  const identity = await identitySources(admin.kv, admin.config, now);
  const catalogues = await cataloguesStatus(admin.kv, admin.config, now);
  configResult.problems.push(...catalogues.problems);
  // Host policies past what an isolate keeps compiled: each costs KV reads again (live-policy.ts).
  configResult.problems.push(...policyCacheProblems(now));
  // Each trusted signer's stored key set is read too (a few keys), so one that cannot be used is named.
  await Promise.all([...admin.config.signatureAgents.keys()].map((url) => readSignatureDirectory(admin.kv, url)));
  // Read after every record above: each read names a record it cannot use (own-faults.ts).
  configResult.problems.push(...ownFaultLines());
  return jsonResponse({
    // What the edge does now: the mode and why, the pause and its end, every problem (the page's banner).
    edge: edgeNow(configResult, policy, pause && { ...pause, retryAfter: retryAfterOf(pause, now) }),
    proxy: admin.config.originUrl?.origin ?? null,
    authorities: admin.config.authorities ?? null,
    origins,
    next: page.cursor ?? null,
    // The activity view records only with RECORD_ACTIVITY and the ACTIVITY binding (GET activity).
    activity: { recording: admin.config.recordActivity && Boolean(admin.env.ACTIVITY) },
    policy: policySummary,
    // ?host=h (router: h's origin): the policy judging h, its versions and its records' faults.
    ...(admin.url.searchParams.has("host") && {
      policyHost: await hostPolicyStatus(admin, hostOfAuthority(admin.authority)),
    }),
    // Each source of identity evidence with its age and last error; a missing or stale list warns.
    identity,
    // Each crawler catalogue (CRAWLER_CATALOGUES): URL, age, count, last error; and where the table disagrees.
    catalogues,
    // Whether the crawler lists are used at all: with both off (npm run dev) the page says so in one line.
    identityChecks: { verifyCrawlers: admin.config.verifyCrawlers, disguisedCrawlers: admin.config.disguisedCrawlers },
    // The edge's own faults (a stored record it cannot use, an exception it caught): key, cause, repair.
    ownFaults: ownFaults(),
    // The words the edge tells what happened in: the page renders with these, never a copy.
    vocabulary: VOCABULARY,
    // What the Durable Objects (activity, crawl rates) said of their storage, as this isolate
    // heard it: a stored value read as absent, a write that failed (object-problems.ts).
    objects: { problems: objectProblems() },
  });
}

/**
 * A failed KV list, said as what it is. Only a cursor the client sent can be its fault, and KV
 * does not say which failure it had: when the same list without the cursor works, the cursor
 * was refused (400); otherwise KV itself failed (503, with KV's own message), whatever the cursor.
 */
async function listFailure(kv: KVNamespace, cursor: string | undefined, error: Error): Promise<Response> {
  const kvFailed = () =>
    adminError(503, `the list of known origins could not be read from KV (${error.message}); try again shortly`);
  if (cursor === undefined) return kvFailed();
  const withoutCursor = await listAuthorityPage(kv, { limit: 1 }).then(
    () => true,
    () => false,
  );
  if (!withoutCursor) return kvFailed();
  return adminError(
    400,
    `cursor must be the \`next\` value of an earlier status answer (KV refused it: ${error.message})`,
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The policies judging this page's origins, each with the origins it judges: the default (first,
 * with every origin in proxy mode or without policies per host), then each host policy (its
 * key: an exact host or the `*.` pattern judging it), so each one's purposes are checked
 * against the files they are served with. `?host=h` adds h's policy when no origin of the page
 * is h's. Memory answers in steady state (policyInForce), as on the request path.
 */
async function policiesJudging(
  admin: AdminContext,
  entries: readonly { readonly authority: string; readonly entry: RobotsEntry }[],
  defaultPolicy: CompiledPolicy | undefined,
) {
  type Judging = { host: string | null; policy: CompiledPolicy | undefined; origins: (typeof entries)[number][] };
  const byHost = new Map<string | null, Judging>([[null, { host: null, policy: defaultPolicy, origins: [] }]]);
  const add = (host: string | null, policy: CompiledPolicy | undefined) => {
    const known = byHost.get(host) ?? { host, policy, origins: [] };
    byHost.set(host, known);
    return known;
  };
  for (const origin of entries) {
    const live = await policyInForce(admin.kv, admin.config, hostOfAuthority(origin.authority));
    add(live.host, live.host === null ? defaultPolicy : live.compiled).origins.push(origin);
  }
  if (admin.url.searchParams.has("host")) {
    const live = await policyInForce(admin.kv, admin.config, hostOfAuthority(admin.authority));
    add(live.host, live.host === null ? defaultPolicy : live.compiled);
  }
  return [...byHost.values()];
}

/** The live policy's version in force on this isolate (GET policy has the text and history). */
async function policyStatus(admin: AdminContext) {
  const live = await policyInForce(admin.kv, admin.config);
  return { version: live.version, source: live.source, stale: live.stale, fallback: live.fallback };
}

/**
 * A problem per listed origin whose last fetch got no answer at all (a network error, a timeout;
 * not an HTTP status), while it lasts: the cause was only under the origin's `lastError`, and a
 * wrong --origin looked like no problem.
 */
function unreachableOrigins(origins: readonly ReturnType<typeof originStatus>[]): string[] {
  return origins.flatMap(({ authority, state, lastStatus, lastError, lastFetchAt }) =>
    lastStatus === null && lastError !== null
      ? [
          `origin unreachable: ${authority} gave no answer at ${lastFetchAt} (${lastError}); people get 502${state === "unavailable" ? " and crawlers 503" : ""} until it answers`,
        ]
      : [],
  );
}
