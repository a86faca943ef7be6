// Issue 30 item 7: the two mainstream readings of a robots.txt file (src/core/readings.ts): RFC
// 9309's and Google's (the engine), and the record reading of urllib.robotparser, robots-parser
// and the 1996 draft. What each refuses, what lint says, and every corpus file and crawler they split.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt, type AppliedGroup } from "../../src/core/index.ts";
import { BINGBOT_FILE } from "../fixtures/readings-files.ts";

// Each row: a file, a crawler token, a path; allowed under RFC 9309 / Google (the engine) and
// under the record reading.
const decisionRows: { name: string; robots: string; token: string; path: string; ours: boolean; record: boolean }[] = [
  { name: "the issue's file: bingbot", robots: BINGBOT_FILE, token: "bingbot", path: "/a", ours: false, record: true },
  { name: "the issue's file: msnbot", robots: BINGBOT_FILE, token: "msnbot", path: "/a", ours: false, record: true },
  { name: "the issue's file: applebot", robots: BINGBOT_FILE, token: "applebot", path: "/", ours: false, record: true },
  {
    name: "the issue's file: ahrefsbot",
    robots: BINGBOT_FILE,
    token: "ahrefsbot",
    path: "/a",
    ours: false,
    record: false,
  },
  {
    name: "the issue's file: an unnamed bot",
    robots: BINGBOT_FILE,
    token: "otherbot",
    path: "/a",
    ours: true,
    record: true,
  },
  {
    name: "a blank line alone splits the record",
    robots: "User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
    token: "a",
    path: "/x",
    ours: false,
    record: true,
  },
  {
    name: "a comment line does not",
    robots: "User-agent: a\n# b too\nUser-agent: b\nDisallow: /x\n",
    token: "a",
    path: "/x",
    ours: false,
    record: false,
  },
  {
    name: "a sitemap line does",
    robots: "User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n",
    token: "a",
    path: "/x",
    ours: false,
    record: true,
  },
  {
    name: "user-agent lines in a row are one record in both",
    robots: "User-agent: a\nUser-agent: b\nDisallow: /x\n",
    token: "a",
    path: "/x",
    ours: false,
    record: false,
  },
  {
    name: "`*` named on both sides of a break: merged in both",
    robots: "User-agent: *\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /x\n",
    token: "anybot",
    path: "/x",
    ours: false,
    record: false,
  },
  {
    name: "a line of spaces is no break (urllib and robots-parser: one record)",
    robots: "User-agent: a\n   \nUser-agent: b\nDisallow: /x\n",
    token: "a",
    path: "/x",
    ours: false,
    record: false,
  },
  {
    name: "user-agent lines an empty line ends: no group, `*` refuses /private (urllib and robots-parser refuse)",
    robots: "User-agent: *\nDisallow: /private\n\nUser-agent: a\n\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: false,
  },
  {
    name: "user-agent lines an empty line ends: `*` allows /x (urllib allows)",
    robots: "User-agent: *\nDisallow: /private\n\nUser-agent: a\n\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/x",
    ours: false,
    record: true,
  },
  {
    name: "a sitemap line ends the record: no group, `*` refuses /private (urllib reads on, robots-parser falls to `*`)",
    robots:
      "User-agent: *\nDisallow: /private\n\nUser-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: false,
  },
  {
    name: "a sitemap line ends the record: `*` allows /x (robots-parser allows)",
    robots:
      "User-agent: *\nDisallow: /private\n\nUser-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/x",
    ours: false,
    record: true,
  },
  {
    name: "an unknown field ends the record: no group, `*` refuses /private",
    robots: "User-agent: *\nDisallow: /private\n\nUser-agent: a\nHost: example.com\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: false,
  },
  {
    name: "a crawl-delay ends the record: an empty group, /private allowed (both parsers allow)",
    robots: "User-agent: *\nDisallow: /private\n\nUser-agent: a\nCrawl-delay: 10\n\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: true,
  },
  {
    name: "a request-rate ends the record: an empty group (urllib allows, robots-parser refuses)",
    robots: "User-agent: *\nDisallow: /private\n\nUser-agent: a\nRequest-rate: 1/5\n\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: true,
  },
  {
    name: "an empty line before the crawl-delay: an empty group (robots-parser allows, urllib refuses)",
    robots: "User-agent: *\nDisallow: /private\n\nUser-agent: a\n\nCrawl-delay: 10\nUser-agent: b\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: true,
  },
  {
    name: "a sitemap, then a crawl-delay two records on: an empty group (urllib reads on to it)",
    robots:
      "User-agent: *\nDisallow: /private\n\nUser-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nCrawl-delay: 1\nUser-agent: c\nDisallow: /\n",
    token: "a",
    path: "/private",
    ours: false,
    record: true,
  },
  {
    name: "a line without a colon is no break for either parser",
    robots: "User-agent: a\nCrawl-delay 10\nUser-agent: b\nDisallow: /x\n",
    token: "a",
    path: "/x",
    ours: false,
    record: false,
  },
  {
    name: "a raw space: RFC 9309 and Google never match it",
    robots: "User-agent: *\nDisallow: /sp ace\n",
    token: "bingbot",
    path: "/sp%20ace",
    ours: true,
    record: false,
  },
  {
    name: "a raw space: nor anything after it",
    robots: "User-agent: *\nDisallow: /sp ace\n",
    token: "bingbot",
    path: "/sp%20ace/more",
    ours: true,
    record: false,
  },
  {
    name: "a raw space in an allow: the broader disallow stands for us",
    robots: "User-agent: *\nDisallow: /\nAllow: /sp ace\n",
    token: "bingbot",
    path: "/sp%20ace",
    ours: false,
    record: true,
  },
  {
    name: 'a raw "<": matches no %3C',
    robots: "User-agent: *\nDisallow: /a<b\n",
    token: "bingbot",
    path: "/a%3Cb",
    ours: true,
    record: false,
  },
  {
    name: "a raw |: requests carry it, both match",
    robots: "User-agent: *\nDisallow: /a|b\n",
    token: "bingbot",
    path: "/a|b",
    ours: false,
    record: false,
  },
];

