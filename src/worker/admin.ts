/**
 * The admin API under ADMIN_PREFIX (default /__robots/), active only when the ADMIN_TOKEN
 * secret is set. Every call needs `Authorization: Bearer <ADMIN_TOKEN>`, compared in
 * constant time (SHA-256 of both sides, then timingSafeEqual, so lengths leak nothing).
 *
 * The scheme name is matched in any case (RFC 9110 §11.1).
 *
 *   GET    status[?cursor=…&limit=…]  what the edge does now (mode and why, pause, config
 *                                 problems), known origins (paged) and their fetch state,
 *                                 identity sources (lists, reverse DNS, Cloudflare) with age and last error
 *   POST   refresh[?origin=…]     fetch robots.txt now; returns that origin's status
 *   GET    explain?ua=…&url=…[&ip=…]  what the edge would do with such a request (stored copy
 *                                 only; url a path, or a URL as visitors see it); ip= checks a claimed crawler against the stored lists
 *                                 and cached reverse DNS answers, never a lookup
 *   GET    robots[?origin=…]      the stored robots.txt text, groups, diagnostics (for the page)
 *   POST   test[?origin=…] {"ua", "urls", "draft"?}  decisions for URLs, live and under a draft
 *   DELETE origin?origin=…        forget an origin's stored robots.txt
 *   GET    (the prefix itself)    the operator page; no token needed to load it, it shows
 *                                 nothing until the API accepts the token it is given
 *   POST   pause  {"minutes", "retryAfter"?, "reason"?}    start a crawl pause
 *   DELETE pause                  end it (a PAUSE_UNTIL pause stays: it lives in the config)
 *   GET    policy                 the live operator policy, its version and history (admin-policy.ts)
 *   PUT    policy  <policy JSON>  a new version of it
 *   POST   policy/rollback {"version"}  an earlier version back in force, as a new version
 *   GET    activity[?origin=…&hours=…&recent=…]   what the edge did, per crawler (admin-activity.ts)
 *   POST   replay[?origin=…] {"draft"?, "policy"?}  recent crawler requests judged under a draft
 *
 * Only existing authorities are acted on (authorities.ts): proxy mode ORIGIN_URL's, route
 * mode the allow-listed or, without AUTHORITIES, the already stored; a parameter never makes
 * the edge fetch a host a client chose, and explain (a GET) never fetches at all. Every error
 * is JSON `{ "error", "problems"? }`.
 */

import ipaddr from "ipaddr.js";
import { classifyUserAgent } from "../agents/classify.ts";
import type { VerificationOutcome } from "../agents/verification.ts";
import { compileRobots, parseRobotsTxt } from "../core/index.ts";
import { explainIfDecidable, explainRequest, type ExplainInput, type Explanation } from "../policy/explain.ts";
import { edgeNow } from "../config/edge-now.ts";
import { invalid, valid, type Validated } from "../policy/validated.ts";
import { activityView, replayDraft } from "./admin-activity.ts";
import { readBodyJson } from "./admin-body.ts";
import { authorityOf, isExistingAuthority, isServedAuthority } from "./authorities.ts";
import type { Config } from "../config/read-config.ts";
import { getPolicy, putPolicy, rollbackPolicy } from "./admin-policy.ts";
import { policyInForce } from "./live-policy.ts";
import { servedRobots } from "./purposes-served.ts";
import { previewPurposes } from "./admin-purposes.ts";
import type { CompiledPolicy } from "../policy/operator-policy.ts";
import { adminPageResponse } from "./page.ts";
import { accessWarning, fromBase64, modelOf } from "./robots-entry.ts";
import { activePause, readPauseRequest, rememberPause, retryAfterOf, WARN_PAUSE_MINUTES } from "./pause.ts";
import { forgetRobots, refresh, robotsFor, storedRobots, type LoadedRobots } from "./robots-cache.ts";
import { jsonResponse } from "./responses.ts";
import { deletePause, listAuthorityPage, readEntry, readPause, writePause } from "./store.ts";
import { identitySources } from "./identity-sources.ts";
import { checkClaimFromCache, needsVerification } from "./verify-crawler.ts";

