// The origin's lines that belong to no group (before its first user-agent line) stay inert in
// the served file: src/policy/stray-lines.ts through compilePurposes. Outside attack, session 7
// (test/worker/attack-session7.test.ts, purposes rows): they joined the last generated group.
import { describe, expect, it } from "vitest";
import type { KnownCrawler } from "../../src/agents/operators/tables.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { compilePurposes } from "../../src/policy/purposes-robots.ts";
import { generatedLineCount, withCitedLines } from "../../src/policy/served-lines.ts";
import { readPurposes, type Purposes } from "../../src/policy/purposes.ts";

function crawler(token: string, category: KnownCrawler["category"], fallbacks: string[] = []): KnownCrawler {
  return {
    token,
    fallbacks,
    obeysGlobalGroup: true,
    honoursRateLimits: false,
    rateLimitsSource: "test",
    operator: "test",
    category,
    docs: "test",
  };
}
const TABLE = [crawler("Searchbot", "search-engine"), crawler("Trainbot", "ai-training")];

function purposesOf(value: unknown): Purposes {
  const problems: string[] = [];
  const purposes = readPurposes(value, "purposes", problems);
  expect(problems).toEqual([]);
  return purposes;
}

const SEARCH_ALLOW = purposesOf([{ path: "/", "search-engine": "allow" }]);
const TRAIN_BLOCK_MEMBERS = purposesOf([{ path: "/members/", "ai-training": "block" }]);
const decoder = new TextDecoder();
const encode = (text: string) => [...new TextEncoder().encode(text)];

/** The served file's text after the generated lines: the origin's part as served. */
function originPart(origin: string | Uint8Array, purposes = SEARCH_ALLOW): string {
  const served = compilePurposes(origin, purposes, TABLE, []);
  expect(served.applied).toBe(true);
  const text = decoder.decode(served.body);
  expect(text.startsWith(served.generated)).toBe(true);
  return text.slice(served.generated.length);
}

function allowed(body: string | Uint8Array, token: string, path: string): boolean {
  return compileRobots(parseRobotsTxt(body)).decide([token], path, { obeysGlobalGroup: true }).allowed;
}

describe("the served file, written out, with a stray line in the origin's file", () => {
  it("attack repro A: a stray `Disallow: /` is served commented out, and refuses no one", () => {
    const origin = "Disallow: /\n\nUser-agent: *\nDisallow: /admin/\n";
    const served = compilePurposes(origin, SEARCH_ALLOW, TABLE, []);
    expect(decoder.decode(served.body)).toBe(
      [
        "# robots-edge: lines generated from the site's purposes setting",
        "",
        "# usage preferences, merged into the origin's User-agent: * group (named groups do not inherit them)",
        "User-agent: *",
        "Content-Usage: / search=y",
        "Content-Signal: / search=yes",
        "Disallow:",
        "",
        "# robots-edge: end of generated lines; the origin's robots.txt follows, its lines before any User-agent line commented out (they apply to no crawler)",
        "",
        "# Disallow: /",
        "",
        "User-agent: *",
        "Disallow: /admin/",
        "",
      ].join("\n"),
    );
    expect(served.notes).toEqual([
      {
        severity: "warning",
        message:
          "the origin's robots.txt has lines before its first user-agent line (line 1); they apply to no crawler, and the served file carries them commented out so they cannot join a generated group. Put a user-agent line above them if they are meant to apply",
      },
    ]);
    expect(allowed(served.body, "Searchbot", "/blog/")).toBe(true);
    expect(allowed(served.body, "Searchbot", "/admin/x")).toBe(false);
  });

  it("attack repro B: a stray `Allow:` ties nothing, the generated block stands", () => {
    const origin = "Allow: /members/\n\nUser-agent: *\nDisallow: /admin/\n";
    expect(originPart(origin, TRAIN_BLOCK_MEMBERS)).toBe("# Allow: /members/\n\nUser-agent: *\nDisallow: /admin/\n");
    const body = compilePurposes(origin, TRAIN_BLOCK_MEMBERS, TABLE, []).body;
    expect(allowed(body, "Trainbot", "/members/x")).toBe(false);
    expect(allowed(body, "Trainbot", "/blog/")).toBe(true);
    expect(allowed(body, "Searchbot", "/members/x")).toBe(true);
  });
});

