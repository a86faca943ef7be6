// The one decision (src/policy/edge-decision.ts) as a table: every MODE × route mode × deciding
// layer × pause, then the facts around them (kill switch, authorities, humans, verification,
// robots.txt, pacing). Expected answers are literal: the precedence written in the README's
// "How decisions are made", row by row.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { agentOfSigner } from "../../src/agents/web-bot-auth/signed-agent.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge, type EdgeAnswer } from "../../src/policy/edge-decision.ts";
import { NOT_GATHERED, type EdgeFacts } from "../../src/policy/edge-facts.ts";
import type { Mode } from "../../src/policy/mode.ts";
import { UNPROVEN_RETRY_AFTER_SECONDS } from "../../src/policy/claim.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { gatheredFacts, REFUTED, UNVERIFIABLE, VERIFIED } from "./gathered-facts.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const matcher = compileRobots(
  parseRobotsTxt(
    "User-agent: *\nDisallow: /private/\nCrawl-delay: 10\n\nUser-agent: bingbot\nDisallow: /private/\nCrawl-delay: 5\n",
  ),
);
const NOON = Date.UTC(2026, 0, 1, 12, 0, 0);

function facts(overrides: Partial<EdgeFacts> = {}): EdgeFacts {
  return gatheredFacts({
    pathAndQuery: "/private/x",
    agent: classifyUserAgent(GOOGLEBOT),
    robots: { state: "ok", matcher, retryAfter: 300 },
    now: NOON,
    ...overrides,
  });
}

/** The record in a few words: action, status, the layer that decided, and a Retry-After where it is the point. */
function summary(answer: EdgeAnswer): string {
  if ("gather" in answer) return `gather ${answer.gather}`;
  const status = answer.status === null ? "" : ` ${answer.status}`;
  const retry = answer.action === "rate-limited" || answer.action === "serve-robots-txt";
  return `${answer.action}${status} ${answer.layer}${retry ? ` retry ${answer.retryAfter}` : ""}`;
}

function policyFor(route: string, layer: string) {
  if (route === "none") return undefined;
  const rules = layer === "policy" ? [{ crawlers: ["Googlebot"], action: "block" }] : [];
  const mode = route === "inherit" ? {} : { mode: route };
  const policy = parsePolicy(JSON.stringify({ routes: [{ pattern: "/private/", blockStatus: 451, ...mode, rules }] }));
  if (!policy.ok) throw new TypeError(`test policy is invalid: ${policy.problems.join("; ")}`);
  return policy.value;
}

