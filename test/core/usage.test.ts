// Content-Usage (AIPREF) and Content-Signal lines: how they are read into the model, what lint
// says about them, and which preferences a group states for a path (src/core/usage*.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  compileRobots,
  parseRobotsTxt,
  resolveUsage,
  reviveRobots,
  serializeRobots,
  ROBOTS_SCHEMA_VERSION,
} from "../../src/core/index.ts";

/** Preferences of every usage line of the file, as compact strings: "12 content-usage /p train-ai=n". */
function linesOf(robots: string): string[] {
  return parseRobotsTxt(robots).groups.flatMap((group) =>
    group.extensions.usage.map((usage) => {
      const prefs = usage.preferences.map(({ key, allow }) => `${key}=${allow ? "y" : "n"}`).join(",");
      return `${usage.line} ${usage.format} ${usage.pattern || "-"} ${usage.valid ? prefs || "(none)" : "INVALID"}`;
    }),
  );
}

/** Effective preferences for a crawler and a path, as "key=y|n@lines" strings; "N/A" when disallowed. */
function effective(robots: string, agent: string, url: string): string[] | "N/A" {
  const decision = compileRobots(parseRobotsTxt(robots)).decide([agent], url);
  if (!decision.allowed) return "N/A";
  return resolveUsage(decision.group, url, decision).preferences.map(
    ({ format, key, allow, lines }) =>
      `${format === "content-usage" ? "" : "signal:"}${key}=${allow ? "y" : "n"}@${lines.join("+")}`,
  );
}

function codes(robots: string): string[] {
  return parseRobotsTxt(robots)
    .diagnostics.filter((d) => d.code.startsWith("usage") || d.code === "unknown-field")
    .map((d) => `${d.line} ${d.code}`);
}

// draft-ietf-aipref-attach-05 (tag draft-ietf-aipref-attach-05 of ietf-wg-aipref/drafts, read
// 2026-11-24) §1.2 "Examples", after an HTTP response carrying `Content-Usage: train-ai=n`:
//   User-Agent: *
//   Allow: /
//   Content-Usage: train-ai=n
// §3.4 "Example" (Figure 2) and Table 1:
//   User-Agent: *            | Path        | Crawl | Usage Preference |
//   Allow: /                 | /test       | yes   | train-ai=n       |
//   Disallow: /never/        | /never/test | no    | N/A              |
//   Content-Usage: train-ai=n                          | /ai-ok/test | yes   | train-ai=y       |
//   Content-Usage: /ai-ok/ train-ai=y
//
//   User-Agent: ExampleBot
//   Allow: /
//   Content-Usage: train-ai=y
// The same file with an explicit "/" path on the lines that have none (no revision of attach, -00
// to -05, writes it so; a "/" path covers every path, as no path does):
//   Content-Usage: / train-ai=n
const ATTACH_INTRO = "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n";
const ATTACH_EXAMPLE =
  "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n" +
  "User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n";
const ATTACH_04_EXAMPLE = ATTACH_EXAMPLE.replace("Content-Usage: train-ai=n", "Content-Usage: / train-ai=n").replace(
  "Allow: /\nContent-Usage: train-ai=y",
  "Allow: /\nContent-Usage: / train-ai=y",
);

// contentsignals.org, as quoted in google/robotstxt#80 ("Example robots.txt taken from
// https://contentsignals.org/"), after its comment block:
//   User-Agent: *
//   Content-Signal: ai-train=no, search=yes, ai-input=yes
//   Allow: /
// Cloudflare's managed robots.txt (cloudflare-docs, bots/additional-configurations/
// managed-robots-txt.mdx): "User-Agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /";
// sites served by it also carry "Content-Signal: search=yes, ai-train=no, use=reference".
const SIGNALS_ORG = "User-Agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\nAllow: /\n";
const CLOUDFLARE_MANAGED = "User-Agent: *\nContent-signal: search=yes, ai-train=no\nAllow: /\n";
const CLOUDFLARE_USE = "User-Agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n";

