// Purposes compiled into the served robots.txt, and the edge's action for every crawler of the
// table on that file. The expected lines and the blocked crawlers are written out below as
// data (token lists by hand, not read from the table); a test checks that the lists cover the
// crawler table exactly, so a token added to the table must be placed here too.
import { describe, expect, it } from "vitest";
import { agentForTokens } from "../../src/agents/classify.ts";
import { KNOWN_CRAWLERS, type KnownCrawler, type PurposeSwitch } from "../../src/agents/operators/tables.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge } from "../../src/policy/edge-decision.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { locateProblems } from "../../src/policy/policy-lines.ts";
import { compilePurposes } from "../../src/policy/purposes-robots.ts";
import { readPurposes, type Purposes } from "../../src/policy/purposes.ts";
import { gatheredFacts, VERIFIED } from "./gathered-facts.ts";

// The crawler table by category, by hand.
const SEARCH_ENGINE = [
  "Googlebot",
  "Googlebot-Image",
  "Googlebot-News",
  "Googlebot-Video",
  "Googlebot-Mobile",
  "Storebot-Google",
  "bingbot",
  "msnbot",
  "msnbot-media",
  "Applebot",
  "YandexBot",
  "YandexImages",
  "YandexMobileBot",
  "YandexNews",
  "YandexVideo",
  "Baiduspider",
  "Baiduspider-image",
  "DuckDuckBot",
  "Slurp",
  "PetalBot",
  "SeznamBot",
  "MojeekBot",
  "Yeti",
  "ImagesiftBot",
];
const AI_TRAINING = [
  "GPTBot",
  "ClaudeBot",
  "anthropic-ai",
  "MistralAI-Training",
  "CCBot",
  "Bytespider",
  "Amazonbot",
  "meta-externalagent",
  "FacebookBot",
  "Diffbot",
  "Timpibot",
  "Omgilibot",
  "omgili",
];
const AI_SEARCH = [
  "Google-CloudVertexBot",
  "OAI-SearchBot",
  "Claude-SearchBot",
  "PerplexityBot",
  "MistralAI-Index",
  "Amzn-SearchBot",
  "amazon-QBusiness",
  "YouBot",
];
/** ChatGPT-User, Perplexity-User and Google-Agent ignore `*` (acting for a person); the rest obey it. */
const AI_ASSISTANT = [
  "ChatGPT-User",
  "Perplexity-User",
  "Google-Agent",
  "Claude-User",
  "Claude-Web",
  "MistralAI-User",
  "DuckAssistBot",
  "Amzn-User",
  "meta-externalfetcher",
  "cohere-ai",
];
/** Every other table entry that obeys `User-agent: *`. */
const OTHERS_OBEYING_STAR = [
  "Google-InspectionTool",
  "GoogleOther",
  "GoogleOther-Image",
  "GoogleOther-Video",
  "Mediapartners-Google",
  "APIs-Google",
  "Google-Safety",
  "adidxbot",
  "OAI-AdsBot",
  "KimiBot",
  "Kimi-SearchBot",
  "Kimi-User",
  "BingPreview",
  "MicrosoftPreview",
  "TikTokSpider",
  "facebookexternalhit",
  "Twitterbot",
  "LinkedInBot",
  "AhrefsBot",
  "AhrefsSiteAudit",
  "SemrushBot",
  "MJ12bot",
  "DotBot",
  "rogerbot",
  "ia_archiver",
  "archive.org_bot",
];
/** Table entries documented to ignore `User-agent: *` (besides the three assistants above). */
const OTHERS_IGNORING_STAR = [
  "AdsBot-Google",
  "AdsBot-Google-Mobile",
  "AdsBot-Google-Mobile-Apps",
  "FeedFetcher-Google",
  "Google-Read-Aloud",
  "Google-Site-Verification",
  "Google-CWS",
  "GoogleProducer",
  "Google-Pinpoint",
  "Google-GeminiNotebook",
];
const IGNORING_STAR = ["ChatGPT-User", "Perplexity-User", "Google-Agent", ...OTHERS_IGNORING_STAR];
const EVERY_TOKEN = [
  ...SEARCH_ENGINE,
  ...AI_TRAINING,
  ...AI_SEARCH,
  ...AI_ASSISTANT,
  ...OTHERS_OBEYING_STAR,
  ...OTHERS_IGNORING_STAR,
];
const OBEYING_STAR = EVERY_TOKEN.filter((token) => !IGNORING_STAR.includes(token));
const except = (list: readonly string[], ...out: string[]) => list.filter((token) => !out.includes(token));

