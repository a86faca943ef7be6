// The identity step (policy/identity.ts) as a table: the identity facts of one request in, who
// asked out (what it states, whom the claim is about, how it stands, whom it is judged as, its
// category, the crawler-only list it comes from), or the next fact to gather, in the order the
// decision's precedence asks them. Then who is paced and what the record says. Expected values
// are literal.
import { describe, expect, it } from "vitest";
import { classifyUserAgent, type AgentInfo } from "../../src/agents/classify.ts";
import { ANONYMOUS_BOT } from "../../src/policy/claim.ts";
import type { DisguiseFact, EdgeFacts, GatherRequest, SignatureFact } from "../../src/policy/edge-facts.ts";
import {
  identify,
  identityAsGathered,
  pacedSubject,
  recordedIdentity,
  type Identity,
} from "../../src/policy/identity.ts";
import { gatheredFacts, REFUTED, UNVERIFIABLE, VERIFIED } from "./gathered-facts.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GPTBOT_LIST: DisguiseFact = { source: "gptbot", agent: classifyUserAgent("GPTBot") };
const GOOGLEBOT_LIST: DisguiseFact = { source: "googlebot", agent: classifyUserAgent("Googlebot") };
const CHATGPT_SIGNED: SignatureFact = {
  status: "verified",
  signer: "chatgpt.com",
  agent: classifyUserAgent("ChatGPT-User"),
};
const CLOUDFLARE_PROVEN = {
  status: "verified",
  method: "cloudflare",
  evidence: "Search Engine Crawler",
  why: null,
  reason: "Cloudflare verified bot",
} as const;

function facts(userAgent: string, overrides: Partial<EdgeFacts> = {}): EdgeFacts {
  return gatheredFacts({
    pathAndQuery: "/a",
    agent: classifyUserAgent(userAgent),
    robots: "not-gathered",
    now: 0,
    disguisedCrawlers: "enforce",
    disguise: "none",
    ...overrides,
  });
}

function named(agent: AgentInfo): string {
  if (agent === ANONYMOUS_BOT) return "anonymous bot";
  return agent.crawler ? (agent.tokens[0] ?? "unnamed bot") : "browser";
}

function summary(answer: Identity | GatherRequest): string {
  if ("gather" in answer) return `gather ${answer.gather}`;
  const listed = typeof answer.listed === "object" ? answer.listed.source : answer.listed;
  return (
    `${named(answer.stated)} as ${named(answer.claimant)}: ${answer.standing}, judged ${answer.judgedAs}, ` +
    `${answer.category ?? "no category"}, listed ${listed}`
  );
}

