// Holds the tables derived from src/agents/operators/ equal to the hand-written tables of
// main (206325a), snapshotted once to test/fixtures/operators/tables-before.json, while the
// operators move into their files one commit at a time. Dropped when the move is done.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  isUserTriggered,
  KNOWN_CRAWLERS,
  PURPOSE_SWITCHES,
  RANGE_SOURCES,
  RANGE_USES,
  REFERRER_PRODUCTS,
  REVERSE_DNS_RULES,
} from "../../src/agents/operators/tables.ts";

interface Row {
  readonly [key: string]: unknown;
}
const before = JSON.parse(
  readFileSync(new URL("../fixtures/operators/tables-before.json", import.meta.url), "utf8"),
) as Record<string, Row[]>;
const table = (name: string): Row[] => before[name] ?? [];

const byKey = (key: string) => (rows: readonly Row[]) =>
  rows.toSorted((a, b) => String(a[key]).localeCompare(String(b[key])));
const withoutUserTriggered = (rows: readonly Row[]) => rows.map(({ userTriggered: _, ...row }) => row);

describe("the derived tables equal main's", () => {
  it.each([
    ["KNOWN_CRAWLERS", withoutUserTriggered(KNOWN_CRAWLERS as unknown as Row[]), "token"],
    ["PURPOSE_SWITCHES", PURPOSE_SWITCHES, "token"],
    ["RANGE_SOURCES", RANGE_SOURCES, "name"],
    ["REVERSE_DNS_RULES", REVERSE_DNS_RULES, "name"],
    ["RANGE_USES", RANGE_USES, "source"],
    ["REFERRER_PRODUCTS", REFERRER_PRODUCTS, "product"],
  ] as const)("%s", (name, derived, key) => {
    expect(byKey(key)(derived as unknown as Row[])).toEqual(byKey(key)(table(name)));
  });

  it("keeps each category's crawlers in main's order (the purposes setting writes groups in it)", () => {
    const order = (rows: readonly Row[]) => {
      const groups: Record<string, unknown[]> = {};
      for (const row of rows) (groups[String(row["category"])] ??= []).push(row["token"]);
      return groups;
    };
    expect(order(KNOWN_CRAWLERS as unknown as Row[])).toEqual(order(table("KNOWN_CRAWLERS")));
  });

  it("finds the same user-triggered fetchers as main's rule (an assistant, or docs citing Google's user-triggered page)", () => {
    const googleUser = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers";
    const expected = table("KNOWN_CRAWLERS")
      .filter((row) => row["category"] === "ai-assistant" || String(row["docs"]).includes(googleUser))
      .map((row) => row["token"]);
    expect(KNOWN_CRAWLERS.filter(isUserTriggered).map((crawler) => crawler.token)).toEqual(expected);
  });
});
