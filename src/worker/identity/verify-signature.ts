/**
 * Web Bot Auth at the edge: the request's signature checked against the keys of its trusted
 * signer (agents/web-bot-auth/verify.ts), the keys from the signer's key set, cached
 * (identity/signature-directory.ts: a trusted signer URL only, never a client-chosen one), and each
 * verified signature remembered per isolate until it expires, so a reuse is seen
 * (agents/web-bot-auth/reuse-memory.ts). What the outcome means for the request is decided in
 * policy/edge-decision.ts.
 */

import { ReuseMemory } from "../../agents/web-bot-auth/reuse-memory.ts";
import { agentOfSigner } from "../../agents/web-bot-auth/signed-agent.ts";
import { signerIdentity } from "../../agents/web-bot-auth/signature-agents.ts";
import { MAX_SKEW_SECONDS, verifyWebBotAuth } from "../../agents/web-bot-auth/verify.ts";
import type { SignatureFact } from "../../policy/edge-facts.ts";
import type { VerifyCrawlers } from "../../policy/settings.ts";
import type { EdgeContext } from "../edge/context.ts";
import { logImpostor, logUntrustedSignature } from "../log.ts";
import { signatureDirectory, signatureKeyLookup, type DirectoryOptions } from "./signature-directory.ts";

/** Uses of verified signatures seen by this isolate (bounded: DEFAULT_REUSE_CAPACITY). */
const reuse = new ReuseMemory();

/** For tests (test/worker/helpers.ts): this memory outlives a test in one isolate; each test starts as a new isolate would. */
export function clearSignatureReuseMemory(): void {
  reuse.clear();
}

/** Whether a request carries a signature to check: one header lookup, nothing for a browser. */
export function carriesSignature(request: Request, verifyCrawlers: VerifyCrawlers): boolean {
  return verifyCrawlers !== "off" && request.headers.has("signature-input");
}

export function directoryOptions(edge: Pick<EdgeContext, "config" | "env">): DirectoryOptions {
  return { kv: edge.env.ROBOTS, agents: edge.config.signatureAgents, timeoutMs: edge.config.fetchTimeoutMs };
}

export async function checkSignature(edge: EdgeContext): Promise<SignatureFact> {
  const { request, config } = edge;
  const options = directoryOptions(edge);
  const now = Date.now();
  const outcome = await verifyWebBotAuth(request, {
    now,
    maxWindowSeconds: config.signatureMaxWindowSeconds,
    isTrusted: (signerUrl) => config.signatureAgents.has(signerUrl),
    lookupKey: signatureKeyLookup(options),
  });
  const fact = await factOf(outcome, options, now);
  if (fact.status === "failed" || fact.status === "reused") {
    const why = fact.status === "reused" ? "reused" : fact.why;
    logImpostor({
      userAgent: request.headers.get("user-agent"),
      address: request.headers.get("cf-connecting-ip"),
      claimed: `signature${fact.signer ? ` of ${fact.signer}` : ""} (${why})`,
      treatment: fact.status === "reused" ? "429" : config.verifyCrawlers,
    });
  } else if (fact.status === "untrusted" && fact.signer !== undefined) {
    logUntrustedSignature(fact.signer, request.headers.get("user-agent"));
  }
  return fact;
}

async function factOf(
  outcome: Awaited<ReturnType<typeof verifyWebBotAuth>>,
  options: DirectoryOptions,
  now: number,
): Promise<SignatureFact> {
  if (outcome.status === "absent") return { status: "untrusted" };
  if (outcome.status === "unverifiable") {
    // Our failure to get the key, never the signer's: unverifiable (judged as unsigned), with why.
    const held = await signatureDirectory(options, outcome.signer);
    const why = held?.lastError
      ? `its key set could not be fetched (${held.lastError})`
      : `its key set has no key ${outcome.keyid}`;
    return { status: "unverifiable", signer: outcome.signer, why };
  }
  if (outcome.status === "failed") {
    return outcome.why === "untrusted-signer"
      ? { status: "untrusted", signer: outcome.signer }
      : { status: "failed", why: outcome.why, signer: outcome.signer };
  }
  const signer = options.agents.get(outcome.signer);
  const directory = await signatureDirectory(options, outcome.signer);
  const identity = signer ? signerIdentity(signer, directory?.directory?.card ?? {}) : undefined;
  // A trusted signer that names no product token (neither the table nor its card) stands for
  // no robots.txt group: its signature proves nothing we can judge by.
  if (!identity) return { status: "untrusted", signer: outcome.signer };
  const agent = agentOfSigner(identity, outcome.signer);
  if (reuse.used(outcome.reuseKey, (outcome.expires + MAX_SKEW_SECONDS) * 1000, now)) {
    return { status: "reused", signer: outcome.signer, agent };
  }
  return { status: "verified", signer: outcome.signer, agent, commitment: outcome.commitment };
}