describe("reading usage lines into the model", () => {
  it.each([
    { robots: ATTACH_INTRO, lines: ["3 content-usage - train-ai=n"], why: "attach-05 §1.2" },
    {
      robots: ATTACH_EXAMPLE,
      lines: ["4 content-usage - train-ai=n", "5 content-usage /ai-ok/ train-ai=y", "9 content-usage - train-ai=y"],
      why: "attach-05 §3.4",
    },
    {
      robots: ATTACH_04_EXAMPLE,
      lines: ["4 content-usage / train-ai=n", "5 content-usage /ai-ok/ train-ai=y", "9 content-usage / train-ai=y"],
      why: "attach-05 §3.4 with an explicit / path",
    },
    { robots: SIGNALS_ORG, lines: ["2 content-signal - ai-train=n,search=y,ai-input=y"], why: "contentsignals.org" },
    {
      robots: CLOUDFLARE_MANAGED,
      lines: ["2 content-signal - search=y,ai-train=n"],
      why: "Cloudflare managed, field case",
    },
    { robots: CLOUDFLARE_USE, lines: ["2 content-signal - search=y,ai-train=n"], why: "use= kept, not a preference" },
    // draft-ietf-aipref-vocab-07 §6: "train-ai=y, search=n"
    {
      robots: "User-agent: *\nContent-Usage: train-ai=y, search=n\n",
      lines: ["2 content-usage - train-ai=y,search=n"],
      why: "vocab-07 §6",
    },
    // draft-ietf-aipref-vocab-08: ai-use is the third category.
    {
      robots: "User-agent: *\nContent-Usage: train-ai=n, ai-use=n, search=y\n",
      lines: ["2 content-usage - train-ai=n,ai-use=n,search=y"],
      why: "vocab-08: train-ai, ai-use, search",
    },
    // vocab-07 §6.5.1: "train-ai=y, train-ai, search=n, search="n"" -> all unknown (last values are not tokens)
    {
      robots: 'User-agent: *\nContent-Usage: train-ai=y, train-ai, search=n, search="n"\n',
      lines: ["2 content-usage - (none)"],
      why: "vocab-07 §6.5.1 duplicates",
    },
    // vocab-07 §6.5.2: "train-ai;allow=n, train-ai=y" -> allow, no parameters
    {
      robots: "User-agent: *\nContent-Usage: train-ai;allow=n, train-ai=y\n",
      lines: ["2 content-usage - train-ai=y"],
      why: "vocab-07 §6.5.2",
    },
    // vocab-07 §6.5.2: 'train-ai;has;parameters="?";' -> unknown. The trailing ";" needs a key
    // (RFC 9651 §4.2.3.2), so the whole statement fails to parse: unknown either way.
    {
      robots: 'User-agent: *\nContent-Usage: train-ai;has;parameters="?";\n',
      lines: ["2 content-usage - INVALID"],
      why: "vocab-07 §6.5.2",
    },
    {
      robots: "User-agent: *\nContent-Usage: Train-AI=n\n",
      lines: ["2 content-usage - INVALID"],
      why: "vocab-07 §6.5.1 upper case",
    },
    {
      robots: "User-agent: *\nContent-Usage: train-ai=n, train-genai=n\n",
      lines: ["2 content-usage - train-ai=n"],
      why: "unknown key ignored",
    },
    {
      robots: "User-agent: *\nContent-Usage: train-ai=no\n",
      lines: ["2 content-usage - (none)"],
      why: "no is not an AIPREF token",
    },
    {
      robots: "User-agent: *\nContent-Usage: /a\tsearch=n # why\n",
      lines: ["2 content-usage /a search=n"],
      why: "HTAB ends the path; # ends the value",
    },
    {
      robots: "User-agent: *\nContent-Usage: /only-a-path\n",
      lines: ["2 content-usage /only-a-path INVALID"],
      why: "path, no statement",
    },
    {
      robots: "User-agent: *\nContent-Usage: *.pdf train-ai=n\n",
      lines: ["2 content-usage - INVALID"],
      why: "attach-05 §3.2: only / starts a path",
    },
    {
      robots: "User-agent: *\ncontent-usage : train-ai=n\n",
      lines: ["2 content-usage - train-ai=n"],
      why: "field name case and spaces",
    },
    {
      robots: "User-agent: *\nContent-Signal: /docs/ ai-train=no\n",
      lines: ["2 content-signal /docs/ ai-train=n"],
      why: "path-scoped signal",
    },
    {
      robots: "User-agent: *\nContent-Signal: AI-Train = NO ,search=yes,\n",
      lines: ["2 content-signal - ai-train=n,search=y"],
      why: "lenient Content-Signal",
    },
    {
      robots: "User-agent: *\nContent-Signal: ai-train=yes, ai-train=no\n",
      lines: ["2 content-signal - ai-train=n"],
      why: "duplicate: last wins",
    },
    {
      robots: "User-agent: *\nContent-Signal: ai-train=maybe, search\n",
      lines: ["2 content-signal - (none)"],
      why: "bad value, bad item",
    },
  ])("$why", ({ robots, lines }) => {
    expect(linesOf(robots)).toEqual(lines);
  });

  it("keeps uninterpreted keys as written (use=, unknown keys, non-token values)", () => {
    const [group] = parseRobotsTxt(CLOUDFLARE_USE + 'User-agent: x\nContent-Usage: train-ai=n, x-note="hi"\n').groups;
    expect(group?.extensions.usage[0]?.others).toEqual([{ key: "use", value: "reference" }]);
    const [, second] = parseRobotsTxt(
      'User-agent: a\nDisallow: /x\nUser-agent: b\nContent-Usage: train-ai=n, x-note="hi"\n',
    ).groups;
    expect(second?.extensions.usage[0]?.others).toEqual([{ key: "x-note", value: '"hi"' }]);
  });

  it("takes usage lines out of `others`, keeping other unknown fields there", () => {
    const [group] = parseRobotsTxt("User-agent: *\nContent-Signal: search=yes\nHost: example.com\n").groups;
    expect(group?.extensions.others.map((other) => other.field)).toEqual(["Host"]);
  });

  it("merges usage lines of groups naming the same agent (RFC 9309 §2.2.1)", () => {
    const robots =
      "User-agent: a\nContent-Usage: train-ai=n\nDisallow: /x\n\nUser-agent: a\nContent-Usage: /p search=n\n";
    const group = compileRobots(parseRobotsTxt(robots)).groupFor(["a"]);
    expect(group?.extensions.usage.map((usage) => usage.line)).toEqual([2, 6]);
  });

  it(`survives serialisation (schema ${ROBOTS_SCHEMA_VERSION})`, () => {
    const parsed = parseRobotsTxt(ATTACH_EXAMPLE + CLOUDFLARE_USE);
    expect(ROBOTS_SCHEMA_VERSION).toBe(5);
    expect(reviveRobots(serializeRobots(parsed))).toEqual(parsed);
  });

  it("refuses a model stored under schema 1 (no usage lines), so the bytes are re-parsed", () => {
    const old = JSON.stringify({ schema: 1, robots: { groups: [], diagnostics: [] } });
    expect(() => reviveRobots(old)).toThrow(TypeError);
  });
});

