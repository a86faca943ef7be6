// The facts of one request with everything already gathered, for tables that call decideEdge
// directly: a served origin, MODE=enforce, no pause, no policy, the rate limiter present and
// allowing; the signature and the address check not gathered (none was asked for). Each table passes what it is about (the agent, the path, robots.txt) and what it varies.
import { NOTHING_GATHERED, type EdgeFacts } from "../../src/policy/edge-facts.ts";

export function gatheredFacts(
  facts: Pick<EdgeFacts, "agent" | "pathAndQuery" | "robots" | "now"> & Partial<EdgeFacts>,
): EdgeFacts {
  return {
    originUnusable: false,
    selfAddressed: false,
    mode: "enforce",
    served: true,
    isRobotsTxt: false,
    verifyCrawlers: "unknown",
    needsVerification: false,
    cloudflareCategory: undefined,
    ...NOTHING_GATHERED,
    pause: "none",
    failOpen: false,
    blockStatus: 403,
    policy: "none",
    enforceRates: "honoured",
    usageSignals: "enforce",
    usageHeader: true,
    signed: false,
    rateLimiter: true,
    rate: { allowed: true },
    ...facts,
  };
}

// Address checks as the Worker gathers them (agents/verification.ts outcomeOfCheck), one per outcome.
export const VERIFIED = {
  status: "verified",
  method: "ip-list",
  evidence: "googlebot",
  why: null,
  reason: "address in the googlebot list",
} as const;
export const REFUTED = {
  status: "refuted",
  method: "ip-list",
  evidence: null,
  why: "refuted",
  reason: "address not in the googlebot list",
} as const;
export const UNVERIFIABLE = {
  status: "unverifiable",
  method: null,
  evidence: null,
  why: "no-list",
  reason: "cannot check: no googlebot list loaded",
} as const;