const ISSUE_SETTING = [
  { path: "/", "search-engine": "allow", "ai-search": "allow", "ai-assistant": "allow", "ai-training": "block" },
  {
    path: "/members/",
    "search-engine": "block",
    "ai-search": "block",
    "ai-assistant": "block",
    "ai-training": "block",
  },
];
/** `*` closes /admin/ but for /admin/public/; the owner names bingbot itself. */
const ORIGIN_WITH_BINGBOT =
  "User-agent: *\nDisallow: /admin/\nAllow: /admin/public/\n\nUser-agent: bingbot\nDisallow: /private/\n";

/** Training kept out of /docs/ (an allow under it cannot re-open it); Googlebot named off /nosearch/. */
const NAMED_SETTING = [
  { path: "/docs/", "ai-training": "block" },
  { path: "/docs/open/", "ai-training": "allow" },
  { path: "/nosearch/", Googlebot: "block" },
];
/** A `*` Allow longer than /docs/ that matches inside it: the generated Disallow must outrank it. */
const ORIGIN_WITH_WILDCARD_ALLOW = "User-agent: *\nDisallow: /tmp/\nAllow: /*.html\n";

interface Row {
  readonly setting: string;
  readonly origin: string | undefined;
  readonly purposes: unknown;
  readonly path: string;
  /** Exactly the tokens the edge refuses on the path; every other token of the table passes. */
  readonly blocked: readonly string[];
}

const ROWS: readonly Row[] = [
  ...[
    { path: "/", blocked: AI_TRAINING },
    { path: "/blog/a", blocked: AI_TRAINING },
    // `*` closes /admin/ for everyone who obeys it; bingbot's own group does not close it.
    { path: "/admin/x", blocked: except(OBEYING_STAR, "bingbot") },
    // `*` re-opens /admin/public/; a training group blocks all of "/".
    { path: "/admin/public/x", blocked: AI_TRAINING },
    // Every crawler of a blocked category, but bingbot (the owner's group wins) and the
    // seo-tool Google-InspectionTool (shielded: it would otherwise follow the generated Googlebot group).
    {
      path: "/members/x",
      blocked: except([...SEARCH_ENGINE, ...AI_SEARCH, ...AI_ASSISTANT, ...AI_TRAINING], "bingbot"),
    },
    { path: "/private/x", blocked: ["bingbot", ...AI_TRAINING] },
  ].map((row) => ({ ...row, setting: "issue", origin: ORIGIN_WITH_BINGBOT, purposes: ISSUE_SETTING })),
  // The origin has no robots.txt: the generated lines are the whole file.
  ...[
    { path: "/", blocked: AI_TRAINING },
    { path: "/admin/x", blocked: AI_TRAINING },
    { path: "/members/x", blocked: [...SEARCH_ENGINE, ...AI_SEARCH, ...AI_ASSISTANT, ...AI_TRAINING] },
  ].map((row) => ({ ...row, setting: "issue, no origin file", origin: undefined, purposes: ISSUE_SETTING })),
  ...[
    { path: "/a.html", blocked: [] },
    { path: "/docs/x", blocked: AI_TRAINING },
    { path: "/docs/a.html", blocked: AI_TRAINING },
    { path: "/docs/open/x", blocked: AI_TRAINING },
    { path: "/tmp/x", blocked: OBEYING_STAR },
    { path: "/tmp/x.html", blocked: [] },
    // Named: Googlebot only; the crawlers falling back to it (Googlebot-Image, Applebot…) are shielded.
    { path: "/nosearch/x", blocked: ["Googlebot"] },
  ].map((row) => ({ ...row, setting: "named", origin: ORIGIN_WITH_WILDCARD_ALLOW, purposes: NAMED_SETTING })),
];

function purposesOf(value: unknown): Purposes {
  const problems: string[] = [];
  const purposes = readPurposes(value, "purposes", problems);
  expect(problems).toEqual([]);
  return purposes;
}

