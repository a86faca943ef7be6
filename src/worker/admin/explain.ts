/**
 * GET explain: what the edge would do; a GET, so it reads what is stored and never fetches.
 * The tester (tester.ts) judges its URLs with the same inputs.
 */

import ipaddr from "ipaddr.js";
import { classifyUserAgent } from "../../agents/classify.ts";
import type { VerificationOutcome } from "../../agents/verification.ts";
import { explainIfDecidable, explainRequest, type Explanation, type ExplainInput } from "../../policy/explain.ts";
import type { DisguiseFact } from "../../policy/edge-facts.ts";
import { settingsOf } from "../../config/edge-settings.ts";
import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import type { ReferralLedger } from "../../policy/referral-ledger.ts";
import { freshLedger } from "../activity/ledger-memory.ts";
import { invalid, valid, type Validated } from "../../policy/validated.ts";
import type { CatalogueTable } from "../../agents/catalogue.ts";
import { catalogues } from "../identity/catalogues.ts";
import { disguiseOfAddress } from "../identity/disguised.ts";
import { checkClaimFromCache, needsVerification } from "../identity/verify-crawler.ts";
import { policyInForce } from "../live-policy.ts";
import { activePause, retryAfterOf } from "../pause.ts";
import { jsonResponse } from "../responses.ts";
import { hostOfAuthority, isServedAuthority } from "../robots/authorities.ts";
import { judgedRobots, storedRobots } from "../robots/cache.ts";
import { servedRobots } from "../robots/purposes-served.ts";
import { adminError, problemResponse, type AdminContext } from "./context.ts";
import { existingOrigin } from "./origins.ts";

/**
 * What the edge would do; a GET, so it reads what is stored and never fetches. It takes what
 * the edge takes: the mode, the pause in force, the live policy, and the URL as a visitor
 * sees it (explainTarget). A decision that needs no robots.txt (MODE=off, a person, a pause)
 * is answered without a stored copy; under MODE=off, `ifEnforced` says what robots.txt and
 * the policy would decide with MODE=enforce, when a copy is stored.
 */
export async function explain(admin: AdminContext): Promise<Response> {
  const ua = admin.url.searchParams.get("ua");
  const target = admin.url.searchParams.get("url");
  const ip = admin.url.searchParams.get("ip");
  if (ua === null || target === null) {
    return adminError(400, "explain needs ?ua=<User-Agent header>&url=<URL or path>[&ip=<client address>]");
  }
  if (ip !== null && !ipaddr.isValid(ip)) {
    return adminError(400, `ip must be an IPv4 or IPv6 address, got ${JSON.stringify(ip.slice(0, 64))}`);
  }
  const request = await explainTarget(admin, target);
  if (!request.ok) return problemResponse(request);
  const { origin, path } = request.value;
  const robots = await storedRobots(origin, admin.kv);
  const claimCheck = ip === null ? undefined : await claimCheckOf(admin, ua, ip);
  const disguise = await disguiseAt(admin, ip);
  const situation = await situationOf(admin, origin);
  // What the edge enforces: the origin's copy with the purposes in force (robots/purposes-served.ts).
  const served = robots && servedRobots(robots, situation.policy);
  const stored = served && judgedRobots(served);
  const input = explainInput(admin, situation, ua, path, claimCheck, disguise);
  const now = explainIfDecidable(input, stored);
  if (!now) return adminError(404, `no robots.txt stored for ${origin} yet; POST refresh?origin=${origin} first`);
  const explanation = withAfterPause(now, situation, (unpaused) =>
    explainIfDecidable(explainInput(admin, unpaused, ua, path, claimCheck, disguise), stored),
  );
  const ifEnforced =
    stored && explanation.reason === "mode-off"
      ? explainRequest({ ...input, ...stored, settings: { ...input.settings, mode: "enforce" } })
      : undefined;
  return jsonResponse({ authority: origin, ...explanation, ...(ifEnforced && { ifEnforced }) });
}

/**
 * The origin and path a URL to explain stands for, as the edge would see the request: a bare
 * path is this authority's; in proxy mode any absolute URL is (the public host is the
 * Worker's, whatever it is called, and robots.txt is ORIGIN_URL's); in route mode an
 * absolute URL names its authority, which must be one the edge serves (404 otherwise).
 */
