/**
 * Our failure is never the visitor's: the one place an exception of the edge's own becomes a
 * response (index.ts's one catch), beside the validated readers of stored state (store.ts).
 *
 *   - a person: the origin's answer, forwarded unjudged (the edge adds nothing to it);
 *   - a crawler: 503 with Retry-After, never a 403 or a 500 for our fault (a crawler retries; a
 *     5xx other than 503, or a 403, could drop the site's URLs or turn crawling off); under
 *     MODE=report or FAIL_OPEN=true, the origin's answer as a person's, except for a decision too
 *     costly to make, whose cost a client chooses (crawlerAnswerOf);
 *   - GET/HEAD /robots.txt: the last copy this isolate loaded, else 503 with Retry-After
 *     (Google reads a 500 robots.txt as "crawl nothing" for as long as it lasts);
 *   - the admin API: JSON 500 naming the error (the operator may read it);
 *   - the operator: a fault in GET status (own-faults.ts) and one log line. A decision the
 *     matcher found too costly to make (core/match-budget.ts MatchingTooCostly: the robots.txt's
 *     wildcard rules or groups, on a path that long) is named under the host's robots.txt, with
 *     its repair: it is the file's shape, not a bug, and the edge could not check, so it must not
 *     guess (a crawler gets what any other fault here gives it, a person never runs the matcher).
 *   - a licence server that fails, hangs or answers nothing we can read (worker/licence): the
 *     crawler's licence check stands `unavailable`, which the decision answers 503 with this
 *     Retry-After (policy/terms.ts), never a refusal; the operator sees the server named.
 *
 * Who is a person is asked of the classifier again, with one thing else: a crawler in disguise
 * the decision had already recognised (judgedAsCrawler); if even the classifier fails, the
 * request is a person's. No bypass comes of it: a crawler can always claim a browser's
 * User-Agent, and that request is forwarded unjudged anyway; what the fallback must never do is
 * refuse a person for our fault. Nothing here may throw: each step that could is caught, and the
 * last resort is a plain 502 for a person (nowhere known to forward to) or a 503 for a crawler.
 */

import { classifyUserAgent } from "../../agents/classify.ts";
import { MatchingTooCostly } from "../../core/index.ts";
import type { Config } from "../../config/read-config.ts";
import { isRobotsTxtPath } from "../../policy/edge-decision.ts";
import { logError } from "../log.ts";
import { clearOwnFault, noteOwnFault } from "../own-faults.ts";
import type { LicenceFact } from "../../policy/terms.ts";
import { errorResponse, jsonResponse, unavailableResponse } from "../responses.ts";
import { authorityOf } from "../robots/authorities.ts";
import { tooLargeFaultKey } from "../robots/capped-matcher.ts";
import { lastLoadedRobots } from "../robots/cache.ts";
import { robotsTxtResponse } from "../robots/route.ts";
import { carriesToken } from "../admin-token.ts";
import { adminTokenKept, forward } from "./forward.ts";

/** Retry-After of a 503 for our own fault: short, since most faults pass or are repaired quickly. */
export const OWN_FAULT_RETRY_AFTER_SECONDS = 120;

/** What the catch knows: the request and env, and the config and authority when they were read before the fault. */
export interface FaultContext {
  readonly request: Request;
  readonly env: Env;
  readonly config: Config | undefined;
  readonly authority: string | undefined;
}

