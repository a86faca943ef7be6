// One numbering for the served file (src/policy/served-lines.ts): origin lines by their origin
// number, generated line n as g<n> (-n in JSON).
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { citedLine, generatedLineCount, lineLabel, lineWords, withCitedLines } from "../../src/policy/served-lines.ts";

describe("citedLine: a served line as every report cites it, 4 generated lines", () => {
  // [served line, cited]
  const rows: [number, number][] = [
    [0, 0], // the file as a whole
    [1, -1],
    [4, -4],
    [5, 1],
    [29, 25],
  ];
  it.each(rows)("served line %i -> %i", (served, cited) => expect(citedLine(served, 4)).toBe(cited));
});

describe("labels and words", () => {
  const rows: [number, string, string][] = [
    [25, "25", "line 25"],
    [-3, "g3", "generated line 3"],
  ];
  it.each(rows)("%i -> %s, %s", (line, label, words) => {
    expect([lineLabel(line), lineWords(line)]).toEqual([label, words]);
  });
});

describe("withCitedLines on a served file", () => {
  const generated = "# generated\nUser-agent: GPTBot\nDisallow: /\n\n";
  const origin = "User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n";
  const model = withCitedLines(parseRobotsTxt(generated + origin), generatedLineCount(generated));

  it("counts the generated text's lines", () => expect(generatedLineCount(generated)).toBe(4));

  it("cites each rule, user-agent line and sitemap by the numbering", () => {
    expect(model.groups.map((group) => [group.agentLines.map((a) => a.line), group.rules.map((r) => r.line)])).toEqual([
      [[-2], [-3]],
      [[1], [2]],
    ]);
    expect(model.sitemaps.map((sitemap) => sitemap.line)).toEqual([3]);
  });

  it("decides as the file does, citing the cited line", () => {
    const matcher = compileRobots(model);
    expect([matcher.decide(["gptbot"], "/x").rule?.line, matcher.decide(["other"], "/private/a").rule?.line]).toEqual([
      -3, 2,
    ]);
  });
});
