/**
 * One request, from facts to a response. The Worker's side of the one decision
 * (policy/edge-decision.ts): gather the facts it asks for (config, verification, pause,
 * the stored robots.txt, the live operator policy, rate state — I/O only when the decision
 * reaches them), then perform the action it returns. Nothing here decides what happens to a request.
 */

import { classifyUserAgent } from "../../agents/classify.ts";
import { settingsOf } from "../../config/edge-settings.ts";
import { categoryOfCloudflare, cloudflareBotOf } from "../../agents/verification.ts";
import { activityOf } from "../../policy/activity.ts";
import { newRequestAccount } from "../../core/index.ts";
import { decideEdge, isRobotsTxtPath } from "../../policy/edge-decision.ts";
import { NOTHING_GATHERED, type EdgeFacts } from "../../policy/edge-facts.ts";
import type { EdgeRecord } from "../../policy/edge-record.ts";
import { recordActivity } from "../activity/recorder.ts";
import { ledgerFor } from "../activity/ledger-memory.ts";
import { withLedgerMarks } from "../activity/ledger-marks.ts";
import type { EdgeContext } from "./context.ts";
import { hostMemo, type HostMemo } from "./host-memo.ts";
import { adminTokenKept, forward } from "./forward.ts";
import { carriesToken } from "../admin-token.ts";
import { policyInForce } from "../live-policy.ts";
import { logDecision } from "../log.ts";
import { checkCrawlRate } from "./pacing.ts";
import { activePause, retryAfterOf } from "../pause.ts";
import {
  blockedResponse,
  errorResponse,
  impostorResponse,
  rateLimitedResponse,
  readingHeader,
  ruleHeader,
  selfLoopResponse,
  signatureRequiredResponse,
  signatureReusedResponse,
  unavailableResponse,
  usageBlockedResponse,
  usageHeader,
  withHeader,
} from "../responses.ts";
import { judgedRobots, robotsFor, type LoadedRobots } from "../robots/cache.ts";
import { nextAttemptSeconds } from "../robots/entry.ts";
import { servedRobots } from "../robots/purposes-served.ts";
import { robotsTxtResponse } from "../robots/route.ts";
import { cataloguedClaim } from "../identity/catalogues.ts";
import { disguiseOf } from "../identity/disguised.ts";
import { thrownJudgingCrawler } from "./own-fault.ts";
import { needsVerification, verifyClaim } from "../identity/verify-crawler.ts";
import { carriesSignature, checkSignature } from "../identity/verify-signature.ts";
import { licenceTokenOf } from "../../policy/terms.ts";
import { checkLicence } from "../licence/introspect.ts";
import { licenceRequiredResponse, withTermsHeaders } from "../licence/terms-headers.ts";
import { isTdmrepRequest, tdmrepResponse } from "../licence/tdmrep-route.ts";
import { chargeRowOf, recordCharge } from "../charges/recorder.ts";
import { isChargeable, priceResponse, withCharged } from "../charges/responses.ts";
import { withRateLimit } from "./rate-limit-fields.ts";

