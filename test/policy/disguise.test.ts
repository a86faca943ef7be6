// Crawlers in disguise through the one decision (policy/disguise.ts, edge-decision.ts step 5,
// claim.ts standing "disguised"): a browser User-Agent whose address is in a crawler-only list
// is judged as that crawler (enforce) or only recorded as it (report); no list, no fact, or the
// switch off leaves a person. Expected answers are literal.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { activityOf } from "../../src/policy/activity.ts";
import type { DisguiseFact } from "../../src/policy/disguise.ts";
import { decideEdge, verificationOf, type EdgeAnswer } from "../../src/policy/edge-decision.ts";
import type { EdgeFacts } from "../../src/policy/edge-facts.ts";
import { gatheredFacts } from "./gathered-facts.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const matcher = compileRobots(
  parseRobotsTxt(
    "User-agent: *\nAllow: /\nDisallow: /closed/\nContent-Usage: /articles/ train-ai=n\n\n" +
      "User-agent: GPTBot\nDisallow: /private/\nContent-Usage: /articles/ train-ai=n\n\n" +
      "User-agent: bingbot\nDisallow: /private/\nCrawl-delay: 5\n",
  ),
);
const NOON = Date.UTC(2026, 0, 1, 12, 0, 0);
const GPTBOT_LIST: DisguiseFact = { source: "gptbot", agent: classifyUserAgent("GPTBot") };
const BINGBOT_LIST: DisguiseFact = { source: "bingbot", agent: classifyUserAgent("bingbot") };
// An agent that skips `*` (AdsBot): a disguise must never carry that exemption (claim.ts).
const EXEMPT: DisguiseFact = { source: "test", agent: classifyUserAgent("AdsBot-Google") };

function facts(overrides: Partial<EdgeFacts>): EdgeFacts {
  return gatheredFacts({
    pathAndQuery: "/private/x",
    agent: classifyUserAgent(CHROME),
    robots: { state: "ok", matcher, retryAfter: 300 },
    now: NOON,
    disguisedCrawlers: "enforce",
    ...overrides,
  });
}

function summary(answer: EdgeAnswer): string {
  if ("gather" in answer) return `gather ${answer.gather}`;
  const status = answer.status === null ? "" : ` ${answer.status}`;
  const retry = answer.action === "rate-limited" ? ` retry ${answer.retryAfter}` : "";
  const extras = [answer.pacing && "paced", answer.contentUsage && "content-usage"].filter(Boolean);
  return `${answer.action}${status} ${answer.layer}${retry}${extras.length ? ` (${extras.join(", ")})` : ""}`;
}