describe("what each reading refuses", () => {
  it.each(decisionRows)("$name: ours $ours, record $record", ({ robots, token, path, ours, record }) => {
    const matcher = compileRobots(parseRobotsTxt(robots));
    expect(matcher.decide([token], path).allowed).toBe(ours);
    expect((matcher.recordReading() ?? matcher).decide([token], path).allowed).toBe(record);
  });

  it("a file both read alike has no record reading to ask", () => {
    const matcher = compileRobots(
      parseRobotsTxt("User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: *\nAllow: /\n"),
    );
    expect(matcher.recordReading()).toBeUndefined();
  });
});

// What lint says: code reading-disputed, an error, at the line, naming the crawlers and the fix.
const lintRows: { name: string; robots: string; errors: { line: number; says: string[] }[] }[] = [
  {
    name: "the issue's file",
    robots: BINGBOT_FILE,
    errors: [
      { line: 1, says: ["for bingbot,", '"disallow: /" (line 11)', 'Fix: add "Disallow:" after line 2'] },
      { line: 4, says: ["for msnbot,", '"disallow: /" (line 11)', 'Fix: add "Disallow:" after line 5'] },
      { line: 7, says: ["for Applebot,", '"disallow: /" (line 11)', 'Fix: add "Disallow:" after line 8'] },
    ],
  },
  {
    name: "a blank line after a user-agent line",
    robots: "User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
    errors: [
      {
        line: 1,
        says: ["for a,", "read them under the rules of user-agent * instead", 'Fix: add "Disallow:" after line 1'],
      },
    ],
  },
  {
    name: "a crawl-delay after a user-agent line",
    robots: "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n",
    errors: [{ line: 1, says: ["for a,", "give them no such rule", 'Fix: add "Disallow:" after line 2'] }],
  },
  {
    name: "a line of spaces between user-agent lines",
    robots: "User-agent: a\n \t \nUser-agent: b\nDisallow: /x\n",
    errors: [],
  },
  {
    name: "a raw space",
    robots: "User-agent: *\nDisallow: /sp ace\n",
    errors: [
      {
        line: 2,
        says: [
          "disallow: /sp ace holds a raw space",
          "match /sp%20ace",
          'Fix: write "disallow: /sp%20ace"',
          "For * (every crawler",
        ],
      },
    ],
  },
  {
    name: "a comment between user-agent lines",
    robots: "User-agent: a\n# x\nUser-agent: b\nDisallow: /x\n",
    errors: [],
  },
  {
    name: "`*` on both sides of a break",
    robots: "User-agent: *\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /x\n",
    errors: [],
  },
  {
    name: "only allow rules after the break",
    robots: "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nAllow: /x\n",
    errors: [],
  },
  {
    name: "a break with no rule after it",
    robots: "User-agent: a\nCrawl-delay: 5\n\nUser-agent: b\nCrawl-delay: 1\n",
    errors: [],
  },
];