/** Decide (gathering facts as asked), log, record, and perform: the one record, rendered three ways. */
export async function handleRequest(edge: EdgeContext): Promise<Response> {
  const memo = hostMemo(edge.config, edge.authority);
  const initial = initialFacts(edge, memo);
  let facts: EdgeFacts = {
    ...initial,
    // One matching budget for every decideEdge call of this request (the gathers below ask again).
    matchingAccount: newRequestAccount(),
    carriesAdminToken: await carriesAdminToken(edge),
    // Held, not gathered: a crawler the built-in table lacks is looked up in the catalogues the
    // isolate holds (a KV read every 10 minutes at most); a browser or a known crawler costs nothing.
    catalogued: await cataloguedClaim(edge.env.ROBOTS, edge.config, initial.agent, initial.cloudflareCategory),
  };
  let robots: LoadedRobots | undefined;
  // The policy in force for the request's own host, read once per request: the robots.txt it
  // serves (its purposes) and the rules it judges by are then always the same version.
  let inForce: ReturnType<typeof policyInForce> | undefined;
  const policyNow = async () =>
    (await (inForce ??= policyInForce(edge.env.ROBOTS, edge.config, memo.policyHost, memo))).compiled;
  // TDMRep's well-known file, from the purposes (licence/tdmrep-route.ts): a terms file, read by anyone.
  if (facts.served && facts.mode !== "off" && !facts.carriesAdminToken && isTdmrepRequest(edge)) {
    const file = await tdmrepResponse(edge, await policyNow());
    if (file) return file;
  }
  let answer = judged(facts);
  while ("gather" in answer) {
    const asked = answer;
    switch (asked.gather) {
      case "signature":
        facts = { ...facts, signature: await checkSignature(edge) };
        break;
      case "verification":
        facts = { ...facts, verification: await verifyClaim(edge, facts.agent) };
        break;
      case "disguise": {
        // No await on a warm isolate: every browser request comes this way.
        const found = disguiseOf(edge);
        facts = { ...facts, disguise: (found instanceof Promise ? await found : found) ?? "none" };
        break;
      }
      case "pause": {
        const pause = await activePause(edge.env.ROBOTS, edge.config);
        facts = { ...facts, pause: pause ? { retryAfter: retryAfterOf(pause, facts.now) } : "none" };
        break;
      }
      case "robots":
        robots = servedRobots(
          await robotsFor(edge.authority, edge.env.ROBOTS, edge.config, edge.ctx),
          await policyNow(),
        );
        facts = { ...facts, robots: robotsFact(robots, Date.now()) };
        break;
      case "policy": {
        const policy = (await policyNow()) ?? "none";
        // Rules with a condition read the recorded counts the isolate holds (never I/O here).
        const ledger = policy !== "none" && policy.hasConditions ? ledgerFor(edge) : undefined;
        facts = { ...facts, policy, ledger };
        break;
      }
      case "rate": {
        // Who is paced comes with the question (a crawler in disguise is paced as the crawler
        // its list names); were it missing, the strictest: an unnamed client of its network.
        const rate = await checkCrawlRate(
          edge,
          {
            group: asked.group ?? "*",
            limits: asked.limits ?? { minIntervalMs: 0, rates: [] },
            subject: asked.subject ?? { knownToken: undefined, proven: false },
          },
          facts.now,
        );
        facts = { ...facts, rate };
        break;
      }
      case "licence": {
        const token = facts.licenceToken?.kind === "token" ? facts.licenceToken.token : "";
        if (!asked.licence) throw new TypeError("a licence check was asked for without its server");
        facts = {
          ...facts,
          licence: await checkLicence(asked.licence, token, siteOf(edge), licenceCredentials(edge.env)),
        };
        break;
      }
    }
    answer = judged(facts);
  }
  logOutcome(edge, answer);
  const response = withRateLimit(withTermsHeaders(await perform(edge, answer, robots), answer.terms), answer);
  // Recorded after the response: a crawler's bytes are the Content-Length the origin answered.
  const activity = activityOf(answer, edge.request.method, facts.now);
  if (activity) {
    const forwarded = answer.action === "pass" || answer.action === "report";
    recordActivity(
      edge,
      withLedgerMarks(activity, { request: edge.request, url: edge.url, forwarded, response }),
      memo,
    );
  }
  if (isChargeable(answer, response)) {
    const row = await chargeRowOf(answer, facts.now);
    if (row) recordCharge(edge, row);
  }
  return response;
}

/**
 * The decision on `facts`. Were it to throw (a matching too costly, a bug) for a request the
 * edge already judges as a crawler's whatever its User-Agent says (a crawler in disguise: a
 * browser User-Agent from a crawler-only range; a trusted signer's agent, Web Bot Auth, which
 * may send a browser's), the fail-safe is told: it asks the User-Agent only, which says "a
 * person", and would forward the crawler unjudged (own-fault.ts; attack 14, A14-4).
 */
function judged(facts: EdgeFacts): ReturnType<typeof decideEdge> {
  try {
    return decideEdge(facts);
  } catch (error) {
    if (judgedAsCrawlerWhateverItsUserAgent(facts)) thrownJudgingCrawler(error);
    throw error;
  }
}

function judgedAsCrawlerWhateverItsUserAgent(facts: EdgeFacts): boolean {
  if (typeof facts.disguise === "object" && facts.disguisedCrawlers === "enforce") return true;
  const signature = facts.signature;
  return typeof signature === "object" && (signature.status === "verified" || signature.status === "reused");
}