export interface AdminContext {
  readonly request: Request;
  readonly url: URL;
  readonly config: Config;
  readonly kv: KVNamespace;
  readonly env: Env;
  readonly ctx: ExecutionContext;
  /** The origin authority this request belongs to. */
  readonly authority: string;
  /** loadConfig's problems and warnings: shown in status (never to the public). */
  readonly configProblems: readonly string[];
  readonly configWarnings: readonly string[];
}

/** Every admin error: JSON `{ "error", "problems"? }`. */
function adminError(code: number, error: string, problems?: readonly string[]): Response {
  return jsonResponse(problems && problems.length > 0 ? { error, problems } : { error }, code);
}

export async function handleAdmin(admin: AdminContext, token: string): Promise<Response> {
  // The page holds no state of the site; everything it shows comes from the API below.
  if (admin.request.method === "GET" && admin.url.pathname === admin.config.adminPrefix) {
    return adminPageResponse(admin.config.adminPrefix);
  }
  if (!(await bearerMatches(admin.request, token))) {
    const response = adminError(401, "the admin API needs Authorization: Bearer <ADMIN_TOKEN>");
    response.headers.set("www-authenticate", 'Bearer realm="robots-edge"');
    return response;
  }
  const route = `${admin.request.method} ${admin.url.pathname.slice(admin.config.adminPrefix.length)}`;
  switch (route) {
    case "GET status":
      return status(admin);
    case "POST refresh":
      return refreshNow(admin);
    case "GET explain":
      return explain(admin);
    case "GET robots":
      return robotsView(admin);
    case "POST test":
      return testUrls(admin);
    case "POST pause":
      return startPause(admin);
    case "DELETE origin":
      return deleteOrigin(admin);
    case "DELETE pause":
      return endPause(admin);
    case "GET policy":
      return getPolicy(admin);
    case "PUT policy":
      return putPolicy(admin);
    case "POST policy/rollback":
      return rollbackPolicy(admin);
    case "GET activity":
    case "POST replay":
      return activityRoute(admin, route);
    case "POST purposes/preview":
      return purposesPreview(admin);
    default:
      return adminError(404, `no admin route ${JSON.stringify(route)}; see docs/operating.md, "Admin API"`);
  }
}

/** What a purposes setting generates for an existing origin's file (admin-purposes.ts). */
async function purposesPreview(admin: AdminContext): Promise<Response> {
  const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!origin.ok) return originProblem(origin);
  return previewPurposes(admin, origin.value, (await policyInForce(admin.kv, admin.config)).compiled);
}

/** Activity and replay, for an existing origin (admin-activity.ts). */
async function activityRoute(admin: AdminContext, route: "GET activity" | "POST replay"): Promise<Response> {
  const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!origin.ok) return originProblem(origin);
  if (route === "GET activity") return activityView(admin, origin.value);
  return replayDraft(admin, origin.value, (await policyInForce(admin.kv, admin.config)).compiled);
}

