// Issue 32 part 1, a price (Cloudflare's pay-per-crawl vocabulary): terms × crawler kinds ×
// requests -> what the edge answers, with its headers, written out. The decision's record is
// rendered here as the Worker renders it (worker/charges/responses.ts): a refusal says
// crawler-price and crawler-error; a paid page says crawler-charged.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { agentOfSigner } from "../../src/agents/web-bot-auth/signed-agent.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import type { EdgeFacts, SignatureFact } from "../../src/policy/edge-facts.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { parsePrice, settlePrice } from "../../src/policy/terms-price.ts";
import { gatheredFacts, REFUTED, VERIFIED } from "./gathered-facts.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const SIGNER = "https://chatgpt.com";
const ROBOTS = "User-agent: *\nAllow: /\n";

function compiled(rules: unknown[]) {
  const parsed = parsePolicy(JSON.stringify({ routes: [{ pattern: "/paid/", rules }] }));
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.value;
}

/** The terms: AI training crawlers pay a cent under /paid/; the second also names the search crawler and the fetcher. */
const TERMS = {
  "ai-training pays": compiled([{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }]),
  "named ones pay": compiled([
    { crawlers: ["category:ai-training", "Googlebot", "ChatGPT-User"], action: "charge", price: "USD 0.01" },
  ]),
};

/** A verified Web Bot Auth signature of GPTBot's signer, covering the named components. */
function signedBy(covered: string[]): SignatureFact {
  return {
    status: "verified",
    signer: SIGNER,
    agent: agentOfSigner({ token: "GPTBot", category: "ai-training" }, SIGNER),
    commitment: { keyid: "key-1", covered, base: `"@authority": www.example.com\n...`, signature: "c2ln" },
  };
}

/** Who asks: the six kinds of the issue. */
const KINDS = {
  person: { agent: classifyUserAgent(CHROME) },
  "signed AI crawler": {
    agent: classifyUserAgent(CHROME),
    signed: true,
    signature: signedBy(["@authority", "@path", "@query", "crawler-max-price", "crawler-exact-price"]),
  },
  "unsigned AI crawler": { agent: classifyUserAgent(GPTBOT), needsVerification: true, verification: VERIFIED },
  "search crawler": { agent: classifyUserAgent(GOOGLEBOT), needsVerification: true, verification: VERIFIED },
  "user-triggered fetcher": { agent: classifyUserAgent(CHATGPT_USER), needsVerification: true, verification: VERIFIED },
  impostor: { agent: classifyUserAgent(GPTBOT), needsVerification: true, verification: REFUTED },
} satisfies Record<string, Partial<EdgeFacts>>;

function answer(
  terms: keyof typeof TERMS,
  kind: keyof typeof KINDS,
  path: string,
  prices: { exact?: string; max?: string } = {},
  extra: Partial<EdgeFacts> = {},
): string {
  const record = decideEdge(
    gatheredFacts({
      pathAndQuery: path,
      isRobotsTxt: path === "/robots.txt",
      robots: { state: "ok", matcher: compileRobots(parseRobotsTxt(ROBOTS)), retryAfter: 0 },
      now: Date.UTC(2026, 10, 27),
      policy: TERMS[terms],
      priceHeaders: { exact: prices.exact ?? null, max: prices.max ?? null },
      rateLimiter: false,
      ...KINDS[kind],
      ...extra,
    }),
  );
  if ("gather" in record) return `gather ${record.gather}`;
  const status = record.status ?? (record.action === "serve-robots-txt" ? "robots.txt" : "forward");
  const charge = record.charge;
  if (!charge) return `${status}`;
  if (charge.charged)
    return `${status}; crawler-charged: ${charge.price}; ${charge.charged.header}: ${charge.charged.offered}`;
  return `${status}; crawler-price: ${charge.price}${charge.error ? `; crawler-error: ${charge.error}` : ""}`;
}

