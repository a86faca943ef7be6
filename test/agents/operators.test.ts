// The registry of operators (src/agents/operators/): what the compiler cannot hold (names
// unique across files, the value is plain JSON) and what the flat tables derive from it,
// with the expected values written down here, not read back from the files.
import { describe, expect, it } from "vitest";
import { OPERATORS } from "../../src/agents/operators/index.ts";
import {
  isUserTriggered,
  KNOWN_CRAWLERS,
  PURPOSE_SWITCHES,
  RANGE_SOURCES,
  rangeUseOf,
  REFERRER_PRODUCTS,
  REVERSE_DNS_RULES,
} from "../../src/agents/operators/tables.ts";

const repeated = (names: readonly string[]): string[] => names.filter((name, index) => names.indexOf(name) !== index);

describe("the registry", () => {
  it.each([
    ["operator names", OPERATORS.map((operator) => operator.name)],
    [
      "tokens, across operators (a token belongs to one operator)",
      OPERATORS.flatMap((operator) => [
        ...operator.crawlers.map((crawler) => crawler.token.toLowerCase()),
        ...(operator.unlistedCrawlers ?? []).map((crawler) => crawler.token.toLowerCase()),
      ]),
    ],
    ["address list names (the CRAWLER_RANGES keys)", OPERATORS.flatMap((o) => o.addressLists.map((l) => l.name))],
    ["host name classes", OPERATORS.flatMap((o) => o.reverseDns.map((rule) => rule.name))],
    ["purpose switches", OPERATORS.flatMap((o) => o.purposeSwitches.map((entry) => entry.token))],
  ])("repeats none of its %s", (_, names) => {
    expect(repeated(names)).toEqual([]);
  });

  it.each(OPERATORS.map((operator) => [operator.name, operator] as const))(
    "%s is plain data: it reads back from JSON unchanged",
    (_, operator) => {
      expect(JSON.parse(JSON.stringify(operator))).toEqual(operator);
    },
  );

  it.each(OPERATORS.map((operator) => [operator.name, operator] as const))("%s dates every fact", (_, operator) => {
    const facts = [
      ...operator.crawlers,
      ...(operator.unlistedCrawlers ?? []),
      ...operator.addressLists,
      ...operator.reverseDns,
      ...operator.referrers,
      ...operator.purposeSwitches,
    ];
    expect(facts.filter((fact) => !/^20\d\d-[01]\d-[0-3]\d$/.test(fact.asOf))).toEqual([]);
  });
});

describe("the flat tables are derived from it", () => {
  it.each([
    ["amazon-QBusiness", "Amazon (AWS)", false],
    ["ia_archiver", "Alexa (Amazon)", false],
    ["Amazonbot", "Amazon", false],
    ["FeedFetcher-Google", "Google", true],
    ["Google-Agent", "Google", true],
    ["Googlebot", "Google", false],
    ["ChatGPT-User", "OpenAI", true],
    ["facebookexternalhit", "Meta", false],
  ])("%s: operator %s, user-triggered %s", (token, operator, userTriggered) => {
    const crawler = KNOWN_CRAWLERS.find((entry) => entry.token === token);
    expect(crawler?.operator).toBe(operator);
    expect(crawler && isUserTriggered(crawler)).toBe(userTriggered);
  });

  it.each([
    ["gptbot", "https://openai.com/gptbot.json", ["GPTBot"], "crawler-only", "GPTBot"],
    [
      "anthropic",
      "https://claude.com/crawling/bots.json",
      ["ClaudeBot", "Claude-User", "Claude-SearchBot"],
      "mixed",
      undefined,
    ],
    [
      "qwantbot",
      "https://help.qwant.com/wp-content/uploads/sites/2/2025/01/qwantbot.json",
      ["Qwantbot", "Qwantbot-news"],
      "crawler-only",
      "Qwantbot",
    ],
  ])("address list %s: %s, covering %j, %s, judged as %s", (name, url, tokens, use, crawler) => {
    expect(RANGE_SOURCES.find((source) => source.name === name)).toEqual({ name, url, tokens });
    expect({ use: rangeUseOf(name)?.use, crawler: rangeUseOf(name)?.crawler }).toEqual({ use, crawler });
  });

  it("a host name class covers its operator's crawlers by their tokens", () => {
    expect(REVERSE_DNS_RULES.find((rule) => rule.name === "google-user-triggered")?.tokens).toEqual([
      "FeedFetcher-Google",
      "Google-Read-Aloud",
      "Google-Site-Verification",
      "Google-CWS",
      "GoogleProducer",
      "Google-Pinpoint",
      "Google-GeminiNotebook",
      "Google-Agent",
    ]);
  });

  it("referrers and switches carry their operator's name", () => {
    expect(REFERRER_PRODUCTS.filter((row) => row.operator === "Microsoft").map((row) => row.product)).toEqual([
      "Bing (search and Copilot in Bing)",
      "Copilot",
    ]);
    expect(PURPOSE_SWITCHES.map(({ token, governs, operator }) => ({ token, governs, operator }))).toEqual([
      { token: "Google-Extended", governs: "Googlebot", operator: "Google" },
      { token: "Applebot-Extended", governs: "Applebot", operator: "Apple" },
    ]);
  });

  it("an unlisted crawler is verified but not in the crawler table", () => {
    expect(KNOWN_CRAWLERS.filter((crawler) => crawler.token.startsWith("Qwantbot"))).toEqual([]);
  });
});
