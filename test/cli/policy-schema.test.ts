// The published schema (schema/policy-file.schema.json, for editors) and the edge's own validator
// (readPolicyFile: parsePolicy per policy, what PUT policy runs) agree on a table of good and bad
// policy files. The validator is the authority; where a schema cannot say what it refuses, the
// case is in the last table, named, so the gap is written down and cannot grow unseen.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { POLICY_FILE_SCHEMA_ID, POLICY_FILE_SCHEMA_PATH, readPolicyFile } from "../../src/cli/policy-file.ts";

const schema = JSON.parse(readFileSync(new URL("../../schema/policy-file.schema.json", import.meta.url), "utf8")) as {
  $id: string;
  $schema: string;
};
const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

const route = (rule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  routes: [{ pattern: "/x/", ...extra, rules: [rule] }],
});
const BLOCK = { crawlers: ["GPTBot"], action: "block" };
const charge = (price: unknown) => ({
  default: route({ crawlers: ["category:ai-training"], action: "charge", price }),
});
const LICENCE = { url: "https://www.example.com/license.xml", server: "https://olp.example.com" };
/** A policy with the site's licence (or none) and one route with the licence given. */
const licensed = (site: Record<string, unknown> | undefined, licence: unknown) => ({
  default: { ...(site && { licence: site }), routes: [{ pattern: "/premium/", licence }] },
});

const GOOD: { name: string; file: unknown }[] = [
  { name: "empty", file: {} },
  { name: "a default only", file: { default: { routes: [] } } },
  { name: "with the $schema pull writes", file: { $schema: POLICY_FILE_SCHEMA_PATH, hosts: {} } },
  {
    name: "default and hosts, every kind of rule",
    file: {
      default: route(BLOCK, { mode: "report", blockStatus: 451 }),
      hosts: {
        "shop.example": route({ crawlers: ["category:ai-training", "PartnerBot/1.0"], action: "pace", retryAfter: 60 }),
        "*.blog.example": route({ crawlers: ["category:ai-assistant"], action: "allow", signature: "required" }),
        "docs.example:8443": route({
          crawlers: ["category:ai-search"],
          action: "block",
          when: { crawlsPerReferral: { above: 100, days: 7 } },
        }),
        "xn--bcher-kva.example": {
          purposes: [{ path: "/", "search-engine": "allow", "ai-training": "block", GPTBot: "block" }],
        },
      },
    },
  },
  { name: "a pattern starting with *", file: { default: { routes: [{ pattern: "*.pdf$", rules: [] }] } } },
  { name: "a route without rules", file: { default: { routes: [{ pattern: "/" }] } } },
  { name: "a pace without retryAfter", file: { default: route({ crawlers: ["GPTBot"], action: "pace" }) } },
  { name: "a purposes path with % and ~", file: { default: { purposes: [{ path: "/a%20b/~c/" }] } } },
  {
    name: "a crawler named by a whole User-Agent token",
    file: { default: route({ crawlers: ["Googlebot/2.1"], action: "block" }) },
  },
  { name: "a charge rule", file: charge("USD 0.01") },
  {
    name: "a charge rule for signed crawlers, with a condition",
    file: {
      default: route({
        crawlers: ["PartnerBot"],
        action: "charge",
        price: "EUR 2.5",
        signature: "required",
        when: { crawlsPerReferral: { above: 10 } },
      }),
    },
  },
  { name: "the smallest price", file: charge("USD 0.000001") },
  { name: "the largest price, with leading zeros", file: charge("USD 0001000.000000") },
  { name: "a price with spaces around it (the edge trims them)", file: charge(" USD 0.5 ") },
  { name: "the site's licence alone", file: { default: { licence: { url: LICENCE.url } } } },
  { name: "a tdmPolicy alone", file: { default: { tdmPolicy: "https://www.example.com/tdm-policy.json" } } },
  {
    name: "a licence with its server, in robots.txt, beside routes and a tdmPolicy",
    file: {
      hosts: {
        "shop.example": {
          licence: { ...LICENCE, robotsTxt: true },
          tdmPolicy: "http://www.example.com/tdm-policy.json?v=2#terms",
          routes: [{ pattern: "/" }],
        },
      },
    },
  },
  {
    name: "a licence server on loopback over http",
    file: { default: { licence: { url: LICENCE.url, server: "http://127.0.0.1:8787/rsl/" } } },
  },
  {
    name: "a licence URL with its scheme in capitals",
    file: { default: { licence: { url: "HTTPS://www.example.com/l.xml" } } },
  },
  {
    name: "a route whose licence is required of some crawlers, for a resource",
    file: licensed(LICENCE, {
      required: true,
      crawlers: ["category:ai-training", "GPTBot"],
      resource: "https://www.example.com/premium/",
    }),
  },
  {
    name: "a route licence of its own, with no site licence",
    file: licensed(undefined, { url: "https://www.example.com/premium.xml" }),
  },
  { name: "a route licence that uses the site's file", file: licensed({ url: LICENCE.url }, { required: false }) },
];