export async function ownFaultResponse(context: FaultContext, error: unknown): Promise<Response> {
  const message = error instanceof Error ? error.message : String(error);
  logError("request", message);
  const { request, config } = context;
  const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
  const crawlers = crawlerAnswerOf(config, error);
  if (config && url?.pathname.startsWith(config.adminPrefix)) {
    // The operator's own question (explain, the tester): no crawler was answered, so nothing is
    // noted as if one were (attack 13, A13-6); the operator reads the error here.
    if (!(error instanceof MatchingTooCostly)) noteRequestFault(message, crawlers);
    return jsonResponse({ error: `internal error: ${message}; see GET status` }, 500);
  }
  if (error instanceof MatchingTooCostly && context.authority !== undefined) {
    // The length says whose the cost was: a client may send a long URL on purpose, whose only
    // refusing spelling comes last, and make an ordinary file's decision too costly (attack 14).
    const length = url ? url.pathname.length + url.search.length : 0;
    noteOwnFault(
      tooLargeFaultKey(context.authority),
      `a crawler's request (a path and query of ${length} characters) was not decided: ${message}; ${CRAWLER_ANSWERS[crawlers]}, people pass`,
      `if the site's own URLs are that long, have it serve a robots.txt with fewer wildcard rules (and fewer groups naming the same crawler), then POST refresh?origin=${context.authority}; a URL a client made that long needs nothing (it was answered 503)`,
    );
  } else {
    noteRequestFault(message, crawlers);
  }
  const origin = originOf(context);
  if (url && (request.method === "GET" || request.method === "HEAD") && isRobotsTxtPath(url.pathname)) {
    return lastRobotsTxt(context.authority ?? authorityFrom(url, origin), request.method);
  }
  if (crawlers === "503" && (isCrawler(request) || judgedAsCrawler.has(error as object))) return crawlerUnavailable();
  return forwardedUnjudged(request, url, origin, adminTokenOf(context));
}

/**
 * What our fault does for a crawler: 503 + Retry-After, unless the operator said otherwise.
 * MODE=report refuses nothing (judge.ts passes and reports what it would refuse), so our fault
 * must not refuse either: an operator watching first would have Googlebot answered 503 site-wide
 * by one tenant's file (attack 13, A13-1). FAIL_OPEN=true lets crawlers through when the edge
 * cannot judge (robots.txt unavailable, judge.ts); a decision the edge could not make is that.
 * Read from the global settings: a policy route's own mode is not known here (the fault came
 * before the route was judged), so a report-only route under MODE=enforce still answers 503.
 * With no config read (a fault before it), the default: 503.
 */
function crawlerAnswerOf(
  config: Config | undefined,
  error: unknown,
): "503" | "origin (MODE=report)" | "origin (FAIL_OPEN)" {
  // Not for a decision too costly to make: its cost is the client's choice (a long URL whose one
  // refusing spelling comes last made an ordinary corpus file's decision too costly), and a
  // route the operator set to enforce under MODE=report would pass it too (attack 14, A14-1
  // and A14-2). A crawler gets 503 + Retry-After, never the page, whatever the settings.
  if (error instanceof MatchingTooCostly) return "503";
  if (config?.mode === "report") return "origin (MODE=report)";
  if (config?.failOpen) return "origin (FAIL_OPEN)";
  return "503";
}

const CRAWLER_ANSWERS: Record<ReturnType<typeof crawlerAnswerOf>, string> = {
  "503": "crawlers were answered 503",
  "origin (MODE=report)": "crawlers were forwarded unjudged (MODE=report refuses nothing)",
  "origin (FAIL_OPEN)": "crawlers were forwarded unjudged (FAIL_OPEN=true)",
};

function noteRequestFault(message: string, crawlers: ReturnType<typeof crawlerAnswerOf>): void {
  noteOwnFault(
    "request handler",
    `an exception on the request path (${message}): people were forwarded unjudged, ${CRAWLER_ANSWERS[crawlers]}`,
    "a bug of robots-edge's own: report it with this message and the request's User-Agent and path",
  );
}

/**
 * Exceptions thrown while the edge judged a request it already knew as a crawler's though its
 * User-Agent is a browser's (a crawler in disguise, DISGUISED_CRAWLERS=enforce: request-path.ts
 * marks them). The User-Agent alone would call it a person and forward it unjudged.
 */
const judgedAsCrawler = new WeakSet<object>();

/** Mark `error` as thrown while judging a request known to be a crawler's (see judgedAsCrawler). */
export function thrownJudgingCrawler(error: unknown): void {
  if (typeof error === "object" && error !== null) judgedAsCrawler.add(error);
}

/**
 * The admin token to keep from the origin even here (forward.ts never forwards a request that
 * carries it): the config's, or the raw secret when the fault came before the config was read.
 */