async function bearerMatches(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("authorization") ?? "";
  const given = /^bearer[ \t]+(.*)$/i.exec(header)?.[1]?.trim() ?? "";
  const [a, b] = await Promise.all([sha256(given), sha256(token)]);
  return crypto.subtle.timingSafeEqual(a, b) && given !== "";
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

const STATUS_PAGE_DEFAULT = 100;
const STATUS_PAGE_MAX = 1000;

/** What the edge does now (edge-now.ts), one page of known origins (`next` is the cursor of the next page). */
async function status(admin: AdminContext): Promise<Response> {
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
  for (const { authority } of page.authorities) {
    const entry = await readEntry(admin.kv, authority);
    if (entry)
      origins.push({
        ...originStatus({ entry, matcher: () => undefined }, now),
        served: isServedAuthority(admin.config, authority),
      });
  }
  const pause = await activePause(admin.kv, admin.config);
  const configResult = {
    config: admin.config,
    problems: [...admin.configProblems],
    warnings: [...admin.configWarnings],
  };
  const policy = (await policyInForce(admin.kv, admin.config)).compiled;
  return jsonResponse({
    // What the edge does now: the mode and why, the pause and its end, every problem (the page's banner).
    edge: edgeNow(configResult, policy, pause && { ...pause, retryAfter: retryAfterOf(pause, now) }),
    proxy: admin.config.originUrl?.origin ?? null,
    authorities: admin.config.authorities ?? null,
    origins,
    next: page.cursor ?? null,
    // The activity view records only with RECORD_ACTIVITY and the ACTIVITY binding (GET activity).
    activity: { recording: admin.config.recordActivity && Boolean(admin.env.ACTIVITY) },
    policy: await policyStatus(admin),
    // Each source of identity evidence with its age and last error; a missing or stale list warns.
    identity: await identitySources(admin.kv, admin.config, now),
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

/** The live policy's version in force on this isolate (GET policy has the text and history). */
async function policyStatus(admin: AdminContext) {
  const live = await policyInForce(admin.kv, admin.config);
  return { version: live.version, source: live.source, stale: live.stale };
}

function originStatus(robots: LoadedRobots, now: number) {
  const { entry } = robots;
  const model = entry.copy
    ? (JSON.parse(entry.copy.model) as { robots?: { groups?: unknown[]; diagnostics?: { severity: string }[] } })
    : undefined;
  const diagnostics = model?.robots?.diagnostics ?? [];
  const count = (severity: string) => diagnostics.filter((diagnostic) => diagnostic.severity === severity).length;
  return {
    authority: entry.authority,
    state: entry.state,
    lastFetchAt: new Date(entry.lastFetchAt).toISOString(),
    lastStatus: entry.lastStatus ?? null,
    lastError: entry.lastError ?? null,
    copyFetchedAt: entry.copy ? new Date(entry.copy.fetchedAt).toISOString() : null,
    ageSeconds: entry.copy ? Math.round((now - entry.copy.fetchedAt) / 1000) : null,
    expiresAt: new Date(entry.expiresAt).toISOString(),
    groups: model?.robots?.groups?.length ?? 0,
    diagnostics: { error: count("error"), warning: count("warning"), info: count("info") },
    warning: accessWarning(entry) ?? null,
  };
}

/**
 * The `origin` parameter (or this request's own authority) as an origin the admin API may act
 * on: an absolute http(s) URL (400 otherwise) of an existing authority (404 otherwise).
 */
async function existingOrigin(
  admin: AdminContext,
  given: string | null,
): Promise<Validated<string> & { status?: number }> {
  const origin = originOf(given ?? admin.authority);
  if (!origin.ok) return { ...origin, status: 400 };
  if (!(await isExistingAuthority(admin.config, admin.kv, origin.value))) {
    return {
      ...invalid([
        `${origin.value} is not an origin this edge serves: ${admin.config.originUrl ? `proxy mode serves only ${admin.config.originUrl.origin}` : "route mode serves the hosts in AUTHORITIES, or without it the hosts requests have already come for"}`,
      ]),
      status: 404,
    };
  }
  return origin;
}

/** An absolute http(s) URL's origin; anything else is a problem. */
function originOf(text: string): Validated<string> {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return invalid([`expected an absolute http(s) URL such as https://example.com, got ${JSON.stringify(text)}`]);
  }
  return valid(authorityOf(url));
}

function originProblem(origin: { ok: false; problems: string[]; status?: number }): Response {
  return adminError(origin.status ?? 400, origin.problems[0] ?? "bad origin", origin.problems);
}

async function refreshNow(admin: AdminContext): Promise<Response> {
  const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!origin.ok) return originProblem(origin);
  const robots = await refresh(origin.value, admin.kv, admin.config, await readEntry(admin.kv, origin.value));
  return jsonResponse(originStatus(robots, Date.now()));
}

/**
 * What the edge would do; a GET, so it reads what is stored and never fetches. It takes what
 * the edge takes: the mode, the pause in force, the live policy, and the URL as a visitor
 * sees it (explainTarget). A decision that needs no robots.txt (MODE=off, a person, a pause)
 * is answered without a stored copy; under MODE=off, `ifEnforced` says what robots.txt and
 * the policy would decide with MODE=enforce, when a copy is stored.
 */
async function explain(admin: AdminContext): Promise<Response> {
  const ua = admin.url.searchParams.get("ua");
  const target = admin.url.searchParams.get("url");
  const ip = admin.url.searchParams.get("ip");
  if (ua === null || target === null) {
    return adminError(400, "explain needs ?ua=<User-Agent header>&url=<URL or path>[&ip=<client address>]");
  }
  if (ip !== null && !ipaddr.isValid(ip)) {
    return adminError(400, `ip must be an IPv4 or IPv6 address, got ${JSON.stringify(ip.slice(0, 64))}`);
  }
  const request = await explainTarget(admin, target);
  if (!request.ok) return originProblem(request);
  const { origin, path } = request.value;
  const robots = await storedRobots(origin, admin.kv);
  const claimCheck = ip === null ? undefined : await claimCheckOf(admin, ua, ip);
  const situation = await situationOf(admin, origin);
  // What the edge enforces: the origin's copy with the purposes in force (purposes-served.ts).
  const served = robots && servedRobots(robots, situation.policy);
  const stored = served && { state: served.entry.state, matcher: served.matcher() };
  const explanation = explainIfDecidable(explainInput(admin, situation, ua, path, claimCheck), stored);
  if (!explanation)
    return adminError(404, `no robots.txt stored for ${origin} yet; POST refresh?origin=${origin} first`);
  const ifEnforced =
    stored && explanation.reason === "mode-off"
      ? explainRequest({ ...explainInput(admin, situation, ua, path, claimCheck), ...stored, mode: "enforce" })
      : undefined;
  return jsonResponse({ authority: origin, ...explanation, ...(ifEnforced && { ifEnforced }) });
}

/**
 * The origin and path a URL to explain stands for, as the edge would see the request: a bare
 * path is this authority's; in proxy mode any absolute URL is (the public host is the
 * Worker's, whatever it is called, and robots.txt is ORIGIN_URL's); in route mode an
 * absolute URL names its authority, which must be one the edge serves (404 otherwise).
 */
async function explainTarget(
  admin: AdminContext,
  target: string,
): Promise<Validated<{ origin: string; path: string }> & { status?: number }> {
  if (target.startsWith("/")) {
    const origin = await existingOrigin(admin, null);
    return origin.ok ? valid({ origin: origin.value, path: target }) : origin;
  }
  const url = URL.canParse(target) ? new URL(target) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return { ...invalid(['url must be a path starting with "/" or an absolute http(s) URL']), status: 400 };
  }
  const path = url.pathname + url.search;
  if (admin.config.originUrl) return valid({ origin: admin.config.originUrl.origin, path });
  const origin = await existingOrigin(admin, url.origin);
  return origin.ok ? valid({ origin: origin.value, path }) : origin;
}

/** The edge's own state a decision depends on, read as the request path reads it. */
interface Situation {
  readonly policy: CompiledPolicy | undefined;
  /** The pause in force, with the Retry-After the edge would send now; null for none. */
  readonly pause: { readonly retryAfter: number } | null;
  readonly served: boolean;
}

async function situationOf(admin: AdminContext, origin: string): Promise<Situation> {
  const pause = await activePause(admin.kv, admin.config);
  return {
    policy: (await policyInForce(admin.kv, admin.config)).compiled,
    pause: pause ? { retryAfter: retryAfterOf(pause, Date.now()) } : null,
    served: isServedAuthority(admin.config, origin),
  };
}

/** The stored evidence about a claimed crawler's address, when the edge would check the claim. */
async function claimCheckOf(admin: AdminContext, ua: string, ip: string): Promise<VerificationOutcome | undefined> {
  const agent = classifyUserAgent(ua);
  if (!needsVerification({ config: admin.config }, agent)) return undefined;
  return checkClaimFromCache(admin.kv, agent, ip);
}

/** The edge's facts for one request to explain, but robots.txt (explain.ts says what it cannot know). */
function explainInput(
  { config }: Pick<AdminContext, "config">,
  situation: Situation,
  userAgent: string,
  url: string,
  claimCheck?: VerificationOutcome,
): Omit<ExplainInput, "state" | "matcher"> {
  return {
    userAgent,
    url,
    mode: config.mode,
    failOpen: config.failOpen,
    blockStatus: config.blockStatus,
    paused: situation.pause ?? false,
    policy: situation.policy,
    facts: {
      served: situation.served,
      enforceRates: config.enforceRates,
      usageSignals: config.usageSignals,
      usageHeader: config.usageHeader,
      originUnusable: config.originUrlProblem,
      verifyCrawlers: config.verifyCrawlers,
      ...(claimCheck && { claimCheck }),
    },
  };
}

/** The stored robots.txt of an origin as text, with its groups and diagnostics (for the page). */
async function robotsView(admin: AdminContext): Promise<Response> {
  const param = originOf(admin.url.searchParams.get("origin") ?? admin.authority);
  if (!param.ok) return originProblem(param);
  const origin = param.value;
  const entry = await readEntry(admin.kv, origin);
  if (!entry) return adminError(404, `no robots.txt stored for ${origin} yet; POST refresh first`);
  const robots = entry.copy ? modelOf(entry.copy) : undefined;
  return jsonResponse({
    status: originStatus({ entry, matcher: () => undefined }, Date.now()),
    inForce: entry.state === "ok",
    text: entry.copy ? new TextDecoder().decode(fromBase64(entry.copy.bodyBase64)) : null,
    groups: (robots?.groups ?? []).map((group) => ({
      agents: group.agents,
      lines: group.agentLines.map((agentLine) => agentLine.line),
      rules: group.rules.length,
    })),
    diagnostics: robots?.diagnostics ?? [],
    sitemaps: robots?.sitemaps ?? [],
  });
}

interface TestBody {
  readonly ua: string;
  readonly urls: readonly string[];
  readonly draft: string | undefined;
}

/** Decisions for several URLs, live and (when a draft robots.txt is given) under the draft. */
async function testUrls(admin: AdminContext): Promise<Response> {
  const json = await readBodyJson(admin.request, MAX_TEST_BODY);
  if (!json.ok) return adminError(json.status, json.error);
  const body = readTestBody(json.value);
  if (!body.ok) return adminError(400, body.problems.join("; "), body.problems);
  const param = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!param.ok) return originProblem(param);
  const origin = param.value;
  const situation = await situationOf(admin, origin);
  const robots = servedRobots(await robotsFor(origin, admin.kv, admin.config, admin.ctx), situation.policy);
  const { ua, urls, draft: draftText } = body.value;
  const draft = draftText === undefined ? undefined : compileRobots(parseRobotsTxt(draftText));
  const live = { state: robots.entry.state, matcher: robots.matcher() };
  const judged = (url: string, side: typeof live, during: Situation) =>
    explainRequest({ ...explainInput(admin, during, ua, url), ...side });
  const results = urls.map((url) => {
    const now = judged(url, live, situation);
    if (!draft) return { url, live: now };
    const drafted = judged(url, { state: "ok", matcher: draft }, situation);
    // During a pause both sides answer 503 now; what the draft changes shows once it ends.
    const after = situation.pause ? { ...situation, pause: null } : undefined;
    return {
      url,
      live: now,
      draft: drafted,
      differs: differ(now, drafted),
      ...(after && {
        differsAfterPause: differ(judged(url, live, after), judged(url, { state: "ok", matcher: draft }, after)),
      }),
    };
  });
  return jsonResponse({ origin, paused: situation.pause !== null, results });
}

