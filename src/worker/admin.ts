/**
 * The admin API under ADMIN_PREFIX (default /__robots/), active only when the ADMIN_TOKEN
 * secret is set. Every call needs `Authorization: Bearer <ADMIN_TOKEN>`, compared in
 * constant time (SHA-256 of both sides, then timingSafeEqual, so lengths leak nothing).
 *
 *   GET    status                 known origins, fetch state, pause
 *   POST   refresh[?origin=…]     fetch robots.txt now; returns that origin's status
 *   GET    explain?ua=…&url=…     what the edge would do with such a request
 *   GET    robots[?origin=…]      the stored robots.txt text, groups, diagnostics (for the page)
 *   POST   test[?origin=…] {"ua", "urls", "draft"?}  decisions for URLs, live and under a draft
 *   GET    (the prefix itself)    the operator page; no token needed to load it, it shows
 *                                 nothing until the API accepts the token it is given
 *   POST   pause  {"minutes", "retryAfter"?, "reason"?}    start a crawl pause
 *   DELETE pause                  end it
 */

import { compileRobots, parseRobotsTxt, type RobotsMatcher } from "../core/index.ts";
import { explainRequest, type Explanation } from "../policy/explain.ts";
import type { EntryState } from "../policy/judge.ts";
import type { Config } from "./config.ts";
import { adminPageResponse } from "./page.ts";
import { fromBase64, modelOf } from "./robots-entry.ts";
import { activePause, readPauseRequest, rememberPause, retryAfterOf, WARN_PAUSE_MINUTES } from "./pause.ts";
import { refresh, robotsFor, type LoadedRobots } from "./robots-cache.ts";
import { errorResponse, jsonResponse } from "./responses.ts";
import { deletePause, listAuthorities, readEntry, writePause } from "./store.ts";

export interface AdminContext {
  readonly request: Request;
  readonly url: URL;
  readonly config: Config;
  readonly kv: KVNamespace;
  readonly ctx: ExecutionContext;
  /** The origin authority this request belongs to. */
  readonly authority: string;
}

export async function handleAdmin(admin: AdminContext, token: string): Promise<Response> {
  // The page holds no state of the site; everything it shows comes from the API below.
  if (admin.request.method === "GET" && admin.url.pathname === admin.config.adminPrefix) {
    return adminPageResponse(admin.config.adminPrefix);
  }
  if (!(await bearerMatches(admin.request, token))) {
    return new Response("robots-edge: admin API needs Authorization: Bearer <ADMIN_TOKEN>\n", {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="robots-edge"', "content-type": "text/plain; charset=utf-8" },
    });
  }
  const route = `${admin.request.method} ${admin.url.pathname.slice(admin.config.adminPrefix.length)}`;
  switch (route) {
    case "GET status":
      return jsonResponse(await status(admin));
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
    case "DELETE pause":
      await deletePause(admin.kv);
      rememberPause(undefined);
      return jsonResponse({ pause: null });
    default:
      return errorResponse(`no admin route ${JSON.stringify(route)}; see the README for the admin API`, 404);
  }
}

async function bearerMatches(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  const [a, b] = await Promise.all([sha256(given), sha256(token)]);
  return crypto.subtle.timingSafeEqual(a, b) && given !== "";
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

async function status(admin: AdminContext) {
  const now = Date.now();
  const authorities = await listAuthorities(admin.kv);
  const origins = [];
  for (const authority of authorities) {
    const entry = await readEntry(admin.kv, authority);
    if (entry) origins.push(originStatus({ entry, matcher: () => undefined }, now));
  }
  const pause = await activePause(admin.kv, admin.config);
  return {
    mode: admin.config.mode,
    proxy: admin.config.originUrl?.origin ?? null,
    origins,
    pause: pause ? { ...pause, retryAfter: retryAfterOf(pause, now) } : null,
  };
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
  };
}

