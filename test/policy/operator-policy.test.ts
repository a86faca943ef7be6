// The operator's per-route policy: validation with clear errors, and which layer decides.
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { judge } from "../../src/policy/judge.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import type { CrawlerCategory } from "../../src/vocabulary.ts";

const POLICY = JSON.stringify({
  routes: [
    { pattern: "/articles/", rules: [{ crawlers: ["category:ai-training", "Bytespider"], action: "block" }] },
    { pattern: "/articles/free/", rules: [{ crawlers: ["PartnerBot"], action: "allow" }] },
    { pattern: "/private/", rules: [{ crawlers: ["PartnerBot"], action: "allow" }] },
    { pattern: "/beta/*$", mode: "report" },
    { pattern: "/legal/", blockStatus: 451 },
  ],
});
const ROBOTS = compileRobots(
  parseRobotsTxt("User-agent: *\nDisallow: /private/\nDisallow: /beta/\nDisallow: /legal/\n"),
);
const parsed = parsePolicy(POLICY);
const policy = parsed.ok ? parsed.value : undefined;

function verdictFor(tokens: string[], category: CrawlerCategory | undefined, path: string) {
  return judge({
    mode: "enforce",
    failOpen: false,
    state: "ok",
    matcher: ROBOTS,
    tokens,
    obeysGlobalGroup: true,
    pathAndQuery: path,
    policy,
    category,
  });
}

describe("which layer decides", () => {
  it.each([
    {
      tokens: ["GPTBot"],
      category: "ai-training",
      path: "/articles/1",
      action: "block",
      layer: "policy",
      why: "AI training blocked though robots.txt allows",
    },
    {
      tokens: ["Bytespider"],
      category: "ai-training",
      path: "/articles/1",
      action: "block",
      layer: "policy",
      why: "named token",
    },
    {
      tokens: ["Googlebot"],
      category: "search-engine",
      path: "/articles/1",
      action: "pass",
      layer: "robots.txt",
      why: "no rule names it: robots.txt",
    },
    {
      tokens: ["GPTBot"],
      category: "ai-training",
      path: "/articles/free/1",
      action: "pass",
      layer: "robots.txt",
      why: "the most specific route has no rule for it",
    },
    {
      tokens: ["PartnerBot"],
      category: undefined,
      path: "/private/x",
      action: "pass",
      layer: "policy",
      why: "partner allowed through one path",
    },
    {
      tokens: ["OtherBot"],
      category: undefined,
      path: "/private/x",
      action: "block",
      layer: "robots.txt",
      why: "others still obey robots.txt",
    },
    {
      tokens: ["OtherBot"],
      category: undefined,
      path: "/beta/x",
      action: "report",
      layer: "robots.txt",
      why: "route mode report",
    },
    {
      tokens: ["GPTBot"],
      category: "ai-training",
      path: "/a/../articles/x",
      action: "block",
      layer: "policy",
      why: "re-spelled path",
    },
    {
      tokens: ["GPTBot"],
      category: "ai-training",
      path: "/%61rticles/x",
      action: "block",
      layer: "policy",
      why: "percent-encoded letter",
    },
  ] satisfies {
    tokens: string[];
    category: CrawlerCategory | undefined;
    path: string;
    action: string;
    layer: string;
    why: string;
  }[])("$tokens $path -> $action by $layer ($why)", ({ tokens, category, path, action, layer }) => {
    const verdict = verdictFor(tokens, category, path);
    expect(verdict.action).toBe(action);
    expect(verdict.layer).toBe(layer);
  });

  it("a route's block status applies to robots.txt blocks on its paths", () => {
    expect(verdictFor(["OtherBot"], undefined, "/legal/terms").blockStatus).toBe(451);
    expect(verdictFor(["OtherBot"], undefined, "/private/x").blockStatus).toBeUndefined();
  });

  it("names the route and rule that decided", () => {
    expect(verdictFor(["GPTBot"], "ai-training", "/articles/1").policy).toMatchObject({ routeIndex: 0, ruleIndex: 0 });
  });
});