const rows: { name: string; facts: EdgeFacts; expected: string }[] = [
  {
    name: "a signature not checked yet is asked for first, before the address",
    facts: facts("Googlebot/2.1", { signed: true, signature: "not-gathered", needsVerification: true }),
    expected: "gather signature",
  },
  {
    name: "a trusted signer's signature: its agent, proven, whatever the User-Agent; no address check",
    facts: facts(CHROME, { signed: true, signature: CHATGPT_SIGNED, needsVerification: true, disguise: GPTBOT_LIST }),
    expected: "ChatGPT-User as ChatGPT-User: proven, judged claimed, ai-assistant, listed none",
  },
  {
    name: "a reused signature: its signer's agent, refused before any judgement",
    facts: facts(CHROME, { signed: true, signature: { ...CHATGPT_SIGNED, status: "reused" } }),
    expected: "ChatGPT-User as ChatGPT-User: proven, judged unjudged, no category, listed none",
  },
  {
    name: "a failed signature: an anonymous bot, refuted (a browser never signs)",
    facts: facts(CHROME, { signed: true, signature: { status: "failed", why: "expired", signer: "chatgpt.com" } }),
    expected: "anonymous bot as anonymous bot: refuted, judged anonymous, no category, listed none",
  },
  {
    name: "a key we could not get: judged as unsigned, the User-Agent's claim checked",
    facts: facts("Googlebot/2.1", {
      signed: true,
      signature: { status: "unverifiable", signer: "chatgpt.com", why: "keys unavailable" },
      needsVerification: true,
      verification: "not-gathered",
    }),
    expected: "gather verification",
  },
  {
    name: "a browser whose address is not looked up yet",
    facts: facts(CHROME, { disguise: "not-gathered" }),
    expected: "gather disguise",
  },
  {
    name: "a browser in no crawler-only list: a person",
    facts: facts(CHROME),
    expected: "browser as browser: as-made, judged person, no category, listed none",
  },
  {
    name: "DISGUISED_CRAWLERS=off: a person, nothing looked up",
    facts: facts(CHROME, { disguisedCrawlers: "off", disguise: "not-gathered" }),
    expected: "browser as browser: as-made, judged person, no category, listed none",
  },
  {
    name: "a browser from GPTBot's crawler-only list: GPTBot in disguise",
    facts: facts(CHROME, { disguise: GPTBOT_LIST }),
    expected: "browser as GPTBot: disguised, judged disguised, ai-training, listed none",
  },
  {
    name: "a browser fetching robots.txt: no address looked up, a person",
    facts: facts(CHROME, { isRobotsTxt: true, disguise: "not-gathered" }),
    expected: "browser as browser: as-made, judged person, no category, listed none",
  },
  {
    name: "a verifiable claim not checked yet",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: "not-gathered" }),
    expected: "gather verification",
  },
  {
    name: "a claim its address proves",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: VERIFIED, disguise: "not-gathered" }),
    expected: "Googlebot as Googlebot: proven, judged claimed, search-engine, listed none",
  },
  {
    name: "a refuted claim: the list its address is in is asked for later (after pause and robots.txt)",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: REFUTED, disguise: "not-gathered" }),
    expected: "Googlebot as Googlebot: refuted, judged anonymous, search-engine, listed not-gathered",
  },
  {
    name: "an unproven claim from GPTBot's list: judged as GPTBot too",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: UNVERIFIABLE, disguise: GPTBOT_LIST }),
    expected: "Googlebot as Googlebot: unproven, judged claimed-and-anonymous, search-engine, listed gptbot",
  },
  {
    name: "a claim proven by Cloudflare's category alone, from GPTBot's list: judged as GPTBot too",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: CLOUDFLARE_PROVEN, disguise: GPTBOT_LIST }),
    expected: "Googlebot as Googlebot: proven, judged claimed, search-engine, listed gptbot",
  },
  {
    name: "VERIFY_CRAWLERS=off, a sibling from its own operator's list: judged as itself alone",
    facts: facts("Googlebot-Image/1.0", { verifyCrawlers: "off", disguise: GOOGLEBOT_LIST }),
    expected: "Googlebot-Image as Googlebot-Image: as-made, judged claimed, search-engine, listed none",
  },
  {
    name: "VERIFY_CRAWLERS=off, another operator's list: judged as that list's crawler too",
    facts: facts("GPTBot/1.2", { verifyCrawlers: "off", disguise: GOOGLEBOT_LIST }),
    expected: "GPTBot as GPTBot: as-made, judged claimed, ai-training, listed googlebot",
  },
  {
    name: "a bot our table does not know: Cloudflare's category",
    facts: facts("SomeNewBot/1.0", { cloudflareCategory: "ai-training" }),
    expected: "SomeNewBot as SomeNewBot: as-made, judged claimed, ai-training, listed none",
  },
  {
    name: "a known crawler keeps our table's category over Cloudflare's",
    facts: facts("GPTBot/1.2", { cloudflareCategory: "search-engine" }),
    expected: "GPTBot as GPTBot: as-made, judged claimed, ai-training, listed none",
  },
  {
    name: "a bot fetching robots.txt: no list asked for",
    facts: facts("curl/8.0", { isRobotsTxt: true, disguise: "not-gathered" }),
    expected: "curl as curl: as-made, judged claimed, no category, listed none",
  },
];

