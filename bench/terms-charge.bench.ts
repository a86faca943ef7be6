// `npm run bench`: what a charged request adds (issue 32, a price), on a warm isolate with the
// signer's key cached: the Web Bot Auth verification of a request covering crawler-max-price,
// the decision with a `charge` rule against the same decision for a free route, the ledger
// row's id (a SHA-256), and a 40 KB price header (never parsed past 32 characters).
import { Bench } from "tinybench";
import { classifyUserAgent } from "../src/agents/classify.ts";
import { parseDirectory } from "../src/agents/web-bot-auth/directory.ts";
import { agentOfSigner } from "../src/agents/web-bot-auth/signed-agent.ts";
import { verifyWebBotAuth, type SignedRequest, type VerifyOptions } from "../src/agents/web-bot-auth/verify.ts";
import { sha256 } from "../src/agents/web-bot-auth/web-crypto.ts";
import { compileRobots, parseRobotsTxt } from "../src/core/index.ts";
import { decideEdge } from "../src/policy/edge-decision.ts";
import type { EdgeFacts } from "../src/policy/edge-facts.ts";
import { parsePolicy } from "../src/policy/operator-policy.ts";
import { parsePrice } from "../src/policy/terms-price.ts";
import { newSigner, signRequest } from "../test/agents/web-bot-auth/signer.ts";
import { gatheredFacts } from "../test/policy/gathered-facts.ts";

const AGENT = "https://agent.example";
const SIGNER = `${AGENT}/.well-known/http-message-signatures-directory`;
const TARGET = "https://www.example.com/paid/today";
const signer = await newSigner();
const keys = (await parseDirectory({ keys: [signer.publicJwk] }))?.keys ?? new Map();
const options = (): VerifyOptions => ({
  now: Date.now(),
  isTrusted: (url) => url === SIGNER,
  lookupKey: (url, keyid) => (url === SIGNER ? keys.get(keyid) : undefined),
});
const now = Math.floor(Date.now() / 1000);
const headers = await signRequest(signer, {
  url: TARGET,
  agent: { form: "dictionary", key: "sig1", origin: AGENT },
  // The page must be covered for a charge to be owed (@path and @query: a signature covering
  // only @authority could be replayed onto other pages, attack session 8).
  components: ["@authority", "@path", "@query"],
  created: now,
  expires: now + 290,
  fields: { "crawler-max-price": "USD 0.02" },
});
const request: SignedRequest = { method: "GET", url: TARGET, headers: new Headers(headers) };
const verified = await verifyWebBotAuth(request, options());
if (verified.status !== "verified") throw new Error(`bench setup: ${JSON.stringify(verified)}`);

const policyOf = (action: string) => {
  const rule = action === "charge" ? { action, price: "USD 0.01" } : { action };
  const parsed = parsePolicy(
    JSON.stringify({ routes: [{ pattern: "/paid/", rules: [{ crawlers: ["GPTBot"], ...rule }] }] }),
  );
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.value;
};
// A signed request the rate limiter does not see; everything else as the decision tables' facts.
const facts = (action: string): EdgeFacts =>
  gatheredFacts({
    signed: true,
    rateLimiter: false,
    pathAndQuery: "/paid/today",
    agent: classifyUserAgent("Mozilla/5.0 Chrome/124.0"),
    robots: { state: "ok", matcher: compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\n")), retryAfter: 0 },
    now: Date.now(),
    policy: policyOf(action),
    priceHeaders: { exact: null, max: "USD 0.02" },
    signature: {
      status: "verified",
      signer: SIGNER,
      agent: agentOfSigner({ token: "GPTBot", category: "ai-training" }, SIGNER),
      commitment: verified.commitment,
    },
  });
const charged = facts("charge");
const free = facts("allow");
const paid = decideEdge(charged);
if ("gather" in paid || !paid.charge?.charged) throw new Error(`bench setup: not charged: ${JSON.stringify(paid)}`);
const huge = `USD ${"9".repeat(40_000)}`;
const rowText = `${SIGNER} ${verified.commitment.signature} /paid/today`;

const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add("signature covering crawler-max-price verified (Ed25519, cached key)", async () => {
    await verifyWebBotAuth(request, options());
  })
  .add("decision: charge rule, paid (verified signature, max price covered)", () => {
    decideEdge(charged);
  })
  .add("decision: the same request on an allow rule (no price)", () => {
    decideEdge(free);
  })
  .add("ledger row id (SHA-256 of signer, signature, target)", async () => {
    await sha256(new TextEncoder().encode(rowText));
  })
  .add("a 40 KB crawler-max-price (over 32 chars: not parsed)", () => {
    parsePrice(huge);
  });
await bench.run();
console.log("A charged request's added CPU on a warm isolate, tinybench");
for (const task of bench.tasks) {
  const result = task.result;
  const p50 = result && "latency" in result ? result.latency.p50 * 1000 : NaN;
  const p99 = result && "latency" in result ? (result.latency.p99 ?? NaN) * 1000 : NaN;
  console.log(`  ${task.name.padEnd(72)} p50 ${p50.toFixed(2)} us   p99 ${p99.toFixed(2)} us`);
}
