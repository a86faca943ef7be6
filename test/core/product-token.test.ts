// The one rule for "does a user-agent line name this crawler?" (src/core/product-token.ts), as
// data. RFC 9309 §2.2.1: a crawler obeys the group naming its product token, compared
// case-insensitively. A `User-agent:` line names its whole token (letters, digits, "-", "_",
// "." — so MJ12bot and 360Spider keep their groups) AND Google's reading of it (leading
// letters, "-" and "_", robots.cc ExtractUserAgent — so a letters-only crawler sees exactly
// the groups Google's parser finds). `google` rows: Google's own reading; `rfc9309` rows: the
// RFC; `ours` rows: where the whole name keeps a digit-bearing crawler's group. Expected
// answers are written down from Google's reference behaviour, never computed by our code.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import {
  googleProductToken,
  productToken,
  sameProductToken,
  userAgentNames,
  userAgentNamesCrawler,
  userAgentToken,
} from "../../src/core/product-token.ts";
import { reviveRobots } from "../../src/core/serialize.ts";

const tokens: readonly { name: string; token: string; why: string }[] = [
  { name: "Googlebot", token: "googlebot", why: "rfc9309 §2.2.1 case-insensitive" },
  { name: "googlebot/1.2", token: "googlebot", why: "google: a version is dropped" },
  { name: "Googlebot 2.1", token: "googlebot", why: "google: white space ends the name" },
  { name: "googlebot*", token: "googlebot", why: "google: a trailing * is dropped" },
  { name: "Googlebot-Image/1.0", token: "googlebot-image", why: "rfc9309: '-' is part of the name" },
  { name: "Googlebot2", token: "googlebot2", why: "ours: digits are part of the name (Google: googlebot)" },
  { name: "GooglebotX", token: "googlebotx", why: "rfc9309: letters are part of the name" },
  { name: "MJ12bot", token: "mj12bot", why: "ours: digits are part of the name (Google: mj)" },
  { name: "360Spider", token: "360spider", why: "ours: a leading digit starts a name (Google: empty)" },
  { name: "archive.org_bot", token: "archive.org_bot", why: "ours: a dot inside a name stays (Google: archive)" },
  { name: "Mail.RU_Bot/2.0", token: "mail.ru_bot", why: "ours: dots and '_' inside a name stay" },
  { name: "Slurp.", token: "slurp", why: "ours: a trailing dot is punctuation" },
  { name: "SISTRIX Crawler", token: "sistrix", why: "google: the first word of a multi-word name" },
  { name: "*bot", token: "", why: "rfc9309: '*' is not a name character" },
  { name: "(compatible)", token: "", why: "no name at all" },
  { name: "", token: "", why: "empty" },
];

describe("productToken", () => {
  it.each(tokens)("$why: $name -> '$token'", ({ name, token }) => {
    expect(productToken(name)).toBe(token);
  });
});

const lines: readonly { value: string; token: string; why: string }[] = [
  { value: "*", token: "*", why: "rfc9309 §2.2.1 the global group" },
  { value: "* everyone", token: "*", why: "google: '*' then white space is still '*'" },
  { value: "*\tall", token: "*", why: "google: a tab is white space" },
  { value: "*foo", token: "", why: "rfc9309 and google: not '*', and no name" },
  { value: "**", token: "", why: "not '*' alone" },
  { value: "googlebot/1.2", token: "googlebot", why: "google: a version is dropped" },
];

describe("userAgentToken (the robots.txt side)", () => {
  it.each(lines)("$why: '$value' -> '$token'", ({ value, token }) => {
    expect(userAgentToken(value)).toBe(token);
  });
});

