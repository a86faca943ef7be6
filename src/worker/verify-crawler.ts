/**
 * Is a request claiming a verifiable crawler really from it? Evidence, strongest first
 * (agents/verification.ts `verifyCrawlerDetailed`): Cloudflare's verdict when the zone has one
 * (botManagement.verifiedBot, else a verifiedBotCategory); the operator's published address list; forward-confirmed reverse DNS
 * for operators that document it (reverse-dns.ts: looked up only when the lists do not
 * confirm, once per address and hour, never longer than FETCH_TIMEOUT_MS). An impostor is
 * logged here with how it was found out; what it gets is decided in policy/edge-decision.ts.
 */

import type { AgentInfo } from "../agents/classify.ts";
import {
  cloudflareBotOf,
  needsReverseDns,
  outcomeOfCheck,
  verificationPlan,
  verifyCrawlerDetailed,
  type VerificationOutcome,
} from "../agents/verification.ts";
import { crawlerRanges } from "./crawler-ranges.ts";
import type { EdgeContext } from "./edge-context.ts";
import { logImpostor } from "./log.ts";
import { cachedReverseDns, dohResolver, reverseDnsFor } from "./reverse-dns.ts";

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
  const reverseDns =
    address && needsReverseDns(input)
      ? await reverseDnsFor(address, verificationPlan(agent).reverseDns, {
          cache: caches.default,
          resolve: dohResolver(config.dohResolver),
          timeoutMs: config.fetchTimeoutMs,
        })
      : undefined;
  const result = verifyCrawlerDetailed({ ...input, ...(reverseDns && { reverseDns }) });
  if (result.verification !== "impostor") return outcomeOfCheck(result);
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
 * reverse DNS answer not in the cache is said as such, and the claim judged as made.
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
    status: "unverified",
    method: null,
    evidence: null,
    why: "not-looked-up",
    reason: `${listed}no cached reverse DNS answer for the address (explain reads the cache only; the edge would look it up)`,
  };
}