const BAD: { name: string; file: unknown }[] = [
  { name: "not an object", file: [] },
  { name: "an unknown top-level member", file: { default: { routes: [] }, host: {} } },
  { name: "hosts a list", file: { hosts: [] } },
  { name: "a host in capitals", file: { hosts: { "Shop.example": { routes: [] } } } },
  { name: "a host with a trailing dot", file: { hosts: { "shop.example.": { routes: [] } } } },
  { name: "a host with a path", file: { hosts: { "shop.example/x": { routes: [] } } } },
  { name: "a host as a URL", file: { hosts: { "https://shop.example": { routes: [] } } } },
  { name: "an IDN not in its xn-- form", file: { hosts: { "bücher.example": { routes: [] } } } },
  { name: "a bare *", file: { hosts: { "*": { routes: [] } } } },
  { name: "a host with :443", file: { hosts: { "shop.example:443": { routes: [] } } } },
  { name: "a host with port 0", file: { hosts: { "shop.example:0": { routes: [] } } } },
  { name: "a policy without routes or purposes", file: { default: {} } },
  { name: "routes not a list", file: { default: { routes: {} } } },
  { name: "a host's policy null", file: { hosts: { "shop.example": null } } },
  { name: "a pattern without / or *", file: { default: { routes: [{ pattern: "x/", rules: [] }] } } },
  { name: "an unknown mode", file: { default: route(BLOCK, { mode: "strict" }) } },
  { name: "a block status of 200", file: { default: route(BLOCK, { blockStatus: 200 }) } },
  { name: "an unknown action", file: { default: route({ crawlers: ["GPTBot"], action: "deny" }) } },
  { name: "no crawlers", file: { default: route({ crawlers: [], action: "block" }) } },
  { name: "an unknown category", file: { default: route({ crawlers: ["category:robots"], action: "block" }) } },
  { name: "a crawler with no product token", file: { default: route({ crawlers: ["/x"], action: "block" }) } },
  { name: "retryAfter on a block", file: { default: route({ ...BLOCK, retryAfter: 60 }) } },
  {
    name: "retryAfter over a day",
    file: { default: route({ crawlers: ["GPTBot"], action: "pace", retryAfter: 86_401 }) },
  },
  { name: "signature optional", file: { default: route({ ...BLOCK, signature: "optional" }) } },
  {
    name: "a condition on an allow",
    file: { default: route({ crawlers: ["GPTBot"], action: "allow", when: { crawlsPerReferral: { above: 5 } } }) },
  },
  { name: "an unknown condition", file: { default: route({ ...BLOCK, when: { referrals: {} } }) } },
  { name: "a condition of 0", file: { default: route({ ...BLOCK, when: { crawlsPerReferral: { above: 0 } } }) } },
  {
    name: "a window of 31 days",
    file: { default: route({ ...BLOCK, when: { crawlsPerReferral: { above: 1, days: 31 } } }) },
  },
  { name: "purposes not a list", file: { default: { purposes: {} } } },
  { name: "a purposes path with *", file: { default: { purposes: [{ path: "/a*" }] } } },
  { name: "a purposes entry without a path", file: { default: { purposes: [{ "ai-training": "block" }] } } },
  { name: "a purposes action of maybe", file: { default: { purposes: [{ path: "/", "ai-training": "maybe" }] } } },
  { name: "a purposes key that is no token", file: { default: { purposes: [{ path: "/", "not a token": "block" }] } } },
  {
    name: "33 purposes entries",
    file: { default: { purposes: Array.from({ length: 33 }, (_, i) => ({ path: `/p${i}/` })) } },
  },
  { name: "a charge without a price", file: { default: route({ crawlers: ["GPTBot"], action: "charge" }) } },
  { name: "a price on a block", file: { default: route({ ...BLOCK, price: "USD 0.01" }) } },
  { name: "a price on a pace", file: { default: route({ crawlers: ["GPTBot"], action: "pace", price: "USD 0.01" }) } },
  {
    name: "retryAfter on a charge",
    file: { default: route({ crawlers: ["GPTBot"], action: "charge", price: "USD 0.01", retryAfter: 60 }) },
  },
  { name: "a price as a number", file: charge(0.01) },
  { name: "a price in dollars", file: charge("$0.01") },
  { name: "a price's currency in lower case", file: charge("usd 0.01") },
  { name: "a price with two spaces", file: charge("USD  0.01") },
  { name: "a price with a decimal comma", file: charge("USD 0,01") },
  { name: "a price with seven decimals", file: charge("USD 0.0000001") },
  { name: "a price with eight digits of units", file: charge("USD 00000001") },
  { name: "a price of 0", file: charge("USD 0.000") },
  { name: "a price over 1000", file: charge("USD 1000.000001") },
  { name: "a price of 1001", file: charge("USD 1001") },
  { name: "a price over 32 characters, spaces and all", file: charge(`${" ".repeat(28)}USD 1`) },
  { name: "a licence without a url", file: { default: { licence: { server: LICENCE.server } } } },
  { name: "a licence null", file: { default: { licence: null, routes: [] } } },
  { name: "an unknown licence member", file: { default: { licence: { ...LICENCE, servers: [] } } } },
  { name: "a licence url that is a path", file: { default: { licence: { url: "/license.xml" } } } },
  { name: "a licence url over ftp", file: { default: { licence: { url: "ftp://www.example.com/license.xml" } } } },
  { name: "a licence url with a space", file: { default: { licence: { url: "https://www.example.com/a b.xml" } } } },
  { name: "a licence url with a comma", file: { default: { licence: { url: "https://www.example.com/a,b.xml" } } } },
  { name: "a licence url with a user", file: { default: { licence: { url: "https://me@www.example.com/l.xml" } } } },
  {
    name: "a licence url over 2048 characters",
    file: { default: { licence: { url: `https://www.example.com/${"a".repeat(2030)}` } } },
  },
  {
    name: "a licence server not https",
    file: { default: { licence: { ...LICENCE, server: "http://olp.example.com" } } },
  },
  {
    name: "a licence server over http to a name that starts as loopback",
    file: { default: { licence: { ...LICENCE, server: "http://localhost.example.com" } } },
  },
  {
    name: "a licence server with a query",
    file: { default: { licence: { ...LICENCE, server: "https://olp.example.com/?key=1" } } },
  },
  {
    name: "a licence server with a fragment",
    file: { default: { licence: { ...LICENCE, server: "https://olp.example.com/#x" } } },
  },
  {
    name: "a licence server with credentials",
    file: { default: { licence: { ...LICENCE, server: "https://me:pw@olp.example.com" } } },
  },
  { name: "robotsTxt as a word", file: { default: { licence: { ...LICENCE, robotsTxt: "yes" } } } },
  { name: "a tdmPolicy that is no URL", file: { default: { tdmPolicy: "reserved" } } },
  { name: "a tdmPolicy not a string", file: { default: { tdmPolicy: true } } },
  { name: "an unknown route licence member", file: licensed(LICENCE, { required: true, price: "USD 1" }) },
  { name: "a route licence required as a word", file: licensed(LICENCE, { required: "yes" }) },
  { name: "a route licence naming no crawlers", file: licensed(LICENCE, { crawlers: [] }) },
  {
    name: "a route licence naming an unknown category",
    file: licensed(LICENCE, { crawlers: ["category:scrapers"] }),
  },
  { name: "a route licence resource that is a path", file: licensed(LICENCE, { resource: "/premium/" }) },
  {
    name: "a required route licence with no licence server",
    file: licensed({ url: LICENCE.url }, { required: true }),
  },
  {
    name: "a required route licence with no site licence",
    file: licensed(undefined, { url: "https://www.example.com/premium.xml", required: true }),
  },
  { name: "a route licence with no file to name", file: licensed(undefined, { required: false }) },
];

