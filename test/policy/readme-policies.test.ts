// Every policy the README shows is one the edge accepts as written: a newcomer copies them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePolicy } from "../../src/policy/operator-policy.ts";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const JSON_BLOCKS = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");

describe("the README's policies", () => {
  it("are the four the README shows (purposes, a licence, a price, and a paced operator)", () => {
    expect(JSON_BLOCKS).toHaveLength(4);
  });

  it.each([
    { index: 0, holds: '"purposes"' },
    { index: 1, holds: '"licence"' },
    { index: 2, holds: '"charge"' },
    { index: 3, holds: '"crawlsPerReferral"' },
  ])("block $index ($holds) parses without a problem", ({ index, holds }) => {
    const text = JSON_BLOCKS[index] ?? "";
    expect(text).toContain(holds);
    const parsed = parsePolicy(text);
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
  });
});
