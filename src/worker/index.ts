/**
 * robots-edge: the Worker shell around the REP engine.
 *
 * Per request: admin API (when ADMIN_TOKEN is set) -> GET/HEAD /robots.txt served from the
 * store -> humans pass untouched -> crawl pause (503) -> the crawler's decision under the
 * origin's robots.txt -> pass, block (BLOCK_STATUS), or mark (MODE=report).
 * Where it sits: route mode forwards with fetch(request); proxy mode (ORIGIN_URL) forwards
 * to that origin. Errors are turned into responses in one place (handleFetch's catch).
 */

import { classifyUserAgent, type AgentInfo } from "../agents/classify.ts";
import { rangeSourceFor, verifyCrawler } from "../agents/verification.ts";
import { bindsRateLines, declaresRateLimits, rateLimitsAt, visitWindow } from "../policy/crawl-rate.ts";
import { canonicalizePath } from "../core/index.ts";
import { handleAdmin } from "./admin.ts";
import { forward } from "./forward.ts";
import { crawlRateKey, type RateSubject } from "./crawl-rate-object.ts";
import { crawlerRanges, refreshCrawlerRanges } from "./crawler-ranges.ts";
import { loadConfig, type Config } from "./config.ts";
import { judge, type Verdict } from "../policy/judge.ts";
import { logDecision, logError, logImpostor, type DecisionLog, type LoggedOutcome } from "./log.ts";
import { activePause, retryAfterOf } from "./pause.ts";
import { robotsFor } from "./robots-cache.ts";
import { robotsTxtResponse } from "./robots-route.ts";
import { blockedResponse, errorResponse, ruleHeader, unavailableResponse, withHeader } from "./responses.ts";
import { isServedAuthority } from "./authorities.ts";
import { refreshDueOrigins } from "./cron-refresh.ts";
import { nextAttemptSeconds } from "./robots-entry.ts";

export { CrawlRate } from "./crawl-rate-object.ts";

export default {
  fetch: handleFetch,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;

async function handleFetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  // Invalid config never takes the site down: every request goes on as with MODE=off (the
  // admin API still answers and shows the problems); only an unusable ORIGIN_URL, which
  // leaves nowhere to send anyone, answers a generic 502. The public never sees the values.
  const { config: parsed, problems } = loadConfig(env);
  if (problems.length > 0) logConfigProblems(problems, Date.now());
  const config: Config = problems.length > 0 ? { ...parsed, mode: "off" } : parsed;
  try {
    return await route(request, env, ctx, config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logError("request", message);
    return errorResponse("internal error");
  }
}

/**
 * Config problems are logged at most once a minute per isolate, not once per request (an
 * isolate has one configuration; a different list of problems is logged at once).
 */
const CONFIG_LOG_INTERVAL_MS = 60_000;
let configLogged = { text: "", at: -Infinity };

function logConfigProblems(problems: readonly string[], now: number): void {
  const text = problems.join("; ");
  if (text === configLogged.text && now - configLogged.at < CONFIG_LOG_INTERVAL_MS) return;
  configLogged = { text, at: now };
  logError("config", text);
}

async function route(request: Request, env: Env, ctx: ExecutionContext, config: Config): Promise<Response> {
  const url = new URL(request.url);
  const authority = config.originUrl?.origin ?? url.origin;
  if (config.adminToken && url.pathname.startsWith(config.adminPrefix)) {
    const { problems, warnings } = loadConfig(env);
    return handleAdmin(
      { request, url, config, kv: env.ROBOTS, ctx, authority, configProblems: problems, configWarnings: warnings },
      config.adminToken,
    );
  }
  if (config.originUrlProblem) return errorResponse("the origin is not configured", 502);
  if (!config.originUrl && isLoopbackHost(url.hostname)) return selfLoopResponse();
  if (config.mode === "off" || !isServedAuthority(config, authority)) return forward(request, url, config.originUrl);
  const isRobotsTxt = isRobotsTxtPath(url.pathname) && (request.method === "GET" || request.method === "HEAD");
  const agent = await verifiedAgent(request, env, config, classifyUserAgent(request.headers.get("user-agent")));
  if (agent === "blocked") return impostorResponse();
  if (!isRobotsTxt && !agent.crawler) return forward(request, url, config.originUrl);

  const pause = await activePause(env.ROBOTS, config);
  if (pause) {
    const paused = {
      action: "paused",
      layer: "none",
      judgedPath: url.pathname + url.search,
      decision: undefined,
    } as const;
    if (agent.crawler && config.logDecisions !== "none")
      logDecision(decisionLog(request, url, authority, agent.tokens, paused, config));
    const why = "Crawling is paused for maintenance; please retry later.";
    return unavailableResponse(retryAfterOf(pause, Date.now()), why, "paused");
  }
  const robots = await robotsFor(authority, env.ROBOTS, config, ctx);
  if (isRobotsTxt)
    return robotsTxtResponse(robots, request.method, nextAttemptSeconds(robots.entry, Date.now()), Date.now());

  const verdict = judge({
    mode: config.mode,
    failOpen: config.failOpen,
    state: robots.entry.state,
    matcher: robots.matcher(),
    tokens: agent.tokens,
    obeysGlobalGroup: agent.obeysGlobalGroup,
    pathAndQuery: url.pathname + url.search,
    policy: config.policy,
    category: agent.known?.category,
  });
  if (config.logDecisions === "all" || (config.logDecisions === "blocked" && verdict.action !== "pass"))
    logDecision(decisionLog(request, url, authority, agent.tokens, verdict, config));
  const subject = { knownToken: agent.known?.token, address: request.headers.get("cf-connecting-ip") };
  const paced = await pace(verdict, env, config, authority, subject, agent);
  if (paced) return paced;
  return act(verdict, request, url, config, nextAttemptSeconds(robots.entry, Date.now()));
}

/**
 * A request claiming a crawler whose operator publishes its addresses is checked
 * (agents/verification.ts). An impostor is blocked (VERIFY_CRAWLERS=block) or judged as an
 * unknown bot under `*` only (unknown, the default), and logged as an impostor either way.
 */
async function verifiedAgent(
  request: Request,
  env: Env,
  config: Config,
  agent: AgentInfo,
): Promise<AgentInfo | "blocked"> {
  if (config.verifyCrawlers === "off" || !agent.crawler || !rangeSourceFor(agent)) return agent;
  const cfVerifiedBot = (request.cf as { botManagement?: { verifiedBot?: boolean } } | undefined)?.botManagement
    ?.verifiedBot;
  const address = request.headers.get("cf-connecting-ip");
  const verification = verifyCrawler({ agent, address, cfVerifiedBot, ranges: await crawlerRanges(env.ROBOTS) });
  if (verification !== "impostor") return agent;
  logImpostor({
    userAgent: request.headers.get("user-agent"),
    address,
    claimed: agent.known?.token ?? agent.tokens[0] ?? "",
    treatment: config.verifyCrawlers,
  });
  if (config.verifyCrawlers === "block") return "blocked";
  return { crawler: true, tokens: [], known: undefined, obeysGlobalGroup: true, honoursRateLimits: false };
}

function impostorResponse(): Response {
  return new Response("Blocked: this request claims to be a crawler it does not come from.\n", {
    status: 403,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "private, no-store",
      "x-robots-edge": "impostor",
    },
  });
}