function edgeAction(body: Uint8Array, token: string, path: string): string {
  const action = decideEdge(
    gatheredFacts({
      agent: agentForTokens([token]),
      pathAndQuery: path,
      robots: { state: "ok", matcher: compileRobots(parseRobotsTxt(body)), retryAfter: 0 },
      now: Date.UTC(2026, 10, 23),
      needsVerification: true,
      verification: VERIFIED,
    }),
  );
  return "gather" in action ? `gather ${action.gather}` : action.action;
}

describe("the token lists of this file are the crawler table", () => {
  it("every table token is in exactly one list, and no list names a token the table lacks", () => {
    expect(EVERY_TOKEN.toSorted()).toEqual(KNOWN_CRAWLERS.map((crawler) => crawler.token).toSorted());
    const ignoring = KNOWN_CRAWLERS.filter((crawler) => !crawler.obeysGlobalGroup).map((crawler) => crawler.token);
    expect(IGNORING_STAR.toSorted()).toEqual(ignoring.toSorted());
  });
});

describe("settings × every crawler of the table × paths: the edge's action on the served file", () => {
  it.each(ROWS)("$setting: $path", ({ origin, purposes, path, blocked }) => {
    const served = compilePurposes(origin, purposesOf(purposes));
    expect(served.applied).toBe(true);
    const refused = EVERY_TOKEN.filter((token) => edgeAction(served.body, token, path) === "block");
    expect(refused.toSorted()).toEqual([...blocked].toSorted());
    const passed = EVERY_TOKEN.filter((token) => edgeAction(served.body, token, path) === "pass");
    expect(passed.length + refused.length).toBe(EVERY_TOKEN.length);
  });
});

// A small table of crawlers, so the served file can be written out whole.
const TINY_TABLE: readonly KnownCrawler[] = [
  tiny("Searchbot", "search-engine", []),
  tiny("Searchbot-Image", "search-engine", ["Searchbot"]),
  tiny("Mapbot", "other", ["Searchbot"]),
  tiny("Trainbot", "ai-training", []),
  tiny("Askbot", "ai-assistant", [], false),
];
const TINY_SWITCHES: readonly PurposeSwitch[] = [
  { token: "Searchbot-Extended", category: "ai-training", governs: "Searchbot", operator: "Search Inc.", docs: "test" },
];

function tiny(token: string, category: KnownCrawler["category"], fallbacks: string[], obeys = true): KnownCrawler {
  return {
    token,
    fallbacks,
    obeysGlobalGroup: obeys,
    honoursRateLimits: false,
    rateLimitsSource: "test",
    operator: "test",
    category,
    docs: "test",
  };
}

