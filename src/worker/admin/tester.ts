/**
 * POST test: decisions for several URLs, live and under a draft robots.txt, judged as explain
 * judges (the edge's record, rendered by policy/explain.ts), with the client address (`ip`)
 * when given, as explain's `ip=`.
 *
 * The draft is the origin's file as the operator would publish it: it is served and enforced
 * with the purposes in force, as live is and as replay judges a draft (purposes-served.ts), so
 * a draft identical to the origin's file decides every crawler as live does.
 *
 * During a crawl pause each side carries `afterPause` (explain.ts withAfterPause, as GET
 * explain does): the verdict with the pause lifted, `allowed` being that verdict's. `differs`
 * compares the drafts on that verdict too.
 *
 * Bounded as replay is (no client can buy our CPU, admin or not): the URLs are judged in order
 * within REPLAY_WORK_BUDGET, each costing policy/replay.ts judgmentWork on the sides it is
 * judged on (twice during a pause: the verdict after the pause too). When the budget runs out
 * the answer says `partial`, how many of the URLs it judged (the first N) and a `note`; ask
 * again with the rest.
 */

import ipaddr from "ipaddr.js";
import { classifyUserAgent } from "../../agents/classify.ts";
import type { RobotsMatcher } from "../../core/index.ts";
import type { Explanation } from "../../policy/explain.ts";
import { canonicalHostName } from "../../policy/host-names.ts";
import { explainRequest } from "../../policy/explain.ts";
import { pathsWithinBudget } from "../../policy/replay.ts";
import { invalid, valid, type Validated } from "../../policy/validated.ts";
import { jsonResponse } from "../responses.ts";
import { MatchingTooCostly } from "../../core/index.ts";
import { judgedRobots, robotsFor } from "../robots/cache.ts";
import { compileServed, draftLoaded, servedRobots } from "../robots/purposes-served.ts";
import { readBodyJson } from "./body.ts";
import { adminError, problemResponse, type AdminContext } from "./context.ts";
import {
  claimCheckOf,
  disguiseAt,
  explainInput,
  situationOf,
  withAfterPause,
  type Explained,
  type Situation,
} from "./explain.ts";
import { existingOrigin } from "./origins.ts";

interface TestBody {
  readonly ua: string;
  readonly urls: readonly string[];
  readonly draft: string | undefined;
  /** The client address whose claim to check (from stored lists and cached reverse DNS only). */
  readonly ip: string | undefined;
}

/** Decisions for several URLs, live and (when a draft robots.txt is given) under the draft. */
export async function testUrls(admin: AdminContext): Promise<Response> {
  const json = await readBodyJson(admin.request, MAX_TEST_BODY);
  if (!json.ok) return adminError(json.status, json.error);
  const body = readTestBody(json.value);
  if (!body.ok) return adminError(400, body.problems.join("; "), body.problems);
  const param = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!param.ok) return problemResponse(param);
  const origin = param.value;
  const foreign = foreignUrlProblem(admin, origin, body.value.urls);
  if (foreign) return adminError(400, foreign);
  const situation = await situationOf(admin, origin);
  const stored = await robotsFor(origin, admin.kv, admin.config, admin.ctx);
  const robots = servedRobots(stored, situation.policy);
  const { ua, urls, draft: draftText, ip } = body.value;
  const draftServed =
    draftText === undefined ? undefined : compileServed(draftLoaded(stored, draftText, Date.now()), situation.policy);
  const live = judgedRobots(robots);
  // Both sides judged as the edge judges them: a file over the cap is "unavailable" (A13-4).
  const draft = draftServed && judgedRobots(draftServed);
  const claimCheck = ip === undefined ? undefined : await claimCheckOf(admin, ua, ip);
  const disguise = await disguiseAt(admin, ip);
  const judged = (url: string, side: typeof live, during: Situation) =>
    explainRequest({ ...explainInput(admin, during, ua, url, claimCheck, disguise), ...side });
  const unpaused = situation.pause !== null;
  const judgedUrls = withinBudget(urls, ua, [live, ...(draft ? [draft] : [])], situation, unpaused ? 2 : 1);
  /** The edge's answer now and, when a pause answered it, the rules' verdict beside it. */
  const sideOf = (url: string, side: typeof live): Explained =>
    withAfterPause(judged(url, side, situation), situation, (lifted) => judged(url, side, lifted));
  function resultOf(url: string) {
    const now = sideOf(url, live);
    if (!draft) return { url, live: now };
    const drafted = sideOf(url, draft);
    return {
      url,
      live: now,
      draft: drafted,
      differs: differ(now, drafted) || differ(now.afterPause, drafted.afterPause),
      // Kept for callers of the earlier answer: the same comparison, on the verdicts after the pause.
      ...(unpaused && { differsAfterPause: differ(now.afterPause ?? now, drafted.afterPause ?? drafted) }),
    };
  }
  const results = judgedUrls.map((url) => decidedOrNamed(url, resultOf));
  const partial = judgedUrls.length < urls.length;
  return jsonResponse({
    origin,
    paused: situation.pause !== null,
    partial,
    judged: judgedUrls.length,
    asked: urls.length,
    ...(partial && {
      note: `judged the first ${judgedUrls.length} of ${urls.length} URLs: the tester stops at replay's work budget (docs/operating.md, "Limits"); ask again with the rest`,
    }),
    results,
  });
}

