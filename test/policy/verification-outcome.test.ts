// How a crawler was verified, or why not (issue #12): one value from the facts
// (identity.ts verificationOf) that the decision log, explain, the CLI and the page's
// tester all show; and Cloudflare's verified bot category where our table knows no crawler.
import { describe, expect, it } from "vitest";
import { defaultSettings } from "../../src/config/edge-settings.ts";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import type { VerificationOutcome } from "../../src/agents/verification.ts";
import { agentOfSigner } from "../../src/agents/web-bot-auth/signed-agent.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { verificationOf } from "../../src/policy/identity.ts";
import { NOTHING_GATHERED, type EdgeFacts } from "../../src/policy/edge-facts.ts";
import { explainRequest } from "../../src/policy/explain.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const AMAZONBOT = "Mozilla/5.0 (compatible; Amazonbot/0.1)";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const matcher = compileRobots(
  parseRobotsTxt("User-agent: Googlebot\nAllow: /news/\n\nUser-agent: *\nDisallow: /news/\n"),
);

const IN_LIST: VerificationOutcome = {
  status: "verified",
  method: "ip-list",
  evidence: "googlebot",
  why: null,
  reason: "address in the googlebot list",
};
const BY_DNS: VerificationOutcome = {
  status: "verified",
  method: "reverse-dns",
  evidence: "crawl-1.googlebot.com",
  why: null,
  reason: "forward-confirmed crawl-1.googlebot.com",
};
const REFUTED: VerificationOutcome = {
  status: "refuted",
  method: "ip-list",
  evidence: null,
  why: "refuted",
  reason: "address not in the googlebot list",
};
const TIMED_OUT: VerificationOutcome = {
  status: "unverifiable",
  method: null,
  evidence: null,
  why: "lookup-failed",
  reason: "cannot check: reverse DNS timed out",
};
const SIGNER = "https://chatgpt.com";

type Row = {
  why: string;
  ua: string;
  over: Partial<EdgeFacts>;
  expected: Pick<VerificationOutcome, "status" | "method" | "evidence" | "why">;
};

describe("verificationOf: how, or why not, from the facts", () => {
  it.each([
    {
      why: "a trusted signer's valid signature, whatever the User-Agent",
      ua: CHROME,
      over: {
        signature: {
          status: "verified",
          signer: SIGNER,
          agent: agentOfSigner({ token: "ChatGPT-User", category: "ai-assistant" }, SIGNER),
        },
      },
      expected: { status: "verified", method: "signature", evidence: SIGNER, why: null },
    },
    {
      why: "a failed signature is a refuted claim",
      ua: CHROME,
      over: { signature: { status: "failed", why: "expired", signer: SIGNER } },
      expected: { status: "refuted", method: "signature", evidence: null, why: "refuted" },
    },
    {
      why: "VERIFY_CRAWLERS=off checks nothing",
      ua: GOOGLEBOT,
      over: { verifyCrawlers: "off" },
      expected: { status: "unverifiable", method: null, evidence: null, why: "verify-off" },
    },
    {
      why: "a browser claims no crawler",
      ua: CHROME,
      over: {},
      expected: { status: "unverifiable", method: null, evidence: null, why: "not-claimed" },
    },
    {
      why: "an unknown bot claims no crawler any method verifies",
      ua: "FooBot/1.0",
      over: {},
      expected: { status: "unverifiable", method: null, evidence: null, why: "not-claimed" },
    },
    {
      why: "the address check's outcome: in the list",
      ua: GOOGLEBOT,
      over: { needsVerification: true, verification: IN_LIST },
      expected: { status: "verified", method: "ip-list", evidence: "googlebot", why: null },
    },
    {
      why: "the address check's outcome: forward-confirmed reverse DNS",
      ua: GOOGLEBOT,
      over: { needsVerification: true, verification: BY_DNS },
      expected: { status: "verified", method: "reverse-dns", evidence: "crawl-1.googlebot.com", why: null },
    },
    {
      why: "the address check's outcome: refuted by the list",
      ua: GOOGLEBOT,
      over: { needsVerification: true, verification: REFUTED },
      expected: { status: "refuted", method: "ip-list", evidence: null, why: "refuted" },
    },
    {
      why: "the address check's outcome: the lookup failed, unverifiable (never shown as verified)",
      ua: AMAZONBOT,
      over: { needsVerification: true, verification: TIMED_OUT },
      expected: { status: "unverifiable", method: null, evidence: null, why: "lookup-failed" },
    },
    {
      why: "a check due but not gathered: unverifiable, not looked up",
      ua: GOOGLEBOT,
      over: { needsVerification: true },
      expected: { status: "unverifiable", method: null, evidence: null, why: "not-looked-up" },
    },
  ] satisfies Row[])("$why -> $expected.status by $expected.method", ({ ua, over, expected }) => {
    const outcome = verificationOf({
      agent: classifyUserAgent(ua),
      verifyCrawlers: "unknown",
      needsVerification: false,
      signature: NOTHING_GATHERED.signature,
      verification: NOTHING_GATHERED.verification,
      ...over,
    });
    expect(outcome).toMatchObject(expected);
    expect(outcome.reason.length).toBeGreaterThan(0);
  });
});

const explain = (
  ua: string,
  {
    verifyCrawlers,
    ...facts
  }: NonNullable<Parameters<typeof explainRequest>[0]["facts"]> & {
    verifyCrawlers: "off" | "unknown" | "block";
  },
) =>
  explainRequest({
    userAgent: ua,
    url: "/news/today",
    settings: { ...defaultSettings(), verifyCrawlers },
    state: "ok",
    matcher,
    paused: false,
    facts: { now: 0, ...facts },
  });