describe("the served file, written out", () => {
  it("origin untouched after the generated lines; `*` restated; shields; usage lines; the switch", () => {
    const origin = "User-agent: *\nDisallow: /admin/\nAllow: /admin/help/\nCrawl-delay: 5\n";
    const served = compilePurposes(
      origin,
      purposesOf([
        { path: "/", "ai-training": "block", "ai-assistant": "allow" },
        { path: "/members/", "search-engine": "block", "ai-assistant": "block" },
      ]),
      TINY_TABLE,
      TINY_SWITCHES,
    );
    expect(new TextDecoder().decode(served.body)).toBe(
      [
        "# robots-edge: lines generated from the site's purposes setting",
        "",
        "# usage preferences, merged into the origin's User-agent: * group (named groups do not inherit them)",
        "User-agent: *",
        "Content-Usage: / train-ai=n",
        "Content-Signal: / ai-input=yes, ai-train=no",
        "Content-Usage: /members/ train-ai=n, search=n",
        "Content-Signal: /members/ search=no, ai-input=no, ai-train=no",
        "Disallow:",
        "",
        "# search-engine: blocked on /members/",
        "User-agent: Searchbot",
        "User-agent: Searchbot-Image",
        "# restated from the origin's User-agent: * group (a named group does not inherit it)",
        "Disallow: /admin/",
        "Allow: /admin/help/",
        "Disallow: /members/",
        "Crawl-delay: 5",
        "",
        "# Mapbot would otherwise follow the generated Searchbot group; it keeps the rules it had",
        "User-agent: Mapbot",
        "# restated from the origin's User-agent: * group (a named group does not inherit it)",
        "Disallow: /admin/",
        "Allow: /admin/help/",
        "Crawl-delay: 5",
        "",
        "# ai-training: blocked on /",
        "User-agent: Trainbot",
        "User-agent: Searchbot-Extended",
        "Disallow: /",
        "Crawl-delay: 5",
        "",
        "# ai-assistant: blocked on /members/",
        "User-agent: Askbot",
        "Disallow: /members/",
        "",
        "# robots-edge: end of generated lines; the origin's robots.txt follows, unchanged",
        "",
        "",
      ].join("\n") + origin,
    );
    expect(served.notes).toEqual([
      {
        severity: "info",
        message:
          "Searchbot fetches for search and, through Searchbot-Extended, for ai-training: a group for Searchbot-Extended asks Search Inc. not to use what Searchbot fetches on / for it. Searchbot itself is blocked only where the setting blocks it.",
      },
    ]);
  });

  it("a training block never blocks the search crawler it shares an operator with, and says so", () => {
    const served = compilePurposes("", purposesOf([{ path: "/", "ai-training": "block" }]), TINY_TABLE, TINY_SWITCHES);
    const text = new TextDecoder().decode(served.body);
    expect(text).not.toContain("User-agent: Searchbot\n");
    expect(text).toContain("User-agent: Searchbot-Extended\nDisallow: /\n");
    expect(served.notes.map((note) => note.message)).toEqual([
      'Searchbot fetches for search and, through Searchbot-Extended, for ai-training: a group for Searchbot-Extended asks Search Inc. not to use what Searchbot fetches on / for it. Searchbot itself is not blocked (that would take the site out of search); name it ("Searchbot": "block") to block it.',
    ]);
  });

  it("a Disallow is padded with `*` to outrank a longer `*` Allow that matches inside it", () => {
    const served = compilePurposes(
      "User-agent: *\nAllow: /*/index.html\n",
      purposesOf([{ path: "/a/", "ai-training": "block" }]),
      TINY_TABLE,
      [],
    );
    const text = new TextDecoder().decode(served.body);
    // "/*/index.html" is 13 long; "/a/" + 11 `*` is 14.
    expect(text).toContain(
      "User-agent: Trainbot\n# restated from the origin's User-agent: * group (a named group does not inherit it)\nAllow: /*/index.html\nDisallow: /a/***********\n",
    );
    const matcher = compileRobots(parseRobotsTxt(served.body));
    expect(matcher.decide(["Trainbot"], "/a/index.html").allowed).toBe(false);
    expect(matcher.decide(["Trainbot"], "/b/index.html").allowed).toBe(true);
  });

  it("the owner's group for a token wins; the lint says where it and the purposes disagree", () => {
    const served = compilePurposes(
      "User-agent: Trainbot\nDisallow: /private/\n",
      purposesOf([{ path: "/", "ai-training": "block" }]),
      TINY_TABLE,
      [],
    );
    const text = new TextDecoder().decode(served.body);
    expect(text).not.toContain("User-agent: Trainbot\nDisallow: /\n");
    expect(served.notes).toEqual([
      {
        severity: "warning",
        message:
          "Trainbot: the origin's own group (user-agent line 1) allows /, where purposes block ai-training; the owner's group wins and nothing is generated for Trainbot",
      },
    ]);
  });

  it("an owner's group too costly to match on the blocked prefix: a note says so, the owner's group still wins", () => {
    // 4,000 distinct wildcard rules for Trainbot, a 100-character prefix: one pass past the
    // matcher's budget (core/match-budget.ts: 4,000 × 96 steps).
    let origin = "User-agent: Trainbot\n";
    for (let n = 0; n < 4_000; n++) origin += `Disallow: /*a${n.toString(36)}\n`;
    const prefix = `/${"a".repeat(99)}`;
    const served = compilePurposes(origin, purposesOf([{ path: prefix, "ai-training": "block" }]), TINY_TABLE, []);
    expect(new TextDecoder().decode(served.body)).not.toContain(`Disallow: ${prefix}`);
    expect(served.notes).toEqual([
      {
        severity: "warning",
        message:
          "Trainbot: whether the origin's own group allows /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, where purposes block ai-training, could not be checked (matching the path against this robots.txt would take more than 300000 steps (its wildcard rules, or the groups naming the crawler, are too many for a path that long): the decision was not made); the owner's group wins and nothing is generated for Trainbot",
      },
    ]);
  });

  it("an allow under a block of the same crawler is reported, and the block stands", () => {
    const served = compilePurposes(
      "",
      purposesOf([
        { path: "/", "ai-training": "block" },
        { path: "/free/", "ai-training": "allow" },
      ]),
      TINY_TABLE,
      [],
    );
    expect(served.notes.map((note) => note.message)).toEqual([
      'Trainbot: "allow" on /free/ cannot re-open /, blocked for ai-training; it stays blocked',
    ]);
    expect(compileRobots(parseRobotsTxt(served.body)).decide(["Trainbot"], "/free/x").allowed).toBe(false);
  });

  it("a served file past what a crawler reads is not generated: the origin's file is served alone", () => {
    const origin = "User-agent: *\n" + "Disallow: /x\n".repeat(40_000);
    const served = compilePurposes(origin, purposesOf([{ path: "/", "search-engine": "block" }]));
    expect(served.applied).toBe(false);
    expect(new TextDecoder().decode(served.body)).toBe(origin);
    expect(served.notes.at(-1)?.message).toMatch(
      /more than a crawler reads \(512000\); the origin's file is served alone/,
    );
  });

  it("no setting that adds nothing: the origin's bytes exactly", () => {
    const served = compilePurposes("User-agent: *\nDisallow: /a\n", []);
    expect(new TextDecoder().decode(served.body)).toBe("User-agent: *\nDisallow: /a\n");
  });
});