/** Whether two answers differ in what the edge does (or would allow). */
function differ(a: Explanation, b: Explanation): boolean {
  return a.allowed !== b.allowed || a.action.action !== b.action.action || a.action.status !== b.action.status;
}

const MAX_TEST_URLS = 200;
/** A test body: 200 URLs and a draft robots.txt (read up to 500 KiB, as the edge reads one) fit in 1 MiB. */
const MAX_TEST_BODY = 1_048_576;
/** A pause body is `{"minutes", "retryAfter", "reason"}`, the reason at most 500 characters (6 bytes each when JSON-escaped). */
const MAX_PAUSE_BODY = 16_384;

function readTestBody(body: unknown): Validated<TestBody> {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const { ua, urls, draft } = fields;
  const problems: string[] = [];
  if (typeof ua !== "string") problems.push('"ua" must be a User-Agent string');
  const urlList = Array.isArray(urls) && urls.every((url) => typeof url === "string") ? (urls as string[]) : undefined;
  if (!urlList || urlList.length === 0 || urlList.length > MAX_TEST_URLS) {
    problems.push(`"urls" must be a list of 1 to ${MAX_TEST_URLS} URLs or paths`);
  }
  if (draft !== undefined && typeof draft !== "string") problems.push('"draft" must be robots.txt text');
  if (problems.length > 0 || typeof ua !== "string" || !urlList) return invalid(problems);
  return valid({ ua, urls: urlList, draft: typeof draft === "string" ? draft : undefined });
}