// Every token a line names: its whole name first, then Google's reading when it differs.
const lineNames: readonly { value: string; names: string[]; why: string }[] = [
  { value: "*", names: ["*"], why: "rfc9309 §2.2.1 the global group" },
  { value: "* all", names: ["*"], why: "google: '*' then white space is '*'" },
  { value: "*foo", names: [], why: "rfc9309 and google: not '*', and no name" },
  { value: "Googlebot", names: ["googlebot"], why: "one reading" },
  { value: "googlebot/1.2", names: ["googlebot"], why: "both readings drop the version" },
  { value: "Googlebot2", names: ["googlebot2", "googlebot"], why: "google: Googlebot2 is read as Googlebot" },
  { value: "MJ12bot", names: ["mj12bot", "mj"], why: "google: MJ12bot is read as MJ" },
  { value: "Spinn3r", names: ["spinn3r", "spinn"], why: "google: Spinn3r is read as Spinn" },
  { value: "EC2LinkFinder", names: ["ec2linkfinder", "ec"], why: "google: EC2LinkFinder is read as EC" },
  { value: "360Spider", names: ["360spider"], why: "ours: Google reads no name, the whole name stays" },
  { value: "archive.org_bot", names: ["archive.org_bot", "archive"], why: "google: read up to the dot" },
  { value: "Foo Bar", names: ["foo"], why: "google: the first word (robots_test: 'Foo Bar' binds Foo)" },
  { value: "Googlebot-Image/1.0", names: ["googlebot-image"], why: "rfc9309: '-' is a name character" },
  { value: "a_b-c9", names: ["a_b-c9", "a_b-c"], why: "google: '_' and '-' kept, the digit ends it" },
  { value: "Slurp.", names: ["slurp"], why: "ours: a trailing dot is punctuation; google stops there too" },
  { value: "(compatible)", names: [], why: "no name at all" },
];

describe("userAgentNames (every token a line names)", () => {
  it.each(lineNames)("$why: '$value' -> $names", ({ value, names }) => {
    expect(userAgentNames(value)).toEqual(names);
  });
});

describe("googleProductToken (robots.cc ExtractUserAgent, lower-cased)", () => {
  it.each([
    { value: "Googlebot2", token: "googlebot" },
    { value: "MJ12bot", token: "mj" },
    { value: "360Spider", token: "" },
    { value: "foo.bar", token: "foo" },
    { value: "Foo_Bar-Baz/1", token: "foo_bar-baz" },
    { value: "Ünïcode", token: "" },
  ])("'$value' -> '$token'", ({ value, token }) => {
    expect(googleProductToken(value)).toBe(token);
  });
});

// A `User-agent:` line against a crawler's own token: obeyed when the token equals either name.
const obeys: readonly { line: string; crawler: string; obeys: boolean; why: string }[] = [
  { line: "Googlebot2", crawler: "Googlebot", obeys: true, why: "google: Googlebot obeys a Googlebot2 line" },
  { line: "Googlebot2", crawler: "Googlebot2", obeys: true, why: "ours: the whole name" },
  { line: "Googlebot", crawler: "Googlebot2", obeys: false, why: "ours: Googlebot2 is not Googlebot" },
  { line: "MJ12bot", crawler: "MJ", obeys: true, why: "google: MJ obeys an MJ12bot line" },
  { line: "MJ12bot", crawler: "MJ12bot", obeys: true, why: "ours: MJ12bot keeps its group" },
  { line: "MJ", crawler: "MJ12bot", obeys: false, why: "ours: an MJ line is not MJ12bot's" },
  { line: "Spinn3r", crawler: "Spinn", obeys: true, why: "google: Spinn obeys a Spinn3r line" },
  { line: "EC2LinkFinder", crawler: "EC", obeys: true, why: "google: EC obeys an EC2LinkFinder line" },
  { line: "EC2LinkFinder", crawler: "EC2LinkFinder", obeys: true, why: "ours: its own group" },
  { line: "360Spider", crawler: "360Spider", obeys: true, why: "ours: a leading digit starts a name" },
  { line: "360Spider", crawler: "Spider", obeys: false, why: "a suffix is another name" },
  { line: "archive.org_bot", crawler: "archive", obeys: true, why: "google: read up to the dot" },
  { line: "FooBot2", crawler: "FooBot", obeys: true, why: "google: generated name with a digit" },
  { line: "FooBot-2", crawler: "FooBot", obeys: false, why: "google: '-' is kept, so the name is foobot-" },
  { line: "FooBot-2", crawler: "FooBot-", obeys: true, why: "google: read as foobot-" },
  { line: "Foo Bar", crawler: "Foo", obeys: true, why: "google robots_test: 'Foo Bar' binds Foo" },
  { line: "googlebot", crawler: "GOOGLEBOT", obeys: true, why: "rfc9309 §2.2.1 case-insensitive" },
  { line: "*", crawler: "Googlebot", obeys: false, why: "'*' is the global group, not a name" },
  { line: "*bot", crawler: "bot", obeys: false, why: "an empty token names nothing" },
  { line: "Googlebot", crawler: "", obeys: false, why: "a crawler with no name obeys no line" },
];