// draft-ietf-aipref-vocab-08: every example of the draft, and the processing rules its
// examples illustrate, as the preference each of its three categories ends up with (§3: each
// is "allowed", "disallowed" or "unknown"). Read offline on 2026-11-24 from the working group's
// editor's copy (ietf-wg-aipref/drafts, draft-ietf-aipref-vocab.md as stored by the search
// tool), whose section numbers match -08 as third parties cite it ("Section 4.2 adds AI Use");
// the -08 submission itself (datatracker, 2026-09-13) was not readable offline, only its
// front matter. Its examples are the four of vocab-07, unchanged; -08 adds the category.
type Outcome = "allowed" | "disallowed" | "unknown";
const VOCAB_08_CATEGORIES = ["train-ai", "ai-use", "search"] as const;

/** The preference a one-line `Content-Usage` statement states for each vocab-08 category. */
function outcomes(statement: string): Record<(typeof VOCAB_08_CATEGORIES)[number], Outcome> {
  const [group] = parseRobotsTxt(`User-agent: *\nContent-Usage: ${statement}\n`).groups;
  const line = group?.extensions.usage[0];
  const of = (key: string): Outcome => {
    const preference = line?.valid ? line.preferences.find((p) => p.key === key) : undefined;
    return preference === undefined ? "unknown" : preference.allow ? "allowed" : "disallowed";
  };
  return { "train-ai": of("train-ai"), "ai-use": of("ai-use"), search: of("search") };
}