/** What the schema cannot say and the edge's validator refuses: written down, held to it. */
const ONLY_THE_VALIDATOR_REFUSES: { name: string; file: unknown }[] = [
  {
    name: "a crawler named twice in one purposes entry, in two cases",
    file: { default: { purposes: [{ path: "/", GPTBot: "block", gptbot: "allow" }] } },
  },
  { name: "a port over 65535", file: { hosts: { "shop.example:70000": { routes: [] } } } },
  { name: "a purposes path repeated", file: { default: { purposes: [{ path: "/a/" }, { path: "/a/" }] } } },
  { name: "a policy over 64 KiB", file: { default: { routes: [{ pattern: `/${"a".repeat(70_000)}`, rules: [] }] } } },
];

describe("schema/policy-file.schema.json", () => {
  it("is a 2020-12 schema with its $id, found from a clone's root where pull's $schema points", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBe(POLICY_FILE_SCHEMA_ID);
    // npm ci links the package to itself: the path pull writes resolves inside the clone.
    const found = JSON.parse(readFileSync(new URL(`../../${POLICY_FILE_SCHEMA_PATH}`, import.meta.url), "utf8")) as {
      $id: string;
    };
    expect(found.$id).toBe(POLICY_FILE_SCHEMA_ID);
  });

  it.each(GOOD)("accepts, as the edge does: $name", ({ file }) => {
    expect(readPolicyFile(JSON.stringify(file)).ok).toBe(true);
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(BAD)("refuses, as the edge does: $name", ({ file }) => {
    expect(readPolicyFile(JSON.stringify(file)).ok).toBe(false);
    expect(validate(file)).toBe(false);
  });

  it.each(ONLY_THE_VALIDATOR_REFUSES)("leaves to the edge's validator: $name", ({ file }) => {
    expect(readPolicyFile(JSON.stringify(file)).ok).toBe(false);
    expect(validate(file)).toBe(true);
  });
});