/** Forget an origin's stored robots.txt (an authority that should not be there, or a fresh start). */
async function deleteOrigin(admin: AdminContext): Promise<Response> {
  const given = admin.url.searchParams.get("origin");
  if (given === null) return adminError(400, "DELETE origin needs ?origin=<absolute http(s) URL>");
  const origin = originOf(given);
  if (!origin.ok) return originProblem(origin);
  const existed = (await readEntry(admin.kv, origin.value)) !== undefined;
  await forgetRobots(origin.value, admin.kv);
  if (!existed) return adminError(404, `no robots.txt stored for ${origin.value}`);
  return jsonResponse({ deleted: origin.value });
}

async function startPause(admin: AdminContext): Promise<Response> {
  const json = await readBodyJson(admin.request, MAX_PAUSE_BODY);
  if (!json.ok) return adminError(json.status, json.error);
  const validated = readPauseRequest(json.value, admin.config);
  if (!validated.ok) return adminError(400, validated.problems.join("; "), validated.problems);
  const request = validated.value;
  const now = Date.now();
  const pause = {
    until: now + request.minutes * 60_000,
    retryAfter: request.retryAfter ?? Math.min(request.minutes * 60, admin.config.retryAfterSeconds),
    reason: request.reason,
    startedAt: now,
  };
  await writePause(admin.kv, pause);
  rememberPause(pause);
  const warning =
    request.minutes > WARN_PAUSE_MINUTES
      ? "pauses longer than a day risk pages being dropped from search indexes (Google: 5xx for more than a couple of days)"
      : undefined;
  return jsonResponse({
    pause: { ...pause, untilIso: new Date(pause.until).toISOString() },
    ...(warning && { warning }),
  });
}

/**
 * End the stored pause. A PAUSE_UNTIL pause lives in the config and cannot be ended here: the
 * answer says it remains (and until when) instead of "ended" while crawlers still get 503.
 */
async function endPause(admin: AdminContext): Promise<Response> {
  const stored = await readPause(admin.kv);
  await deletePause(admin.kv);
  rememberPause(undefined);
  const now = Date.now();
  const { pauseUntil } = admin.config;
  if (pauseUntil !== undefined && pauseUntil > now) {
    return jsonResponse({
      ended: false,
      deletedStoredPause: stored !== undefined,
      pause: { reason: "PAUSE_UNTIL", until: pauseUntil, untilIso: new Date(pauseUntil).toISOString() },
      warning:
        "crawlers still get 503: PAUSE_UNTIL is set in the Worker's vars (wrangler.toml [vars]); remove it and deploy to end that pause",
    });
  }
  return jsonResponse({ ended: true, deletedStoredPause: stored !== undefined, pause: null });
}