/**
 * Crawl-delay, Request-rate and Visit-time of the crawler's group, when it declares them and
 * the request would pass: outside the visit window 503, too fast 429, each with Retry-After.
 */
async function pace(
  verdict: Verdict,
  env: Env,
  config: Config,
  authority: string,
  subject: RateSubject,
  agent: AgentInfo,
): Promise<Response | undefined> {
  const group = verdict.decision?.group;
  const mode = verdict.policy?.route.mode ?? config.mode;
  if (!group || verdict.action !== "pass" || mode !== "enforce" || !env.CRAWL_RATE) return undefined;
  if (!bindsRateLines(config.enforceRates, group.token, agent)) return undefined;
  const now = Date.now();
  const window = group.extensions.visitTime;
  const visit = window ? visitWindow(window, now) : undefined;
  if (visit && !visit.open) {
    return unavailableResponse(
      visit.retryAfter,
      "Outside the visit time this site's robots.txt asks for (Visit-time, UTC).",
      "visit-time",
    );
  }
  if (!declaresRateLimits(group)) return undefined;
  const limiter = env.CRAWL_RATE.get(env.CRAWL_RATE.idFromName(crawlRateKey(authority, group.token, subject)));
  const result = await limiter.check(rateLimitsAt(group, now), now);
  if (result.allowed) return undefined;
  return new Response(
    "Too many requests: this site's robots.txt asks for a slower crawl (Crawl-delay / Request-rate).\n",
    {
      status: 429,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "retry-after": String(result.retryAfter),
        "x-robots-edge": "rate-limited",
      },
    },
  );
}

async function act(
  verdict: Verdict,
  request: Request,
  url: URL,
  config: Config,
  retryAfterSeconds: number,
): Promise<Response> {
  switch (verdict.action) {
    case "block":
      return blockedResponse(verdict, verdict.blockStatus ?? config.blockStatus);
    case "unavailable":
      return unavailableResponse(
        retryAfterSeconds,
        "robots.txt is temporarily unavailable; please retry later.",
        "robots-unavailable",
      );
    case "report":
      return withHeader(
        await forward(request, url, config.originUrl),
        "x-robots-edge",
        ruleHeader("would-block", verdict),
      );
    case "pass":
      return forward(request, url, config.originUrl);
  }
}

/** `/robots.txt` in any spelling that means it (`/%72obots.txt`: RFC 9309 §2.2.2 equivalence). */
function isRobotsTxtPath(pathname: string): boolean {
  return pathname === "/robots.txt" || canonicalizePath(pathname) === "/robots.txt";
}

function decisionLog(
  request: Request,
  url: URL,
  authority: string,
  tokens: readonly string[],
  verdict: LoggedOutcome,
  config: Config,
): DecisionLog {
  const userAgent = request.headers.get("user-agent");
  return {
    authority,
    method: request.method,
    url,
    userAgent,
    tokens,
    verdict,
    mode: config.mode,
    logQuery: config.logQuery,
  };
}

/**
 * Route mode forwards with fetch(request) to the address the request came to. Run locally
 * (`wrangler dev` without ORIGIN_URL) that address is the Worker itself, which would call
 * itself until the runtime gives up. A deployed Worker is never addressed by a loopback host.
 */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
}

function selfLoopResponse(): Response {
  return errorResponse(
    "route mode (no ORIGIN_URL) forwards each request to the address it came to, which here is this Worker itself. Locally, run `npm run dev` (proxy mode in front of a demo origin) or set ORIGIN_URL, e.g. `npx wrangler dev --var ORIGIN_URL:https://your-origin.example`.",
    508,
  );
}

/** Cron: refresh expired origins (capped and paged, cron-refresh.ts) and the crawler ranges. */
async function handleScheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
  const { config } = loadConfig(env);
  const work: Promise<unknown>[] = [refreshDueOrigins(env, config)];
  if (config.verifyCrawlers !== "off") work.push(refreshCrawlerRanges(env.ROBOTS, config.fetchTimeoutMs));
  ctx.waitUntil(Promise.allSettled(work));
  await Promise.allSettled(work);
}