function adminTokenOf({ config, env }: FaultContext): string | undefined {
  if (config) return config.adminToken;
  const raw: unknown = (env as { ADMIN_TOKEN?: unknown }).ADMIN_TOKEN;
  return typeof raw === "string" && raw.trim() !== "" ? raw : undefined;
}

/** The authority when the fault came before the edge read it: ORIGIN_URL's, else the request's. */
function authorityFrom(url: URL, origin: URL | null | undefined): string | undefined {
  try {
    return origin ? origin.origin : authorityOf(url);
  } catch {
    return undefined;
  }
}

/**
 * Where the request goes: ORIGIN_URL as the config read it, or read here when the fault came
 * before the config (null: route mode, the request's own URL). Undefined: not known, or a
 * loopback address that would be the Worker itself: nowhere to forward.
 */
function originOf({ config, env, request }: FaultContext): URL | null | undefined {
  try {
    if (config) return config.originUrlProblem ? undefined : (config.originUrl ?? routeTarget(request));
    const raw = String(env.ORIGIN_URL ?? "").trim();
    if (raw === "") return routeTarget(request);
    return URL.canParse(raw) ? new URL(new URL(raw).origin) : undefined;
  } catch {
    return undefined;
  }
}

function routeTarget(request: Request): null | undefined {
  const host = new URL(request.url).hostname;
  return host === "localhost" || host === "[::1]" || host.startsWith("127.") ? undefined : null;
}

/** Whether the request is a crawler's; a classifier that fails counts it a person's (see above). */
export function isCrawler(request: Request): boolean {
  try {
    return classifyUserAgent(request.headers.get("user-agent")).crawler;
  } catch {
    return false;
  }
}

function crawlerUnavailable(): Response {
  return unavailableResponse(
    OWN_FAULT_RETRY_AFTER_SECONDS,
    "This site's edge had a fault of its own; please retry later.",
    "own-fault",
  );
}

function lastRobotsTxt(authority: string | undefined, method: string): Response {
  try {
    const robots = authority === undefined ? undefined : lastLoadedRobots(authority);
    if (robots) return robotsTxtResponse(robots, method, OWN_FAULT_RETRY_AFTER_SECONDS, Date.now());
  } catch {
    // the copy itself could not be served: the 503 below
  }
  return unavailableResponse(
    OWN_FAULT_RETRY_AFTER_SECONDS,
    "robots.txt is temporarily unavailable: this site's edge had a fault of its own.",
    "own-fault",
  );
}

/**
 * On to the origin as if the edge were not there. A request whose body the failed attempt
 * already read cannot be sent again, nor one with nowhere known to go: 502, said as ours.
 */
async function forwardedUnjudged(
  request: Request,
  url: URL | undefined,
  origin: URL | null | undefined,
  adminToken: string | undefined,
): Promise<Response> {
  try {
    if (!url || request.bodyUsed || origin === undefined) throw new Error("nowhere to forward");
    // The decision keeps a request that carries the admin token from the origin (its step 1);
    // this path skips the decision, so it asks the same question itself.
    if (adminToken !== undefined && (await carriesToken(request, adminToken))) return adminTokenKept();
    return await forward(request, url, origin ?? undefined);
  } catch {
    return errorResponse("the edge had a fault of its own and could not forward this request", 502);
  }
}

/**
 * The licence server failed us (worker/licence/introspect.ts): a fault named for the operator,
 * and the fact the decision answers 503 + Retry-After with (our failure is never the crawler's).
 */
export function licenceServerFault(server: string, why: string): LicenceFact {
  noteOwnFault(
    licenceFaultKey(server),
    `the licence server ${why}: crawlers presenting a licence token were answered 503`,
    "check that the policy's licence.server is up and answers POST /introspect (RFC 7662), and LICENCE_SERVER_CREDENTIALS",
  );
  return { status: "unavailable", why: `licence server ${why}`, retryAfter: OWN_FAULT_RETRY_AFTER_SECONDS };
}

/** The licence server answered again: its fault is forgotten. */
export function licenceServerAnswered(server: string): void {
  clearOwnFault(licenceFaultKey(server));
}

function licenceFaultKey(server: string): string {
  return `licence server ${server}`;
}