describe("userAgentNamesCrawler", () => {
  it.each(obeys)("$why: '$line' vs '$crawler' -> $obeys", ({ line, crawler, obeys: expected }) => {
    expect(userAgentNamesCrawler(line, crawler)).toBe(expected);
  });
});

// Two crawler names (both request side): the same crawler only when their whole tokens are equal.
const pairs: readonly { line: string; crawler: string; same: boolean; why: string }[] = [
  { line: "googlebot/1.2", crawler: "Googlebot", same: true, why: "google: the version is dropped" },
  { line: "Googlebot", crawler: "Googlebot2", same: false, why: "Googlebot2 is not Googlebot" },
  { line: "Googlebot", crawler: "GooglebotX", same: false, why: "GooglebotX is not Googlebot" },
  { line: "Googlebot2", crawler: "Googlebot", same: false, why: "two crawlers' names: digits count" },
  { line: "MJ12bot", crawler: "MJ12bot", same: true, why: "a name with digits matches itself" },
  { line: "MJ", crawler: "MJ12bot", same: false, why: "ours: a prefix is another crawler" },
  { line: "360Spider", crawler: "360Spider", same: true, why: "a name starting with digits" },
  { line: "Spider", crawler: "360Spider", same: false, why: "a suffix is another name" },
  { line: "Googlebot", crawler: "Googlebot-Image", same: false, why: "rfc9309: '-' is part of the name" },
  { line: "SISTRIX Crawler", crawler: "SISTRIX", same: true, why: "google: the line's first word" },
  { line: "*bot", crawler: "bot", same: false, why: "an empty token matches nothing" },
  { line: "", crawler: "", same: false, why: "an empty token matches nothing" },
];

describe("sameProductToken", () => {
  it.each(pairs)("$why: '$line' vs '$crawler' -> $same", ({ line, crawler, same }) => {
    expect(sameProductToken(line, crawler)).toBe(same);
  });
});

// Parser and matcher apply the one rule: the lines a group lists are the lines it was built from.
const grouped: readonly { robots: string; tokens: string[]; agentLines: number[]; allowed: boolean; why: string }[] = [
  {
    robots: "User-agent: *foo\nUser-agent: *\nDisallow: /\n",
    tokens: ["anybot"],
    agentLines: [2],
    allowed: false,
    why: "`*foo` is not among the `*` group's lines",
  },
  {
    robots: "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    tokens: ["Googlebot2"],
    agentLines: [4],
    allowed: true,
    why: "Googlebot2 falls to `*`, not Googlebot's group",
  },
  {
    robots: "User-agent: googlebot/1.2\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    tokens: ["Googlebot"],
    agentLines: [1],
    allowed: false,
    why: "google: `googlebot/1.2` names Googlebot",
  },
  {
    robots: "User-agent: MJ12bot\nDisallow: /\n\nUser-agent: MJ\nAllow: /\n",
    tokens: ["MJ12bot"],
    agentLines: [1],
    allowed: false,
    why: "MJ12bot's own group, not MJ's",
  },
  {
    robots: "User-agent: 360Spider\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    tokens: ["360Spider"],
    agentLines: [1],
    allowed: false,
    why: "a group naming 360Spider applies to it",
  },
];