async function refreshNow(admin: AdminContext): Promise<Response> {
  const authority = admin.url.searchParams.get("origin") ?? admin.authority;
  if (!URL.canParse(authority))
    return errorResponse(
      `origin must be an absolute URL such as https://example.com, got ${JSON.stringify(authority)}`,
      400,
    );
  const origin = new URL(authority).origin;
  const robots = await refresh(origin, admin.kv, admin.config, await readEntry(admin.kv, origin));
  return jsonResponse(originStatus(robots, Date.now()));
}

async function explain(admin: AdminContext): Promise<Response> {
  const ua = admin.url.searchParams.get("ua");
  const target = admin.url.searchParams.get("url");
  if (ua === null || target === null) {
    return errorResponse("explain needs ?ua=<User-Agent header>&url=<URL or path>", 400);
  }
  const authority = URL.canParse(target) ? new URL(target).origin : admin.authority;
  const robots = await robotsFor(authority, admin.kv, admin.config, admin.ctx);
  const paused = (await activePause(admin.kv, admin.config)) !== undefined;
  return jsonResponse({
    authority,
    ...explainWith(admin.config, robots.entry.state, robots.matcher(), paused, ua, target),
  });
}

function explainWith(
  config: Config,
  state: EntryState,
  matcher: RobotsMatcher | undefined,
  paused: boolean,
  userAgent: string,
  url: string,
): Explanation {
  const { mode, failOpen, blockStatus } = config;
  return explainRequest({ userAgent, url, mode, failOpen, blockStatus, state, matcher, paused, policy: config.policy });
}

/** The stored robots.txt of an origin as text, with its groups and diagnostics (for the page). */
async function robotsView(admin: AdminContext): Promise<Response> {
  const origin = originParam(admin);
  if (!origin) return errorResponse("origin must be an absolute URL such as https://example.com", 400);
  const entry = await readEntry(admin.kv, origin);
  if (!entry) return errorResponse(`no robots.txt stored for ${origin} yet; POST refresh first`, 404);
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
  const body = readTestBody(await admin.request.json().catch(() => undefined));
  if (typeof body === "string") return jsonResponse({ error: body }, 400);
  const origin = originParam(admin) ?? admin.authority;
  const robots = await robotsFor(origin, admin.kv, admin.config, admin.ctx);
  const paused = (await activePause(admin.kv, admin.config)) !== undefined;
  const draft = body.draft === undefined ? undefined : compileRobots(parseRobotsTxt(body.draft));
  const results = body.urls.map((url) => {
    const live = explainWith(admin.config, robots.entry.state, robots.matcher(), paused, body.ua, url);
    if (!draft) return { url, live };
    const drafted = explainWith(admin.config, "ok", draft, paused, body.ua, url);
    const differs = live.allowed !== drafted.allowed || live.action.action !== drafted.action.action;
    return { url, live, draft: drafted, differs };
  });
  return jsonResponse({ origin, results });
}

const MAX_TEST_URLS = 200;

function readTestBody(body: unknown): TestBody | string {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const { ua, urls, draft } = fields;
  const problems: string[] = [];
  if (typeof ua !== "string") problems.push('"ua" must be a User-Agent string');
  const urlList = Array.isArray(urls) && urls.every((url) => typeof url === "string") ? (urls as string[]) : undefined;
  if (!urlList || urlList.length === 0 || urlList.length > MAX_TEST_URLS) {
    problems.push(`"urls" must be a list of 1 to ${MAX_TEST_URLS} URLs or paths`);
  }
  if (draft !== undefined && typeof draft !== "string") problems.push('"draft" must be robots.txt text');
  if (problems.length > 0 || typeof ua !== "string" || !urlList) return problems.join("; ");
  return { ua, urls: urlList, draft: typeof draft === "string" ? draft : undefined };
}

function originParam(admin: AdminContext): string | undefined {
  const given = admin.url.searchParams.get("origin") ?? admin.authority;
  return URL.canParse(given) ? new URL(given).origin : undefined;
}

async function startPause(admin: AdminContext): Promise<Response> {
  const body: unknown = await admin.request.json().catch(() => undefined);
  const { request, problems } = readPauseRequest(body, admin.config);
  if (!request) return jsonResponse({ error: problems.join("; ") }, 400);
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
