/**
 * One request, from facts to a response. The Worker's side of the one decision
 * (policy/edge-decision.ts): gather the facts it asks for (config, verification, pause,
 * the stored robots.txt, the live operator policy, rate state — I/O only when the decision
 * reaches them), then perform the action it returns. Nothing here decides what happens to a request.
 */

import { classifyUserAgent } from "../../agents/classify.ts";
import { categoryOfCloudflare, cloudflareBotOf } from "../../agents/verification.ts";
import { activityOf } from "../../policy/activity.ts";
import { decideEdge, isRobotsTxtPath, verificationOf } from "../../policy/edge-decision.ts";
import type { EdgeAction, EdgeFacts } from "../../policy/edge-facts.ts";
import { recordActivity } from "../activity/recorder.ts";
import { ledgerFor } from "../activity/ledger-memory.ts";
import { withLedgerMarks } from "../activity/ledger-marks.ts";
import { isServedAuthority } from "../robots/authorities.ts";
import type { EdgeContext } from "./context.ts";
import { forward } from "./forward.ts";
import { policyInForce } from "../live-policy.ts";
import { logDecision, type LoggedOutcome } from "../log.ts";
import { checkCrawlRate } from "./pacing.ts";
import { activePause, retryAfterOf } from "../pause.ts";
import {
  blockedResponse,
  errorResponse,
  impostorResponse,
  rateLimitedResponse,
  ruleHeader,
  selfLoopResponse,
  signatureRequiredResponse,
  signatureReusedResponse,
  unavailableResponse,
  usageBlockedResponse,
  usageHeader,
  withHeader,
} from "../responses.ts";
import { robotsFor, type LoadedRobots } from "../robots/cache.ts";
import { nextAttemptSeconds } from "../robots/entry.ts";
import { servedRobots } from "../robots/purposes-served.ts";
import { robotsTxtResponse } from "../robots/route.ts";
import { needsVerification, verifyClaim } from "../identity/verify-crawler.ts";
import { carriesSignature, checkSignature } from "../identity/verify-signature.ts";

/** Decide (gathering facts as asked), log, and perform. */
export async function handleRequest(edge: EdgeContext): Promise<Response> {
  let facts = initialFacts(edge);
  let robots: LoadedRobots | undefined;
  let action = decideEdge(facts);
  while (action.kind === "gather") {
    const fact = action;
    switch (fact.fact) {
      case "signature":
        facts = { ...facts, signature: await checkSignature(edge) };
        break;
      case "verification":
        facts = { ...facts, verification: await verifyClaim(edge, facts.agent) };
        break;
      case "pause": {
        const pause = await activePause(edge.env.ROBOTS, edge.config);
        facts = { ...facts, pause: pause ? { retryAfter: retryAfterOf(pause, facts.now) } : null };
        break;
      }
      case "robots":
        robots = servedRobots(
          await robotsFor(edge.authority, edge.env.ROBOTS, edge.config, edge.ctx),
          (await policyInForce(edge.env.ROBOTS, edge.config)).compiled,
        );
        facts = { ...facts, robots: robotsFact(robots, Date.now()) };
        break;
      case "policy": {
        const policy = (await policyInForce(edge.env.ROBOTS, edge.config)).compiled ?? null;
        // Rules with a condition read the recorded counts the isolate holds (never I/O here).
        const ledger = policy?.hasConditions ? ledgerFor(edge) : undefined;
        facts = { ...facts, policy, ledger };
        break;
      }
      case "rate": {
        const pacing = { group: fact.group ?? "*", limits: fact.limits ?? { minIntervalMs: 0, rates: [] } };
        const rate = await checkCrawlRate(
          edge,
          { ...pacing, agent: facts.agent, verification: verificationOf(facts) },
          facts.now,
        );
        facts = { ...facts, rate };
        break;
      }
    }
    action = decideEdge(facts);
  }
  logOutcome(edge, facts, action);
  const response = await perform(edge, action, robots);
  const activity = activityOf(facts, action, edge.request.method);
  if (activity) {
    const forwarded = action.kind === "pass" || action.kind === "report" || action.kind === "forward";
    recordActivity(edge, withLedgerMarks(activity, { request: edge.request, url: edge.url, forwarded, response }));
  }
  return response;
}

function initialFacts(edge: EdgeContext): EdgeFacts {
  const { request, url, config } = edge;
  const agent = classifyUserAgent(request.headers.get("user-agent"));
  const readsRobots = request.method === "GET" || request.method === "HEAD";
  return {
    originUnusable: config.originUrlProblem,
    selfAddressed: !config.originUrl && isLoopbackHost(url.hostname),
    mode: config.mode,
    served: isServedAuthority(config, edge.authority),
    isRobotsTxt: readsRobots && isRobotsTxtPath(url.pathname),
    pathAndQuery: url.pathname + url.search,
    agent,
    signed: carriesSignature(request, config.verifyCrawlers),
    verifyCrawlers: config.verifyCrawlers,
    needsVerification: needsVerification(edge, agent),
    // Only a crawler our table does not know takes Cloudflare's category; a browser costs no read.
    cloudflareCategory:
      agent.crawler && !agent.known ? categoryOfCloudflare(cloudflareBotOf(request.cf).category) : undefined,
    failOpen: config.failOpen,
    blockStatus: config.blockStatus,
    enforceRates: config.enforceRates,
    usageSignals: config.usageSignals,
    usageHeader: config.usageHeader,
    rateLimiter: Boolean(edge.env.CRAWL_RATE),
    now: Date.now(),
  };
}

