// Where a policy problem is in the submitted text (src/policy/policy-lines.ts): each problem of
// parsePolicy with the line of the member it names, for the page's policy editor.
import { describe, expect, it } from "vitest";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { jsonMemberLines, locateProblems } from "../../src/policy/policy-lines.ts";

const TEXT = [
  "{", // 1
  '  "routes": [', // 2
  "    {", // 3
  '      "pattern": "articles",', // 4
  '      "mode": "loud",', // 5
  '      "rules": [', // 6
  '        {"crawlers": ["category:robots"], "action": "block"},', // 7
  "        {", // 8
  '          "crawlers": ["GPTBot"],', // 9
  '          "action": "deny"', // 10
  "        }", // 11
  "      ]", // 12
  "    },", // 13
  '    {"pattern": "/ok/", "blockStatus": 200}', // 14
  "  ]", // 15
  "}", // 16
].join("\n");

describe("jsonMemberLines", () => {
  it.each([
    { path: "", line: 1 },
    { path: "routes", line: 2 },
    { path: "routes[0]", line: 3 },
    { path: "routes[0].pattern", line: 4 },
    { path: "routes[0].mode", line: 5 },
    { path: "routes[0].rules[0].crawlers", line: 7 },
    { path: "routes[0].rules[1]", line: 8 },
    { path: "routes[0].rules[1].action", line: 10 },
    { path: "routes[1].blockStatus", line: 14 },
  ])("$path is on line $line", ({ path, line }) => {
    expect(jsonMemberLines(TEXT).get(path)).toBe(line);
  });

  it.each([
    { why: "deep nesting does not recurse", text: "[".repeat(60_000) },
    { why: "an unterminated string", text: '{"routes": [{"pattern": "/a' },
    { why: "stray closers", text: "]]]}}}" },
    { why: "escaped quotes in keys", text: '{"a\\"b": 1}' },
  ])("never throws: $why", ({ text }) => {
    expect(() => jsonMemberLines(text)).not.toThrow();
  });

  it("records paths only a few containers deep (a deep body costs no quadratic memory)", () => {
    const lines = jsonMemberLines("[".repeat(60_000));
    expect(lines.size).toBe(9);
    expect(Math.max(...[...lines.keys()].map((path) => path.length))).toBe(24);
  });
});

describe("locateProblems", () => {
  it("every problem of parsePolicy, on the line of the member it names", () => {
    const parsed = parsePolicy(TEXT);
    if (parsed.ok) throw new TypeError("the test policy should be invalid");
    expect(locateProblems(TEXT, parsed.problems).map(({ line, problem }) => [line, problem.split(" ")[0]])).toEqual([
      [4, "routes[0].pattern"],
      [5, "routes[0].mode"],
      [7, "routes[0].rules[0].crawlers:"],
      [10, "routes[0].rules[1].action"],
      [14, "routes[1].blockStatus"],
    ]);
  });

  it.each([
    { why: "a missing member falls back to its object's line", text: '{"routes": [\n\n  {"mode": "off"}]}', line: 3 },
    {
      why: "a JSON syntax error is on the line where parsing stopped",
      text: '{\n"routes": [\n  {"pattern": "/a/",}\n]}',
      line: 3,
    },
    { why: "no routes list: the whole document", text: '\n\n{"paths": []}', line: 3 },
  ])("$why", ({ text, line }) => {
    const parsed = parsePolicy(text);
    if (parsed.ok) throw new TypeError("the test policy should be invalid");
    expect(locateProblems(text, parsed.problems)[0]?.line).toBe(line);
  });
});
