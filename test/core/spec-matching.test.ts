// The example tables of the spec documents in test/fixtures/spec, as data. Each table sits under the
// sentence of the document it comes from; `why` cites it. Sources:
//   th  = google-robots-interpretation-2022.th.txt (current; the primary reference)
//   bn  = google-robots-spec-2019.bn.txt, hi = google-robots-spec-2019.hi.txt
//   cr  = google-create-robots-txt.hi.txt, en = server-admin-robots-txt-extensions.en.txt
import { describe, expect, it } from "vitest";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";

function decide(robots: string, tokens: string[], url: string) {
  return compileRobots(parseRobotsTxt(robots)).decide(tokens, url);
}

// th/bn/hi "URL matching based on path values": "/fish matches any path that starts with
// /fish; matching is case-sensitive"; "/fish* is equivalent to /fish: the trailing wildcard
// is ignored"; "/*.php$ matches paths that end in .php" …
const pathTable: { pattern: string; matches: string[]; doesNotMatch: string[] }[] = [
  { pattern: "/", matches: ["/", "/any", "/folder/file?x=1"], doesNotMatch: [] },
  { pattern: "/*", matches: ["/", "/any", "/folder/file?x=1"], doesNotMatch: [] },
  { pattern: "/$", matches: ["/"], doesNotMatch: ["/page", "/page.htm", "/?x=1"] },
  {
    pattern: "/fish",
    matches: [
      "/fish",
      "/fish.html",
      "/fish/salmon.html",
      "/fishheads",
      "/fishheads/yummy.html",
      "/fish.php?id=anything",
    ],
    doesNotMatch: ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"],
  },
  {
    pattern: "/fish*",
    matches: [
      "/fish",
      "/fish.html",
      "/fish/salmon.html",
      "/fishheads",
      "/fishheads/yummy.html",
      "/fish.php?id=anything",
    ],
    doesNotMatch: ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"],
  },
  {
    pattern: "/fish/",
    matches: ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
    doesNotMatch: ["/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"],
  },
  {
    pattern: "/*.php",
    matches: [
      "/index.php",
      "/filename.php",
      "/folder/filename.php",
      "/folder/filename.php?parameters",
      "/folder/any.php.file.html",
      "/filename.php/",
    ],
    doesNotMatch: ["/", "/windows.PHP"],
  },
  {
    pattern: "/*.php$",
    matches: ["/filename.php", "/folder/filename.php"],
    doesNotMatch: ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"],
  },
  { pattern: "/fish*.php", matches: ["/fish.php", "/fishheads/catfish.php?parameters"], doesNotMatch: ["/Fish.PHP"] },
  // cr: "Disallow: /*.gif$" blocks files of one type; "Disallow: /*.xls$" URLs ending in .xls.
  { pattern: "/*.gif$", matches: ["/a.gif", "/dir/b.gif"], doesNotMatch: ["/a.gif?x", "/a.gifs"] },
  { pattern: "/*.xls$", matches: ["/report.xls"], doesNotMatch: ["/report.xlsx"] },
  // cr: "Disallow: /file.asp applies to /file.asp but not to /FILE.asp".
  { pattern: "/file.asp", matches: ["/file.asp"], doesNotMatch: ["/FILE.asp"] },
];

const pathRows = pathTable.flatMap(({ pattern, matches, doesNotMatch }) => [
  ...matches.map((path) => ({ pattern, path, matched: true })),
  ...doesNotMatch.map((path) => ({ pattern, path, matched: false })),
]);

describe("rfc9309 §2.2.3 path matching (th/bn/hi example table)", () => {
  it.each(pathRows)("$pattern vs $path -> matched=$matched", ({ pattern, path, matched }) => {
    const decision = decide(`User-agent: *\nDisallow: ${pattern}\n`, ["anybot"], `https://example.com${path}`);
    expect(decision.allowed).toBe(!matched);
    if (matched) expect(decision.rule).toEqual({ kind: "disallow", pattern, line: 2 });
  });
});