describe("lint: reading-disputed errors", () => {
  it.each(lintRows)("$name", ({ robots, errors }) => {
    const found = parseRobotsTxt(robots).diagnostics.filter((diagnostic) => diagnostic.code === "reading-disputed");
    expect(found.map(({ line, severity }) => ({ line, severity }))).toEqual(
      errors.map(({ line }) => ({ line, severity: "error" })),
    );
    errors.forEach(({ says }, i) => {
      for (const words of says) expect(found[i]?.message).toContain(words);
    });
  });
});

// Every file of the real-world corpus (test/fixtures/corpus/robots) and every crawler it names
// whose group the two readings give different rules (a rule with a raw character counting as
// none for RFC 9309 and Google). Checked by hand: 0106.txt (GitHub: baidu's crawl-delay, then
// a blank line and `User-agent: *` with its disallows: one group for us), 0187.txt (msnbot's
// crawl-delay joins AhrefsBot's `Disallow: /`, as in the issue), 0343.txt (`*` with raw spaces).
const SPLIT_BY_READINGS: Record<string, string[]> = {
  "0002.txt": [
    "ai",
    "ai2bot",
    "ai2bot-dolma",
    "amazonbot",
    "anthropic-ai",
    "applebot-extended",
    "bytespider",
    "ccbot",
    "chatgpt-user",
    "claude-web",
    "claudebot",
    "cohere-ai",
    "diffbot",
    "facebookbot",
    "google-extended",
    "gptbot",
    "meta-externalagent",
    "oai-searchbot",
    "omgili",
    "omgilibot",
    "pangubot",
    "perplexitybot",
    "petalbot",
    "webzio-extended",
    "youbot",
  ],
  "0024.txt": ["applebot", "bingbot", "msnbot"],
  "0048.txt": ["*"],
  "0062.txt": [
    "adsbot-google",
    "alexabot",
    "aranhabot",
    "archive",
    "archive.org_bot",
    "baiduspider",
    "bingbot",
    "bingpreview",
    "ccbot",
    "cloudflareprefetch",
    "facebookexternalhit",
    "friendfeedbot",
    "funnelback",
    "google",
    "google-site-verification",
    "google-sitemaps",
    "googlebot",
    "googlebot-image",
    "googlebot-mobile",
    "googlebot-news",
    "googlebot-video",
    "gsa-crawler",
    "houzzbot",
    "ia_archiver",
    "mediapartners-google",
    "msnbot",
    "pingdom",
    "pinterest",
    "rogerbot",
    "scoutjet",
    "slurp",
    "spinn",
    "spinn3r",
    "teoma",
    "twitterbot",
    "yandex",
    "yandeximages",
    "yandexvideoparser",
    "yeti",
  ],
  "0097.txt": ["*"],
  "0102.txt": ["ahrefsbot", "ccbot", "facebot", "slurp"],
  "0106.txt": ["baidu"],
  "0112.txt": ["*"],
  "0117.txt": ["trendkite-akashic-crawler", "yisouspider"],
  "0124.txt": ["bingbot"],
  "0135.txt": ["*"],
  "0137.txt": ["pinterest"],
  "0138.txt": ["bingbot", "semrushbot"],
  "0158.txt": [
    "ahrefsbot",
    "baiduspider",
    "bingbot",
    "bitsightbot",
    "caliperbot",
    "clickagy",
    "dataforseobot",
    "detectify",
    "dotbot",
    "duckduckbot",
    "facebot",
    "feedonomics",
    "indeedbot",
    "jobcentralbot",
    "jooblebot",
    "linkupbot",
    "magnetmebot",
    "mauibot",
    "metajobbot",
    "mj",
    "mj12bot",
    "nexjob",
    "pagefreezer",
    "petalbot",
    "pinterestbot",
    "seekportbot",
    "semrushbot",
    "seokicks",
    "slackbot",
    "slurp",
    "timpibot",
    "twitterbot",
    "yak",
    "yandex",
    "yourbugbountyfriend",
    "zoombot",
    "zoominfobot",
  ],
  "0175.txt": ["msnbot"],
  "0187.txt": ["msnbot"],
  "0198.txt": ["bingbot", "msnbot", "seekportbot", "semrushbot"],
  "0215.txt": [
    "baiduspider",
    "bingbot",
    "bitsightbot",
    "caliperbot",
    "clickagy",
    "duckduckbot",
    "facebot",
    "indeedbot",
    "jobcentralbot",
    "jooblebot",
    "linkupbot",
    "mauibot",
    "metajobbot",
    "neevabot",
    "nexjob",
    "rytebot",
    "seekportbot",
    "seokicks",
    "slackbot",
    "slurp",
    "timpibot",
    "twitterbot",
    "yak",
    "zoombot",
    "zoominfobot",
  ],
  "0218.txt": ["ahrefsbot", "ccbot", "facebot", "slurp"],
  "0230.txt": ["msnbot"],
  "0264.txt": ["mj", "mj12bot"],
  "0275.txt": ["ahrefsbot"],
  "0343.txt": ["*"],
};