describe("validation reports every problem at once", () => {
  it.each([
    { json: "{", problem: "not JSON" },
    { json: "[]", problem: 'must be an object with a "routes" list' },
    {
      json: '{"routes":[{"pattern":"articles"}]}',
      problem: 'routes[0].pattern must be a path pattern starting with "/" or "*"',
    },
    {
      json: '{"routes":[{"pattern":"/a","mode":"block"}]}',
      problem: "routes[0].mode must be one of enforce, report, off",
    },
    {
      json: '{"routes":[{"pattern":"/a","blockStatus":200}]}',
      problem: "routes[0].blockStatus must be a whole number from 400 to 599",
    },
    {
      json: '{"routes":[{"pattern":"/a","rules":[{"crawlers":[],"action":"block"}]}]}',
      problem: "routes[0].rules[0].crawlers must be a non-empty list",
    },
    {
      json: '{"routes":[{"pattern":"/a","rules":[{"crawlers":["category:robots"],"action":"block"}]}]}',
      problem: 'unknown "category:robots"',
    },
    {
      json: '{"routes":[{"pattern":"/a","rules":[{"crawlers":["GPTBot"],"action":"deny"}]}]}',
      problem: 'routes[0].rules[0].action must be "block", "allow", "pace" or "charge"',
    },
  ])("$problem", ({ json, problem }) => {
    const result = parsePolicy(json);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.problems.join("\n")).toContain(problem);
  });

  it("lists several problems together", () => {
    const result = parsePolicy('{"routes":[{"pattern":"x","mode":"y"}]}');
    expect(result.ok ? [] : result.problems).toHaveLength(2);
  });
});

// A rule may ask the crawlers it names for a Web Bot Auth signature (edge-decision.ts answers 403 with Accept-Signature).
describe('a rule\'s "signature"', () => {
  it.each([
    { signature: "required", problems: [] },
    {
      signature: "optional",
      problems: ['routes[0].rules[0].signature must be "required" when present, got "optional"'],
    },
    { signature: true, problems: ['routes[0].rules[0].signature must be "required" when present, got true'] },
  ])("$signature", ({ signature, problems }) => {
    const withSignature = parsePolicy(
      JSON.stringify({
        routes: [{ pattern: "/app/", rules: [{ crawlers: ["category:ai-assistant"], action: "allow", signature }] }],
      }),
    );
    expect(withSignature.ok ? [] : withSignature.problems).toEqual(problems);
    if (withSignature.ok) expect(withSignature.value.policy.routes[0]?.rules[0]?.signature).toBe("required");
  });
});

// Routes written alike are one object for every policy of the isolate (operator-policy.ts
// namedRoute): the same answers, each policy's own rules; the table bounded, started again.
const sharedRoutesPolicy = (own: string, action: "block" | "allow") =>
  JSON.stringify({
    routes: [
      { pattern: "/x/", blockStatus: 451, rules: [{ crawlers: ["GPTBot"], action: "block" }] },
      { pattern: own, rules: [{ crawlers: ["GPTBot", "category:ai-training"], action }] },
    ],
  });
const compiledPolicy = (json: string) => {
  const result = parsePolicy(json);
  if (!result.ok) throw new Error(result.problems.join("; "));
  return result.value;
};

describe("routes shared between policies", () => {
  const gptbot = { tokens: ["GPTBot"], category: "ai-training" as const };
  const ccbot = { tokens: ["CCBot"], category: "ai-training" as const };

  it.each([
    { path: "/x/1", subject: gptbot, route: 0, rule: 0, action: "block" },
    { path: "/own/1", subject: gptbot, route: 1, rule: 0, action: "allow" },
    { path: "/own/1", subject: ccbot, route: 1, rule: 0, action: "allow" },
    { path: "/x/1", subject: ccbot, route: 0, rule: -1, action: undefined },
  ])("$path, $subject.tokens: route $route, rule $rule ($action)", ({ path, subject, route, rule, action }) => {
    const a = compiledPolicy(sharedRoutesPolicy("/own/", "allow"));
    const b = compiledPolicy(sharedRoutesPolicy("/other/", "block"));
    expect(a.policy.routes[0]).toBe(b.policy.routes[0]); // one object for both
    const match = a.match(path, subject);
    expect([match?.routeIndex, match?.ruleIndex, match?.rule?.action]).toEqual([route, rule, action]);
    expect(b.match("/own/1", gptbot)).toBeUndefined();
  });

  it("past the table's bound (it starts again) every policy answers by its own routes", () => {
    const policies = Array.from({ length: 5_000 }, (_, i) =>
      compiledPolicy(sharedRoutesPolicy(`/own-${i}/`, i % 2 === 0 ? "allow" : "block")),
    );
    const actions = policies.map((each, i) => each.match(`/own-${i}/page`, gptbot)?.rule?.action);
    expect(actions.filter((action, i) => action !== (i % 2 === 0 ? "allow" : "block"))).toEqual([]);
    expect(policies.map((each) => each.match("/x/page", gptbot)?.route.blockStatus)).toEqual(policies.map(() => 451));
  });
});
