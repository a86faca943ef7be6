/**
 * POST test: decisions for several URLs, live and under a draft robots.txt, judged as explain
 * judges (the edge's record, rendered by policy/explain.ts), with the client address (`ip`)
 * when given, as explain's `ip=`.
 */

import ipaddr from "ipaddr.js";
import { parseRobotsTxt } from "../../core/index.ts";
import { enforcementMatcher } from "../../policy/path-spellings.ts";
import type { Explanation } from "../../policy/explain.ts";
import { explainRequest } from "../../policy/explain.ts";
import { invalid, valid, type Validated } from "../../policy/validated.ts";
import { jsonResponse } from "../responses.ts";
import { robotsFor } from "../robots/cache.ts";
import { servedRobots } from "../robots/purposes-served.ts";
import { readBodyJson } from "./body.ts";
import { adminError, problemResponse, type AdminContext } from "./context.ts";
import { claimCheckOf, disguiseAt, explainInput, situationOf, type Situation } from "./explain.ts";
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
  const situation = await situationOf(admin, origin);
  const robots = servedRobots(await robotsFor(origin, admin.kv, admin.config, admin.ctx), situation.policy);
  const { ua, urls, draft: draftText, ip } = body.value;
  const draft = draftText === undefined ? undefined : enforcementMatcher(parseRobotsTxt(draftText));
  const live = { state: robots.entry.state, matcher: robots.matcher() };
  const claimCheck = ip === undefined ? undefined : await claimCheckOf(admin, ua, ip);
  const disguise = await disguiseAt(admin, ip);
  const judged = (url: string, side: typeof live, during: Situation) =>
    explainRequest({ ...explainInput(admin, during, ua, url, claimCheck, disguise), ...side });
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