describe("identify: the identity facts in, who asked (or the next fact to gather) out", () => {
  it.each(rows)("$name", ({ facts: given, expected }) => {
    expect(summary(identify(given))).toBe(expected);
  });
});

describe("identityAsGathered: who asked, for a request nobody judges, asking for nothing", () => {
  it("MODE=off, a browser from GPTBot's list (explain passes the list up front): shown as GPTBot", () => {
    const given = facts(CHROME, { mode: "off", disguise: GPTBOT_LIST });
    expect(summary(identityAsGathered(given, "unjudged"))).toBe(
      "browser as GPTBot: as-made, judged unjudged, ai-training, listed none",
    );
  });
  it("a signature not checked: the User-Agent's claim, nothing asked", () => {
    const given = facts("GPTBot/1.2", { signed: true, signature: "not-gathered", disguise: "not-gathered" });
    expect(summary(identityAsGathered(given, "unjudged"))).toBe(
      "GPTBot as GPTBot: as-made, judged unjudged, ai-training, listed none",
    );
  });
});

const paced: { name: string; facts: EdgeFacts; expected: { knownToken: string | undefined; proven: boolean } }[] = [
  {
    name: "a proven claim: its crawler, proven",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: VERIFIED }),
    expected: { knownToken: "Googlebot", proven: true },
  },
  {
    name: "an unproven claim: its crawler, not proven",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: UNVERIFIABLE }),
    expected: { knownToken: "Googlebot", proven: false },
  },
  {
    name: "a refuted claim names no crawler",
    facts: facts("Googlebot/2.1", { needsVerification: true, verification: REFUTED }),
    expected: { knownToken: undefined, proven: false },
  },
  {
    name: "a crawler in disguise: the list's crawler, proven by the list",
    facts: facts(CHROME, { disguise: GPTBOT_LIST }),
    expected: { knownToken: "GPTBot", proven: true },
  },
  {
    name: "a claim taken as made (VERIFY_CRAWLERS=off): its crawler, not proven",
    facts: facts("GPTBot/1.2", { verifyCrawlers: "off" }),
    expected: { knownToken: "GPTBot", proven: false },
  },
];

describe("pacedSubject: who a crawl-rate limiter is about", () => {
  it.each(paced)("$name", ({ facts: given, expected }) => {
    const identity = identify(given);
    if ("gather" in identity) throw new Error(`unexpected gather ${identity.gather}`);
    expect(pacedSubject(identity, given)).toEqual(expected);
  });
});

describe("recordedIdentity: who asked, as the record says it", () => {
  it("a trusted signer's agent, with its signer and the signature as evidence", () => {
    const given = facts(CHROME, { signed: true, signature: CHATGPT_SIGNED });
    const identity = identify(given);
    if ("gather" in identity) throw new Error(`unexpected gather ${identity.gather}`);
    expect(recordedIdentity(identity, given)).toEqual({
      crawler: true,
      tokens: ["ChatGPT-User"],
      known: "ChatGPT-User",
      signer: "chatgpt.com",
      judgedAs: "claimed",
      category: "ai-assistant",
      verification: {
        status: "verified",
        method: "signature",
        evidence: "chatgpt.com",
        why: null,
        reason: "Web Bot Auth signature of chatgpt.com, a trusted signer standing for ChatGPT-User",
      },
    });
  });
  it("a crawler in disguise: the list's crawler, the list as evidence", () => {
    const given = facts(CHROME, { disguise: GPTBOT_LIST });
    const identity = identify(given);
    if ("gather" in identity) throw new Error(`unexpected gather ${identity.gather}`);
    expect(recordedIdentity(identity, given)).toEqual({
      crawler: true,
      tokens: ["GPTBot"],
      known: "GPTBot",
      signer: null,
      judgedAs: "disguised",
      category: "ai-training",
      verification: {
        status: "verified",
        method: "ip-list",
        evidence: "gptbot",
        why: null,
        reason:
          "a browser User-Agent from the gptbot list, which its operator publishes for its crawlers only: GPTBot in disguise",
      },
    });
  });
});