const rows: { name: string; over: Partial<EdgeFacts>; expected: string }[] = [
  { name: "a browser's address not looked up yet", over: { disguise: "not-gathered" }, expected: "gather disguise" },
  { name: "in no crawler-only list: a person", over: { disguise: "none" }, expected: "pass human" },
  {
    name: "DISGUISED_CRAWLERS=off: a person, nothing looked up",
    over: { disguisedCrawlers: "off", disguise: "not-gathered" },
    expected: "pass human",
  },
  {
    name: "no switch given (replay, the CLI): off",
    over: { disguisedCrawlers: undefined, disguise: GPTBOT_LIST },
    expected: "pass human",
  },
  {
    name: "enforce: GPTBot's group disallows /private/",
    over: { disguise: GPTBOT_LIST },
    expected: "block 403 robots.txt",
  },
  {
    name: "enforce: every spelling of the path is judged",
    over: { disguise: GPTBOT_LIST, pathAndQuery: "/%70rivate/x" },
    expected: "block 403 robots.txt",
  },
  {
    name: "enforce: a path its group allows passes",
    over: { disguise: GPTBOT_LIST, pathAndQuery: "/closed/x" },
    expected: "pass robots.txt",
  },
  {
    name: "enforce: its usage rules (ai-training, train-ai=n)",
    over: { disguise: GPTBOT_LIST, pathAndQuery: "/articles/1" },
    expected: "block 403 usage-signal",
  },
  {
    name: "enforce: its pacing (bingbot's Crawl-delay), the limiter refusing",
    over: { disguise: BINGBOT_LIST, pathAndQuery: "/a", rate: { allowed: false, retryAfter: 5 } },
    expected: "rate-limited 429 rate retry 5",
  },
  {
    name: "enforce: its pacing asked for",
    over: { disguise: BINGBOT_LIST, pathAndQuery: "/a", rate: "not-gathered" },
    expected: "gather rate",
  },
  {
    name: "enforce: a crawl pause holds it as any crawler",
    over: { disguise: GPTBOT_LIST, pause: { retryAfter: 60 } },
    expected: "unavailable 503 pause",
  },
  {
    name: "enforce: the pause is asked for",
    over: { disguise: GPTBOT_LIST, pause: "not-gathered" },
    expected: "gather pause",
  },
  {
    name: "enforce: never an exemption from * (AdsBot skips * when it claims itself)",
    over: { disguise: EXEMPT, pathAndQuery: "/closed/x" },
    expected: "block 403 robots.txt",
  },
  {
    name: "enforce under MODE=report: only marked",
    over: { disguise: GPTBOT_LIST, mode: "report" },
    expected: "report robots.txt",
  },
  {
    name: "report: what it would have been, marked, the request goes on",
    over: { disguisedCrawlers: "report", disguise: GPTBOT_LIST },
    expected: "report robots.txt",
  },
  {
    name: "report: a usage refusal is only marked",
    over: { disguisedCrawlers: "report", disguise: GPTBOT_LIST, pathAndQuery: "/articles/1" },
    expected: "report usage-signal",
  },
  {
    name: "report: never paced",
    over: { disguisedCrawlers: "report", disguise: BINGBOT_LIST, pathAndQuery: "/a", rate: "not-gathered" },
    expected: "pass robots.txt",
  },
  {
    name: "report: a pause does not hold a possible person, nor is it asked for",
    over: { disguisedCrawlers: "report", disguise: GPTBOT_LIST, pause: "not-gathered", pathAndQuery: "/a" },
    expected: "pass robots.txt",
  },
  {
    name: "report: a pass carries no Content-Usage header",
    over: { disguisedCrawlers: "report", disguise: GPTBOT_LIST, pathAndQuery: "/closed/x" },
    expected: "pass robots.txt",
  },
  {
    name: "robots.txt is served, nothing looked up",
    over: { disguise: "not-gathered", pathAndQuery: "/robots.txt", isRobotsTxt: true },
    expected: "serve-robots-txt robots.txt-file",
  },
  {
    name: "a crawler's own User-Agent is judged by its claim, never by a disguise",
    over: { agent: classifyUserAgent("GPTBot/1.2"), disguise: BINGBOT_LIST, pathAndQuery: "/private/x" },
    expected: "block 403 robots.txt",
  },
];

describe("decideEdge: crawlers in disguise", () => {
  it.each(rows)("$name -> $expected", ({ over, expected }) => {
    expect(summary(decideEdge(facts(over)))).toBe(expected);
  });
});

describe("what is shown of a disguised request", () => {
  it("verificationOf: the list as evidence, named", () => {
    expect(verificationOf(facts({ disguise: GPTBOT_LIST }))).toEqual({
      status: "verified",
      method: "ip-list",
      evidence: "gptbot",
      why: null,
      reason:
        "a browser User-Agent from the gptbot list, which its operator publishes for its crawlers only: GPTBot in disguise",
    });
  });

  it("verificationOf: a person stays not-claimed", () => {
    expect(verificationOf(facts({ disguise: "none" })).why).toBe("not-claimed");
  });

  it.each([
    { treatment: "enforce", action: "block" },
    { treatment: "report", action: "report" },
  ] as const)(
    "activity ($treatment): recorded under the crawler's token, marked disguised",
    ({ treatment, action }) => {
      const record = decideEdge(facts({ disguise: GPTBOT_LIST, disguisedCrawlers: treatment }));
      if ("gather" in record) throw new TypeError(`the decision still asks for ${record.gather}`);
      expect(record.identity).toMatchObject({ tokens: ["GPTBot"], judgedAs: "disguised", known: "GPTBot" });
      const event = activityOf(record, "GET", NOON);
      expect(event?.kind === "crawler" && event.event).toMatchObject({
        token: "GPTBot",
        category: "ai-training",
        verified: "disguised",
        action,
        layer: "robots.txt",
        violation: true,
      });
    },
  );

  it("activity: a person in no list is counted as a person", () => {
    const record = decideEdge(facts({ disguise: "none" }));
    if ("gather" in record) throw new TypeError(`the decision still asks for ${record.gather}`);
    expect(record.identity.judgedAs).toBe("person");
    expect(activityOf(record, "GET", NOON)).toEqual({ kind: "human", time: NOON });
  });
});
