/**
 * The admin API under ADMIN_PREFIX (default /__robots/), active only when the ADMIN_TOKEN
 * secret is set. Every call needs `Authorization: Bearer <ADMIN_TOKEN>`, compared in
 * constant time (SHA-256 of both sides, then timingSafeEqual, so lengths leak nothing).
 *
 *   GET    status                 known origins, fetch state, pause
 *   POST   refresh[?origin=…]     fetch robots.txt now; returns that origin's status
 *   GET    explain?ua=…&url=…     what the edge would do with such a request
 *   POST   pause  {"minutes", "retryAfter"?, "reason"?}    start a crawl pause
 *   DELETE pause                  end it
 */

import { classifyUserAgent } from "../agents/classify.ts";
import { pathAndQuery } from "../core/index.ts";
import type { Config } from "./config.ts";
import { judge } from "./judge.ts";
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
  if (ua === null || target === null)
    return errorResponse("explain needs ?ua=<User-Agent header>&url=<URL or path>", 400);
  const authority = URL.canParse(target) ? new URL(target).origin : admin.authority;
  const agent = classifyUserAgent(ua);
  const path = pathAndQuery(target);
  const pause = await activePause(admin.kv, admin.config);
  const robots = await robotsFor(authority, admin.kv, admin.config, admin.ctx);
  const verdict = judge({
    mode: admin.config.mode,
    failOpen: admin.config.failOpen,
    state: robots.entry.state,
    matcher: robots.matcher(),
    tokens: agent.tokens,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    pathAndQuery: path,
  });
  const action = edgeAction(admin.config, agent.crawler, pause !== undefined, verdict.action);
  const decision = verdict.decision;
  return jsonResponse({
    authority,
    path,
    crawler: agent.crawler,
    tokens: agent.tokens,
    known: agent.known ? { token: agent.known.token, category: agent.known.category } : null,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    robotsState: robots.entry.state,
    group: decision?.group ? { token: decision.group.token, lines: decision.group.agentLines } : null,
    rule: decision?.rule ?? null,
    reason: decision?.reason ?? robots.entry.state,
    judgedPath: verdict.judgedPath,
    allowed: decision ? decision.allowed : verdict.action !== "unavailable",
    action,
  });
}

/** The action the edge takes, in the words of the README: pass, block, report, 503. */
function edgeAction(config: Config, crawler: boolean, paused: boolean, action: string) {
  if (config.mode === "off" || !crawler) return { action: "pass", status: null };
  if (paused) return { action: "paused", status: 503 };
  if (action === "block") return { action: "block", status: config.blockStatus };
  if (action === "unavailable") return { action: "unavailable", status: 503 };
  return { action, status: null };
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