/**
 * Whether the request's Authorization carries ADMIN_TOKEN: a fact for the decision, which never
 * forwards such a request (edge-decision.ts step 1), so the log and activity say the 404 the
 * edge answered. Only requests with an Authorization header pay for the comparison.
 */
async function carriesAdminToken({ request, config }: EdgeContext): Promise<boolean> {
  return config.adminToken !== undefined && (await carriesToken(request, config.adminToken));
}

function initialFacts(edge: EdgeContext, memo: HostMemo): EdgeFacts {
  const { request, url, config } = edge;
  const agent = classifyUserAgent(request.headers.get("user-agent"));
  const readsRobots = request.method === "GET" || request.method === "HEAD";
  return {
    ...settingsOf(config, { rateLimiter: Boolean(edge.env.CRAWL_RATE) }),
    selfAddressed: !config.originUrl && isLoopbackHost(url.hostname),
    served: memo.served,
    isRobotsTxt: readsRobots && isRobotsTxtPath(url.pathname),
    pathAndQuery: url.pathname + url.search,
    agent,
    signed: carriesSignature(request, config.verifyCrawlers),
    needsVerification: needsVerification(edge, agent),
    // Only a crawler our table does not know takes Cloudflare's category; a browser costs no read.
    priceHeaders: {
      exact: request.headers.get("crawler-exact-price"),
      max: request.headers.get("crawler-max-price"),
    },
    cloudflareCategory:
      agent.crawler && !agent.known ? categoryOfCloudflare(cloudflareBotOf(request.cf).category) : undefined,
    // Read bounded, before any parsing (policy/terms.ts); asked of the licence server only on a route requiring one.
    licenceToken: licenceTokenOf(request.headers.get("authorization")),
    now: Date.now(),
    ...NOTHING_GATHERED,
  };
}

/** A file too large to compile is "unavailable" here (judgedRobots): the decision's one path for it. */
function robotsFact(robots: LoadedRobots, now: number): NonNullable<EdgeFacts["robots"]> {
  return { ...judgedRobots(robots), retryAfter: nextAttemptSeconds(robots.entry, now) };
}

/** The record as a response: each action (and, where it has several, each layer) has exactly one. */
async function perform(edge: EdgeContext, record: EdgeRecord, robots: LoadedRobots | undefined): Promise<Response> {
  const { request, url, config } = edge;
  switch (record.action) {
    case "error":
      if (record.layer === "admin-token") return adminTokenKept();
      return record.layer === "self-loop" ? selfLoopResponse() : errorResponse("the origin is not configured", 502);
    case "pass":
      return withCharged(withContentUsage(await forward(request, url, config.originUrl), record.contentUsage), record);
    case "report": {
      const forwarded = await forward(request, url, config.originUrl);
      // A crawler in disguise is never told what the edge knows of it: a report-only
      // mark about it stays in the log and activity, and never reaches the client it is about.
      if (record.identity.judgedAs === "disguised") return forwarded;
      return withHeader(forwarded, "x-robots-edge", wouldBlock(record));
    }
    case "serve-robots-txt":
      if (!robots) throw new TypeError("robots.txt to serve was not loaded");
      return robotsTxtResponse(robots, request.method, record.retryAfter ?? 0, Date.now());
    case "block":
      return blocked(record);
    case "rate-limited":
      return record.layer === "signature"
        ? signatureReusedResponse(record.retryAfter ?? 1)
        : rateLimitedResponse(record.retryAfter ?? 1, record.verdict);
    case "unavailable": {
      const why = unavailableWhy(record.layer);
      return unavailableResponse(record.retryAfter ?? 1, why.text, why.marker);
    }
  }
}

/** A refusal's response: an impostor, a rule asking for a signature, a usage line, a policy or robots.txt rule. */
function blocked(record: EdgeRecord): Response {
  const status = record.status ?? 403;
  if (record.layer === "verification") return impostorResponse();
  if (record.layer === "licence") return licenceRequiredResponse(record);
  if (record.layer === "charge") return priceResponse(record);
  if (record.usage) return usageBlockedResponse(record.usage, status);
  if (!record.verdict) throw new TypeError(`a block by ${record.layer} has no verdict to show`);
  if (record.layer === "signature") return signatureRequiredResponse(record.verdict);
  return blockedResponse(record.verdict, status);
}

