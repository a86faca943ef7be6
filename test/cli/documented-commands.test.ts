// The `sh demo` convention: markdown -> commands with their documented output, and how output
// is compared (test/e2e/documented-commands.e2e.test.ts runs them against the demo).
import { describe, expect, it } from "vitest";
import { documentedCommands, matchesDocumented, outputLines } from "../../scripts/documented-commands.ts";

describe("documentedCommands", () => {
  it("reads only sh demo blocks: each $ line a command, the lines after it its output", () => {
    const markdown = [
      "# Title", //                                    1
      "```sh", //                                      2
      "$ not run: a plain sh block", //                3
      "```", //                                        4
      "```sh demo", //                                 5
      "$ curl -s http://127.0.0.1:8787/a", //          6
      "first", //                                      7
      "second", //                                     8
      "$ echo done", //                                9
      "```", //                                        10
      "text", //                                       11
      "```sh demo", //                                 12
      "$ true", //                                     13
      "```", //                                        14
    ].join("\n");
    expect(documentedCommands("doc.md", markdown)).toEqual([
      { where: "doc.md:6", command: "curl -s http://127.0.0.1:8787/a", expected: ["first", "second"] },
      { where: "doc.md:9", command: "echo done", expected: [] },
      { where: "doc.md:13", command: "true", expected: [] },
    ]);
  });

  it("a file without demo blocks has no commands", () => {
    expect(documentedCommands("x.md", "```sh\n$ ls\n```\n")).toEqual([]);
  });
});

describe("matchesDocumented", () => {
  it.each([
    { expected: ["403"], actual: ["403"], matches: true },
    { expected: ["403"], actual: ["200"], matches: false },
    { expected: ["403"], actual: ["403", "extra"], matches: false },
    { expected: ["403", "x"], actual: ["403"], matches: false },
    { expected: ["a  "], actual: ["a"], matches: true },
    { expected: ["a", "...", "z"], actual: ["a", "b", "c", "z"], matches: true },
    { expected: ["a", "...", "z"], actual: ["a", "z"], matches: true },
    { expected: ["a", "...", "z"], actual: ["a", "b"], matches: false },
    { expected: ["..."], actual: [], matches: true },
    { expected: [], actual: [], matches: true },
    { expected: [], actual: ["unexpected"], matches: false },
    { expected: ["...", "HTTP/1.1 403 Forbidden", "..."], actual: ["x", "HTTP/1.1 403 Forbidden", "y"], matches: true },
    { expected: ["...", "HTTP/1.1 403 Forbidden", "..."], actual: ["HTTP/1.1 200 OK"], matches: false },
  ])("$expected vs $actual -> $matches", ({ expected, actual, matches }) => {
    expect(matchesDocumented(expected, actual)).toBe(matches);
  });

  it.each([
    { text: "a\nb\n", lines: ["a", "b"] },
    { text: "a\r\n", lines: ["a\r"] },
    { text: "", lines: [] },
    { text: "a\n\n\n", lines: ["a"] },
  ])("outputLines($text)", ({ text, lines }) => {
    expect(outputLines(text)).toEqual(lines);
  });
});
