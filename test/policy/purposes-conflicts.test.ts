// Routes that pass what the same policy's purposes block (src/policy/purposes-conflicts.ts):
// the served file tells the crawler Disallow while the edge passes it.
import { describe, expect, it } from "vitest";
import type { KnownCrawler } from "../../src/agents/operators/tables.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { routesPassingPurposes } from "../../src/policy/purposes-conflicts.ts";

/** A small table, so the messages can be written down whole. */
const CRAWLERS = [
  { token: "GPTBot", category: "ai-training", fallbacks: [], obeysGlobalGroup: true },
  { token: "CCBot", category: "ai-training", fallbacks: [], obeysGlobalGroup: true },
  { token: "Googlebot", category: "search-engine", fallbacks: [], obeysGlobalGroup: true },
] as unknown as KnownCrawler[];

function conflicts(policy: unknown): string[] {
  const parsed = parsePolicy(JSON.stringify(policy));
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return routesPassingPurposes(parsed.value, CRAWLERS);
}

const TRAINING_ROOT = [{ path: "/", "ai-training": "block" }];
const MEMBERS = [{ path: "/members/", "ai-training": "block", "search-engine": "block" }];
const allow = (crawlers: string[], extra: object = {}) => ({ crawlers, action: "allow", ...extra });

describe("routesPassingPurposes", () => {
  // [case, purposes, routes, problems]
  const rows: [string, unknown, unknown[], string[]][] = [
    [
      "an allow for the category inside the block",
      TRAINING_ROOT,
      [{ pattern: "/a/", rules: [allow(["category:ai-training"])] }],
      [
        'routes[0].rules[0] lets GPTBot, CCBot pass on "/a/", where purposes[0] blocks them ("/"): the served robots.txt tells them "Disallow: /" while the edge passes them; block them in the route too, or change the purposes',
      ],
    ],
    [
      "a wildcard route starting with *",
      TRAINING_ROOT,
      [{ pattern: "*.pdf$", rules: [allow(["CCBot"])] }],
      [
        'routes[0].rules[0] lets CCBot pass on "*.pdf$", where purposes[0] blocks them ("/"): the served robots.txt tells them "Disallow: /" while the edge passes them; block them in the route too, or change the purposes',
      ],
    ],
    [
      "a shorter route with mode off covers the blocked prefix",
      MEMBERS,
      [{ pattern: "/", mode: "off" }],
      [
        'routes[0] (mode off) lets GPTBot, CCBot, Googlebot pass on "/", where purposes[0] blocks them ("/members/"): the served robots.txt tells them "Disallow: /members/" while the edge passes them; block them in the route too, or change the purposes',
      ],
    ],
    [
      "an allow that asks for a signature still passes the signed",
      MEMBERS,
      [{ pattern: "/members/", rules: [allow(["Googlebot"], { signature: "required" })] }],
      [
        'routes[0].rules[0] lets Googlebot pass on "/members/", where purposes[0] blocks them ("/members/"): the served robots.txt tells them "Disallow: /members/" while the edge passes them; block them in the route too, or change the purposes',
      ],
    ],
    ["an allow outside every blocked prefix", MEMBERS, [{ pattern: "/a/", rules: [allow(["GPTBot"])] }], []],
    ["a route in report mode (watching, on purpose)", TRAINING_ROOT, [{ pattern: "/a/", mode: "report" }], []],
    ["a pace rule", TRAINING_ROOT, [{ pattern: "/a/", rules: [{ crawlers: ["GPTBot"], action: "pace" }] }], []],
    [
      "an allow for a category the purposes leave alone",
      TRAINING_ROOT,
      [{ pattern: "/", rules: [allow(["category:search-engine"])] }],
      [],
    ],
    ["no purposes", undefined, [{ pattern: "/", mode: "off" }], []],
  ];
  it.each(rows)("%s", (_, purposes, routes, expected) => {
    expect(conflicts({ routes, ...(purposes !== undefined && { purposes }) })).toEqual(expected);
  });
});

describe("purposes naming one token twice", () => {
  // [keys, problems]
  const rows: [Record<string, string>, string[]][] = [
    [
      { GPTBot: "block", gptbot: "allow" },
      ["purposes[0].gptbot names GPTBot again (product tokens compare without case); name each crawler once"],
    ],
    [
      { GPTBot: "block", GPTBOT: "block" },
      ["purposes[0].GPTBOT names GPTBot again (product tokens compare without case); name each crawler once"],
    ],
    [{ GPTBot: "block", CCBot: "block" }, []],
  ];
  it.each(rows)("%j", (keys, problems) => {
    const parsed = parsePolicy(JSON.stringify({ purposes: [{ path: "/", ...keys }] }));
    expect(parsed.ok ? [] : parsed.problems).toEqual(problems);
  });
});
