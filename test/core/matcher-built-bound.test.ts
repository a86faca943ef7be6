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

/** A token for each pair of `groups` groups (`p<x>-<y>`), each group holding `rules` rules. */
function pairsFile(groups: number, rules: (g: number) => string) {
  const pairs: { token: string; x: number; y: number }[] = [];
  for (let x = 0; x < groups; x++) for (let y = x + 1; y < groups; y++) pairs.push({ token: `p${x}-${y}`, x, y });
  const text = Array.from({ length: groups }, (_, g) => {
    const tokens = pairs.filter(({ x, y }) => x === g || y === g).map(({ token }) => `User-agent: ${token}\n`);
    return `${tokens.join("")}${rules(g)}\n`;
  }).join("");
  return { pairs, text };
}

describe("tokens of different sets of groups, asked in turn: nothing is rebuilt while their lists fit", () => {
  // 4 groups of 3,000 rules and a token for each pair of them: six merged lists of 6,000 rules.
  // Their merged trees (rules and characters) are more than the bound holds: they are built
  // while they fit and kept; the other sets are answered from their groups' own trees, built
  // once. Only references are merged per set, and six lists of them fit: nothing is dropped.
  // Before, each set's list and trees counted against one bound, the least recently used was
  // dropped, and asking the six in turn rebuilt 6,000 rules on every request.
  const { pairs, text } = pairsFile(4, (g) =>
    Array.from({ length: 3_000 }, (_, n) => `Disallow: /g${g}/${n}/some/longer/path\n`).join(""),
  );
  const rows = [
    { path: "/g0/2999/some/longer/path", refused: [0] },
    { path: "/g1/7/some/longer/path", refused: [1] },
    { path: "/g3/0/some/longer/path/and/more", refused: [3] },
    { path: "/g2/", refused: [] },
  ];
  it("three rounds of the six pair tokens: the first round's decisions, every answer right", () => {
    const matcher = compileRobots(parsed(text));
    const first = new Map<string, Decision>();
    for (let round = 0; round < 3; round++) {
      for (const { token, x, y } of pairs) {
        for (const { path, refused } of rows) {
          const decision = matcher.decide([token], path);
          expect(decision.allowed).toBe(!refused.some((g) => g === x || g === y));
          expect(decision.group?.token).toBe(token);
          if (decision.allowed) continue;
          if (round === 0) first.set(`${token} ${path}`, decision);
          else expect(decision).toBe(first.get(`${token} ${path}`));
        }
      }
    }
  });
});

describe("past the bound, the least recently used are dropped, never all", () => {
  // 32 groups of the same 100 rules `Disallow: /<n>` and a token for each pair: 496 tokens
  // each winning 100 decisions of its own (49,600), more than the bound holds (twice the
  // file's 3,201 rules, their 9,282 characters and its tokens, plus 10,000: 37,016). What a
  // token's group and its decisions cost is what fills it: a set's rules are a view, no copy
  // (merged-group.ts). `keep` (its own group) is asked before every pair token, so it is never
  // the least recently used: its decision stays the same object. Before, the bound dropped
  // everything built, `keep` with it.
  const paths = Array.from({ length: 100 }, (_, n) => `/${n}`);
  const { pairs, text: pairsText } = pairsFile(32, () => paths.map((path) => `Disallow: ${path}\n`).join(""));
  const text = `${pairsText}User-agent: keep\nDisallow: /k\n`;

  it("asking each pair token on each rule in turn, `keep` between: keep's decision kept, every pair answered right", () => {
    const matcher = compileRobots(parsed(text));
    const kept = matcher.decide(["keep"], "/k0");
    expect(kept.allowed).toBe(false);
    for (const { token } of pairs) {
      for (const path of paths) {
        const decision = matcher.decide([token], `${path}/page`);
        expect([decision.allowed, decision.rule?.pattern, decision.group?.token]).toEqual([false, path, token]);
      }
      expect(matcher.decide([token], "/k0").allowed).toBe(true);
      expect(matcher.decide(["keep"], "/k0")).toBe(kept);
    }
  });

  it("the bound holds: the first pair token, least recently used, is built again after the other 495", () => {
    const matcher = compileRobots(parsed(text));
    const first = matcher.decide(["p0-1"], "/0");
    for (const { token } of pairs.slice(1)) for (const path of paths) matcher.decide([token], path);
    const again = matcher.decide(["p0-1"], "/0");
    expect([again.allowed, again.rule?.pattern]).toEqual([false, "/0"]);
    expect(again).not.toBe(first);
  });
});