// th "Order of precedence for rules": "the most specific rule based on the length of the
// rule path applies … in case of conflicting rules, including those with wildcards, Google
// uses the least restrictive rule." hi/bn give the same table (2019: page.htm "undefined",
// decided by th as disallow).
const precedenceRows = [
  { url: "https://example.com/page", allow: "/p", disallow: "/", allowed: true, why: "th: allow /p is more specific" },
  {
    url: "https://example.com/folder/page",
    allow: "/folder",
    disallow: "/folder",
    allowed: true,
    why: "th: tie -> least restrictive",
  },
  {
    url: "https://example.com/folder/page",
    allow: "/folder/",
    disallow: "/folder",
    allowed: true,
    why: "hi: /folder/ is longer",
  },
  {
    url: "https://example.com/page.htm",
    allow: "/page",
    disallow: "/*.htm",
    allowed: false,
    why: "th: /*.htm is longer (2019 said undefined)",
  },
  {
    url: "https://example.com/page.php5",
    allow: "/page",
    disallow: "/*.ph",
    allowed: true,
    why: "th: equal length -> least restrictive",
  },
  { url: "https://example.com/", allow: "/$", disallow: "/", allowed: true, why: "th: /$ is more specific" },
  {
    url: "https://example.com/page.htm",
    allow: "/$",
    disallow: "/",
    allowed: false,
    why: "th: /$ only allows the root",
  },
];

describe("rfc9309 §2.2.2 longest match, allow wins ties (th precedence table)", () => {
  it.each(precedenceRows)(
    "$url allow:$allow disallow:$disallow -> $allowed ($why)",
    ({ url, allow, disallow, allowed }) => {
      const robots = `User-agent: *\nAllow: ${allow}\nDisallow: ${disallow}\n`;
      const decision = decide(robots, ["googlebot"], url);
      expect(decision.allowed).toBe(allowed);
      expect(decision.rule?.pattern).toBe(allowed ? allow : disallow);
    },
  );
});

// th "Order of precedence for user agents": googlebot-news (group 1), * (group 2),
// googlebot (group 3). bn/hi add: "Googlebot Images follows group 3: there is no specific
// googlebot-images group, so the more general group is followed."
const precedenceFile = `user-agent: googlebot-news
disallow: /group1

user-agent: *
disallow: /group2

user-agent: googlebot
disallow: /group3
`;
const agentRows = [
  {
    crawler: "Googlebot News",
    tokens: ["googlebot-news", "googlebot"],
    group: "/group1",
    why: "th: group 1 is the most specific",
  },
  { crawler: "Googlebot (web)", tokens: ["googlebot"], group: "/group3", why: "th: follows group 3" },
  {
    crawler: "Googlebot Storebot",
    tokens: ["Storebot-Google"],
    group: "/group2",
    why: "th: no Storebot-Google group -> *",
  },
  {
    crawler: "Googlebot Images",
    tokens: ["googlebot-image", "googlebot"],
    group: "/group3",
    why: "bn/hi: falls back to googlebot",
  },
  {
    crawler: "Googlebot News (images)",
    tokens: ["googlebot-news"],
    group: "/group1",
    why: "th: news crawls its own images",
  },
  {
    crawler: "Otherbot (web)",
    tokens: ["otherbot"],
    group: "/group2",
    why: "th: other Google crawlers follow group 2",
  },
  {
    crawler: "Otherbot (news)",
    tokens: ["otherbot-news"],
    group: "/group2",
    why: "th: entries apply only on an exact match",
  },
];

describe("rfc9309 §2.2.1 user-agent precedence (th/bn example)", () => {
  it.each(agentRows)("$crawler -> $group ($why)", ({ tokens, group }) => {
    const decision = decide(precedenceFile, tokens, `https://example.com${group}`);
    expect(decision.allowed).toBe(false);
    expect(decision.rule?.pattern).toBe(group);
  });
});