describe("a price: terms × crawler kinds × requests", () => {
  it.each([
    // Who is never charged unless a rule names them.
    { terms: "ai-training pays", kind: "person", path: "/paid/a", prices: {}, expected: "forward" },
    { terms: "ai-training pays", kind: "person", path: "/paid/a", prices: { max: "USD 1" }, expected: "forward" },
    { terms: "ai-training pays", kind: "search crawler", path: "/paid/a", prices: {}, expected: "forward" },
    { terms: "ai-training pays", kind: "user-triggered fetcher", path: "/paid/a", prices: {}, expected: "forward" },
    { terms: "ai-training pays", kind: "unsigned AI crawler", path: "/robots.txt", prices: {}, expected: "robots.txt" },
    { terms: "ai-training pays", kind: "signed AI crawler", path: "/free/a", prices: {}, expected: "forward" },
    // A rule that names them charges them.
    {
      terms: "named ones pay",
      kind: "search crawler",
      path: "/paid/a",
      prices: {},
      expected: "402; crawler-price: USD 0.01; crawler-error: MissingCrawlerPrice",
    },
    {
      terms: "named ones pay",
      kind: "user-triggered fetcher",
      path: "/paid/a",
      prices: {},
      expected: "402; crawler-price: USD 0.01; crawler-error: MissingCrawlerPrice",
    },
    // The AI crawler the rule names: the offer, then each way of paying or failing to.
    {
      terms: "ai-training pays",
      kind: "unsigned AI crawler",
      path: "/paid/a",
      prices: {},
      expected: "402; crawler-price: USD 0.01; crawler-error: MissingCrawlerPrice",
    },
    {
      terms: "ai-training pays",
      kind: "unsigned AI crawler",
      path: "/paid/a",
      prices: { max: "USD 0.02" },
      expected: "400; crawler-price: USD 0.01; crawler-error: StrongAuthRequired",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: {},
      expected: "402; crawler-price: USD 0.01; crawler-error: MissingCrawlerPrice",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "USD 0.02" },
      expected: "forward; crawler-charged: USD 0.01; crawler-max-price: USD 0.02",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "USD 0.01" },
      expected: "forward; crawler-charged: USD 0.01; crawler-max-price: USD 0.01",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { exact: "USD 0.010" },
      expected: "forward; crawler-charged: USD 0.01; crawler-exact-price: USD 0.010",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { exact: "USD 0.005" },
      expected: "402; crawler-price: USD 0.01; crawler-error: InvalidCrawlerExactPrice",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { exact: "USD 0.02" },
      expected: "402; crawler-price: USD 0.01; crawler-error: InvalidCrawlerExactPrice",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "USD 0.009999" },
      expected: "402; crawler-price: USD 0.01; crawler-error: InvalidCrawlerMaxPrice",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "EUR 5" },
      expected: "402; crawler-price: USD 0.01; crawler-error: InvalidCrawlerMaxPrice",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "USD 0.02", exact: "USD 0.01" },
      expected: "400; crawler-price: USD 0.01; crawler-error: ConflictingPriceHeaders",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "0.02 USD" },
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidCrawlerPriceValue",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: `USD 1${"0".repeat(40)}` },
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidCrawlerPriceValue",
    },
    {
      terms: "ai-training pays",
      kind: "signed AI crawler",
      path: "/paid/a",
      prices: { max: "USD -1" },
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidCrawlerPriceValue",
    },
    // The impostor of GPTBot is an anonymous bot under `*`: no rule names it, robots.txt lets it in.
    { terms: "ai-training pays", kind: "impostor", path: "/paid/a", prices: { max: "USD 1" }, expected: "forward" },
  ] as const)("$terms, $kind, $path $prices -> $expected", ({ terms, kind, path, prices, expected }) => {
    expect(answer(terms, kind, path, prices)).toBe(expected);
  });

  it.each([
    {
      why: "a price header the signature does not cover commits to nothing",
      signature: signedBy(["@authority"]),
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidSignature",
    },
    {
      why: "it covers the price but not the page (no @target-uri, no @path and @query): a payment for any page",
      signature: signedBy(["@authority", "@path", "crawler-max-price"]),
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidSignature",
    },
    {
      why: "it covers the exact price, the request sends the maximum",
      signature: signedBy(["@target-uri", "crawler-exact-price"]),
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidSignature",
    },
    {
      why: "a signature base longer than 8 KiB is not kept as a commitment",
      signature: {
        ...signedBy(["@target-uri", "crawler-max-price"]),
        commitment: {
          keyid: "key-1",
          covered: ["@target-uri", "crawler-max-price"],
          base: "x".repeat(8_193),
          signature: "c2ln",
        },
      },
      expected: "400; crawler-price: USD 0.01; crawler-error: InvalidSignature",
    },
    {
      why: "a failed signature: a failed claim, an anonymous bot under `*` (no rule names it)",
      signature: { status: "failed", why: "bad-signature", signer: SIGNER } as const,
      expected: "forward",
    },
    {
      why: "a signer we do not trust: as unsigned (the User-Agent, GPTBot by address)",
      signature: { status: "untrusted", signer: "https://stranger.test" } as const,
      expected: "400; crawler-price: USD 0.01; crawler-error: StrongAuthRequired",
    },
    {
      why: "a trusted signer whose keys we could not get: our failure, 503 (no crawler-error)",
      signature: { status: "unverifiable", signer: SIGNER, why: "its key set could not be fetched" } as const,
      expected: "503; crawler-price: USD 0.01",
    },
  ])("signed GPTBot, crawler-max-price USD 0.02: $why -> $expected", ({ signature, expected }) => {
    const extra = {
      agent: classifyUserAgent(GPTBOT),
      signed: true,
      signature,
      needsVerification: true,
      verification: VERIFIED,
    };
    expect(answer("ai-training pays", "unsigned AI crawler", "/paid/a", { max: "USD 0.02" }, extra)).toBe(expected);
  });

  it("a route in report mode charges nobody and refuses nobody: marked", () => {
    const policy = parsePolicy(
      JSON.stringify({
        routes: [
          { pattern: "/paid/", mode: "report", rules: [{ crawlers: ["GPTBot"], action: "charge", price: "USD 0.01" }] },
        ],
      }),
    );
    if (!policy.ok) throw new Error("policy");
    const record = decideEdge(
      gatheredFacts({
        pathAndQuery: "/paid/a",
        agent: classifyUserAgent(GPTBOT),
        robots: { state: "ok", matcher: compileRobots(parseRobotsTxt(ROBOTS)), retryAfter: 0 },
        now: 0,
        policy: policy.value,
        needsVerification: true,
        verification: VERIFIED,
      }),
    );
    expect("gather" in record ? record.gather : [record.action, record.status, record.charge]).toEqual([
      "report",
      null,
      undefined,
    ]);
  });

  it("a re-spelled path into the charged route is charged, never freed (every spelling)", () => {
    expect(answer("ai-training pays", "unsigned AI crawler", "/free/..%2Fpaid/a")).toBe(
      "402; crawler-price: USD 0.01; crawler-error: MissingCrawlerPrice",
    );
    expect(answer("ai-training pays", "signed AI crawler", "/free/..%2Fpaid/a", { max: "USD 0.02" })).toBe(
      "forward; crawler-charged: USD 0.01; crawler-max-price: USD 0.02",
    );
  });
});

