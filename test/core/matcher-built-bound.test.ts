// What a matcher builds for the tokens asked (match.ts `groupNamed`) is a surface a tenant and
// its clients control: a tenant under a `*.` AUTHORITIES entry writes the robots.txt, clients
// write the User-Agent. Two findings, each a table below, observed through what the matcher
// returns: a decision is the same frozen object while its group is kept, a new one once
// rebuilt; tokens that share a rule list return the same array.
//   F2: the bound once cleared EVERYTHING built when it tripped, and tokens obeying the same
//       groups each merged their own list: 2 groups naming a, b, c over 11,000 rules, asked
//       a, b, c in turn, rebuilt 11,000 rules on every request (47.5 ms instead of 0.15 ms).
//   F1: 1,000 tokens named by the same 2 groups each held a merged list and trees of their own
//       (2 rules of 100 KB patterns per group: 363 MB in Node for a 434 KB file).
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt, type Decision } from "../../src/core/index.ts";

const parsed = (text: string) => parseRobotsTxt(new TextEncoder().encode(text));

/** A group naming `tokens`, then `rules` rules `Disallow: /<prefix><n>`. */
const group = (tokens: readonly string[], prefix: string, rules: number): string =>
  [
    ...tokens.map((token) => `User-agent: ${token}`),
    ...Array.from({ length: rules }, (_, n) => `Disallow: /${prefix}${n}`),
  ]
    .join("\n")
    .concat("\n\n");

describe("F2: tokens obeying the same groups share what is built; asking them in turn rebuilds nothing", () => {
  // Each file: a, b, c named by every group; main's matcher built a list per token and, past the
  // bound, dropped all three (3 × 11,001 > 2 × 11,006 + 10,000).
  const rows = [
    {
      name: "2 groups × a, b, c × 5,500 rules (the attack)",
      text: group(["a", "b", "c"], "x", 5_500) + group(["a", "b", "c"], "y", 5_500),
      path: "/y7",
      lines: { a: [1, 5505], b: [2, 5506], c: [3, 5507] },
    },
    {
      name: "3 groups × a, b, c × 4,000 rules",
      text:
        group(["a", "b", "c"], "x", 4_000) + group(["a", "b", "c"], "y", 4_000) + group(["c", "b", "a"], "z", 4_000),
      path: "/z7",
      lines: { a: [1, 4005, 8011], b: [2, 4006, 8010], c: [3, 4007, 8009] },
    },
  ];
  for (const { name, text, path, lines } of rows) {
    it(`${name}: three rounds of a, b, c return the first round's decisions, each naming its own token and lines`, () => {
      const matcher = compileRobots(parsed(text));
      const first = new Map<string, Decision>();
      for (let round = 0; round < 3; round++) {
        for (const token of ["a", "b", "c"] as const) {
          const decision = matcher.decide([token], path);
          expect(decision.allowed).toBe(false);
          expect(decision.group?.token).toBe(token);
          expect(decision.group?.agentLines).toEqual(lines[token]);
          if (round === 0) first.set(token, decision);
          else expect(decision).toBe(first.get(token));
        }
      }
    });
  }
});

describe("F1: tokens obeying the same groups share one merged rule list", () => {
  const rows = [
    {
      name: "2 groups naming the same 1,000 tokens, 2 rules each",
      text:
        group(
          Array.from({ length: 1_000 }, (_, n) => `t${n}`),
          "x",
          2,
        ) +
        group(
          Array.from({ length: 1_000 }, (_, n) => `t${n}`),
          "y",
          2,
        ),
      tokens: ["t0", "t1", "t999"],
      rules: 4,
    },
    {
      name: "the same tokens named in another order by the second group",
      text: group(["p", "q", "r"], "x", 3) + group(["r", "q", "p"], "y", 3),
      tokens: ["p", "q", "r"],
      rules: 6,
    },
  ];
  for (const { name, text, tokens, rules } of rows) {
    it(`${name}: ${tokens.join(", ")} obey one list of ${rules} rules`, () => {
      const matcher = compileRobots(parsed(text));
      const lists = tokens.map((token) => matcher.groupFor([token])?.rules);
      expect(lists[0]?.length).toBe(rules);
      for (const list of lists) expect(list).toBe(lists[0]);
    });
  }

  it("tokens named by different sets of groups obey different lists", () => {
    const matcher = compileRobots(parsed(group(["a", "b"], "x", 2) + group(["a"], "y", 2) + group(["b"], "z", 2)));
    expect(matcher.groupFor(["a"])?.rules.map((rule) => rule.pattern)).toEqual(["/x0", "/x1", "/y0", "/y1"]);
    expect(matcher.groupFor(["b"])?.rules.map((rule) => rule.pattern)).toEqual(["/x0", "/x1", "/z0", "/z1"]);
  });
});

describe("past the bound, the least recently used are dropped, never all", () => {
  // 4 groups of 3,000 rules and a token for each pair of them: six merged lists of 6,000 rules
  // (and their characters) are more than the bound holds (twice the file's size plus 10,000).
  // `keep` (its own small group) is asked before every pair token, so it is never the least
  // recently used: its decision stays the same object. Main's matcher dropped it with the rest.
  const pairs = [
    ["p01", 0, 1],
    ["p02", 0, 2],
    ["p03", 0, 3],
    ["p12", 1, 2],
    ["p13", 1, 3],
    ["p23", 2, 3],
  ] as const;
  const text =
    [0, 1, 2, 3]
      .map((g) =>
        group(
          pairs.filter(([, x, y]) => x === g || y === g).map(([token]) => token),
          `g${g}/`,
          3_000,
        ),
      )
      .join("") + group(["keep"], "k", 1);
  const rows = [
    { token: "p01", path: "/g1/999", allowed: false },
    { token: "p02", path: "/g2/5", allowed: false },
    { token: "p03", path: "/g1/5", allowed: true },
    { token: "p12", path: "/g1/0", allowed: false },
    { token: "p13", path: "/g3/999", allowed: false },
    { token: "p23", path: "/g0/1", allowed: true },
  ];

  it("asking each pair token in turn, `keep` asked between, keeps keep's decision and answers every pair right", () => {
    const matcher = compileRobots(parsed(text));
    const kept = matcher.decide(["keep"], "/k0");
    expect(kept.allowed).toBe(false);
    for (let round = 0; round < 2; round++) {
      for (const { token, path, allowed } of rows) {
        expect(matcher.decide([token], path).allowed).toBe(allowed);
        expect(matcher.decide(["keep"], "/k0")).toBe(kept);
      }
    }
  });

  it("the bound holds: the first pair's list, least recently used, is built again after the other five", () => {
    const matcher = compileRobots(parsed(text));
    const first = matcher.decide(["p01"], "/g0/1");
    for (const { token, path } of rows.slice(1)) matcher.decide([token], path);
    const again = matcher.decide(["p01"], "/g0/1");
    expect(again.allowed).toBe(false);
    expect(again).not.toBe(first);
  });
});
