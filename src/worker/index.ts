/**
 * robots-edge: the Worker's entry. It only dispatches: a request to the admin API
 * (admin/router.ts) or to the edge's request path (edge/request-path.ts: facts -> the one decision in
 * policy/edge-decision.ts -> a response), and the Cron Trigger to cron.ts. Every error on
 * the request path becomes a response here, in one place (edge/own-fault.ts: the origin's
 * answer for a person, 503 + Retry-After for a crawler), without details for the public.
 */

import { handleAdmin } from "./admin/router.ts";
import { authorityOf } from "./robots/authorities.ts";
import { MIN_ADMIN_TOKEN_LENGTH } from "../config/read-config.ts";
import { loadConfig } from "./config.ts";
import { handleScheduled } from "./cron.ts";
import type { EdgeContext } from "./edge/context.ts";
import { logConfigProblems } from "./log.ts";
import { ownFaultResponse } from "./edge/own-fault.ts";
import { handleRequest } from "./edge/request-path.ts";
import { jsonResponse } from "./responses.ts";

export { ActivityLog } from "./activity/object.ts";
export { ChargeLedger } from "./charges/object.ts";
export { CrawlRate } from "./edge/crawl-rate-object.ts";

export default {
  fetch: handleFetch,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;

async function handleFetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  let edge: EdgeContext | undefined;
  try {
    edge = edgeContext(request, env, ctx);
    const { config } = edge;
    if (config.adminTokenRefused && edge.url.pathname.startsWith(config.adminPrefix)) return adminOff();
    if (config.adminToken && edge.url.pathname.startsWith(config.adminPrefix)) {
      return await handleAdmin({ ...edge, kv: env.ROBOTS }, config.adminToken);
    }
    return await handleRequest(edge);
  } catch (error) {
    // Our failure is never the visitor's: edge/own-fault.ts says what each one gets instead.
    return ownFaultResponse({ request, env, config: edge?.config, authority: edge?.authority }, error);
  }
}

/**
 * A too-short ADMIN_TOKEN turns the admin API off, and only it: enforcement goes on. The
 * operator who set it learns why here rather than from an origin's 404 (the token itself is
 * never described: not even its length).
 */
function adminOff(): Response {
  return jsonResponse(
    {
      error: `the admin API is off: ADMIN_TOKEN is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters or blank. Set a longer one with \`openssl rand -hex 24 | npx wrangler secret put ADMIN_TOKEN\``,
    },
    503,
  );
}

function edgeContext(request: Request, env: Env, ctx: ExecutionContext): EdgeContext {
  // loadConfig never throws: bad values come back as problems, with defaults in their place.
  const { config, problems, warnings } = loadConfig(env);
  logConfigProblems(problems, Date.now());
  const url = new URL(request.url);
  const authority = config.originUrl?.origin ?? authorityOf(url);
  return { request, url, config, configProblems: problems, configWarnings: warnings, env, ctx, authority };
}
