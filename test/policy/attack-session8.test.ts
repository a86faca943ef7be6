// Session 8 attack review (outside reviewer): attacks on today's features that HOLD, each row
// saying what was tried and what the edge does, written out literally. The holes are in
// attack-session8-holes.test.ts (failing on purpose, for the lead to see).
import { describe, expect, it } from "vitest";
import { catalogueTable, cataloguedOf, parseCatalogue } from "../../src/agents/catalogue.ts";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { agentOfSigner } from "../../src/agents/web-bot-auth/signed-agent.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { chargesCsv, type ExportedCharge } from "../../src/policy/charges-export.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import type { EdgeFacts, SignatureFact } from "../../src/policy/edge-facts.ts";
import { canonicalHostName, policyKeysFor, unservedHostProblem } from "../../src/policy/host-names.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { settlePrice } from "../../src/policy/terms-price.ts";
import { licenceTokenOf } from "../../src/policy/terms.ts";
import { gatheredFacts, REFUTED, UNVERIFIABLE } from "./gathered-facts.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const NAGET = "NagetBot/1.0 (+https://naget.example/bot)";
const ALLOW_ALL = compileRobots(parseRobotsTxt("User-agent: *\nAllow: /\n"));

describe("policies per host: every spelling of a host is one key (canonicalHostName)", () => {
  it.each([
    ["SHOP.Example.:443", "shop.example"],
    ["shop.example:0443", "shop.example"],
    ["shop.example:80", "shop.example"],
    ["shop.example..", "shop.example"],
    ["shop.example:", "shop.example"],
    ["shop.example%2e", "shop.example"],
    ["shop\u3002example", "shop.example"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["*.Tenants.Example", "*.tenants.example"],
    ["[::1]:8443", "[::1]:8443"],
    ["127.1", "127.0.0.1"],
  ])("%s -> %s", (given, expected) => {
    expect(canonicalHostName(given)).toEqual({ ok: true, value: expected });
  });

  it.each(["*.*.example", "shop.example/x", "user@shop.example", "shop.example?x", "*", "*.", ""])(
    "%j is refused",
    (given) => {
      expect(canonicalHostName(given).ok).toBe(false);
    },
  );
});

describe("policies per host: a pattern never swallows a tenant it does not cover (unservedHostProblem)", () => {
  const served = { proxy: false, authorities: ["*.tenants.example", "shop.example"] };
  it.each([
    ["*.example", 404],
    ["tenants.example", 404],
    ["xtenants.example", 404],
    ["a.xtenants.example", 404],
    ["*.example:8443", 404],
    ["shop.example:8443", 404],
    ["*.tenants.example", "ok"],
    ["*.a.tenants.example", "ok"],
    ["a.tenants.example", "ok"],
  ])("%s -> %s", (key, expected) => {
    expect(unservedHostProblem(key, served)?.status ?? "ok").toBe(expected);
  });

  it("an IPv6 literal has no parent pattern; a port stays on every parent", () => {
    expect(policyKeysFor("[::1]:8443")).toEqual(["[::1]:8443"]);
    expect(policyKeysFor("a.b.example.org:8443")).toEqual([
      "a.b.example.org:8443",
      "*.b.example.org:8443",
      "*.example.org:8443",
      "*.org:8443",
    ]);
  });
});

describe("crawler catalogues: a person is never catalogued, whatever a catalogue lists", () => {
  it("a catalogue naming Mozilla, Chrome and Safari as ai-training catalogues no browser", () => {
    const parsed = parseCatalogue({
      Mozilla: { function: "AI training" },
      Chrome: { function: "AI training" },
      Safari: { function: "AI training" },
    });
    if (!parsed.ok) throw new Error(parsed.error);
    const table = catalogueTable([{ name: "hostile", fetchedAt: 0, entries: parsed.value.entries }]);
    expect(cataloguedOf(table, classifyUserAgent(CHROME))).toBeUndefined();
  });
});

describe("a price: spellings of the terms files and the charged route", () => {
  const policy = parsePolicy(
    JSON.stringify({
      routes: [
        { pattern: "/", rules: [{ crawlers: ["NagetBot"], action: "charge", price: "USD 0.01" }] },
        { pattern: "/paid/", rules: [{ crawlers: ["NagetBot"], action: "charge", price: "USD 0.01" }] },
      ],
    }),
  );
  if (!policy.ok) throw new Error(policy.problems.join("; "));
  const answer = (path: string, extra: Partial<EdgeFacts> = {}) => {
    const record = decideEdge(
      gatheredFacts({
        pathAndQuery: path,
        robots: { state: "ok", matcher: ALLOW_ALL, retryAfter: 0 },
        now: 0,
        policy: policy.value,
        agent: classifyUserAgent(NAGET),
        ...extra,
      }),
    );
    if ("gather" in record) return `gather ${record.gather}`;
    return `${record.status ?? "forward"} ${record.charge?.error ?? ""}`.trim();
  };
  it.each([
    // A terms file is free in any spelling that means it.
    ["/license.xml", "forward"],
    ["/%6Cicense.xml", "forward"],
    ["/.well-known/tdmrep.json?x=1", "forward"],
    // A spelling that only looks like a terms file up to a `?` it encodes, or that climbs out of one, is charged.
    ["/license.xml%3Fx", "402 MissingCrawlerPrice"],
    ["/license.xml%3F/../paid/a", "402 MissingCrawlerPrice"],
    ["/license.xml;/../paid/a", "402 MissingCrawlerPrice"],
    ["/LICENSE.xml", "402 MissingCrawlerPrice"],
  ])("NagetBot asks %s -> %s", (path, expected) => {
    expect(answer(path)).toBe(expected);
  });

  const SIGNER = "https://agent.test";
  const signed = (covered: string[]): SignatureFact => ({
    status: "verified",
    signer: SIGNER,
    agent: agentOfSigner({ token: "NagetBot", category: "ai-training" }, SIGNER),
    commitment: { keyid: "k", covered, base: '"@authority": www.example.com', signature: "c2ln" },
  });
  it.each([
    // Two price headers of one name reach us joined by ", ": no price, never the larger or the smaller.
    [{ exact: "USD 0.01, USD 0.01", max: null }, "400 InvalidCrawlerPriceValue"],
    [{ exact: null, max: "USD 1, USD 0" }, "400 InvalidCrawlerPriceValue"],
    [{ exact: null, max: "USD 1".padEnd(40, "0") }, "400 InvalidCrawlerPriceValue"],
    [{ exact: null, max: "usd 1" }, "400 InvalidCrawlerPriceValue"],
    [{ exact: null, max: "USD \u0661" }, "400 InvalidCrawlerPriceValue"],
    [{ exact: "USD 0.010000", max: null }, "forward"],
    [{ exact: "USD 0.0100001", max: null }, "400 InvalidCrawlerPriceValue"],
  ])("price headers %j -> %s", (priceHeaders, expected) => {
    expect(
      answer("/paid/a", {
        agent: classifyUserAgent(CHROME),
        signed: true,
        signature: signed(["@authority", "@path", "@query", "crawler-exact-price", "crawler-max-price"]),
        priceHeaders,
      }),
    ).toBe(expected);
  });
});

describe("the charges CSV: no cell a spreadsheet runs", () => {
  const row: ExportedCharge = {
    time: "2026-11-27T00:00:00.000Z",
    operator: "@SUM(1+1)",
    crawler: "-2+3",
    signer: "https://agent.test",
    keyid: '=HYPERLINK("https://evil.test","x")',
    path: '/a,"b"\r\n=1+1',
    price: "USD 0.01",
    header: "crawler-max-price",
    offered: "+USD 1",
    base: "\t=cmd",
    signature: "+abc/=",
  };
  it("every formula start is quoted with ', every separator quoted", () => {
    expect(chargesCsv([row])).toBe(
      "time,operator,crawler,signer,keyid,path,price,header,offered,base,signature\r\n" +
        [
          "2026-11-27T00:00:00.000Z",
          "'@SUM(1+1)",
          "'-2+3",
          "https://agent.test",
          `"'=HYPERLINK(""https://evil.test"",""x"")"`,
          `"/a,""b""\r\n=1+1"`,
          "USD 0.01",
          "crawler-max-price",
          "'+USD 1",
          "'\t=cmd",
          "'+abc/=",
        ].join(",") +
        "\r\n",
    );
  });
});

describe("Authorization: License, tricks", () => {
  it.each([
    ["License rsl_abc.123", { kind: "token", token: "rsl_abc.123" }],
    ["LICENSE rsl_abc.123", { kind: "token", token: "rsl_abc.123" }],
    // Two Authorization headers arrive joined: neither is believed.
    ["License a, License b", { kind: "malformed" }],
    ["License\trsl_abc", { kind: "malformed" }],
    ["License rsl_abc\r\n", { kind: "malformed" }],
    ['License "rsl_abc"', { kind: "malformed" }],
    ["Licensee rsl_abc", { kind: "none" }],
    ["Bearer rsl_abc", { kind: "none" }],
  ])("%j -> %j", (header, expected) => {
    expect(licenceTokenOf(header)).toEqual(expected);
  });
});

describe("a price: the signature must name the page it pays for (was a hole, session 8)", () => {
  // The commitment covers @authority and the price only: it names no path or query. The reuse
  // memory keys an unnonced signature by its bytes AND the target, so the same headers sent to
  // /paid/b, /paid/a?x=2, … are new uses: each is served and charged (a ledger row whose proof
  // says nothing of the page). Anyone who sees one signed request (an origin log, a proxy) gets
  // every priced page for the signature's window, billed to the signer.
  it.each([
    [["@authority", "crawler-max-price", "signature-agent"], 400],
    [["@authority", "@path", "crawler-max-price", "signature-agent"], 400],
    [["@authority", "@path", "@query", "crawler-max-price", "signature-agent"], "settled"],
    [["@target-uri", "crawler-max-price", "signature-agent"], "settled"],
  ])("covered %j -> %s", (covered, expected) => {
    const settlement = settlePrice(
      { currency: "USD", micros: 10_000 },
      { exact: null, max: "USD 1" },
      {
        status: "verified",
        signer: "https://agent.test",
        operator: "https://agent.test",
        commitment: { keyid: "k", covered, base: "…", signature: "c2ln" },
      },
    );
    expect(settlement.settled ? "settled" : settlement.status).toBe(expected);
  });
});

const catalogued = (category: "search-engine" | "ai-training") =>
  ({ catalogue: "lists", fetchedAt: 0, token: "NagetBot", category }) as const;

describe("a licence route: who must hold a licence, by how the claim stands (terms.ts appliesTo)", () => {
  // Was a hole: the default exemption needed standing "proven", so a search crawler no retry can
  // ever prove (VERIFY_CRAWLERS=off, a search engine only Cloudflare verified) got 503 for ever,
  // and a catalogue listing NagetBot as search-engine turned its 401 into a permanent 503.
  const policy = parsePolicy(
    JSON.stringify({
      licence: { url: "https://www.example.com/license.xml", server: "https://olp.example.com" },
      routes: [{ pattern: "/premium/", licence: { required: true } }],
    }),
  );
  if (!policy.ok) throw new Error(policy.problems.join("; "));
  const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const MOJEEK = "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)";
  it.each([
    ["Googlebot, VERIFY_CRAWLERS=off", { agent: classifyUserAgent(GOOGLEBOT), verifyCrawlers: "off" }, "pass - exempt"],
    [
      "MojeekBot (our table: a search engine with no published way to verify it)",
      { agent: classifyUserAgent(MOJEEK), cloudflareCategory: "search-engine" },
      "pass - exempt",
    ],
    [
      "NagetBot (not in our table), Cloudflare-verified search engine",
      { agent: classifyUserAgent(NAGET), cloudflareCategory: "search-engine" },
      "pass - exempt",
    ],
    [
      "NagetBot, Cloudflare-verified ai-training",
      { agent: classifyUserAgent(NAGET), cloudflareCategory: "ai-training" },
      "block 401 missing",
    ],
    ["NagetBot, nothing verified it", { agent: classifyUserAgent(NAGET) }, "block 401 missing"],
    [
      "NagetBot catalogued search-engine",
      { agent: classifyUserAgent(NAGET), catalogued: catalogued("search-engine") },
      "block 401 missing",
    ],
    [
      "NagetBot catalogued ai-training",
      { agent: classifyUserAgent(NAGET), catalogued: catalogued("ai-training") },
      "block 401 missing",
    ],
    [
      "Googlebot impostor (refuted)",
      { agent: classifyUserAgent(GOOGLEBOT), needsVerification: true, verification: REFUTED },
      "block 401 missing",
    ],
    [
      "real Googlebot we could not check (unverifiable)",
      { agent: classifyUserAgent(GOOGLEBOT), needsVerification: true, verification: UNVERIFIABLE },
      "unavailable 503 unproven-exemption",
    ],
  ] satisfies [string, Partial<EdgeFacts>, string][])("%s on /premium/a", (_who, facts, expected) => {
    const record = decideEdge(
      gatheredFacts({
        pathAndQuery: "/premium/a",
        robots: { state: "ok", matcher: ALLOW_ALL, retryAfter: 0 },
        now: 0,
        policy: policy.value,
        ...facts,
      }),
    );
    if ("gather" in record) throw new Error(`gather ${record.gather}`);
    expect(`${record.action} ${record.status ?? "-"} ${record.terms?.licenceCheck}`).toBe(expected);
  });
});