// th/bn "Grouping of lines and rules": four groups: a; b; e and f; h (no rules: all allowed).
const groupingFile = `user-agent: a
disallow: /c

user-agent: b
disallow: /d

user-agent: e
user-agent: f
disallow: /g

user-agent: h
`;
const groupingRows = [
  { agent: "a", url: "/c", allowed: false },
  { agent: "a", url: "/d", allowed: true },
  { agent: "b", url: "/d", allowed: false },
  { agent: "b", url: "/c", allowed: true },
  { agent: "e", url: "/g", allowed: false },
  { agent: "f", url: "/g", allowed: false },
  { agent: "h", url: "/c", allowed: true },
  { agent: "h", url: "/g", allowed: true },
];

describe("rfc9309 §2.1 grouping (th/bn example: four groups)", () => {
  it("builds exactly four groups", () => {
    expect(parseRobotsTxt(groupingFile).groups.map((group) => group.agents)).toEqual([["a"], ["b"], ["e", "f"], ["h"]]);
  });
  it.each(groupingRows)("$agent $url -> $allowed", ({ agent, url, allowed }) => {
    expect(decide(groupingFile, [agent], url).allowed).toBe(allowed);
  });
});

// th/bn "Grouping of rules": groups for the same user agent are merged; the * group stays apart.
const mergingFile = `user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots

user-agent: googlebot-news
disallow: /shrimp
`;
const mergingRows = [
  { tokens: ["googlebot-news"], url: "/fish", allowed: false, why: "first googlebot-news group" },
  { tokens: ["googlebot-news"], url: "/shrimp", allowed: false, why: "second googlebot-news group, merged" },
  { tokens: ["googlebot-news"], url: "/carrots", allowed: true, why: "* is not merged into a specific group" },
  { tokens: ["otherbot"], url: "/carrots", allowed: false, why: "* group" },
  { tokens: ["otherbot"], url: "/fish", allowed: true, why: "* group only" },
];

describe("rfc9309 §2.2.1 merging groups (th/bn example)", () => {
  it.each(mergingRows)("$tokens $url -> $allowed ($why)", ({ tokens, url, allowed }) => {
    expect(decide(mergingFile, tokens, url).allowed).toBe(allowed);
  });
  it("reports every user-agent line of the merged group", () => {
    expect(decide(mergingFile, ["googlebot-news"], "/fish").group?.agentLines).toEqual([1, 7]);
  });
});

// th: "rules other than allow, disallow and user-agent are ignored … both user-agent a and b
// are affected by disallow: /" — a sitemap line between user-agent lines does not end a group.
const sitemapBetweenAgents = `user-agent: a
sitemap: https://example.com/sitemap.xml

user-agent: b
disallow: /
`;

describe("rfc9309 §2.2.4 sitemap between user-agent lines (th example)", () => {
  it.each(["a", "b"])("user-agent %s is disallowed /", (agent) => {
    expect(decide(sitemapBetweenAgents, [agent], "/anything").allowed).toBe(false);
  });
  it("keeps the sitemap and forms a single group", () => {
    const robots = parseRobotsTxt(sitemapBetweenAgents);
    expect(robots.groups.map((group) => group.agents)).toEqual([["a", "b"]]);
    expect(robots.sitemaps).toEqual([{ url: "https://example.com/sitemap.xml", line: 2 }]);
  });
});

// th first example: everyone but Googlebot is kept out of /includes/.
const includesFile = `# This robots.txt file controls crawling of URLs under https://example.com.
User-agent: *
Disallow: /includes/

User-agent: Googlebot
Allow: /includes/

Sitemap: https://example.com/sitemap.xml
`;

