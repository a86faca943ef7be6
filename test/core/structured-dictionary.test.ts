// RFC 9651 §4.2.2 Dictionary parsing, the subset AIPREF needs to be exact about: which
// statements parse (and so keep their preferences) and which fail (every preference unknown).
import { describe, expect, it } from "vitest";
import { parseDictionary } from "../../src/core/structured-dictionary.ts";

/** Member -> its Token value, or null for a value of another type. */
function tokens(input: string): Record<string, string | null> | "fail" {
  const reading = parseDictionary(input);
  if (!reading.ok) return "fail";
  return Object.fromEntries([...reading.members].map(([key, member]) => [key, member.token ?? null]));
}

describe("rfc9651 §4.2.2 dictionaries that parse", () => {
  it.each([
    { input: "train-ai=n", expected: { "train-ai": "n" }, why: "one token member" },
    { input: "train-ai=y, search=n", expected: { "train-ai": "y", search: "n" }, why: "vocab-07 §6 example" },
    { input: "train-ai=n,search=y", expected: { "train-ai": "n", search: "y" }, why: "no space after comma" },
    { input: "train-ai=n ,\tsearch=y", expected: { "train-ai": "n", search: "y" }, why: "OWS around comma" },
    { input: "  train-ai=n  ", expected: { "train-ai": "n" }, why: "§4.2 leading/trailing SP discarded" },
    { input: "", expected: {}, why: "empty input: empty dictionary" },
    { input: "train-ai", expected: { "train-ai": null }, why: "bare key is Boolean true, not a token" },
    {
      input: "train-ai;since=2025, search=n",
      expected: { "train-ai": null, search: "n" },
      why: "bare key with parameters",
    },
    { input: "train-ai=n;a=1;b;c=?0", expected: { "train-ai": "n" }, why: "parameters dropped" },
    {
      input: 'train-ai=n, note="ok \\"quoted\\""',
      expected: { "train-ai": "n", note: null },
      why: "string with escapes",
    },
    { input: "train-ai=n, when=@1735689600", expected: { "train-ai": "n", when: null }, why: "date" },
    {
      input: "a=-12, b=3.141, c=123456789012345",
      expected: { a: null, b: null, c: null },
      why: "integers and decimals",
    },
    { input: "a=:cHJldGVuZA==:", expected: { a: null }, why: "byte sequence" },
    { input: 'a=%"f%c3%bc"', expected: { a: null }, why: "display string, valid UTF-8" },
    { input: 'a=(x y "z");p=1, b=n', expected: { a: null, b: "n" }, why: "inner list" },
    { input: "a=()", expected: { a: null }, why: "empty inner list" },
    {
      input: "a=foo/bar:baz*, *b=n",
      expected: { a: "foo/bar:baz*", "*b": "n" },
      why: "token chars; key may start with *",
    },
    { input: "train-ai=y, train-ai=n", expected: { "train-ai": "n" }, why: "duplicate key: last wins" },
    { input: "a=N", expected: { a: "N" }, why: "tokens are case-sensitive (N is not n)" },
    { input: "k=n, ".repeat(4000) + "k=y", expected: { k: "y" }, why: "attack: many duplicates, last wins" },
  ])("$input ($why)", ({ input, expected }) => {
    expect(tokens(input)).toEqual(expected);
  });
});

describe("rfc9651 §4.2.2 dictionaries that fail", () => {
  it.each([
    { input: "Train-AI=n", why: "upper-case key (vocab-07 §6.5.1)" },
    { input: "train-ai=n,", why: "trailing comma" },
    { input: "train-ai=n;", why: "parameter without key" },
    { input: "train-ai = n", why: "space before =" },
    { input: "train-ai=n search=y", why: "no comma between members" },
    { input: "train_ai=n, 1a=y", why: "key starting with a digit" },
    { input: "a=", why: "= with no value" },
    { input: 'a="open', why: "unclosed string" },
    { input: 'a="\\n"', why: "bad escape" },
    { input: "a=1234567890123456", why: "16-digit integer" },
    { input: "a=1.2345", why: "4 fraction digits" },
    { input: "a=1.", why: "decimal without fraction" },
    { input: "a=1234567890123.5", why: "13 integer digits in a decimal" },
    { input: "a=?2", why: "boolean other than ?0/?1" },
    { input: "a=@1.5", why: "decimal date" },
    { input: 'a=%"%C3%BC"', why: "upper-case hex in display string" },
    { input: 'a=%"%ff"', why: "display string not UTF-8" },
    { input: "a=:abc", why: "unclosed byte sequence" },
    { input: "a=(x", why: "unclosed inner list" },
    { input: "a=(x,y)", why: "comma inside inner list" },
    { input: "a=n, b=ü", why: "non-ASCII value" },
    { input: "/path train-ai=n", why: "a path is not a key" },
    // attack rows: hostile statements fail in one linear pass (no recursion beyond one inner list)
    { input: "a=" + "(".repeat(10_000), why: "nested inner lists are not allowed" },
    { input: `a=${"1".repeat(10_000)}`, why: "huge integer" },
    { input: `a="${"x".repeat(16_000)}`, why: "long unclosed string" },
    { input: "a=n,".repeat(5000), why: "trailing comma after many members" },
  ])("$input ($why)", ({ input }) => {
    expect(tokens(input)).toBe("fail");
  });
});