function robotsFact(robots: LoadedRobots, now: number): NonNullable<EdgeFacts["robots"]> {
  return { state: robots.entry.state, matcher: robots.matcher(), retryAfter: nextAttemptSeconds(robots.entry, now) };
}

/** The action as a response: each kind has exactly one. */
async function perform(edge: EdgeContext, action: EdgeAction, robots: LoadedRobots | undefined): Promise<Response> {
  const { request, url, config } = edge;
  switch (action.kind) {
    case "no-origin":
      return errorResponse("the origin is not configured", 502);
    case "self-loop":
      return selfLoopResponse();
    case "forward":
      return forward(request, url, config.originUrl);
    case "pass":
      return withContentUsage(await forward(request, url, config.originUrl), action.contentUsage);
    case "report": {
      const marker = action.usage
        ? usageHeader("would-block", action.usage)
        : ruleHeader("would-block", action.verdict);
      return withHeader(await forward(request, url, config.originUrl), "x-robots-edge", marker);
    }
    case "impostor":
      return impostorResponse();
    case "serve-robots-txt":
      if (!robots) throw new TypeError("robots.txt to serve was not loaded");
      return robotsTxtResponse(robots, request.method, action.retryAfter, Date.now());
    case "block":
      if (action.usage) return usageBlockedResponse(action.usage, action.status);
      return blockedResponse(action.verdict, action.status);
    case "rate-limited":
      return rateLimitedResponse(action.retryAfter);
    case "signature-reused":
      return signatureReusedResponse(action.retryAfter);
    case "signature-required":
      return signatureRequiredResponse(action.verdict);
    case "unavailable":
      return unavailableResponse(action.retryAfter, UNAVAILABLE_WHY[action.why], action.why);
    case "gather":
      throw new TypeError(`the decision still needs ${action.fact}`);
  }
}

/** The path's usage preferences on a passed crawler response, unless the origin stated its own. */
function withContentUsage(response: Response, contentUsage: string | undefined): Response {
  if (!contentUsage || response.headers.has("content-usage") || response.status === 101) return response;
  return withHeader(response, "content-usage", contentUsage);
}

const UNAVAILABLE_WHY = {
  paused: "Crawling is paused for maintenance; please retry later.",
  "robots-unavailable": "robots.txt is temporarily unavailable; please retry later.",
  "visit-time": "Outside the visit time this site's robots.txt asks for (Visit-time, UTC).",
  "unproven-claim":
    "This site could not verify the crawler this request names, and its robots.txt does not let unnamed crawlers in here; please retry later.",
} as const;

/** One JSON line per crawler decision (LOG_DECISIONS), pauses and rate limits included. */
function logOutcome(edge: EdgeContext, facts: EdgeFacts, action: EdgeAction): void {
  const { config, request, url } = edge;
  const signed = facts.signature?.status === "verified" ? facts.signature : undefined;
  const agent = signed?.agent ?? facts.agent;
  const signatureClaim = facts.signature?.status === "failed" || facts.signature?.status === "reused";
  if (config.logDecisions === "none" || !(agent.crawler || signatureClaim)) return;
  const outcome = loggedOutcome(action, facts.pathAndQuery);
  if (!outcome || (config.logDecisions === "blocked" && outcome.action === "pass")) return;
  logDecision({
    authority: edge.authority,
    method: request.method,
    url,
    userAgent: request.headers.get("user-agent"),
    tokens: agent.tokens,
    verdict: outcome,
    mode: config.mode,
    logQuery: config.logQuery,
    signer: signed?.signer,
    verification: verificationOf(facts),
  });
}

function loggedOutcome(action: EdgeAction, pathAndQuery: string): LoggedOutcome | undefined {
  const none = { layer: "none", judgedPath: pathAndQuery, decision: undefined } as const;
  switch (action.kind) {
    case "pass":
      return { ...action.verdict, action: action.kind };
    case "block":
    case "report":
      return {
        ...action.verdict,
        action: action.kind,
        ...(action.usage && { layer: "usage-signal", usage: action.usage }),
        ...(action.kind === "report" && action.unproven && { layer: "unproven-claim" }),
      };
    case "rate-limited":
      return { ...action.verdict, action: "rate-limited" };
    case "unavailable": {
      const name = action.why === "robots-unavailable" ? "unavailable" : action.why;
      const unproven = action.why === "unproven-claim" && { layer: "unproven-claim" as const };
      return { ...(action.verdict ?? none), action: name, ...unproven };
    }
    case "impostor":
      return { ...none, action: "impostor" };
    case "signature-reused":
      return { ...none, action: "rate-limited" };
    case "signature-required":
      return { ...action.verdict, action: "block" };
    default:
      return undefined;
  }
}

/**
 * Route mode forwards to the address the request came to. Run locally (`wrangler dev`
 * without ORIGIN_URL) that address is the Worker itself, which would call itself until the
 * runtime gives up. A deployed Worker is never addressed by a loopback host.
 */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
}