describe("draft-ietf-aipref-vocab-08 examples", () => {
  it.each([
    // §6 "Exemplary Serialization Format": "allow model training, disallow search, with the
    // preference for other categories being unknown".
    {
      statement: "train-ai=y, search=n",
      expected: { "train-ai": "allowed", "ai-use": "unknown", search: "disallowed" },
      why: "§6 example",
    },
    // §6.5.1 "Multiple Preferences": "results in all preferences being unknown".
    {
      statement: 'train-ai=y, train-ai, search=n, search="n"',
      expected: { "train-ai": "unknown", "ai-use": "unknown", search: "unknown" },
      why: "§6.5.1 example: the last value of a key is not a token",
    },
    // §6.5.1: "If the parsing of the Dictionary fails, preferences are unknown. This includes
    // where keys include uppercase characters".
    {
      statement: "AI-Use=n, search=y",
      expected: { "train-ai": "unknown", "ai-use": "unknown", search: "unknown" },
      why: "§6.5.1: an uppercase key fails the whole dictionary",
    },
    // §6.5.2 "Preference Parameters": "carries no parameters, and a preference to allow".
    {
      statement: "train-ai;allow=n, train-ai=y",
      expected: { "train-ai": "allowed", "ai-use": "unknown", search: "unknown" },
      why: "§6.5.2 example: parameters of the replaced value do not apply",
    },
    // §6.5.2: "the following train-ai preference has parameters even though the preference is
    // unknown". The trailing ";" needs a key (RFC 9651 §4.2.3.2), so the dictionary fails to
    // parse: unknown either way.
    {
      statement: 'train-ai;has;parameters="?";',
      expected: { "train-ai": "unknown", "ai-use": "unknown", search: "unknown" },
      why: "§6.5.2 example: unknown with parameters",
    },
    // §6.5 "Processing Algorithm": y allows, n disallows, anything else (absent, not a Token,
    // another Token) is unknown, and is not an error.
    {
      statement: "train-ai=n, ai-use=n, search=y",
      expected: { "train-ai": "disallowed", "ai-use": "disallowed", search: "allowed" },
      why: "§6.1 labels: all three categories",
    },
    {
      statement: "ai-use=?1, search=yes, train-ai=N",
      expected: { "train-ai": "unknown", "ai-use": "unknown", search: "unknown" },
      why: "§6.5: a boolean, another token, an uppercase token",
    },
    {
      statement: "ai-use=n;reason=x, ai-input=n",
      expected: { "train-ai": "unknown", "ai-use": "disallowed", search: "unknown" },
      why: "§6.4: unknown parameters and unknown labels are ignored",
    },
  ] as const)("$why: $statement", ({ statement, expected }) => {
    expect(outcomes(statement)).toEqual(expected);
  });
});

// vocab-08 §5.1 "Combining Preferences", per category: any disallow wins, else any allow, else
// unknown. attach-05 §3.1 applies it to Content-Usage rules with identical paths.
describe("draft-ietf-aipref-vocab-08 §5.1: statements for one path combine restrictively", () => {
  it.each([
    {
      lines: ["/p train-ai=y, ai-use=y", "/p train-ai=n"],
      expected: ["train-ai=n@3", "ai-use=y@2"],
      why: "a disallow wins; an allow stated once stands",
    },
    { lines: ["/p ai-use=y", "/p ai-use=y"], expected: ["ai-use=y@2+3"], why: "allowed when only allowed" },
    { lines: ["/p search=y", "/p ai-use=?0"], expected: ["search=y@2"], why: "unknown stays unknown" },
  ])("$why", ({ lines, expected }) => {
    const robots = `User-agent: *\n${lines.map((line) => `Content-Usage: ${line}`).join("\n")}\n`;
    expect(effective(robots, "AnyBot", "/p/x")).toEqual(expected);
  });
});