describe("parser and matcher agree", () => {
  it.each(grouped)("$why", ({ robots, tokens: crawlerTokens, agentLines, allowed }) => {
    const decision = compileRobots(parseRobotsTxt(robots)).decide(crawlerTokens, "/x");
    expect({ allowed: decision.allowed, agentLines: decision.group?.agentLines }).toEqual({ allowed, agentLines });
  });
});

// The cases Google's matcher answers differently from a whole-name-only reading, as whole files.
// Answers are Google's (robots.cc: a line's value is read up to its first character outside
// [A-Za-z_-], groups naming the crawler merge, `*` only when none does), written down here.
const GOOGLEBOT_TWO_GROUPS = [
  "user-agent: *",
  "allow: /b",
  "user-agent: Googlebot",
  "disallow: /",
  "User-agent: Googlebot2",
  "allow: /a",
  "",
].join("\n");
const DIGIT_NAMES = [
  "User-agent: MJ12bot",
  "Disallow: /mj",
  "",
  "User-agent: Spinn3r",
  "Disallow: /spinn",
  "",
  "User-agent: EC2LinkFinder",
  "Disallow: /ec",
  "",
  "User-agent: *",
  "Disallow: /all",
  "",
].join("\n");
const decisions: readonly {
  robots: string;
  crawler: string;
  url: string;
  allowed: boolean;
  agentLines: number[] | undefined;
  why: string;
}[] = [
  {
    robots: GOOGLEBOT_TWO_GROUPS,
    crawler: "Googlebot",
    url: "/a",
    allowed: true,
    agentLines: [3, 5],
    why: "google: the Googlebot2 group merges into Googlebot's, its allow: /a outranks disallow: /",
  },
  {
    robots: GOOGLEBOT_TWO_GROUPS,
    crawler: "Googlebot",
    url: "/b",
    allowed: false,
    agentLines: [3, 5],
    why: "google: Googlebot has groups, so `*`'s allow: /b does not apply",
  },
  {
    robots: GOOGLEBOT_TWO_GROUPS,
    crawler: "Googlebot2",
    url: "/c",
    allowed: true,
    agentLines: [5],
    why: "ours: a crawler named Googlebot2 obeys the line naming it whole, and not Googlebot's",
  },
  {
    robots: GOOGLEBOT_TWO_GROUPS,
    crawler: "bingbot",
    url: "/a",
    allowed: true,
    agentLines: [1],
    why: "rfc9309: a crawler no line names obeys `*`",
  },
  {
    robots: "User-agent: Googlebot2\nDisallow: /a%20b/a**$b\n",
    crawler: "Googlebot",
    url: "/a%20b/a.php$b",
    allowed: false,
    agentLines: [1],
    why: "google: Googlebot obeys the Googlebot2 line; `**` is one `*`, a `$` before the end is literal",
  },
  {
    robots: "User-agent: Googlebot2\nDisallow: /a%20b/a**$b\n",
    crawler: "Googlebot",
    url: "/a%20b/a.php",
    allowed: true,
    agentLines: [1],
    why: "google: the literal `$b` must occur",
  },
  {
    robots: "user-agent-x: FooBot2\ndisallow: /x\n\nuser-agent: *\nallow: /\n",
    crawler: "FooBot",
    url: "/x",
    allowed: false,
    agentLines: [1],
    why: "google: `user-agent-x` is a user-agent key and FooBot2 is read as FooBot",
  },
  { robots: DIGIT_NAMES, crawler: "MJ", url: "/mj", allowed: false, agentLines: [1], why: "google: MJ obeys MJ12bot" },
  {
    robots: DIGIT_NAMES,
    crawler: "Spinn",
    url: "/spinn",
    allowed: false,
    agentLines: [4],
    why: "google: Spinn obeys Spinn3r",
  },
  {
    robots: DIGIT_NAMES,
    crawler: "EC",
    url: "/all",
    allowed: true,
    agentLines: [7],
    why: "google: EC obeys EC2LinkFinder",
  },
  {
    robots: DIGIT_NAMES,
    crawler: "MJ12bot",
    url: "/mj",
    allowed: false,
    agentLines: [1],
    why: "ours: MJ12bot keeps its own group",
  },
  {
    robots: DIGIT_NAMES,
    crawler: "EC2LinkFinder",
    url: "/all",
    allowed: true,
    agentLines: [7],
    why: "ours: EC2LinkFinder keeps its own group",
  },
  {
    robots: "User-agent: MJ12bot\nDisallow: /a\n\nUser-agent: MJ\nDisallow: /b\n",
    crawler: "MJ",
    url: "/a",
    allowed: false,
    agentLines: [1, 4],
    why: "google: both lines read as MJ, the groups merge",
  },
  {
    robots: "User-agent: MJ12bot\nDisallow: /a\n\nUser-agent: MJ\nDisallow: /b\n",
    crawler: "MJ12bot",
    url: "/b",
    allowed: true,
    agentLines: [1],
    why: "ours: an MJ line is not MJ12bot's",
  },
  {
    robots: "User-agent: 360Spider\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    crawler: "Spider",
    url: "/x",
    allowed: true,
    agentLines: [4],
    why: "google: 360Spider names nothing Google reads; Spider obeys `*`",
  },
  {
    robots: "User-agent: Foo Bar\nDisallow: /x\n\nUser-agent: *\nAllow: /\n",
    crawler: "Foo",
    url: "/x",
    allowed: false,
    agentLines: [1],
    why: "google robots_test: 'Foo Bar' is read as Foo",
  },
  {
    robots: "User-agent: archive.org_bot\nDisallow: /x\n",
    crawler: "archive",
    url: "/x",
    allowed: false,
    agentLines: [1],
    why: "google: read up to the dot",
  },
];