// [MODE, route mode of the route covering /private/ ("none": no route; "inherit": no mode of
// its own), layer that decides (robots.txt: Disallow /private/; policy: a rule blocking
// Googlebot), pause in force, expected]. Googlebot asks for /private/x.
const precedence: [Mode, string, string, boolean, string][] = [
  ["enforce", "none", "robots.txt", false, "block 403 robots.txt"],
  ["enforce", "none", "robots.txt", true, "unavailable 503 pause"],
  ["enforce", "inherit", "robots.txt", false, "block 451 robots.txt"],
  ["enforce", "inherit", "robots.txt", true, "unavailable 503 pause"],
  ["enforce", "inherit", "policy", false, "block 451 policy"],
  ["enforce", "inherit", "policy", true, "unavailable 503 pause"],
  ["enforce", "enforce", "robots.txt", false, "block 451 robots.txt"],
  ["enforce", "enforce", "robots.txt", true, "unavailable 503 pause"],
  ["enforce", "enforce", "policy", false, "block 451 policy"],
  ["enforce", "enforce", "policy", true, "unavailable 503 pause"],
  ["enforce", "report", "robots.txt", false, "report robots.txt"],
  ["enforce", "report", "robots.txt", true, "unavailable 503 pause"],
  ["enforce", "report", "policy", false, "report policy"],
  ["enforce", "report", "policy", true, "unavailable 503 pause"],
  ["enforce", "off", "robots.txt", false, "pass policy"],
  ["enforce", "off", "robots.txt", true, "unavailable 503 pause"],
  ["enforce", "off", "policy", false, "pass policy"],
  ["enforce", "off", "policy", true, "unavailable 503 pause"],
  ["report", "none", "robots.txt", false, "report robots.txt"],
  ["report", "none", "robots.txt", true, "unavailable 503 pause"],
  ["report", "inherit", "robots.txt", false, "report robots.txt"],
  ["report", "inherit", "robots.txt", true, "unavailable 503 pause"],
  ["report", "inherit", "policy", false, "report policy"],
  ["report", "inherit", "policy", true, "unavailable 503 pause"],
  ["report", "enforce", "robots.txt", false, "block 451 robots.txt"],
  ["report", "enforce", "robots.txt", true, "unavailable 503 pause"],
  ["report", "enforce", "policy", false, "block 451 policy"],
  ["report", "enforce", "policy", true, "unavailable 503 pause"],
  ["report", "report", "robots.txt", false, "report robots.txt"],
  ["report", "report", "robots.txt", true, "unavailable 503 pause"],
  ["report", "report", "policy", false, "report policy"],
  ["report", "report", "policy", true, "unavailable 503 pause"],
  ["report", "off", "robots.txt", false, "pass policy"],
  ["report", "off", "robots.txt", true, "unavailable 503 pause"],
  ["report", "off", "policy", false, "pass policy"],
  ["report", "off", "policy", true, "unavailable 503 pause"],
  ["off", "none", "robots.txt", false, "pass mode-off"],
  ["off", "none", "robots.txt", true, "pass mode-off"],
  ["off", "inherit", "robots.txt", false, "pass mode-off"],
  ["off", "inherit", "robots.txt", true, "pass mode-off"],
  ["off", "inherit", "policy", false, "pass mode-off"],
  ["off", "inherit", "policy", true, "pass mode-off"],
  ["off", "enforce", "robots.txt", false, "pass mode-off"],
  ["off", "enforce", "robots.txt", true, "pass mode-off"],
  ["off", "enforce", "policy", false, "pass mode-off"],
  ["off", "enforce", "policy", true, "pass mode-off"],
  ["off", "report", "robots.txt", false, "pass mode-off"],
  ["off", "report", "robots.txt", true, "pass mode-off"],
  ["off", "report", "policy", false, "pass mode-off"],
  ["off", "report", "policy", true, "pass mode-off"],
  ["off", "off", "robots.txt", false, "pass mode-off"],
  ["off", "off", "robots.txt", true, "pass mode-off"],
  ["off", "off", "policy", false, "pass mode-off"],
  ["off", "off", "policy", true, "pass mode-off"],
];

describe("precedence: MODE × route mode × layer × pause (README: How decisions are made)", () => {
  it.each(precedence)("MODE=%s route=%s layer=%s paused=%s -> %s", (mode, route, layer, paused, expected) => {
    const pause = paused ? { retryAfter: 600 } : "none";
    expect(summary(decideEdge(facts({ mode, policy: policyFor(route, layer) ?? "none", pause })))).toBe(expected);
  });
});

const SIGNED_BINGBOT = {
  status: "verified",
  signer: "https://agent.test",
  agent: agentOfSigner({ token: "bingbot", category: "search-engine" }, "https://agent.test"),
} as const;
const FAILED = { status: "failed", why: "bad-signature", signer: "https://agent.test" } as const;
const UNTRUSTED = { status: "untrusted", signer: "https://stranger.test" } as const;
const REUSED = { status: "reused", signer: "https://agent.test", agent: SIGNED_BINGBOT.agent } as const;
/** A trusted signer whose key set could not be fetched (issue 30): proves and refutes nothing. */
const KEYS_UNAVAILABLE = {
  status: "unverifiable",
  signer: "https://agent.test",
  why: "its key set could not be fetched (directory answered 500)",
} as const;
/** A route asking search engines to sign: signed ones are allowed, unsigned ones asked to sign. */
const SIGN_HERE = parsePolicy(
  JSON.stringify({
    routes: [
      {
        pattern: "/private/",
        rules: [{ crawlers: ["category:search-engine"], action: "allow", signature: "required" }],
      },
    ],
  }),
);
const signHere = SIGN_HERE.ok ? SIGN_HERE.value : "none";