describe("explain says how the claim was checked, and judges as the edge would", () => {
  it.each([
    {
      why: "no address given: unverifiable, judged as the edge judges a claim it cannot check",
      ua: GOOGLEBOT,
      facts: { verifyCrawlers: "unknown" },
      verification: {
        status: "unverifiable",
        why: "no-address",
        reason: "no client address given; the edge would check by ip-list, reverse-dns",
      },
      action: "unavailable unproven-claim",
      group: "*",
    },
    {
      why: "Amazonbot: reverse DNS is the only method",
      ua: AMAZONBOT,
      facts: { verifyCrawlers: "block" },
      verification: {
        status: "unverifiable",
        why: "no-address",
        reason: "no client address given; the edge would check by reverse-dns",
      },
      action: "block robots.txt",
      group: "*",
    },
    {
      why: "an address in the stored list",
      ua: GOOGLEBOT,
      facts: { verifyCrawlers: "unknown", claimCheck: IN_LIST },
      verification: { status: "verified", why: null, reason: "address in the googlebot list" },
      action: "pass robots.txt",
      group: "googlebot",
    },
    {
      why: "refuted under VERIFY_CRAWLERS=unknown: judged under * as an anonymous bot",
      ua: GOOGLEBOT,
      facts: { verifyCrawlers: "unknown", claimCheck: REFUTED },
      verification: { status: "refuted", why: "refuted", reason: "address not in the googlebot list" },
      action: "block robots.txt",
      group: "*",
    },
    {
      why: "refuted under VERIFY_CRAWLERS=block: 403 impostor",
      ua: GOOGLEBOT,
      facts: { verifyCrawlers: "block", claimCheck: REFUTED },
      verification: { status: "refuted", why: "refuted", reason: "address not in the googlebot list" },
      action: "block verification",
      group: null,
    },
    {
      why: "VERIFY_CRAWLERS=off takes the claim for its group",
      ua: GOOGLEBOT,
      facts: { verifyCrawlers: "off" },
      verification: {
        status: "unverifiable",
        why: "verify-off",
        reason: "VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *",
      },
      action: "pass robots.txt",
      group: "googlebot",
    },
    {
      why: "a browser is never checked",
      ua: CHROME,
      facts: { verifyCrawlers: "block" },
      verification: { status: "unverifiable", why: "not-claimed", reason: "not a crawler" },
      action: "pass human",
      group: null,
    },
  ] as const)("$why", ({ ua, facts, verification, action, group }) => {
    const explanation = explain(ua, facts);
    expect(explanation.verification).toMatchObject(verification);
    expect(`${explanation.action.action} ${explanation.layer}`).toBe(action);
    expect(explanation.group?.token ?? null).toBe(group);
  });
});

// Cloudflare's category applies only to a crawler our table does not know (ours is per token
// and cited), never to a refuted claim. The policy blocks the category ai-training.
describe("Cloudflare's verified bot category as a fact", () => {
  const policy = parsePolicy(
    JSON.stringify({ routes: [{ pattern: "/", rules: [{ crawlers: ["category:ai-training"], action: "block" }] }] }),
  );
  if (!policy.ok) throw new TypeError(policy.problems.join("; "));
  const base = (ua: string, over: Partial<EdgeFacts>): EdgeFacts => ({
    originUnusable: false,
    selfAddressed: false,
    mode: "enforce",
    served: true,
    isRobotsTxt: false,
    pathAndQuery: "/open",
    agent: classifyUserAgent(ua),
    signed: false,
    verifyCrawlers: "unknown",
    needsVerification: false,
    cloudflareCategory: undefined,
    ...NOTHING_GATHERED,
    pause: "none",
    robots: { state: "ok", matcher, retryAfter: 0 },
    failOpen: false,
    blockStatus: 403,
    policy: policy.value,
    enforceRates: "honoured",
    usageSignals: "enforce",
    usageHeader: true,
    rateLimiter: false,
    rate: "not-checked",
    now: 0,
    ...over,
  });
  it.each([
    {
      why: "an unknown crawler takes Cloudflare's category",
      ua: "FooBot/1.0",
      over: {},
      layer: "policy",
      kind: "block",
    },
    {
      why: "no category from Cloudflare: the unknown crawler has none",
      ua: "FooBot/1.0",
      over: { cloudflareCategory: undefined },
      layer: "robots.txt",
      kind: "pass",
    },
    {
      why: "our table's category wins for a known crawler (Googlebot is search-engine)",
      ua: GOOGLEBOT,
      over: {},
      layer: "robots.txt",
      kind: "pass",
    },
    {
      why: "a refuted claim gets no category",
      ua: "FooBot/1.0",
      over: { needsVerification: true, verification: REFUTED },
      layer: "robots.txt",
      kind: "pass",
    },
  ] satisfies { why: string; ua: string; over: Partial<EdgeFacts>; layer: string; kind: string }[])(
    "$why -> $kind by $layer",
    ({ ua, over, layer, kind }) => {
      const record = decideEdge(base(ua, { cloudflareCategory: "ai-training", ...over }));
      expect("gather" in record ? "gather" : record.action).toBe(kind);
      expect("gather" in record ? "none" : record.layer).toBe(layer);
    },
  );
});