describe("group choice: Google's reading and the whole name, merged (rfc9309 §2.2.1)", () => {
  it.each(decisions)("$why", ({ robots, crawler, url, allowed, agentLines }) => {
    const decision = compileRobots(parseRobotsTxt(robots)).decide([crawler], url);
    expect({ allowed: decision.allowed, agentLines: decision.group?.agentLines }).toEqual({ allowed, agentLines });
  });
});

// Real files (test/fixtures/corpus/robots) naming digit-bearing crawlers, decided for the token
// Google's parser reads from those lines.
const CORPUS = resolve(import.meta.dirname, "../fixtures/corpus/robots");
const corpusRows: readonly { file: string; crawler: string; url: string; allowed: boolean; agentLines: number[] }[] = [
  // 0105: `User-Agent: MJ12bot` / `Disallow: /` at line 13; `*` only guards a few paths.
  { file: "0105.txt", crawler: "MJ", url: "/page", allowed: false, agentLines: [13] },
  { file: "0105.txt", crawler: "somebot", url: "/page", allowed: true, agentLines: [61] },
  // 0256: `User-agent: Spinn3r` / `Crawl-delay: 10` at line 145: no rules, so `*`'s
  // `Disallow: /wps/` does not bind Spinn.
  { file: "0256.txt", crawler: "Spinn", url: "/wps/x", allowed: true, agentLines: [145] },
  { file: "0256.txt", crawler: "somebot", url: "/wps/x", allowed: false, agentLines: [6] },
];

describe("real files: groups named MJ12bot, Spinn3r apply to MJ, Spinn", () => {
  it.each(corpusRows)("$file: $crawler $url -> $allowed", ({ file, crawler, url, allowed, agentLines }) => {
    const robots = parseRobotsTxt(new Uint8Array(readFileSync(resolve(CORPUS, file))));
    const decision = compileRobots(robots).decide([crawler], url);
    expect({ allowed: decision.allowed, agentLines: decision.group?.agentLines }).toEqual({ allowed, agentLines });
  });
});

describe("stored models", () => {
  it("refuses schema 2 (agents without Google's reading), so the bytes are re-parsed", () => {
    const old = JSON.stringify({ schema: 2, robots: { groups: [{ agents: ["mj12bot"] }], diagnostics: [] } });
    expect(() => reviveRobots(old)).toThrow(TypeError);
  });
});
