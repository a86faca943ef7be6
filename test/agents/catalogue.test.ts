// Crawler catalogues, pure: robots.json and our operators shape read, functions in our
// categories, the lookup (the built-in table wins), and the bounds.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  catalogueTable,
  cataloguedOf,
  categoryOfFunction,
  MAX_CATALOGUE_ENTRIES,
  parseCatalogue,
  type LoadedCatalogue,
} from "../../src/agents/catalogue.ts";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { OPERATORS } from "../../src/agents/operators/index.ts";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, "../fixtures/catalogues", name), "utf8"));

describe("parseCatalogue: ai.robots.txt's robots.json (test/fixtures/catalogues)", () => {
  const parsed = parseCatalogue(fixture("robots.json"));

  it("reads every entry with a product token, in our categories", () => {
    expect(parsed).toEqual({
      ok: true,
      value: {
        format: "robots.json",
        entries: [
          { token: "AddSearchBot", category: "ai-search", listedAs: "AI Search Crawlers" },
          { token: "AI2Bot", category: "ai-training", listedAs: "Content is used to train open language models." },
          { token: "AI2Bot-DeepResearchEval", category: "ai-assistant", listedAs: "AI Assistants" },
          {
            token: "Applebot-Extended",
            category: "other",
            listedAs: "Powers features in Siri, Spotlight, Safari, Apple Intelligence, and others.",
          },
          { token: "Cursor", category: "ai-assistant", listedAs: "AI Coding Agents" },
          { token: "GPTBot", category: "ai-training", listedAs: "Scrapes data to train OpenAI's products." },
          { token: "NagetBot", category: "ai-training", listedAs: "AI data scraper" },
          // "Terra Cotta" is left out: no User-Agent line can name it.
          { token: "YiyanBot", category: "ai-assistant", listedAs: "AI Assistants" },
          { token: "omgili", category: "other", listedAs: "Data is sold." },
        ],
      },
    });
  });
});

describe("parseCatalogue: our operators shape", () => {
  it("reads token and category; a bad token or an unknown category is skipped", () => {
    expect(parseCatalogue(fixture("operators.json"))).toEqual({
      ok: true,
      value: {
        format: "operators",
        entries: [
          { token: "ExampleTrainBot", category: "ai-training", listedAs: "ai-training" },
          { token: "ExampleAskBot", category: "ai-assistant", listedAs: "ai-assistant" },
          { token: "GPTBot", category: "search-engine", listedAs: "search-engine" },
        ],
      },
    });
  });

  it("an operator of the registry, as JSON, reads as its crawlers' tokens and categories", () => {
    const json: unknown = JSON.parse(JSON.stringify(OPERATORS.find((operator) => operator.name === "Anthropic")));
    const parsed = parseCatalogue(json);
    expect(parsed.ok && parsed.value.format).toBe("operators");
    expect(parsed.ok && parsed.value.entries.map((entry) => `${entry.token} ${entry.category}`)).toEqual([
      "ClaudeBot ai-training",
      "Claude-User ai-assistant",
      "Claude-SearchBot ai-search",
      "Claude-Web ai-assistant",
      "anthropic-ai ai-training",
    ]);
  });

  it("one operator at the top level is read as a list of one", () => {
    const one = { name: "Solo", crawlers: [{ token: "SoloBot", category: "ai-search" }] };
    expect(parseCatalogue(one)).toEqual({
      ok: true,
      value: { format: "operators", entries: [{ token: "SoloBot", category: "ai-search", listedAs: "ai-search" }] },
    });
  });
});

describe("parseCatalogue refuses what is not a catalogue, with the error status shows", () => {
  const many = Object.fromEntries(
    Array.from({ length: MAX_CATALOGUE_ENTRIES + 1 }, (_, i) => [`Bot${String.fromCharCode(97 + (i % 26))}${i}`, {}]),
  );
  const manyOwn = {
    operators: [
      { crawlers: Array.from({ length: MAX_CATALOGUE_ENTRIES + 1 }, () => ({ token: "X", category: "other" })) },
    ],
  };
  it.each([
    { name: "an empty list of operators", json: [], error: "no usable entry (a product token with a category)" },
    { name: "a string", json: "GPTBot", error: "not a JSON object (robots.json or our operators shape)" },
    { name: "null", json: null, error: "not a JSON object (robots.json or our operators shape)" },
    { name: "an empty object", json: {}, error: "no usable entry (a product token with a category)" },
    { name: "operators not a list", json: { operators: "x" }, error: '"operators" is not a list' },
    {
      name: "only names no User-Agent can carry",
      json: { "Terra Cotta": { function: "AI Data Providers" }, "a/b": {} },
      error: "no usable entry (a product token with a category)",
    },
    { name: "2,001 robots.json entries", json: many, error: "refused: 2001 entries, more than 2000" },
    { name: "2,001 crawlers in our shape", json: manyOwn, error: "refused: 2001 entries, more than 2000" },
  ])("$name", ({ json, error }) => {
    expect(parseCatalogue(json)).toEqual({ ok: false, error });
  });
});