describe("every shape of an origin's file: the part after the generated lines, literally", () => {
  it.each([
    {
      why: "no stray line: unchanged",
      origin: "User-agent: *\nDisallow: /a\n# note\nDisallow: /b\n",
      served: "User-agent: *\nDisallow: /a\n# note\nDisallow: /b\n",
    },
    {
      why: "no final line break: unchanged",
      origin: "User-agent: *\nDisallow: /a",
      served: "User-agent: *\nDisallow: /a",
    },
    {
      why: "every group field is commented; blank, comment and sitemap lines stay",
      origin:
        "# site\nSitemap: https://example.test/s.xml\n  \nCrawl-delay: 9\nContent-Usage: train-ai=y\nDissallow: /x\nDisallow /y\nX-Other: z\nDisallow:\nUser-agent: *\nDisallow: /admin/\n",
      served:
        "# site\nSitemap: https://example.test/s.xml\n  \n# Crawl-delay: 9\n# Content-Usage: train-ai=y\n# Dissallow: /x\n# Disallow /y\n# X-Other: z\n# Disallow:\nUser-agent: *\nDisallow: /admin/\n",
    },
    {
      why: "CR-only line endings",
      origin: "Disallow: /\rCrawl-delay: 9\r\rUser-agent: *\rDisallow: /admin/\r",
      served: "# Disallow: /\r# Crawl-delay: 9\r\rUser-agent: *\rDisallow: /admin/\r",
    },
    {
      why: "CR LF line endings",
      origin: "Disallow: /\r\nAllow: /x\r\nUser-agent: *\r\nDisallow: /admin/\r\n",
      served: "# Disallow: /\r\n# Allow: /x\r\nUser-agent: *\r\nDisallow: /admin/\r\n",
    },
    {
      why: "a file of stray lines only, no final line break",
      origin: "Disallow: /\nAllow: /x",
      served: "# Disallow: /\n# Allow: /x",
    },
    {
      why: "indented stray lines; a user-agent line named by Google's misspelling ends them",
      origin: "  Disallow: /\nuseragent: *\nDisallow: /admin/\n",
      served: "#   Disallow: /\nuseragent: *\nDisallow: /admin/\n",
    },
  ])("$why", ({ origin, served }) => {
    expect(originPart(origin)).toBe(served);
  });

  it("a byte order mark is dropped and the first line, a stray rule, commented", () => {
    const bom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode("Disallow: /\nUser-agent: *\nAllow: /\n"),
    ]);
    expect(originPart(bom)).toBe("# Disallow: /\nUser-agent: *\nAllow: /\n");
  });

  it("a partial byte order mark (EF BB) is dropped: it cannot glue to the first user-agent line", () => {
    const origin = new Uint8Array([0xef, 0xbb, 0x80, ...encode("User-agent: *\nDisallow: /admin/\n")]);
    const served = compilePurposes(origin, SEARCH_ALLOW, TABLE, []);
    const tail = served.body.subarray(new TextEncoder().encode(served.generated).length);
    expect([...tail]).toEqual([0x80, ...encode("User-agent: *\nDisallow: /admin/\n")]);
    expect(allowed(served.body, "Searchbot", "/admin/x")).toBe(false);
  });

  it("bytes that are not UTF-8 are served as they came", () => {
    const origin = new Uint8Array([...encode("Disallow: /\xff"), 0xff, 0x0a, ...encode("User-agent: *\n")]);
    const served = compilePurposes(origin, SEARCH_ALLOW, TABLE, []);
    const tail = served.body.subarray(new TextEncoder().encode(served.generated).length);
    expect([...tail]).toEqual([...encode("# Disallow: /\xff"), 0xff, 0x0a, ...encode("User-agent: *\n")]);
  });
});

describe("the served file means what the origin's file means, for every crawler", () => {
  const ORIGINS = [
    { name: "stray Disallow before *", origin: "Disallow: /\n\nUser-agent: *\nDisallow: /admin/\n" },
    {
      name: "stray lines before a named group",
      origin: "Allow: /\nDisallow: /members/\nCrawl-delay: 30\nUser-agent: Searchbot\nDisallow: /s/\n",
    },
    { name: "stray lines only, CR endings", origin: "Disallow: /\rAllow: /x" },
    { name: "one stray line, no line break", origin: "Disallow: /" },
  ];
  const PATHS = ["/", "/blog/", "/admin/x", "/members/x", "/s/x", "/x"];
  // SEARCH_ALLOW generates only the usage group: every answer is the origin file's.
  it.each(ORIGINS.flatMap(({ name, origin }) => PATHS.map((path) => ({ name, origin, path }))))(
    "$name: $path",
    ({ origin, path }) => {
      const body = compilePurposes(origin, SEARCH_ALLOW, TABLE, []).body;
      for (const token of ["Searchbot", "Trainbot", "Otherbot"])
        expect([token, allowed(body, token, path)]).toEqual([token, allowed(origin, token, path)]);
    },
  );
  it("a stray crawl-delay gives the generated group none", () => {
    const served = compilePurposes("Crawl-delay: 30\nUser-agent: *\nDisallow: /a\n", TRAIN_BLOCK_MEMBERS, TABLE, []);
    const groups = parseRobotsTxt(served.body).groups;
    expect(groups.map((group) => group.extensions.crawlDelay?.seconds)).toEqual([undefined, undefined, undefined]);
  });
});

describe("one numbering holds: the origin's lines keep their numbers", () => {
  it("the origin's user-agent and rule lines are cited at their origin numbers", () => {
    const served = compilePurposes("Disallow: /\n\nUser-agent: *\nDisallow: /admin/\n", SEARCH_ALLOW, TABLE, []);
    const model = withCitedLines(parseRobotsTxt(served.body), generatedLineCount(served.generated));
    const origin = model.groups.at(-1);
    expect([origin?.agentLines[0]?.line, origin?.rules[0]?.line]).toEqual([3, 4]);
  });
});

describe("a UTF-16 origin file is not combined with UTF-8 lines", () => {
  it("the origin's bytes are served alone, with a warning", () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ..."Disallow: /\n".split("").flatMap((c) => [c.charCodeAt(0), 0])]);
    const served = compilePurposes(utf16, SEARCH_ALLOW, TABLE, []);
    expect([served.applied, served.generated, [...served.body]]).toEqual([false, "", [...utf16]]);
    expect(served.notes).toEqual([
      {
        severity: "warning",
        message:
          "the origin's robots.txt is UTF-16, which Google does not read; generated UTF-8 lines cannot be put in front of it, so the origin's file is served alone and the purposes are not applied (serve it as UTF-8)",
      },
    ]);
  });
});