// attach-05 §3.1: Content-Usage paths use Allow/Disallow's percent-encoding; "SP (U+20) and HTAB
// (U+09) characters need to be replaced with %20 and %09". §3.2: the path ends at the first SP
// or HTAB, so an unencoded space ends it early. The order of rules in a group carries no meaning.
describe("draft-ietf-aipref-attach-05 §3.1 and §3.2: paths and order", () => {
  it.each([
    {
      robots: "User-agent: *\nContent-Usage: /a%20b/ train-ai=n\n",
      url: "/a%20b/x",
      expected: ["train-ai=n@2"],
      why: "an encoded space matches the request's %20",
    },
    {
      robots: "User-agent: *\nContent-Usage: /a b/ train-ai=n\n",
      url: "/a%20b/x",
      expected: [],
      why: "a raw space ends the path: the statement `b/ train-ai=n` is no dictionary",
    },
    {
      robots: "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /never/\nAllow: /\n",
      url: "/test",
      expected: ["train-ai=n@2"],
      why: "interleaved before Allow/Disallow: the same as §3.4's order",
    },
    {
      robots: "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /never/\nAllow: /\n",
      url: "/never/test",
      expected: "N/A" as const,
      why: "interleaved: a disallowed path still has none",
    },
  ])("$why", ({ robots, url, expected }) => {
    expect(effective(robots, "AnyBot", url)).toEqual(expected);
  });
});

describe("lint: usage diagnostics", () => {
  it.each([
    { robots: ATTACH_EXAMPLE, codes: [], why: "attach-05 example is clean" },
    {
      robots: SIGNALS_ORG + CLOUDFLARE_USE.replace("User-Agent: *\n", ""),
      codes: ["4 usage-content-use"],
      why: "contentsignals.org + use=reference: read, and said how far it binds (info)",
    },
    {
      robots: "User-agent: *\nContent-Signal: search=yes, use=everything\n",
      codes: ["2 usage-invalid-value"],
      why: "use= is immediate, reference or full",
    },
    { robots: "User-agent: *\nContent-Usage: ai-use=n, search=y\n", codes: [], why: "vocab-08 ai-use is a key" },
    { robots: "User-agent: *\nContent-Usage: Train-AI=n\n", codes: ["2 usage-syntax"], why: "not a dictionary" },
    { robots: "User-agent: *\nContent-Usage: /p\n", codes: ["2 usage-syntax"], why: "no statement" },
    {
      robots: "User-agent: *\nContent-Usage: train-ai=n, train-genai=n\n",
      codes: ["2 usage-unknown-key"],
      why: "unknown key",
    },
    { robots: "User-agent: *\nContent-Usage: train-ai=no\n", codes: ["2 usage-invalid-value"], why: "no instead of n" },
    { robots: "User-agent: *\nContent-Signal: ai-train=n\n", codes: ["2 usage-invalid-value"], why: "n instead of no" },
    { robots: "User-agent: *\nContent-Signal: ai_train=no\n", codes: ["2 usage-unknown-key"], why: "typo in key" },
    { robots: "User-agent: *\nContent-Signal: ai-train\n", codes: ["2 usage-syntax"], why: "item without =" },
    // agentsready.io "Right vs wrong": "Disallow: / + search=yes (conflict)"
    {
      robots: "User-agent: *\nDisallow: /\nContent-Signal: search=yes\n",
      codes: ["3 usage-contradicts-rules"],
      why: "yes where all disallowed",
    },
    // the issue's example: ai-input=yes where the group disallows everything
    {
      robots: "User-agent: *\nContent-Signal: ai-input=yes, ai-train=no\nDisallow: /\n",
      codes: ["2 usage-contradicts-rules"],
      why: "issue #14",
    },
    {
      robots: "User-agent: *\nDisallow: /p/\nContent-Usage: /p/x train-ai=y\n",
      codes: ["3 usage-contradicts-rules"],
      why: "path-scoped, under a disallow",
    },
    {
      robots: "User-agent: *\nDisallow: /\nAllow: /pub/\nContent-Signal: search=yes\n",
      codes: [],
      why: "an allow opens part of it",
    },
    {
      robots: "User-agent: *\nDisallow: /\nAllow: /*.html$\nContent-Signal: search=yes\n",
      codes: [],
      why: "a wildcard allow may open it",
    },
    {
      robots: "User-agent: *\nDisallow: /\nContent-Signal: search=no, ai-train=no\n",
      codes: [],
      why: "no on a disallowed path is redundant, not contradictory",
    },
    {
      robots: "Content-Signal: search=yes\nUser-agent: *\nDisallow:\n",
      codes: ["1 usage-outside-group"],
      why: "before any user-agent",
    },
    // lobste.rs (test/fixtures/corpus/robots/0348.txt): a Content-Signal after a group's rules, before `User-agent: *`
    {
      robots: "User-agent: a\nDisallow: /x\n\nContent-Signal: ai-train=no\n\nUser-agent: *\nDisallow: /\n",
      codes: ["4 usage-between-groups"],
      why: "lobste.rs",
    },
    {
      robots: "User-agent: a\nDisallow: /x\nContent-Signal: ai-train=no\n",
      codes: [],
      why: "after the rules of the last group: fine",
    },
    {
      robots: "User-agent: a\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=n\n",
      codes: ["2 usage-joins-groups"],
      why: "a user-agent after a usage line and before any rule joins the group (Google's grouping)",
    },
    {
      robots: "User-agent: a\nContent-Usage: train-ai=y\nUser-agent: b\nDisallow: /x\n",
      codes: ["2 usage-joins-groups"],
      why: "same, with a rule later",
    },
    {
      robots: "User-agent: a\nUser-agent: b\nContent-Usage: train-ai=y\nDisallow: /x\n",
      codes: [],
      why: "usage after all user-agent lines",
    },
  ])("$why", ({ robots, codes: expected }) => {
    expect(codes(robots)).toEqual(expected);
  });
});