describe("the facts around the policy layers", () => {
  it.each([
    {
      why: "an unusable ORIGIN_URL: nowhere to send anyone",
      over: { originUnusable: true },
      expected: "error 502 origin",
    },
    { why: "route mode addressed to itself", over: { selfAddressed: true }, expected: "error 508 self-loop" },
    {
      why: "kill switch before the pause",
      over: { mode: "off", pause: { retryAfter: 60 } },
      expected: "pass mode-off",
    },
    { why: "an authority not protected", over: { served: false }, expected: "pass not-served" },
    { why: "humans pass unjudged", over: { agent: classifyUserAgent(CHROME) }, expected: "pass human" },
    {
      why: "humans pass even during a pause",
      over: { agent: classifyUserAgent(CHROME), pause: { retryAfter: 60 } },
      expected: "pass human",
    },
    {
      why: "robots.txt is served to humans too",
      over: { agent: classifyUserAgent(CHROME), isRobotsTxt: true, pathAndQuery: "/robots.txt" },
      expected: "serve-robots-txt robots.txt-file retry 300",
    },
    {
      why: "a pause answers /robots.txt 503 as well",
      over: { agent: classifyUserAgent(CHROME), isRobotsTxt: true, pause: { retryAfter: 60 } },
      expected: "unavailable 503 pause",
    },
    // Issue #12: a Web Bot Auth signature decides who a request is before the human shortcut.
    {
      why: "a signature is asked for first",
      over: { agent: classifyUserAgent(CHROME), signed: true },
      expected: "gather signature",
    },
    {
      why: "a verified signer's crawler, though its User-Agent is a browser's",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: SIGNED_BINGBOT },
      expected: "block 403 robots.txt",
    },
    {
      why: "a verified signature needs no address check",
      over: { signed: true, signature: SIGNED_BINGBOT, needsVerification: true },
      expected: "block 403 robots.txt",
    },
    {
      why: "a failed signature is a failed claim: VERIFY_CRAWLERS=block answers 403",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: FAILED, verifyCrawlers: "block" },
      expected: "block 403 verification",
    },
    {
      why: "a failed signature under VERIFY_CRAWLERS=unknown: an anonymous bot under *",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: FAILED },
      expected: "block 403 robots.txt",
    },
    {
      why: "a trusted signer's keys we could not get, VERIFY_CRAWLERS=block: judged as unsigned (a person), never 403",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: KEYS_UNAVAILABLE, verifyCrawlers: "block" },
      expected: "pass human",
    },
    {
      why: "a trusted signer's keys we could not get, VERIFY_CRAWLERS=unknown: judged as unsigned (a person)",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: KEYS_UNAVAILABLE },
      expected: "pass human",
    },
    {
      why: "a signer we do not trust: the User-Agent decides",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: UNTRUSTED },
      expected: "pass human",
    },
    // httpsig-protocol-01 §4.4: reuse answered 429; a route may ask for a signature (403).
    {
      why: "a reused signature: 429, before anything else is gathered",
      over: { agent: classifyUserAgent(CHROME), signed: true, signature: REUSED, pause: NOT_GATHERED },
      expected: "rate-limited 429 signature retry 1",
    },
    {
      why: "a route requiring a signature, an unsigned crawler it names: 403 asking for one",
      over: { policy: signHere },
      expected: "block 403 signature",
    },
    {
      why: "a route requiring a signature, the named crawler signed: its rule applies (allow)",
      over: { policy: signHere, signed: true, signature: SIGNED_BINGBOT },
      expected: "pass policy",
    },
    {
      why: "a route requiring a signature under MODE=report: only marked",
      over: { policy: signHere, mode: "report" },
      expected: "report signature",
    },
    {
      why: "a route requiring a signature of search engines does not touch a crawler it does not name",
      over: { policy: signHere, agent: classifyUserAgent("ExampleFetcher/1.0") },
      expected: "block 403 robots.txt",
    },
    {
      why: "a person is never asked to sign",
      over: { policy: signHere, agent: classifyUserAgent(CHROME) },
      expected: "pass human",
    },
    { why: "verification is asked for first", over: { needsVerification: true }, expected: "gather verification" },
    // Issue #13: the live policy costs a KV read (at most one per isolate per 10 s); only a
    // crawler whose request reaches the policy layers asks for it.
    { why: "a crawler's request asks for the policy", over: { policy: NOT_GATHERED }, expected: "gather policy" },
    {
      why: "the policy is asked for after robots.txt",
      over: { policy: NOT_GATHERED, robots: NOT_GATHERED },
      expected: "gather robots",
    },
    {
      why: "humans never wait for the policy",
      over: { agent: classifyUserAgent(CHROME), policy: NOT_GATHERED },
      expected: "pass human",
    },
    {
      why: "robots.txt is served without the policy",
      over: { isRobotsTxt: true, pathAndQuery: "/robots.txt", policy: NOT_GATHERED },
      expected: "serve-robots-txt robots.txt-file retry 300",
    },
    {
      why: "a pause answers before the policy is asked for",
      over: { pause: { retryAfter: 60 }, policy: NOT_GATHERED },
      expected: "unavailable 503 pause",
    },
    {
      why: "no policy (null) leaves robots.txt to decide",
      over: { policy: "none" },
      expected: "block 403 robots.txt",
    },
    {
      why: "VERIFY_CRAWLERS=block: an impostor gets 403, before the pause",
      over: { needsVerification: true, verification: REFUTED, verifyCrawlers: "block", pause: { retryAfter: 60 } },
      expected: "block 403 verification",
    },
    {
      why: "VERIFY_CRAWLERS=unknown: an impostor is judged under * (still blocked here)",
      over: { needsVerification: true, verification: REFUTED },
      expected: "block 403 robots.txt",
    },
    { why: "a pause is asked for before robots.txt", over: { pause: NOT_GATHERED }, expected: "gather pause" },
    { why: "robots.txt is asked for last", over: { robots: NOT_GATHERED }, expected: "gather robots" },
    {
      why: "robots.txt unavailable: 503 until the next attempt",
      over: { robots: { state: "unavailable", matcher: undefined, retryAfter: 300 } },
      expected: "unavailable 503 robots-unavailable",
    },
    {
      why: "FAIL_OPEN lets crawlers through while nothing is known",
      over: { failOpen: true, robots: { state: "unavailable", matcher: undefined, retryAfter: 300 } },
      expected: "pass none",
    },
    {
      why: "no robots.txt at the origin: allowed",
      over: { robots: { state: "none", matcher: undefined, retryAfter: 0 } },
      expected: "pass none",
    },
  ] satisfies { why: string; over: Partial<EdgeFacts>; expected: string }[])(
    "$why -> $expected",
    ({ over, expected }) => {
      expect(summary(decideEdge(facts(over)))).toBe(expected);
    },
  );
});