const CORPUS = resolve(import.meta.dirname, "../fixtures/corpus/robots");
const RAW = (pattern: string) => [...pattern].some((c) => c <= " " || c === "\u007f" || '"<>`{}'.includes(c));
function rulesOf(group: AppliedGroup | undefined, matchable: boolean): string {
  const rules = (group?.rules ?? []).filter((rule) => !matchable || !RAW(rule.pattern));
  return rules.map((rule) => `${rule.line} ${rule.kind}: ${rule.pattern}`).join("\n");
}

describe("the corpus through both readings", () => {
  it("lists every file and crawler they split", () => {
    const split: Record<string, string[]> = {};
    for (const file of readdirSync(CORPUS)
      .filter((name) => name.endsWith(".txt"))
      .toSorted()) {
      const robots = parseRobotsTxt(new Uint8Array(readFileSync(join(CORPUS, file))));
      const ours = compileRobots(robots);
      const record = ours.recordReading();
      if (!record) continue;
      const tokens = [...new Set(robots.groups.flatMap((group) => group.agents))].toSorted();
      const differ = tokens.filter(
        (token) => rulesOf(ours.groupFor([token]), true) !== rulesOf(record.groupFor([token]), false),
      );
      if (differ.length > 0) split[file] = differ;
    }
    expect(split).toEqual(SPLIT_BY_READINGS);
  });
});
