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
 *   POST   refresh?sources=ranges  fetch the published crawler lists now (CRAWLER_RANGES's URLs
 *                                 where set), instead of waiting for the cron; returns the identity sources
 *   POST   refresh?sources=catalogues  fetch the crawler catalogues now (CRAWLER_CATALOGUES);
 *                                 returns what status shows of them
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
 *   GET    policy                 the live operator policy, its version and history (admin/policy.ts)
 *   PUT    policy  <policy JSON>  a new version of it
 *   POST   policy/rollback {"version"}  an earlier version back in force, as a new version
 *   GET    activity[?origin=…&hours=…&recent=…]   what the edge did, per crawler (admin/activity.ts)
 *   POST   replay[?origin=…] {"draft"?, "policy"?}  recent crawler requests judged under a draft
 *   GET    charges[?origin=…&from=…&to=…&operator=…&format=csv]  the charges ledger (admin/charges.ts)
 *   GET    policies[?cursor=…&limit=…]  the default and each host with a policy, newest version, who saved
 *   DELETE policy?host=…          a host's own policy removed (a new version with none)
 *
 * `?host=<name>` (admin/policy-host.ts): on the policy routes, that host's own policy (without
 * it, the default); on the routes of one site (explain, test, robots, replay, activity, status,
 * purposes/preview), that host's origin, judged with the policy that judges its requests.
 *
 * Only existing authorities are acted on (robots/authorities.ts): proxy mode ORIGIN_URL's, route
 * mode the allow-listed or, without AUTHORITIES, the already stored; a parameter never makes
 * the edge fetch a host a client chose, and explain (a GET) never fetches at all. Every error
 * is JSON `{ "error", "problems"? }`.
 */

import { bearerMatches } from "../admin-token.ts";
import { activityView, replayDraft } from "./activity.ts";
import { chargesView } from "./charges.ts";
import { adminError, problemResponse, type AdminContext } from "./context.ts";
import { explain } from "./explain.ts";
import { deleteOrigin, existingOrigin, refreshNow, robotsView } from "./origins.ts";
import { adminPageResponse } from "./page.ts";
import { endPause, startPause } from "./pause.ts";
import { deletePolicy, getPolicy, putPolicy, rollbackPolicy } from "./policy.ts";
import { listPolicies } from "./policies.ts";
import { withHostOrigin } from "./policy-host.ts";
import { previewPurposes } from "./purposes.ts";
import { status } from "./status.ts";
import { testUrls } from "./tester.ts";
import { policyInForce } from "../live-policy.ts";
import { hostOfAuthority } from "../robots/authorities.ts";
import { StoreRefused } from "../store.ts";

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
  try {
    return await routed(admin, route);
  } catch (error) {
    // A write KV refused: the operator is told, in JSON, that nothing was saved.
    if (error instanceof StoreRefused) {
      return adminError(
        503,
        `${error.message}: nothing was saved, what was in force stays in force; try again shortly`,
      );
    }
    throw error;
  }
}

/** The routes of one site, where `?host=h` stands for h's origin (admin/policy-host.ts). */
const SITE_ROUTES: ReadonlySet<string> = new Set([
  "GET status",
  "POST refresh",
  "GET explain",
  "GET robots",
  "POST test",
  "GET activity",
  "POST replay",
  "POST purposes/preview",
]);

async function routed(given: AdminContext, route: string): Promise<Response> {
  let admin = given;
  if (SITE_ROUTES.has(route)) {
    const site = withHostOrigin(given);
    if (!site.ok) return site.response;
    admin = site.admin;
  }
  switch (route) {
    case "GET policies":
      return listPolicies(admin);
    case "DELETE policy":
      return deletePolicy(admin);
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
    case "GET charges": {
      const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
      return origin.ok ? chargesView(admin, origin.value) : problemResponse(origin);
    }
    default:
      return adminError(404, `no admin route ${JSON.stringify(route)}; see docs/operating.md, "Admin API"`);
  }
}

/** What a purposes setting generates for an existing origin's file (admin/purposes.ts). */
async function purposesPreview(admin: AdminContext): Promise<Response> {
  const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!origin.ok) return problemResponse(origin);
  const policy = await policyInForce(admin.kv, admin.config, hostOfAuthority(origin.value));
  return previewPurposes(admin, origin.value, policy.compiled);
}

/** Activity and replay, for an existing origin (admin/activity.ts). */
async function activityRoute(admin: AdminContext, route: "GET activity" | "POST replay"): Promise<Response> {
  const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!origin.ok) return problemResponse(origin);
  if (route === "GET activity") return activityView(admin, origin.value);
  // Live is what judges that host's requests now: its own policy, a pattern's, or the default.
  return replayDraft(
    admin,
    origin.value,
    (await policyInForce(admin.kv, admin.config, hostOfAuthority(origin.value))).compiled,
  );
}
