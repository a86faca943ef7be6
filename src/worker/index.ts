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
import { declaresRateLimits, rateLimitsAt, visitWindow } from "../policy/crawl-rate.ts";
import { handleAdmin } from "./admin.ts";
import { forward } from "./forward.ts";
import { crawlRateKey } from "./crawl-rate-object.ts";
import { crawlerRanges, refreshCrawlerRanges } from "./crawler-ranges.ts";
import { ConfigError, loadConfig, type Config, type Env } from "./config.ts";
import { judge, type Verdict } from "../policy/judge.ts";
import { logDecision, logError, logImpostor } from "./log.ts";
import { activePause, retryAfterOf } from "./pause.ts";
import { refresh, robotsFor } from "./robots-cache.ts";
import { robotsTxtResponse } from "./robots-route.ts";
import { blockedResponse, errorResponse, ruleHeader, unavailableResponse, withHeader } from "./responses.ts";
import { listAuthorities, readEntry } from "./store.ts";

export { CrawlRate } from "./crawl-rate-object.ts";

export default {
  fetch: handleFetch,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;

async function handleFetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logError("config", error.message);
    return errorResponse(error.message);
  }
  try {
    return await route(request, env, ctx, config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logError("request", message);
    return errorResponse(`internal error: ${message}`);
  }
}

async function route(request: Request, env: Env, ctx: ExecutionContext, config: Config): Promise<Response> {
  const url = new URL(request.url);
  const authority = config.originUrl?.origin ?? url.origin;
  if (config.adminToken && url.pathname.startsWith(config.adminPrefix)) {
    return handleAdmin({ request, url, config, kv: env.ROBOTS, ctx, authority }, config.adminToken);
  }
  if (config.mode === "off") return forward(request, url, config.originUrl ?? url);
  const isRobotsTxt = url.pathname === "/robots.txt" && (request.method === "GET" || request.method === "HEAD");
  const agent = await verifiedAgent(request, env, config, classifyUserAgent(request.headers.get("user-agent")));
  if (agent === "blocked") return impostorResponse();
  if (!isRobotsTxt && !agent.crawler) return forward(request, url, config.originUrl ?? url);

  const pause = await activePause(env.ROBOTS, config);
  if (pause) {
    const why = "Crawling is paused for maintenance; please retry later.";
    return unavailableResponse(retryAfterOf(pause, Date.now()), why, "paused");
  }
  const robots = await robotsFor(authority, env.ROBOTS, config, ctx);
  if (isRobotsTxt) return robotsTxtResponse(robots, request.method, config.retryAfterSeconds, Date.now());

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
    logDecision({
      authority,
      method: request.method,
      url,
      userAgent: request.headers.get("user-agent"),
      tokens: agent.tokens,
      verdict,
      mode: config.mode,
    });
  const paced = await pace(verdict, env, config, authority, agent.tokens[0] ?? "*");
  if (paced) return paced;
  return act(verdict, request, url, config);
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
    claimed: agent.known?.token ?? "",
    treatment: config.verifyCrawlers,
  });
  if (config.verifyCrawlers === "block") return "blocked";
  return { crawler: true, tokens: [], known: undefined, obeysGlobalGroup: true };
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
  crawlerToken: string,
): Promise<Response | undefined> {
  const group = verdict.decision?.group;
  const mode = verdict.policy?.route.mode ?? config.mode;
  if (!group || verdict.action !== "pass" || mode !== "enforce" || !config.enforceRates || !env.CRAWL_RATE)
    return undefined;
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
  const limiter = env.CRAWL_RATE.get(env.CRAWL_RATE.idFromName(crawlRateKey(authority, group.token, crawlerToken)));
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

async function act(verdict: Verdict, request: Request, url: URL, config: Config): Promise<Response> {
  switch (verdict.action) {
    case "block":
      return blockedResponse(verdict, verdict.blockStatus ?? config.blockStatus);
    case "unavailable":
      return unavailableResponse(
        config.retryAfterSeconds,
        "robots.txt is temporarily unavailable; please retry later.",
        "robots-unavailable",
      );
    case "report":
      return withHeader(await forward(request, url, config.originUrl ?? url), "x-robots-edge", ruleHeader("would-block", verdict));
    case "pass":
      return forward(request, url, config.originUrl ?? url);
  }
}

/** Cron: refresh every known origin whose entry has expired. */
async function handleScheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
  const config = loadConfig(env);
  const authorities = new Set(await listAuthorities(env.ROBOTS));
  if (config.originUrl) authorities.add(config.originUrl.origin);
  const now = Date.now();
  const work = [...authorities].map(async (authority) => {
    const entry = await readEntry(env.ROBOTS, authority);
    if (!entry || entry.expiresAt <= now) await refresh(authority, env.ROBOTS, config, entry);
  });
  if (config.verifyCrawlers !== "off") work.push(refreshCrawlerRanges(env.ROBOTS, config.fetchTimeoutMs));
  ctx.waitUntil(Promise.allSettled(work));
  await Promise.allSettled(work);
}