describe("pacing: only a pass in enforce mode, only crawlers the lines bind (issue #9)", () => {
  const open = { pathAndQuery: "/open" };
  it.each([
    {
      why: "* group's Crawl-delay does not bind Googlebot by default",
      over: { ...open, rate: NOT_GATHERED },
      expected: "pass robots.txt",
    },
    {
      why: "ENFORCE_RATES=all binds Googlebot too: the limiter is asked",
      over: { ...open, rate: NOT_GATHERED, enforceRates: "all" },
      expected: "gather rate",
    },
    {
      why: "a group naming bingbot binds it: the limiter is asked",
      over: { ...open, agent: classifyUserAgent(BINGBOT), rate: NOT_GATHERED },
      expected: "gather rate",
    },
    {
      why: "the limiter refused: 429",
      over: { ...open, agent: classifyUserAgent(BINGBOT), rate: { allowed: false, retryAfter: 4 } },
      expected: "rate-limited 429 rate retry 4",
    },
    {
      why: "ENFORCE_RATES=off",
      over: { ...open, agent: classifyUserAgent(BINGBOT), rate: NOT_GATHERED, enforceRates: "off" },
      expected: "pass robots.txt",
    },
    {
      why: "MODE=report never paces",
      over: { ...open, agent: classifyUserAgent(BINGBOT), rate: NOT_GATHERED, mode: "report" },
      expected: "pass robots.txt",
    },
    {
      why: "a block is never paced",
      over: { agent: classifyUserAgent(BINGBOT), rate: NOT_GATHERED },
      expected: "block 403 robots.txt",
    },
    {
      why: "no limiter bound",
      over: { ...open, agent: classifyUserAgent(BINGBOT), rate: NOT_GATHERED, rateLimiter: false },
      expected: "pass robots.txt",
    },
  ] satisfies { why: string; over: Partial<EdgeFacts>; expected: string }[])(
    "$why -> $expected",
    ({ over, expected }) => {
      expect(summary(decideEdge(facts(over)))).toBe(expected);
    },
  );

  it("Visit-time outside its window: 503 until it opens", () => {
    const visiting = compileRobots(parseRobotsTxt("User-agent: bingbot\nVisit-time: 0100-0300\n"));
    const action = decideEdge(
      facts({ ...open, agent: classifyUserAgent(BINGBOT), robots: { state: "ok", matcher: visiting, retryAfter: 0 } }),
    );
    expect(action).toMatchObject({ action: "unavailable", status: 503, layer: "visit-time", retryAfter: 13 * 3600 });
  });
});

