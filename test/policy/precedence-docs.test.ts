// The order of the decision is written in two places only: the header of
// src/policy/edge-decision.ts (for whoever reads the code) and docs/decisions.md "Precedence"
// (for operators). This test holds the two lists equal, step for step and name for name, so
// neither can drift when a step is added or moved. The expected list is written here too: a
// change of the order must be made on purpose, in three places.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ORDER = [
  "nowhere to send",
  "mode off",
  "not served",
  "signature",
  "humans",
  "verification",
  "crawl pause",
  "robots.txt",
  "policy layers",
  "usage preferences",
  "report",
  "pacing",
  "terms",
];

function read(path: string): string {
  return readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
}

/** `N. name:` (or `N. name (`) lines of the file comment's precedence list. */
function codeSteps(): string[] {
  const header = read("src/policy/edge-decision.ts").split("*/")[0] ?? "";
  const list = header.slice(header.indexOf("Precedence, top to bottom"));
  return [...list.matchAll(/^ \*\s+(\d+)\. ([^:(]+?)\s*[:(]/gm)].map((m) => `${m[1]}. ${m[2]}`);
}

/** `N. **Name**` lines of the "## Precedence" section. */
function docsSteps(): string[] {
  const docs = read("docs/decisions.md");
  const start = docs.indexOf("## Precedence");
  const section = docs.slice(start, docs.indexOf("\n## ", start + 1));
  return [...section.matchAll(/^(\d+)\. \*\*([^*]+)\*\*/gm)].map((m) => `${m[1]}. ${(m[2] ?? "").toLowerCase()}`);
}

describe("the precedence is written once for code and once for operators, the same", () => {
  const expected = ORDER.map((name, i) => `${i + 1}. ${name}`);
  it("edge-decision.ts's header lists the steps in order", () => {
    expect(codeSteps()).toEqual(expected);
  });
  it('docs/decisions.md "Precedence" lists the same steps in the same order', () => {
    expect(docsSteps()).toEqual(expected);
  });
});