describe("prices: parsed to whole millionths", () => {
  it.each([
    { text: "USD 0.01", expected: { currency: "USD", micros: 10_000 } },
    { text: "USD 1", expected: { currency: "USD", micros: 1_000_000 } },
    { text: "EUR 0.000001", expected: { currency: "EUR", micros: 1 } },
    { text: "usd 0.01", expected: undefined },
    { text: "USD 0.0000001", expected: undefined },
    { text: "USD 1e3", expected: undefined },
    { text: "USD  0.01", expected: undefined },
    { text: "USD 0,01", expected: undefined },
  ])("$text", ({ text, expected }) => {
    expect(parsePrice(text)).toEqual(expected);
  });

  it("0.1 + 0.2 is 0.3 here: an offer of 0.30 meets a price of 0.30 exactly", () => {
    const price = parsePrice("USD 0.30");
    if (!price) throw new Error("price");
    const commitment = { keyid: "k", covered: ["@target-uri", "crawler-exact-price"], base: "b", signature: "s" };
    const settled = settlePrice(
      price,
      { exact: "USD 0.3", max: null },
      { status: "verified", signer: SIGNER, operator: "OpenAI", commitment },
    );
    expect(settled.settled).toBe(true);
  });
});

describe("a charge rule in the live policy: validated, problems on their member", () => {
  it.each([
    {
      rule: { crawlers: ["GPTBot"], action: "charge" },
      problem:
        'routes[0].rules[0].price must be a currency code and an amount above 0 and at most 1000, such as "USD 0.01", got undefined',
    },
    {
      rule: { crawlers: ["GPTBot"], action: "charge", price: "USD 0" },
      problem:
        'routes[0].rules[0].price must be a currency code and an amount above 0 and at most 1000, such as "USD 0.01", got "USD 0"',
    },
    {
      rule: { crawlers: ["GPTBot"], action: "charge", price: "USD 1000.01" },
      problem:
        'routes[0].rules[0].price must be a currency code and an amount above 0 and at most 1000, such as "USD 0.01", got "USD 1000.01"',
    },
    {
      rule: { crawlers: ["GPTBot"], action: "charge", price: 0.01 },
      problem:
        'routes[0].rules[0].price must be a currency code and an amount above 0 and at most 1000, such as "USD 0.01", got 0.01',
    },
    {
      rule: { crawlers: ["GPTBot"], action: "block", price: "USD 0.01" },
      problem: 'routes[0].rules[0].price belongs to a "charge" rule only',
    },
  ])("$problem", ({ rule, problem }) => {
    const parsed = parsePolicy(JSON.stringify({ routes: [{ pattern: "/paid/", rules: [rule] }] }));
    expect(parsed.ok ? [] : parsed.problems).toEqual([problem]);
  });

  it("a valid charge rule keeps its price as written", () => {
    const parsed = parsePolicy(
      JSON.stringify({
        routes: [{ pattern: "/paid/", rules: [{ crawlers: ["GPTBot"], action: "charge", price: "USD 0.01" }] }],
      }),
    );
    expect(parsed.ok && parsed.value.policy.routes[0]?.rules[0]).toEqual({
      crawlers: ["GPTBot"],
      action: "charge",
      price: "USD 0.01",
    });
  });
});