/** X-Robots-Edge of a request forwarded under `report`: what would have blocked it. */
function wouldBlock(record: EdgeRecord): string {
  if (record.usage) return usageHeader("would-block", record.usage);
  if (record.layer === "licence") return `would-block; licence=${record.terms?.licenceCheck ?? "missing"}`;
  // A rule the readings of robots.txt dispute (policy/readings.ts): the rule one of them refuses by.
  if (record.reading) return readingHeader(record.reading);
  return record.verdict ? ruleHeader("would-block", record.verdict) : "would-block";
}

/** The path's usage preferences on a passed crawler response, unless the origin stated its own. */
function withContentUsage(response: Response, contentUsage: string | null): Response {
  if (!contentUsage || response.headers.has("content-usage") || response.status === 101) return response;
  return withHeader(response, "content-usage", contentUsage);
}

/** What a 503 says, and its X-Robots-Edge marker, per layer that answers one. */
const UNAVAILABLE_WHY = {
  pause: { marker: "paused", text: "Crawling is paused for maintenance; please retry later." },
  "robots-unavailable": {
    marker: "robots-unavailable",
    text: "robots.txt is temporarily unavailable; please retry later.",
  },
  "visit-time": {
    marker: "visit-time",
    text: "Outside the visit time this site's robots.txt asks for (Visit-time, UTC).",
  },
  licence: {
    marker: "licence-server-unavailable",
    text: "This site could not check the licence token with its licence server; please retry later.",
  },
  "unproven-claim": {
    marker: "unproven-claim",
    text: "This site could not verify the crawler this request names, and its robots.txt does not let unnamed crawlers in here; please retry later.",
  },
} as const;

function unavailableWhy(layer: EdgeRecord["layer"]): { readonly marker: string; readonly text: string } {
  // A layer that answers 503 without its own words still says to retry, and names itself.
  if (!Object.hasOwn(UNAVAILABLE_WHY, layer))
    return { marker: layer, text: "Temporarily unavailable; please retry later." };
  return UNAVAILABLE_WHY[layer as keyof typeof UNAVAILABLE_WHY];
}

/** One JSON line per crawler decision (LOG_DECISIONS), pauses and rate limits included. */
function logOutcome(edge: EdgeContext, record: EdgeRecord): void {
  const { config, request } = edge;
  if (config.logDecisions === "none" || !isLoggedDecision(record)) return;
  if (config.logDecisions === "blocked" && record.action === "pass") return;
  logDecision(record, {
    authority: edge.authority,
    method: request.method,
    userAgent: request.headers.get("user-agent"),
    mode: config.mode,
    logQuery: config.logQuery,
    format: config.logFormat,
  });
}

/**
 * Which records are a crawler decision worth a log line: an automated client's request that
 * was judged (not MODE=off, a host not served, nowhere to send), other than its fetch of
 * robots.txt.
 */
function isLoggedDecision(record: EdgeRecord): boolean {
  // The admin token's 404 is logged whoever asked: the operator who misspelt a path sees why.
  if (record.layer === "admin-token") return true;
  if (!record.identity.crawler || record.action === "serve-robots-txt" || record.action === "error") return false;
  return record.layer !== "mode-off" && record.layer !== "not-served";
}

/**
 * Route mode forwards to the address the request came to. Run locally (`wrangler dev`
 * without ORIGIN_URL) that address is the Worker itself, which would call itself until the
 * runtime gives up. A deployed Worker is never addressed by a loopback host.
 */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
}

/** The site a licence token must be for: the origin this request belongs to. */
function siteOf(edge: EdgeContext): string {
  return new URL(edge.authority.includes("://") ? edge.authority : `https://${edge.authority}`).origin;
}

/** LICENCE_SERVER_CREDENTIALS (`client_id:client_secret`, a secret): how we authenticate to the licence server. */
function licenceCredentials(env: Env): string | undefined {
  const raw: unknown = (env as { LICENCE_SERVER_CREDENTIALS?: unknown }).LICENCE_SERVER_CREDENTIALS;
  return typeof raw === "string" && raw.trim() !== "" ? raw : undefined;
}