describe("resolving the preferences for a path", () => {
  // attach-05 §3.4 Table 1, and "ExampleBot ... uses the second group ... train-ai=y".
  it.each([
    { robots: ATTACH_EXAMPLE, agent: "OtherBot", url: "/test", expected: ["train-ai=n@4"] },
    { robots: ATTACH_EXAMPLE, agent: "OtherBot", url: "/never/test", expected: "N/A" as const },
    { robots: ATTACH_EXAMPLE, agent: "OtherBot", url: "/ai-ok/test", expected: ["train-ai=y@5"] },
    { robots: ATTACH_EXAMPLE, agent: "ExampleBot", url: "/never/test", expected: ["train-ai=y@9"] },
    { robots: ATTACH_04_EXAMPLE, agent: "OtherBot", url: "/test", expected: ["train-ai=n@4"] },
    { robots: ATTACH_04_EXAMPLE, agent: "OtherBot", url: "/ai-ok/test", expected: ["train-ai=y@5"] },
    { robots: ATTACH_INTRO, agent: "GPTBot", url: "https://example.com/a?b=c", expected: ["train-ai=n@3"] },
    {
      robots: SIGNALS_ORG,
      agent: "CCBot",
      url: "/",
      expected: ["signal:ai-train=n@2", "signal:search=y@2", "signal:ai-input=y@2"],
    },
  ])("attach / contentsignals examples: $agent $url", ({ robots, agent, url, expected }) => {
    expect(effective(robots, agent, url)).toEqual(expected);
  });

  const SCOPED =
    "User-agent: *\n" +
    "Content-Usage: train-ai=y, search=y\n" + // 2
    "Content-Usage: /docs/ train-ai=n\n" + // 3
    "Content-Usage: /docs/ train-ai=y, search=n\n" + // 4: same pattern as 3: combine, n wins
    "Content-Usage: /docs/*.pdf$ train-ai=y\n" + // 5
    "Content-Usage: /bad/ Train=n\n" + // 6: invalid, still the longest for /bad/
    "Content-Signal: ai-train=no\n" + // 7
    "Content-Signal: /docs/ ai-input=no\n" + // 8
    "Content-Usage: /%7Euser/ train-ai=n\n" + // 9: canonical ~
    "Content-Usage: /ab train-ai=n\n" + // 10: length 3
    "Content-Usage: /a* train-ai=y\n" + // 11: length 3 too: tie combines
    "Disallow: /private\n";
  it.each([
    {
      url: "/",
      expected: ["train-ai=y@2", "search=y@2", "signal:ai-train=n@7"],
      why: "no-path lines cover every path",
    },
    {
      url: "/docs/a",
      expected: ["train-ai=n@3", "search=n@4", "signal:ai-input=n@8"],
      why: "same pattern combines; n wins; a format's longest line decides alone",
    },
    {
      url: "/docs/a.pdf",
      expected: ["train-ai=y@5", "signal:ai-input=n@8"],
      why: "longer wildcard line wins, search not inherited",
    },
    { url: "/docs/a.pdf?x", expected: ["train-ai=n@3", "search=n@4", "signal:ai-input=n@8"], why: "$ anchors" },
    { url: "/bad/x", expected: ["signal:ai-train=n@7"], why: "invalid longest line: unknown, not the shorter line's" },
    { url: "/~user/p", expected: ["train-ai=n@9", "signal:ai-train=n@7"], why: "%7E and ~ are one spelling" },
    { url: "/abc", expected: ["train-ai=n@10", "signal:ai-train=n@7"], why: "equal lengths combine restrictively" },
    { url: "/private/x", expected: "N/A" as const, why: "disallowed: no preferences (attach-05 §3.1)" },
  ])("$url: $why", ({ url, expected }) => {
    expect(effective(SCOPED, "AnyBot", url)).toEqual(expected);
  });

  it.each([
    { group: undefined, allowed: true, why: "no group" },
    { group: { extensions: { usage: [] } }, allowed: true, why: "no usage lines" },
  ])("nothing to resolve: $why", ({ group, allowed }) => {
    expect(resolveUsage(group as never, "/", { allowed })).toEqual({ preferences: [], lines: [] });
  });

  // Attack rows: paths from requests are hostile; resolution must stay a plain string match.
  it.each([
    {
      url: "/docs/../private/x",
      expected: ["train-ai=n@3", "search=n@4", "signal:ai-input=n@8"],
      why: "no dot-segment resolution here (the shell judges spellings)",
    },
    {
      url: "/docs/%2e%2e/x",
      expected: ["train-ai=n@3", "search=n@4", "signal:ai-input=n@8"],
      why: "%2e decodes to . but is not resolved",
    },
    { url: `/${"a".repeat(20000)}`, expected: ["train-ai=y@11", "signal:ai-train=n@7"], why: "long path" },
    {
      url: "//docs/a",
      expected: ["train-ai=y@2", "search=y@2", "signal:ai-train=n@7"],
      why: "double slash is another path",
    },
  ])("hostile path $why", ({ url, expected }) => {
    expect(effective(SCOPED, "AnyBot", url)).toEqual(expected);
  });
});

