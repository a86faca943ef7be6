/**
 * Is a request claiming a verifiable crawler really from it? Verified, refuted or
 * unverifiable (agents/verification.ts `verifyCrawlerDetailed`): Cloudflare's
 * `verifiedBot: false` vetoes; the operator's published address list decides once loaded;
 * without one, Cloudflare's category when it is the claimed crawler's, or forward-confirmed
 * reverse DNS of the host names documented for that crawler's class (identity/reverse-dns.ts: looked up
 * only when nothing else decides, never longer than FETCH_TIMEOUT_MS). A timeout, a resolver
 * error or a list not loaded yet leave the claim unverifiable, which is never treated as
 * verified (policy/claim.ts). An impostor is logged here with how it was found out.
 */

import type { AgentInfo } from "../../agents/classify.ts";
import {
  cloudflareBotOf,
  needsReverseDns,
  outcomeOfCheck,
  verificationPlan,
  verifyCrawlerDetailed,
  type ReverseDnsResult,
  type VerificationOutcome,
} from "../../agents/verification.ts";
import { crawlerRanges } from "./crawler-ranges.ts";
import type { EdgeContext } from "../edge/context.ts";
import { logImpostor } from "../log.ts";
import { cachedReverseDns, dohResolver, reverseDnsFor } from "./reverse-dns.ts";

/**
 * What this isolate last saw of the sources that have no stored state: reverse DNS answers
 * and Cloudflare's bot fields. GET status shows it (identity/sources.ts), so an operator can
 * tell a resolver that fails, or a zone without bot fields, from one that works.
 */
export interface IdentityHealth {
  readonly reverseDns: {
    readonly lastAt: number | null;
    readonly lastErrorAt: number | null;
    readonly lastError: string | null;
  };
  readonly cloudflare: { readonly lastSeenAt: number | null; readonly lastCheckedAt: number | null };
}

const NOTHING_SEEN: IdentityHealth = {
  reverseDns: { lastAt: null, lastErrorAt: null, lastError: null },
  cloudflare: { lastSeenAt: null, lastCheckedAt: null },
};

let health = NOTHING_SEEN;

export function identityHealth(): IdentityHealth {
  return health;
}

/** For tests (test/worker/helpers.ts): this memory outlives a test in one isolate; each test starts as a new isolate would. */
export function clearIdentityHealth(): void {
  health = NOTHING_SEEN;
}

function noteReverseDns(result: ReverseDnsResult, now: number): void {
  const failed = result.status === "timeout" ? "timed out" : result.status === "error" ? result.message : null;
  const { reverseDns } = health;
  health = {
    ...health,
    reverseDns: failed ? { lastAt: now, lastErrorAt: now, lastError: failed } : { ...reverseDns, lastAt: now },
  };
}

function noteCloudflareFields(cf: unknown, now: number): void {
  const { verified, category } = cloudflareBotOf(cf);
  const seen = verified !== undefined || category !== undefined;
  health = {
    ...health,
    cloudflare: { lastCheckedAt: now, lastSeenAt: seen ? now : health.cloudflare.lastSeenAt },
  };
}

/** Whether this agent's claim is checked at all: it names a crawler some method can verify. */
export function needsVerification(edge: Pick<EdgeContext, "config">, agent: AgentInfo): boolean {
  return edge.config.verifyCrawlers !== "off" && agent.crawler && verificationPlan(agent).methods.length > 0;
}

/** The claim checked against the client's address; an impostor is logged with how it was found out. */
export async function verifyClaim(edge: EdgeContext, agent: AgentInfo): Promise<VerificationOutcome> {
  const { request, config } = edge;
  const cloudflare = cloudflareBotOf(request.cf);
  const address = request.headers.get("cf-connecting-ip");
  const input = {
    agent,
    address,
    cfVerifiedBot: cloudflare.verified,
    cfCategory: cloudflare.category,
    ranges: await crawlerRanges(edge.env.ROBOTS),
  };
  noteCloudflareFields(request.cf, Date.now());
  const reverseDns =
    address && needsReverseDns(input)
      ? await reverseDnsFor(address, verificationPlan(agent).reverseDns, {
          cache: caches.default,
          resolve: dohResolver(config.dohResolver),
          timeoutMs: config.fetchTimeoutMs,
        })
      : undefined;
  // A lookup skipped to bound a network's cost says nothing of the resolver.
  if (reverseDns && reverseDns.status !== "skipped") noteReverseDns(reverseDns, Date.now());
  const result = verifyCrawlerDetailed({ ...input, ...(reverseDns && { reverseDns }) });
  if (result.status !== "refuted") return outcomeOfCheck(result);
  logImpostor({
    userAgent: request.headers.get("user-agent"),
    address,
    claimed: agent.known?.token ?? agent.tokens[0] ?? "",
    treatment: config.verifyCrawlers,
    method: result.method ?? null,
    reason: result.reason,
  });
  return outcomeOfCheck(result);
}

/**
 * Admin explain's check of a claimed crawler's address (`ip=`): the stored lists and reverse
 * DNS answers already cached, never a lookup — a GET never makes the edge fetch anything. A
 * reverse DNS answer not in the cache is said as such, and the claim judged as unverifiable.
 */
export async function checkClaimFromCache(
  kv: KVNamespace,
  agent: AgentInfo,
  address: string,
): Promise<VerificationOutcome> {
  const input = { agent, address, cfVerifiedBot: undefined, ranges: await crawlerRanges(kv) };
  const wantsDns = needsReverseDns(input);
  const reverseDns = wantsDns
    ? await cachedReverseDns(address, verificationPlan(agent).reverseDns, caches.default)
    : undefined;
  const result = verifyCrawlerDetailed({ ...input, ...(reverseDns && { reverseDns }) });
  if (!wantsDns || reverseDns) {
    const outcome = outcomeOfCheck(result);
    return reverseDns ? { ...outcome, reason: `${outcome.reason} (reverse DNS from cache)` } : outcome;
  }
  const listed = result.method === "ip-list" ? `${result.reason}; ` : "";
  return {
    status: "unverifiable",
    method: null,
    evidence: null,
    why: "not-looked-up",
    reason: `${listed}no cached reverse DNS answer for the address (explain reads the cache only; the edge would look it up)`,
  };
}
