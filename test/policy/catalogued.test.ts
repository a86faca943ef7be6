// A catalogued claim (standing "catalogued", policy/claim.ts): a token the built-in table lacks
// takes a catalogue's category, so the category's refusals and paces reach it; a catalogue can
// only restrict, never give a pass, a group, a fallback, an exemption or a verification.
import { describe, expect, it } from "vitest";
import { catalogueTable, parseCatalogue, type CatalogueTable } from "../../src/agents/catalogue.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { explainRequest } from "../../src/policy/explain.ts";
import { parsePolicy, type CompiledPolicy } from "../../src/policy/operator-policy.ts";
import { defaultSettings } from "../../src/config/edge-settings.ts";

const LISTED_AT = Date.UTC(2026, 10, 27, 6, 0, 0);
const NAGET = "NagetBot/1.0 (+https://naget.example/bot)";

/** A catalogue (our shape, with the fields a hostile one would try), as the edge holds it. */
function catalogued(crawlers: readonly Record<string, unknown>[]): CatalogueTable {
  const parsed = parseCatalogue({ operators: [{ name: "test", crawlers }] });
  if (!parsed.ok) throw new Error(parsed.error);
  return catalogueTable([{ name: "lists", fetchedAt: LISTED_AT, entries: parsed.value.entries }]);
}

function policyOf(rules: readonly unknown[]): CompiledPolicy {
  const policy = parsePolicy(JSON.stringify({ routes: [{ pattern: "/", rules }] }));
  if (!policy.ok) throw new Error(policy.problems.join("; "));
  return policy.value;
}

function explain(options: {
  robots: string;
  path: string;
  catalogues?: CatalogueTable;
  policy?: CompiledPolicy;
  ua?: string;
  verifyCrawlers?: "off" | "unknown" | "block";
}) {
  return explainRequest({
    userAgent: options.ua ?? NAGET,
    url: options.path,
    settings: { ...defaultSettings(), verifyCrawlers: options.verifyCrawlers ?? "unknown" },
    state: "ok",
    matcher: compileRobots(parseRobotsTxt(options.robots)),
    paused: false,
    policy: options.policy,
    facts: { ...(options.catalogues && { catalogues: options.catalogues }) },
  });
}

const TRAINING = catalogued([{ token: "NagetBot", category: "ai-training" }]);
const SEARCH = catalogued([{ token: "NagetBot", category: "search-engine" }]);
const NO_TRAINING = "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /private/\n";
const PRIVATE = "User-agent: *\nDisallow: /private/\n";

describe("the category reaches a token the table lacks", () => {
  it.each([
    {
      name: "usage preference train-ai=n, catalogued ai-training",
      robots: NO_TRAINING,
      path: "/blog/",
      catalogues: TRAINING,
      policy: undefined,
      expected: {
        action: "block",
        status: 403,
        layer: "usage-signal",
        judgedAs: "catalogued",
        category: "ai-training",
      },
    },
    {
      name: "the same without a catalogue: a generic bot, passed",
      robots: NO_TRAINING,
      path: "/blog/",
      catalogues: undefined,
      policy: undefined,
      expected: { action: "pass", status: null, layer: "robots.txt", judgedAs: "claimed", category: null },
    },
    {
      name: "catalogued search-engine: train-ai=n does not cover it",
      robots: NO_TRAINING,
      path: "/blog/",
      catalogues: SEARCH,
      policy: undefined,
      expected: {
        action: "pass",
        status: null,
        layer: "robots.txt",
        judgedAs: "catalogued",
        category: "search-engine",
      },
    },
    {
      name: "a category:ai-training block rule",
      robots: PRIVATE,
      path: "/blog/",
      catalogues: TRAINING,
      policy: policyOf([{ crawlers: ["category:ai-training"], action: "block" }]),
      expected: { action: "block", status: 403, layer: "policy", judgedAs: "catalogued", category: "ai-training" },
    },
    {
      name: "a category:ai-training pace rule",
      robots: PRIVATE,
      path: "/blog/",
      catalogues: TRAINING,
      policy: policyOf([{ crawlers: ["category:ai-training"], action: "pace", retryAfter: 600 }]),
      expected: {
        action: "rate-limited",
        status: 429,
        layer: "policy",
        judgedAs: "catalogued",
        category: "ai-training",
      },
    },
  ])("$name", ({ robots, path, catalogues, policy, expected }) => {
    const explained = explain({ robots, path, ...(catalogues && { catalogues }), ...(policy && { policy }) });
    expect({
      action: explained.action.action,
      status: explained.action.status,
      layer: explained.layer,
      judgedAs: explained.judgedAs,
      category: explained.catalogue?.category ?? null,
    }).toEqual(expected);
  });
});

describe("a catalogue can only restrict", () => {
  it.each([
    {
      name: "a category:search-engine allow rule does not open what * refuses",
      robots: PRIVATE,
      catalogues: SEARCH,
      policy: policyOf([{ crawlers: ["category:search-engine"], action: "allow" }]),
      expected: { action: "block", layer: "robots.txt" },
    },
    {
      name: "fallbacks and obeysGlobalGroup in an entry are not read: Googlebot's group is not its",
      robots: "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n",
      catalogues: catalogued([
        { token: "NagetBot", category: "search-engine", fallbacks: ["Googlebot"], obeysGlobalGroup: false },
      ]),
      policy: undefined,
      expected: { action: "block", layer: "robots.txt" },
    },
    {
      name: "an entry that says it is verified is not",
      robots: PRIVATE,
      catalogues: catalogued([{ token: "NagetBot", category: "ai-assistant", verified: true, exempt: true }]),
      policy: undefined,
      expected: { action: "block", layer: "robots.txt" },
    },
  ])("$name", ({ robots, catalogues, policy, expected }) => {
    const explained = explain({ robots, path: "/private/x", catalogues, ...(policy && { policy }) });
    expect({ action: explained.action.action, layer: explained.layer }).toEqual(expected);
    expect(explained.judgedAs).toBe("catalogued");
    expect(explained.verification.status).not.toBe("verified");
  });

  it("an entry for a table token changes nothing: GPTBot keeps its own category", () => {
    const table = catalogued([{ token: "GPTBot", category: "search-engine" }]);
    const gptbot =
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    const explained = explain({
      robots: NO_TRAINING,
      path: "/blog/",
      catalogues: table,
      ua: gptbot,
      verifyCrawlers: "off",
    });
    expect(explained.known).toEqual({ token: "GPTBot", category: "ai-training" });
    expect(explained.judgedAs).toBe("claimed");
    expect(explained.catalogue).toBeNull();
    expect(table.disagreements).toEqual([
      { catalogue: "lists", token: "GPTBot", catalogued: "search-engine", table: "ai-training" },
    ]);
  });
});

describe("explain names the catalogue and its date", () => {
  it("a catalogued refusal", () => {
    const explained = explain({ robots: NO_TRAINING, path: "/blog/", catalogues: TRAINING });
    expect(explained.catalogue).toEqual({
      name: "lists",
      fetchedAt: "2026-11-27T06:00:00.000Z",
      token: "NagetBot",
      category: "ai-training",
    });
  });

  it("no catalogue for a person", () => {
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36";
    expect(explain({ robots: NO_TRAINING, path: "/blog/", catalogues: TRAINING, ua: chrome }).catalogue).toBeNull();
  });
});
