/**
 * Is a request claiming a verifiable crawler really from it? Evidence, strongest first
 * (agents/verification.ts `verifyCrawlerDetailed`): Cloudflare's verifiedBot when the zone
 * has Bot Management; the operator's published address list; forward-confirmed reverse DNS
 * for operators that document it (reverse-dns.ts: looked up only when the lists do not
 * confirm, once per address and hour, never longer than FETCH_TIMEOUT_MS). An impostor is
 * logged here with how it was found out; what it gets is decided in policy/edge-decision.ts.
 */

import type { AgentInfo } from "../agents/classify.ts";
import { needsReverseDns, verificationPlan, verifyCrawlerDetailed } from "../agents/verification.ts";
import type { Verification } from "../policy/edge-decision.ts";
import { crawlerRanges } from "./crawler-ranges.ts";
import type { EdgeContext } from "./edge-context.ts";
import { logImpostor } from "./log.ts";
import { dohResolver, reverseDnsFor } from "./reverse-dns.ts";

/** Whether this agent's claim is checked at all: it names a crawler some method can verify. */
export function needsVerification(edge: EdgeContext, agent: AgentInfo): boolean {
  return edge.config.verifyCrawlers !== "off" && agent.crawler && verificationPlan(agent).methods.length > 0;
}

export async function verifyClaim(edge: EdgeContext, agent: AgentInfo): Promise<Verification> {
  const { request, config } = edge;
  const cf = request.cf as { botManagement?: { verifiedBot?: boolean } } | undefined;
  const address = request.headers.get("cf-connecting-ip");
  const input = {
    agent,
    address,
    cfVerifiedBot: cf?.botManagement?.verifiedBot,
    ranges: await crawlerRanges(edge.env.ROBOTS),
  };
  const reverseDns =
    address && needsReverseDns(input)
      ? await reverseDnsFor(address, verificationPlan(agent).reverseDns, {
          kv: edge.env.ROBOTS,
          resolve: dohResolver(config.dohResolver),
          timeoutMs: config.fetchTimeoutMs,
        })
      : undefined;
  const result = verifyCrawlerDetailed({ ...input, ...(reverseDns && { reverseDns }) });
  if (result.verification !== "impostor") return "trusted";
  logImpostor({
    userAgent: request.headers.get("user-agent"),
    address,
    claimed: agent.known?.token ?? agent.tokens[0] ?? "",
    treatment: config.verifyCrawlers,
    method: result.method ?? null,
    reason: result.reason,
  });
  return "impostor";
}