/**
 * A URL too costly to match on either side (core/match-budget.ts) is answered as that URL's
 * error, the others as usual, as `robots-edge check` names the URL it could not decide (attack
 * 13, A13-7): one such URL must not lose the whole list. Nothing is noted in GET status: no
 * crawler was answered. Any other exception still reaches the fail-safe.
 */
function decidedOrNamed<T>(url: string, result: (url: string) => T): T | { url: string; error: string } {
  try {
    return result(url);
  } catch (error) {
    if (!(error instanceof MatchingTooCostly)) throw error;
    return { url, error: `not decided: ${error.message}` };
  }
}

/** The first URLs whose judgments fit replay's work budget (policy/replay.ts, one measure). */
function withinBudget(
  urls: readonly string[],
  ua: string,
  sides: readonly { matcher: RobotsMatcher | undefined }[],
  situation: Situation,
  judgmentsPerSide: number,
): readonly string[] {
  const judged = sides.flatMap((side) =>
    Array.from({ length: judgmentsPerSide }, () => ({ matcher: side.matcher, policy: situation.policy })),
  );
  return urls.slice(0, pathsWithinBudget(urls.map(pathOf), classifyUserAgent(ua).tokens, judged));
}

/** The path (and query) a URL or path asks for: what the decision spells. */
function pathOf(url: string): string {
  if (url.startsWith("/") || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * An absolute URL naming another site than the one tested is refused, as explain refuses a
 * `url=` of another host than `host=` (policy-host.ts withHostOrigin): judged by this site's
 * policy and robots.txt, it would show a verdict its own site never gives. The site is `host=`
 * when given, else the origin tested; in proxy mode without `host=` any absolute URL is the
 * Worker's public host, whatever it is called, as explain takes it. Hosts are compared in
 * their one canonical spelling (policy/host-names.ts).
 */
function foreignUrlProblem(admin: AdminContext, origin: string, urls: readonly string[]): string | undefined {
  const given = admin.url.searchParams.get("host");
  if (given === null && admin.config.originUrl) return undefined;
  const site = canonicalHost(given ?? new URL(origin).host);
  for (const url of urls) {
    if (url.startsWith("/") || !URL.canParse(url)) continue;
    const named = canonicalHost(new URL(url).host);
    if (named !== site) {
      const tested = given === null ? `the origin tested is ${origin}` : `host= names ${site}`;
      return `${JSON.stringify(url.slice(0, 200))} names ${named}, ${tested}: give one site`;
    }
  }
  return undefined;
}

function canonicalHost(host: string): string {
  const canonical = canonicalHostName(host);
  return canonical.ok ? canonical.value : host.toLowerCase();
}

/** Whether two answers differ in what the edge does (or would allow); two absent answers do not. */
function differ(a: Explanation | null | undefined, b: Explanation | null | undefined): boolean {
  if (!a || !b) return !a !== !b;
  return a.allowed !== b.allowed || a.action.action !== b.action.action || a.action.status !== b.action.status;
}

const MAX_TEST_URLS = 200;
/** A test body: 200 URLs and a draft robots.txt (read up to 500 KiB, as the edge reads one) fit in 1 MiB. */
const MAX_TEST_BODY = 1_048_576;

function readTestBody(body: unknown): Validated<TestBody> {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const { ua, urls, draft, ip } = fields;
  const problems: string[] = [];
  if (typeof ua !== "string") problems.push('"ua" must be a User-Agent string');
  const urlList = Array.isArray(urls) && urls.every((url) => typeof url === "string") ? (urls as string[]) : undefined;
  if (!urlList || urlList.length === 0 || urlList.length > MAX_TEST_URLS) {
    problems.push(`"urls" must be a list of 1 to ${MAX_TEST_URLS} URLs or paths`);
  }
  if (draft !== undefined && typeof draft !== "string") problems.push('"draft" must be robots.txt text');
  if (ip !== undefined && (typeof ip !== "string" || !ipaddr.isValid(ip))) {
    problems.push('"ip" must be an IPv4 or IPv6 address');
  }
  if (problems.length > 0 || typeof ua !== "string" || !urlList) return invalid(problems);
  return valid({
    ua,
    urls: urlList,
    draft: typeof draft === "string" ? draft : undefined,
    ip: typeof ip === "string" ? ip : undefined,
  });
}