describe("usage preferences: a layer after robots.txt, before pacing (USAGE_SIGNALS)", () => {
  const usageRobots = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n"));
  const robots = { state: "ok", matcher: usageRobots, retryAfter: 0 } as const;
  const GPTBOT_UA =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
  it.each([
    {
      why: "train-ai=n refuses an ai-training crawler",
      over: { agent: classifyUserAgent(GPTBOT_UA) },
      expected: { action: "block", status: 403, usage: { key: "train-ai", line: 3 } },
    },
    {
      why: "MODE=report only marks it",
      over: { agent: classifyUserAgent(GPTBOT_UA), mode: "report" },
      expected: { action: "report", usage: { key: "train-ai", line: 3 } },
    },
    {
      why: "USAGE_SIGNALS=report only marks it",
      over: { agent: classifyUserAgent(GPTBOT_UA), usageSignals: "report" },
      expected: { action: "report", usage: { key: "train-ai", line: 3 } },
    },
    {
      why: "USAGE_SIGNALS=off: passed, the header still says what the site wrote",
      over: { agent: classifyUserAgent(GPTBOT_UA), usageSignals: "off" },
      expected: { action: "pass", contentUsage: "train-ai=n" },
    },
    {
      why: "a search engine is not refused; its pass carries Content-Usage",
      over: {},
      expected: { action: "pass", contentUsage: "train-ai=n" },
    },
    {
      why: "a disallowed path is blocked by robots.txt, not by the usage line",
      over: { agent: classifyUserAgent(GPTBOT_UA), pathAndQuery: "/private/x" },
      expected: { action: "block", status: 403, verdict: { layer: "robots.txt" } },
    },
    {
      why: "a crawl pause comes first",
      over: { agent: classifyUserAgent(GPTBOT_UA), pause: { retryAfter: 60 } },
      expected: { action: "unavailable", layer: "pause" },
    },
  ] satisfies { why: string; over: Partial<EdgeFacts>; expected: object }[])("$why", ({ over, expected }) => {
    const action = decideEdge(facts({ pathAndQuery: "/open", robots, ...over }));
    expect(action).toMatchObject(expected);
    if (expected.action === "block" && !("verdict" in expected))
      expect(action).toMatchObject({ layer: "usage-signal" });
    if ("verdict" in expected) expect(action).toMatchObject({ usage: null });
  });
});

/** The facts of a claim whose address check came out as given. */
const claim = (verification: EdgeFacts["verification"]) => ({ needsVerification: true, verification });