describe("corpus files with Content-Signal (manifest.tsv notes)", () => {
  const CORPUS = path.resolve(import.meta.dirname, "../fixtures/corpus/robots");
  const manifest = readFileSync(path.join(CORPUS, "manifest.tsv"), "utf8").split("\n");
  const files = manifest.filter((row) => row.includes("Content-Signal x")).map((row) => row.split("\t")[0] ?? "");

  it("lists the two files the corpus README names", () => {
    expect(files).toEqual(["0348.txt", "0349.txt"]);
  });

  it.each([
    { file: "0348.txt", usage: 1, codes: ["14 usage-between-groups"], why: "lobste.rs: between groups" },
    { file: "0349.txt", usage: 8, codes: [], why: "mythtv.org: one per group" },
  ])("$file parses its Content-Signal lines without errors ($why)", ({ file, usage, codes: expected }) => {
    const text = readFileSync(path.join(CORPUS, file), "utf8");
    const parsed = parseRobotsTxt(text);
    expect(parsed.groups.flatMap((group) => group.extensions.usage).filter((line) => line.valid)).toHaveLength(usage);
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(codes(text)).toEqual(expected);
  });

  it("mythtv.org: wget is refused nothing by rules on /, and its signals say no to all three", () => {
    const text = readFileSync(path.join(CORPUS, "0349.txt"), "utf8");
    expect(effective(text, "wget", "/")).toEqual([
      "signal:ai-train=n@34",
      "signal:search=n@34",
      "signal:ai-input=n@34",
    ]);
    expect(effective(text, "GPTBot", "/wiki/Main")).toEqual([
      "signal:ai-train=n@62",
      "signal:search=y@62",
      "signal:ai-input=n@62",
    ]);
  });
});