describe("a set answered from its groups' own trees decides as its merged trees do", () => {
  // Merged trees are built while they fit (match.ts treesOf); a set asked later is answered
  // from each group's trees, the best of their winners. Four groups, a token for each pair,
  // 3,000 filler rules each: four pairs' merged trees fill the bound. Matcher `merged` asks
  // p0-1 and p2-3 first (merged trees), `across` asks them last (each group's trees): the same
  // decision, the same winning rule, for rules that tie, escape, anchor, wildcard and index.html.
  const interesting = [
    "Disallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nAllow: /dir/index.html\n",
    "Allow: /a\nDisallow: /a/b/c\nDisallow: /x%27y\nDisallow: /dir/\n",
    "Disallow: /a/*/z\nAllow: /*.pdf\nDisallow: /q?x=\nDisallow: /t\n",
    "Allow: /t\nDisallow: /$\nDisallow: /x'\nAllow: /a/b/\n",
  ];
  const { text } = pairsFile(
    4,
    (g) =>
      `${interesting[g] ?? ""}${Array.from({ length: 3_000 }, (_, n) => `Disallow: /fill${g}/${n}/long\n`).join("")}`,
  );
  const options = {
    alsoSpelled: (pattern: string) => (pattern.includes("%27") ? pattern.replace("%27", "'") : undefined),
  };
  const rows: { path: string; p01: boolean; p23: boolean }[] = [
    { path: "/a", p01: true, p23: true },
    { path: "/a/b", p01: true, p23: true },
    { path: "/a/b/c", p01: false, p23: true },
    { path: "/a/q/z", p01: true, p23: false },
    { path: "/f.pdf", p01: false, p23: true },
    { path: "/dir/", p01: true, p23: true },
    { path: "/dir/index.html", p01: true, p23: true },
    { path: "/x'y", p01: false, p23: false },
    { path: "/x%27y", p01: false, p23: true },
    { path: "/q?x=1", p01: true, p23: false },
    { path: "/", p01: true, p23: false },
    { path: "/%61/b", p01: true, p23: true },
    { path: "/t", p01: true, p23: true },
    { path: "/fill0/7/long", p01: false, p23: true },
    { path: "/fill3/7/long", p01: true, p23: false },
  ];
  const first = ["p0-1", "p2-3"];
  const others = ["p0-2", "p0-3", "p1-2", "p1-3"];
  const robots = parsed(text);
  const merged = compileRobots(robots, options);
  const across = compileRobots(robots, options);
  for (const token of [...first, ...others]) merged.decide([token], "/");
  for (const token of [...others, ...first]) across.decide([token], "/");
  for (const { path, p01, p23 } of rows) {
    it(`${path}: p0-1 ${p01 ? "allowed" : "refused"}, p2-3 ${p23 ? "allowed" : "refused"}, by the same rule both ways`, () => {
      for (const [token, allowed] of [
        ["p0-1", p01],
        ["p2-3", p23],
      ] as const) {
        const want = merged.decide([token], path);
        const got = across.decide([token], path);
        expect(want.allowed).toBe(allowed);
        expect(got.allowed).toBe(allowed);
        expect(got.reason).toBe(want.reason);
        expect(got.rule).toBe(want.rule);
      }
    });
  }
});