// Rule 1, "a claim grants nothing it cannot prove" (policy/claim.ts). robots.txt refuses /private/
// to `*` and /nogoogle/ to Googlebot's own group; Googlebot's group allows /private/. An
// unverifiable claim is judged under its group AND under `*`: refused if either refuses, with a
// 503 when only `*` does (its own group would pass it), never a 403 for our failure to check.
describe("Rule 1: an unverifiable claim is judged under its group and under `*`", () => {
  const ADSBOT = "AdsBot-Google (+http://www.google.com/adsbot.html)";
  const GPTBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
  const split = compileRobots(
    parseRobotsTxt(
      "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n",
    ),
  );
  const robots = { state: "ok", matcher: split, retryAfter: 0 } as const;
  const allowGooglebot = parsePolicy(
    JSON.stringify({ routes: [{ pattern: "/partners/", rules: [{ crawlers: ["Googlebot"], action: "allow" }] }] }),
  );
  const blockGooglebot = parsePolicy(
    JSON.stringify({ routes: [{ pattern: "/open/", rules: [{ crawlers: ["Googlebot"], action: "block" }] }] }),
  );
  if (!allowGooglebot.ok || !blockGooglebot.ok) throw new TypeError("test policies are invalid");
  const partnersRobots = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /partners/\n"));
  const disallowAll = {
    state: "ok",
    matcher: compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /\n")),
    retryAfter: 0,
  } as const;
  it.each([
    { why: "verified Googlebot: its group", over: { ...claim(VERIFIED) }, expected: "pass robots.txt" },
    {
      why: "unverifiable Googlebot: only `*` refuses -> 503",
      over: { ...claim(UNVERIFIABLE) },
      expected: `unavailable 503 unproven-claim`,
    },
    {
      why: "unverifiable Googlebot under VERIFY_CRAWLERS=block: still 503, not an impostor's 403",
      over: { ...claim(UNVERIFIABLE), verifyCrawlers: "block" },
      expected: "unavailable 503 unproven-claim",
    },
    {
      why: "unverifiable Googlebot where its own group refuses: 403",
      over: { ...claim(UNVERIFIABLE), pathAndQuery: "/nogoogle/x" },
      expected: "block 403 robots.txt",
    },
    {
      why: "unverifiable Googlebot where both allow: its group's pass",
      over: { ...claim(UNVERIFIABLE), pathAndQuery: "/open" },
      expected: "pass robots.txt",
    },
    {
      why: "refuted Googlebot under VERIFY_CRAWLERS=unknown: an anonymous bot under `*`",
      over: { ...claim(REFUTED) },
      expected: "block 403 robots.txt",
    },
    {
      why: "refuted Googlebot under VERIFY_CRAWLERS=block: 403 impostor",
      over: { ...claim(REFUTED), verifyCrawlers: "block" },
      expected: "block 403 verification",
    },
    {
      why: "VERIFY_CRAWLERS=off: Googlebot's claim selects its group",
      over: { verifyCrawlers: "off", needsVerification: false },
      expected: "pass robots.txt",
    },
    {
      why: "verified AdsBot-Google skips `*`",
      over: { ...claim(VERIFIED), agent: classifyUserAgent(ADSBOT) },
      expected: "pass robots.txt",
    },
    {
      why: "unverifiable AdsBot-Google gets no exemption from `*`: 503",
      over: { ...claim(UNVERIFIABLE), agent: classifyUserAgent(ADSBOT) },
      expected: "unavailable 503 unproven-claim",
    },
    // cr (google-create-robots-txt.hi.txt), "User-agent", example 3 "Block all but AdsBot
    // crawlers" (and "Disallow crawling of the entire website": "this does not cover the
    // AdsBot crawlers, which must be named explicitly"): `User-agent: *` / `Disallow: /`.
    {
      why: "cr example 3: `*` Disallow: / leaves a verified AdsBot-Google out",
      over: { ...claim(VERIFIED), agent: classifyUserAgent(ADSBOT), robots: disallowAll, pathAndQuery: "/page" },
      expected: "pass robots.txt",
    },
    {
      why: "cr example 3: `*` Disallow: / blocks a verified Googlebot",
      over: { ...claim(VERIFIED), robots: disallowAll, pathAndQuery: "/page" },
      expected: "block 403 robots.txt",
    },
    {
      why: "VERIFY_CRAWLERS=off: AdsBot-Google's exemption from `*` needs proof",
      over: { verifyCrawlers: "off", needsVerification: false, agent: classifyUserAgent(ADSBOT) },
      expected: "block 403 robots.txt",
    },
    {
      why: "a policy allow rule naming Googlebot: verified -> passed",
      over: {
        ...claim(VERIFIED),
        pathAndQuery: "/partners/x",
        policy: allowGooglebot.value,
        robots: { state: "ok", matcher: partnersRobots, retryAfter: 0 },
      },
      expected: "pass policy",
    },
    {
      why: "a policy allow rule naming Googlebot: unverifiable -> not granted, 503",
      over: {
        ...claim(UNVERIFIABLE),
        pathAndQuery: "/partners/x",
        policy: allowGooglebot.value,
        robots: { state: "ok", matcher: partnersRobots, retryAfter: 0 },
      },
      expected: "unavailable 503 unproven-claim",
    },
    {
      why: "a policy block rule naming Googlebot binds an unverifiable claim: 403",
      over: { ...claim(UNVERIFIABLE), pathAndQuery: "/open/x", policy: blockGooglebot.value },
      expected: "block 403 policy",
    },
    {
      why: "MODE=report: an unverifiable claim that only `*` refuses is marked, not refused",
      over: { ...claim(UNVERIFIABLE), mode: "report" },
      expected: "report unproven-claim",
    },
    {
      why: "the claimed group's usage refusal still binds an unverifiable GPTBot: 403",
      over: { ...claim(UNVERIFIABLE), agent: classifyUserAgent(GPTBOT), pathAndQuery: "/open" },
      expected: "block 403 usage-signal",
    },
    {
      // Its group allows /private/ but refuses training; USAGE_SIGNALS=report only marks that
      // refusal, which forwards the request. `*` refuses the path outright: the marked pass of
      // the claimed group must not stand in for `*`'s refusal.
      why: "unverifiable GPTBot whose group's usage refusal is only reported, where `*` blocks: 503",
      over: {
        ...claim(UNVERIFIABLE),
        agent: classifyUserAgent(GPTBOT),
        usageSignals: "report",
        robots: {
          state: "ok",
          matcher: compileRobots(
            parseRobotsTxt("User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nContent-Usage: train-ai=n\n"),
          ),
          retryAfter: 0,
        },
      },
      expected: "unavailable 503 unproven-claim",
    },
    {
      why: "robots.txt unavailable: the same 503 for every claim",
      over: { ...claim(UNVERIFIABLE), robots: { state: "unavailable", matcher: undefined, retryAfter: 300 } },
      expected: "unavailable 503 robots-unavailable",
    },
    {
      why: "a pass under both asks the limiter for the claimed group only",
      over: {
        ...claim(UNVERIFIABLE),
        agent: classifyUserAgent(BINGBOT),
        pathAndQuery: "/open",
        rate: NOT_GATHERED,
        robots: { state: "ok", matcher, retryAfter: 0 },
      },
      expected: "gather rate",
    },
    {
      why: "a refusal by `*` is answered without asking the limiter",
      over: { ...claim(UNVERIFIABLE), pathAndQuery: "/private/x", rate: NOT_GATHERED, enforceRates: "all" },
      expected: "unavailable 503 unproven-claim",
    },
  ] satisfies { why: string; over: Partial<EdgeFacts>; expected: string }[])(
    "$why -> $expected",
    ({ over, expected }) => {
      expect(summary(decideEdge(facts({ robots, policy: "none", ...over })))).toBe(expected);
    },
  );

  it("the 503 says when to retry, and the report says why it was marked", () => {
    expect(decideEdge(facts({ robots, ...claim(UNVERIFIABLE) }))).toMatchObject({
      action: "unavailable",
      status: 503,
      retryAfter: UNPROVEN_RETRY_AFTER_SECONDS,
      layer: "unproven-claim",
      line: { source: "robots.txt", line: 2, text: "disallow: /private/" },
      verdict: { layer: "robots.txt", decision: { allowed: false, group: { token: "*" } } },
    });
    expect(decideEdge(facts({ robots, ...claim(UNVERIFIABLE), mode: "report" }))).toMatchObject({
      action: "report",
      layer: "unproven-claim",
      identity: { judgedAs: "claimed-and-anonymous", verification: { status: "unverifiable" } },
    });
  });
});