describe("purposes in the policy document: validation with problems on lines", () => {
  it.each([
    {
      json: { purposes: "all" },
      problem: 'purposes must be a list of {"path": …, "<category>": "allow" | "block"}',
      line: 2,
    },
    {
      json: { purposes: [{ path: "/a*", "ai-training": "block" }] },
      problem: 'purposes[0].path must be a path prefix starting with "/"',
      line: 4,
    },
    {
      json: { purposes: [{ path: "/", "ai-training": "deny" }] },
      problem: 'purposes[0].ai-training must be "allow" or "block", got "deny"',
      line: 5,
    },
    {
      json: { purposes: [{ path: "/", "ai training": "block" }] },
      problem: "purposes[0].ai training is neither a crawler category",
      line: 3,
    },
    {
      json: { purposes: [{ path: "/a/" }, { path: "/a/" }] },
      problem: 'purposes[1].path "/a/" repeats purposes[0]',
      line: 7,
    },
    {
      json: { purposes: [{ path: "/a\nUser-agent: *\nDisallow: /", "ai-training": "block" }] },
      problem: 'purposes[0].path must be a path prefix starting with "/"',
      line: 4,
    },
    {
      json: { purposes: [{ path: "/", "GPTBot\nDisallow: /": "block" }] },
      problem: "is neither a crawler category",
      line: 3,
    },
    {
      json: { purposes: Array.from({ length: 33 }, (_, i) => ({ path: `/p${i}/` })) },
      problem: "purposes has 33 entries; at most 32",
      line: 2,
    },
    {
      json: {
        purposes: [{ path: "/", ...Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`Bot${i}`, "block"])) }],
      },
      problem: "purposes[0] names 17 crawlers; at most 16",
      line: 3,
    },
  ])("$problem", ({ json, problem, line }) => {
    const text = JSON.stringify(json, null, 2);
    const parsed = parsePolicy(text);
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems[0]).toContain(problem);
    expect(locateProblems(text, problems)[0]?.line).toBe(line);
  });

  it("a policy may hold purposes and no routes; both are kept", () => {
    const parsed = parsePolicy(JSON.stringify({ purposes: ISSUE_SETTING }));
    expect(parsed.ok && parsed.value.policy).toEqual({
      routes: [],
      purposes: [
        {
          path: "/",
          categories: {
            "search-engine": "allow",
            "ai-search": "allow",
            "ai-assistant": "allow",
            "ai-training": "block",
          },
          crawlers: {},
        },
        {
          path: "/members/",
          categories: {
            "search-engine": "block",
            "ai-search": "block",
            "ai-assistant": "block",
            "ai-training": "block",
          },
          crawlers: {},
        },
      ],
    });
  });
});