describe("categoryOfFunction: robots.json's free text in our categories", () => {
  it.each([
    ["AI Data Scrapers", "ai-training"],
    ["AI Data Providers", "ai-training"],
    ["LLM training.", "ai-training"],
    ["Scrapes data.", "ai-training"],
    ["Training language models and improving AI products", "ai-training"],
    ["We are using the data from the crawler to build datasets for machine learning experiments.", "ai-training"],
    ["AI Search Crawlers", "ai-search"],
    ["Search engine using generative AI, AI Search Assistant", "ai-search"],
    ["AI Assistants", "ai-assistant"],
    ["AI Agents", "ai-assistant"],
    ["Undocumented AI Agents", "ai-assistant"],
    ["Retrieves data to provide responses to user-initiated prompts.", "ai-assistant"],
    ["Data is sold.", "other"],
    ["Unclear at this time.", "other"],
    ["", "other"],
  ] as const)("%j -> %s", (text, category) => {
    expect(categoryOfFunction(text)).toBe(category);
  });
});

describe("the lookup: only tokens the built-in table lacks; the table wins", () => {
  const at = Date.UTC(2026, 10, 27, 6);
  const robotsJson = parseCatalogue(fixture("robots.json"));
  const own = parseCatalogue(fixture("operators.json"));
  if (!robotsJson.ok || !own.ok) throw new Error("fixtures must parse");
  const loaded: LoadedCatalogue[] = [
    { name: "ai-robots-txt", fetchedAt: at, entries: robotsJson.value.entries },
    {
      name: "ours",
      fetchedAt: at + 1,
      entries: [...own.value.entries, { token: "NagetBot", category: "ai-search", listedAs: "x" }],
    },
  ];
  const table = catalogueTable(loaded);

  it.each([
    { ua: "NagetBot/1.0 (+https://naget.example/bot)", found: ["ai-robots-txt", "NagetBot", "ai-training"] },
    { ua: "Mozilla/5.0 (compatible; YiyanBot/1.0)", found: ["ai-robots-txt", "YiyanBot", "ai-assistant"] },
    { ua: "ExampleTrainBot/2.0", found: ["ours", "ExampleTrainBot", "ai-training"] },
    // Known to the table: GPTBot is never catalogued, whatever a catalogue says.
    { ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)", found: undefined },
    // A browser is never catalogued; a bot no catalogue lists is not either.
    { ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36", found: undefined },
    { ua: "UnlistedBot/1.0", found: undefined },
  ])("$ua -> $found", ({ ua, found }) => {
    const fact = cataloguedOf(table, classifyUserAgent(ua));
    expect(fact && [fact.catalogue, fact.token, fact.category]).toEqual(found);
  });

  it("the first catalogue listing a token gives its category (the var's order)", () => {
    expect(table.byToken.get("nagetbot")).toEqual({
      catalogue: "ai-robots-txt",
      fetchedAt: at,
      token: "NagetBot",
      category: "ai-training",
    });
  });

  it("an entry for a table token with another category is a disagreement, not an entry", () => {
    expect(table.byToken.has("gptbot")).toBe(false);
    expect(table.byToken.has("applebot-extended")).toBe(false);
    expect(table.disagreements).toEqual([
      { catalogue: "ai-robots-txt", token: "Applebot-Extended", catalogued: "other", table: "ai-training" },
      { catalogue: "ai-robots-txt", token: "omgili", catalogued: "other", table: "ai-training" },
      { catalogue: "ours", token: "GPTBot", catalogued: "search-engine", table: "ai-training" },
    ]);
  });
});
