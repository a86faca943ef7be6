/**
 * Is a request claiming a verifiable crawler really from it? Cloudflare's verifiedBot when
 * the zone has Bot Management, else the client address against the operator's published
 * ranges (agents/verification.ts). An impostor is logged here; what it gets is decided in
 * policy/edge-decision.ts.
 */

import type { AgentInfo } from "../agents/classify.ts";
import { rangeSourceFor, verifyCrawler } from "../agents/verification.ts";
import type { Verification } from "../policy/edge-decision.ts";
import { crawlerRanges } from "./crawler-ranges.ts";
import type { EdgeContext } from "./edge-context.ts";
import { logImpostor } from "./log.ts";

/** Whether this agent's claim is checked at all. */
export function needsVerification(edge: EdgeContext, agent: AgentInfo): boolean {
  return edge.config.verifyCrawlers !== "off" && agent.crawler && rangeSourceFor(agent) !== undefined;
}

export async function verifyClaim(edge: EdgeContext, agent: AgentInfo): Promise<Verification> {
  const { request } = edge;
  const cf = request.cf as { botManagement?: { verifiedBot?: boolean } } | undefined;
  const address = request.headers.get("cf-connecting-ip");
  const ranges = await crawlerRanges(edge.env.ROBOTS);
  const verification = verifyCrawler({ agent, address, cfVerifiedBot: cf?.botManagement?.verifiedBot, ranges });
  if (verification !== "impostor") return "trusted";
  logImpostor({
    userAgent: request.headers.get("user-agent"),
    address,
    claimed: agent.known?.token ?? agent.tokens[0] ?? "",
    treatment: edge.config.verifyCrawlers,
  });
  return "impostor";
}