// cr examples: groups for one crawler, AdsBot and Mediapartners, "all but one crawler".
const createExamples = [
  {
    robots: includesFile,
    tokens: ["googlebot"],
    url: "/includes/a.css",
    allowed: true,
    why: "th: Googlebot allowed /includes/",
  },
  { robots: includesFile, tokens: ["bingbot"], url: "/includes/a.css", allowed: false, why: "th: others disallowed" },
  {
    robots: "User-agent: Googlebot\nDisallow: /nogooglebot/\n\nUser-agent: *\nAllow: /\n",
    tokens: ["googlebot"],
    url: "/nogooglebot/x",
    allowed: false,
    why: "cr group 1",
  },
  {
    robots: "User-agent: Googlebot\nDisallow: /nogooglebot/\n\nUser-agent: *\nAllow: /\n",
    tokens: ["otherbot"],
    url: "/nogooglebot/x",
    allowed: true,
    why: "cr group 2",
  },
  {
    robots: "User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /\n",
    tokens: ["adsbot-google"],
    url: "/x",
    allowed: false,
    why: "cr example 2: block Googlebot and AdsBot",
  },
  // cr "User-agent" list, examples 1 and 2: the other side of each group.
  {
    robots: "User-agent: Googlebot\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/x",
    allowed: false,
    why: "cr example 1: block only Googlebot",
  },
  {
    robots: "User-agent: Googlebot\nDisallow: /\n",
    tokens: ["otherbot"],
    url: "/x",
    allowed: true,
    why: "cr example 1: only Googlebot is blocked",
  },
  {
    robots: "User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/x",
    allowed: false,
    why: "cr example 2: Googlebot shares the group",
  },
  {
    robots:
      "User-agent: googlebot\nDisallow: /directory1/\nDisallow: /directory2/\nAllow: /directory2/subdirectory1/\n\nUser-agent: anothercrawler\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/directory2/subdirectory1/page",
    allowed: true,
    why: "cr: allow inside a disallowed directory",
  },
  {
    robots:
      "User-agent: googlebot\nDisallow: /directory1/\nDisallow: /directory2/\nAllow: /directory2/subdirectory1/\n\nUser-agent: anothercrawler\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/directory2/other",
    allowed: false,
    why: "cr: directory2 blocked",
  },
  // cr "another example file": its comments state the other three answers.
  {
    robots:
      "User-agent: googlebot\nDisallow: /directory1/\nDisallow: /directory2/\nAllow: /directory2/subdirectory1/\n\nUser-agent: anothercrawler\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/directory1/page",
    allowed: false,
    why: "cr: directory1 blocked",
  },
  {
    robots:
      "User-agent: googlebot\nDisallow: /directory1/\nDisallow: /directory2/\nAllow: /directory2/subdirectory1/\n\nUser-agent: anothercrawler\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/directory3/page",
    allowed: true,
    why: "cr: all other directories are allowed by default",
  },
  {
    robots:
      "User-agent: googlebot\nDisallow: /directory1/\nDisallow: /directory2/\nAllow: /directory2/subdirectory1/\n\nUser-agent: anothercrawler\nDisallow: /\n",
    tokens: ["anothercrawler"],
    url: "/directory3/page",
    allowed: false,
    why: "cr: the entire site is blocked for anothercrawler",
  },
  {
    robots: "User-agent: Googlebot-news\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
    tokens: ["googlebot-news"],
    url: "/news",
    allowed: true,
    why: "cr: allow a single crawler",
  },
  {
    robots: "User-agent: Googlebot-news\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
    tokens: ["otherbot"],
    url: "/news",
    allowed: false,
    why: "cr: allow a single crawler, every other one kept out",
  },
  {
    robots: "User-agent: Unnecessarybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    tokens: ["unnecessarybot"],
    url: "/",
    allowed: false,
    why: "cr: all but one crawler",
  },
  {
    robots: "User-agent: Unnecessarybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    tokens: ["otherbot"],
    url: "/",
    allowed: true,
    why: "cr: all but one crawler, the others allowed",
  },
  {
    robots: "User-agent: *\nDisallow: /\n\nUser-agent: Mediapartners-Google\nAllow: /\n",
    tokens: ["mediapartners-google"],
    url: "/page",
    allowed: true,
    why: "cr: AdSense crawler allowed",
  },
  {
    robots: "User-agent: *\nDisallow: /\n\nUser-agent: Mediapartners-Google\nAllow: /\n",
    tokens: ["otherbot"],
    url: "/page",
    allowed: false,
    why: "cr: AdSense only, every other crawler kept out",
  },
  {
    robots: "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n",
    tokens: ["googlebot-image", "googlebot"],
    url: "/images/dogs.jpg",
    allowed: false,
    why: "cr: block one image",
  },
  {
    robots: "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n",
    tokens: ["googlebot-image", "googlebot"],
    url: "/images/cats.jpg",
    allowed: true,
    why: "cr: block one image, the others stay allowed",
  },
  {
    robots: "User-agent: Googlebot-Image\nDisallow: /\n",
    tokens: ["googlebot-image", "googlebot"],
    url: "/images/dogs.jpg",
    allowed: false,
    why: "cr: block all images on the site",
  },
  {
    robots: "User-agent: Googlebot-Image\nDisallow: /\n",
    tokens: ["googlebot"],
    url: "/images/dogs.jpg",
    allowed: true,
    why: "cr: block all images, Googlebot (web) not named",
  },
  {
    robots: "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
    tokens: ["anybot"],
    url: "/junk/1",
    allowed: false,
    why: "cr: disallow directories",
  },
  {
    robots: "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
    tokens: ["anybot"],
    url: "/calendar/2024",
    allowed: false,
    why: "cr: disallow directories (calendar)",
  },
  {
    robots: "User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
    tokens: ["anybot"],
    url: "/calendar",
    allowed: true,
    why: "cr: disallow directories, the trailing slash kept",
  },
  {
    robots: "User-agent: *\nDisallow: /private_file.html\n",
    tokens: ["anybot"],
    url: "/private_file.html",
    allowed: false,
    why: "cr: disallow one web page",
  },
  {
    robots: "User-agent: *\nDisallow: /private_file.html\n",
    tokens: ["anybot"],
    url: "/public_file.html",
    allowed: true,
    why: "cr: disallow one web page, the others allowed",
  },
  // th/bn/hi location table: "https://example.com/folder/robots.txt is not a valid robots.txt
  // file; crawlers don't check for robots.txt files in subdirectories" (cr: "not at
  // http://example.com/pages/robots.txt"). Only /robots.txt is always allowed (rfc9309 §2.2.2).
  {
    robots: "User-agent: *\nDisallow: /\n",
    tokens: ["anybot"],
    url: "/folder/robots.txt",
    allowed: false,
    why: "th/bn/hi: /folder/robots.txt is an ordinary page",
  },
  // en (server manual) examples.
  { robots: "User-agent: *\nDisallow:\n", tokens: ["anybot"], url: "/", allowed: true, why: "en: open access" },
  { robots: "User-agent: *\nDisallow: /\n", tokens: ["anybot"], url: "/x", allowed: false, why: "en: blocked access" },
  {
    robots: "User-agent: *\nDisallow: /doc/private\nDisallow: /cgi-bin\n",
    tokens: ["anybot"],
    url: "/cgi-bin/run",
    allowed: false,
    why: "en: multiple restrictions",
  },
  {
    robots: "User-agent: *\nDisallow: /doc/private\nDisallow: /cgi-bin\n",
    tokens: ["anybot"],
    url: "/doc/private/report.html",
    allowed: false,
    why: "en: multiple restrictions (/doc/private)",
  },
  {
    robots: "User-agent: *\nDisallow: /doc/private\nVisit-time: 2300-0430\n",
    tokens: ["anybot"],
    url: "/doc/private/report.html",
    allowed: false,
    why: "en: timed access keeps /doc/private out",
  },
  {
    robots: "User-agent: *\nDisallow: /doc/private\nVisit-time: 2300-0430\n",
    tokens: ["anybot"],
    url: "/doc/public",
    allowed: true,
    why: "en: timed access still allows other paths",
  },
];

describe("authoring examples (th, cr, en)", () => {
  it.each(createExamples)("$why", ({ robots, tokens, url, allowed }) => {
    expect(decide(robots, tokens, url).allowed).toBe(allowed);
  });
});