async function explainTarget(
  admin: AdminContext,
  target: string,
): Promise<Validated<{ origin: string; path: string }> & { status?: number }> {
  if (target.startsWith("/")) {
    const origin = await existingOrigin(admin, null);
    return origin.ok ? valid({ origin: origin.value, path: target }) : origin;
  }
  const url = URL.canParse(target) ? new URL(target) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return { ...invalid(['url must be a path starting with "/" or an absolute http(s) URL']), status: 400 };
  }
  const path = url.pathname + url.search;
  if (admin.config.originUrl) return valid({ origin: admin.config.originUrl.origin, path });
  const origin = await existingOrigin(admin, url.origin);
  return origin.ok ? valid({ origin: origin.value, path }) : origin;
}

/** One answer: the edge's record rendered and, during a pause, the verdict with the pause lifted. */
export type Explained = Explanation & { readonly afterPause?: Explanation | null };

/**
 * During a crawl pause every crawler gets 503 now, whatever the rules say. The answer then
 * carries `afterPause`, the same request decided with the pause lifted (what robots.txt and the
 * policy say), and its `allowed` is that verdict's: a pause refuses for now, it does not make a
 * disallowed path allowed. Explain and the tester both answer through here, so they agree.
 * Without a stored copy to judge by (explain reads only what is stored) the verdict is unknown:
 * `allowed` stays the pause's and `afterPause` is null.
 */
export function withAfterPause(
  now: Explanation,
  situation: Situation,
  decide: (unpaused: Situation) => Explanation | undefined,
): Explained {
  if (!situation.pause || now.layer !== "pause") return now;
  const afterPause = decide({ ...situation, pause: null });
  return afterPause ? { ...now, allowed: afterPause.allowed, afterPause } : { ...now, afterPause: null };
}

/** The edge's own state a decision depends on, read as the request path reads it. */
export interface Situation {
  readonly policy: CompiledPolicy | undefined;
  /** The pause in force, with the Retry-After the edge would send now; null for none. */
  readonly pause: { readonly retryAfter: number } | null;
  readonly served: boolean;
  /** The recorded crawls and referrals, when a rule of the policy has a condition on them. */
  readonly ledger?: ReferralLedger | undefined;
  /** The crawler catalogues the edge holds (CRAWLER_CATALOGUES), as the request path looks claims up in them. */
  readonly catalogues?: CatalogueTable | undefined;
}

export async function situationOf(admin: AdminContext, origin: string): Promise<Situation> {
  const pause = await activePause(admin.kv, admin.config);
  // The policy that judges this origin's requests: its host's own, a pattern's, or the default.
  const policy = (await policyInForce(admin.kv, admin.config, hostOfAuthority(origin))).compiled;
  return {
    policy,
    ...(policy?.hasConditions && { ledger: await freshLedger(admin.env.ACTIVITY, origin) }),
    pause: pause ? { retryAfter: retryAfterOf(pause, Date.now()) } : null,
    served: isServedAuthority(admin.config, origin),
    catalogues: await catalogues(admin.kv, admin.config.crawlerCatalogues),
  };
}

/** The stored evidence about a claimed crawler's address, when the edge would check the claim. */
export async function claimCheckOf(
  admin: AdminContext,
  ua: string,
  ip: string,
): Promise<VerificationOutcome | undefined> {
  const agent = classifyUserAgent(ua);
  if (!needsVerification({ config: admin.config }, agent)) return undefined;
  return checkClaimFromCache(admin.kv, agent, ip);
}

/** The edge's facts for one request to explain, but robots.txt (explain.ts says what it cannot know). */
/**
 * The crawler-only list holding the client address given (explain's `ip=`, the tester's `ip`),
 * as the edge looks it up (policy/disguise.ts: a browser there is that crawler in disguise, a
 * bot naming another is judged as that crawler too); null without an address or the check off.
 */
export async function disguiseAt(
  admin: Pick<AdminContext, "config" | "kv">,
  ip: string | null | undefined,
): Promise<DisguiseFact | null> {
  if (admin.config.disguisedCrawlers === "off" || !ip) return null;
  return disguiseOfAddress(admin.kv, ip);
}

export function explainInput(
  { config }: Pick<AdminContext, "config">,
  situation: Situation,
  userAgent: string,
  url: string,
  claimCheck?: VerificationOutcome,
  disguise: DisguiseFact | null = null,
): Omit<ExplainInput, "state" | "matcher"> {
  return {
    userAgent,
    url,
    settings: settingsOf(config, { rateLimiter: true }),
    paused: situation.pause ?? false,
    policy: situation.policy,
    facts: {
      served: situation.served,
      ledger: situation.ledger,
      ...(situation.catalogues && { catalogues: situation.catalogues }),
      disguise: disguise ?? "none",
      ...(claimCheck && { claimCheck }),
    },
  };
}
