// The one rule for "same product token" (src/core/product-token.ts), as data. RFC 9309 §2.2.1:
// a crawler obeys the group naming its product token, compared case-insensitively. Google's
// reference reduces a user-agent value to its leading letters, "-" and "_"; we keep that
// reduction for versions and decorations, but digits and dots stay part of the name so that
// no crawler becomes another (`google` rows are Google's own cases; `ours` rows deviate).
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { productToken, sameProductToken, userAgentToken } from "../../src/core/product-token.ts";

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

// A `User-agent:` line (robots.txt side) against a crawler's token (request side).
const pairs: readonly { line: string; crawler: string; same: boolean; why: string }[] = [
  { line: "googlebot/1.2", crawler: "Googlebot", same: true, why: "google: the version is dropped" },
  { line: "Googlebot", crawler: "Googlebot2", same: false, why: "issue #10: Googlebot2 is not Googlebot" },
  { line: "Googlebot", crawler: "GooglebotX", same: false, why: "issue #10: GooglebotX is not Googlebot" },
  { line: "Googlebot2", crawler: "Googlebot", same: false, why: "ours: a Googlebot2 group is not Googlebot's" },
  { line: "MJ12bot", crawler: "MJ12bot", same: true, why: "issue #10: a name with digits matches itself" },
  { line: "MJ", crawler: "MJ12bot", same: false, why: "ours: a prefix is another name (Google: same)" },
  { line: "360Spider", crawler: "360Spider", same: true, why: "issue #10: a name starting with digits" },
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
