// File format, as the spec documents state it (th "File format" / "Syntax", bn/hi "File
// format" and the formal syntax), and the diagnostics lint prints for each oddity.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileRobots, MAX_ROBOTS_BYTES, parseRobotsTxt, type DiagnosticCode } from "../../src/core/index.ts";

function disallowedFor(robots: string | Uint8Array, token: string, path: string): boolean {
  return !compileRobots(parseRobotsTxt(robots)).decide([token], path).allowed;
}

function codes(robots: string | Uint8Array): DiagnosticCode[] {
  return parseRobotsTxt(robots).diagnostics.map((diagnostic) => diagnostic.code);
}

// th: "lines separated by CR, CR/LF or LF"; "Google ignores … the Unicode BOM at the start".
const formatRows = [
  { name: "rfc9309 §2.2 LF line ends", robots: "User-agent: a\nDisallow: /x\n" },
  { name: "rfc9309 §2.2 CRLF line ends", robots: "User-agent: a\r\nDisallow: /x\r\n" },
  { name: "rfc9309 §2.2 CR-only line ends", robots: "User-agent: a\rDisallow: /x\r" },
  { name: "rfc9309 §2.2 no final line end", robots: "User-agent: a\nDisallow: /x" },
  { name: "google a leading UTF-8 BOM is ignored", robots: "\uFEFFUser-agent: a\nDisallow: /x\n" },
  { name: "rfc9309 §2.2 comments after values", robots: "User-agent: a # the a crawler\nDisallow: /x # not x\n" },
  { name: "rfc9309 §2.2 whitespace around keys and values", robots: "  User-agent :   a  \n\tDisallow\t:\t/x\t\n" },
  { name: "rfc9309 §2.2 no space after the colon", robots: "User-agent:a\nDisallow:/x\n" },
  { name: "rfc9309 §2.2 field names are case-insensitive", robots: "USER-AGENT: a\ndisALLOW: /x\n" },
  { name: "rfc9309 §2.2.1 user-agent values are case-insensitive", robots: "User-agent: A\nDisallow: /x\n" },
  {
    name: "rfc9309 §2.2 comment lines and blank lines between",
    robots: "# head\n\nUser-agent: a\n# note\n\nDisallow: /x\n",
  },
  { name: "google missing colon with exactly two words", robots: "User-agent a\nDisallow /x\n" },
  { name: "google misspelt user-agent (useragent)", robots: "Useragent: a\nDisallow: /x\n" },
  { name: "google misspelt user-agent (user agent)", robots: "User agent: a\nDisallow: /x\n" },
  { name: "google misspelt disallow (dissallow)", robots: "User-agent: a\nDissallow: /x\n" },
  { name: "google misspelt disallow (dissalow)", robots: "User-agent: a\nDissalow: /x\n" },
  { name: "google misspelt disallow (disalow)", robots: "User-agent: a\nDisalow: /x\n" },
  { name: "google misspelt disallow (diasllow)", robots: "User-agent: a\nDiasllow: /x\n" },
  { name: "google misspelt disallow (disallaw)", robots: "User-agent: a\nDisallaw: /x\n" },
  { name: "google key read by prefix (Disallowed)", robots: "User-agent: a\nDisallowed: /x\n" },
  { name: "google version after the product token", robots: "User-agent: a/1.2\nDisallow: /x\n" },
  { name: "google star after the product token", robots: "User-agent: a*\nDisallow: /x\n" },
  {
    name: "google text after a space in the user-agent value",
    robots: "User-agent: a crawler of things\nDisallow: /x\n",
  },
];

describe("robots.txt format: every spelling below means 'a may not fetch /x'", () => {
  it.each(formatRows)("$name", ({ robots }) => {
    expect(disallowedFor(robots, "a", "/x")).toBe(true);
    expect(disallowedFor(robots, "a", "/y")).toBe(false);
  });
});

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe("bytes", () => {
  it("google a partial BOM is skipped too", () => {
    const bytes = new Uint8Array([0xef, 0xbb, ...bytesOf("User-agent: a\nDisallow: /x\n")]);
    expect(disallowedFor(bytes, "a", "/x")).toBe(true);
  });

  it("google bytes that are not UTF-8 are skipped, and the line is reported", () => {
    const bytes = new Uint8Array([
      ...bytesOf("User-agent: b\nDisallow: /b\nUser-agent: *"),
      0xa0,
      ...bytesOf("\nDisallow: /x\n"),
    ]);
    const robots = parseRobotsTxt(bytes);
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ code: "invalid-utf8", line: 3 }));
    expect(disallowedFor(bytes, "anybot", "/x")).toBe(true);
  });

  it("rfc9309 §2.5 content past 500 KiB is ignored", () => {
    const head = "User-agent: *\nDisallow: /kept\n#";
    const filler = "x".repeat(MAX_ROBOTS_BYTES - head.length - 1);
    const robots = `${head}${filler}\nDisallow: /lost\n`;
    const parsed = parseRobotsTxt(robots);
    expect(parsed.truncated).toBe(true);
    expect(parsed.bytes).toBe(robots.length);
    expect(codes(robots)).toContain("truncated");
    expect(disallowedFor(robots, "anybot", "/kept")).toBe(true);
    expect(disallowedFor(robots, "anybot", "/lost")).toBe(false);
  });

  it("rfc9309 §2.5 a file of exactly 500 KiB is read whole", () => {
    const head = "User-agent: *\nDisallow: /kept\n#";
    const tail = "\nDisallow: /last";
    const robots = `${head}${"x".repeat(MAX_ROBOTS_BYTES - head.length - tail.length)}${tail}`;
    expect(robots.length).toBe(MAX_ROBOTS_BYTES);
    expect(parseRobotsTxt(robots).truncated).toBe(false);
    expect(disallowedFor(robots, "anybot", "/last")).toBe(true);
  });

  it("a cut inside a multi-byte character drops the partial character", () => {
    const head = "User-agent: *\nDisallow: /";
    const robots = `${head}${"é".repeat(MAX_ROBOTS_BYTES)}`;
    const parsed = parseRobotsTxt(robots);
    expect(parsed.truncated).toBe(true);
    expect(codes(robots)).not.toContain("invalid-utf8");
  });
});

// Google's parser reads each line as a C string, so a NUL byte ends the line (google/robotstxt
// robots.cc ParseAndEmitLine). Keeping the NUL would let a trailing NUL switch a rule or a
// whole group off unseen.
const nulRows: { name: string; robots: string; agent: string; path: string; allowed: boolean }[] = [
  {
    name: "google NUL in the key: no colon left",
    robots: "User-agent\0: *\nDisallow: /x\n",
    agent: "a",
    path: "/x",
    allowed: true,
  },
  {
    name: "google NUL after a rule's path",
    robots: "User-agent: *\nDisallow: /private/\0junk\n",
    agent: "a",
    path: "/private/y",
    allowed: false,
  },
  {
    name: "google NUL ending a rule's path",
    robots: "User-agent: *\nDisallow: /private/\0\n",
    agent: "a",
    path: "/private/y",
    allowed: false,
  },
  {
    name: "google NUL ending User-agent: *",
    robots: "User-agent: *\0\nDisallow: /\n",
    agent: "a",
    path: "/x",
    allowed: false,
  },
  {
    name: "google NUL inside a product token",
    robots: "User-agent: a\0b\nDisallow: /\n",
    agent: "a",
    path: "/x",
    allowed: false,
  },
  {
    name: "google NUL right after the colon: empty rule",
    robots: "User-agent: *\nDisallow:\0/x\n",
    agent: "a",
    path: "/x",
    allowed: true,
  },
];

describe("NUL bytes", () => {
  it.each(nulRows)("$name", ({ robots, agent, path, allowed }) => {
    expect(disallowedFor(robots, agent, path)).toBe(!allowed);
    expect(codes(robots)).toContain("nul-byte");
  });
});

describe("line numbers", () => {
  it.each([
    ["LF", "a\nUser-agent: x\nDisallow: /p\n"],
    ["CRLF", "a\r\nUser-agent: x\r\nDisallow: /p\r\n"],
    ["CR", "a\rUser-agent: x\rDisallow: /p\r"],
    ["mixed", "a\r\nUser-agent: x\rDisallow: /p\n"],
  ])("count %s line ends alike", (_name, robots) => {
    expect(compileRobots(parseRobotsTxt(robots)).decide(["x"], "/p").rule?.line).toBe(3);
  });
});

describe("groups", () => {
  it("rfc9309 §2.1 rules before any user-agent line apply to no one, and are an error", () => {
    const robots = "Disallow: /x\nUser-agent: *\nDisallow: /y\n";
    expect(disallowedFor(robots, "anybot", "/x")).toBe(false);
    expect(parseRobotsTxt(robots).diagnostics).toContainEqual(
      expect.objectContaining({ code: "rule-outside-group", line: 1, severity: "error" }),
    );
  });

  it("rfc9309 §2.2.2 an empty disallow is ignored but still closes the user-agent lines", () => {
    const robots = "User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /\n";
    expect(disallowedFor(robots, "a", "/x")).toBe(false);
    expect(disallowedFor(robots, "b", "/x")).toBe(true);
  });

  it("rfc9309 §2.2.1 a crawler with a group ignores * even when its group has no matching rule", () => {
    const robots = "User-agent: a\nDisallow: /only\n\nUser-agent: *\nDisallow: /\n";
    expect(disallowedFor(robots, "a", "/x")).toBe(false);
    expect(compileRobots(parseRobotsTxt(robots)).decide(["a"], "/x").reason).toBe("no-matching-rule");
  });

  it("rfc9309 §2.2.1 several * groups are merged, and lint warns", () => {
    const robots = "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n";
    expect(disallowedFor(robots, "x", "/a")).toBe(true);
    expect(disallowedFor(robots, "x", "/b")).toBe(true);
    expect(codes(robots)).toContain("repeated-global-group");
  });

  it("google '* something' still names the * group", () => {
    expect(disallowedFor("User-agent: * everyone\nDisallow: /x\n", "anybot", "/x")).toBe(true);
  });

  it("rfc9309 §2.2.1 a user-agent value with no product token matches no crawler", () => {
    const robots = "User-agent: *bot\nDisallow: /x\n";
    expect(disallowedFor(robots, "anybot", "/x")).toBe(false);
    expect(codes(robots)).toContain("agent-empty");
  });

  it("a user-agent line names its whole token and Google's reading of it (src/core/product-token.ts)", () => {
    const robots = "User-agent: MJ12bot\nDisallow: /x\n";
    expect(disallowedFor(robots, "MJ12bot", "/x")).toBe(true);
    expect(disallowedFor(robots, "mj", "/x")).toBe(true);
    expect(disallowedFor(robots, "mj1", "/x")).toBe(false);
  });

  it("no group at all: everything is allowed", () => {
    expect(compileRobots(parseRobotsTxt("")).decide(["a"], "/x")).toEqual({ allowed: true, reason: "no-group" });
  });

  it("rfc9309 §2.2.2 /robots.txt is always allowed", () => {
    const decision = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /\n")).decide(["a"], "/robots.txt");
    expect(decision).toMatchObject({ allowed: true, reason: "robots-txt" });
  });

  it("google allow /dir/index.html also allows /dir/", () => {
    const robots = "User-agent: *\nDisallow: /\nAllow: /dir/index.html\n";
    expect(disallowedFor(robots, "a", "/dir/")).toBe(false);
    expect(disallowedFor(robots, "a", "/dir/other")).toBe(true);
  });
});

describe("extension records (en manual)", () => {
  const manual = `User-agent: slowbot
Crawl-delay: 2.5
Request-rate: 1/30
Request-rate: 10/1m 0600-0845
Visit-time: 2200-0530
Comment: be kind
Robot-version: 2.0
Content-Signal: ai-train=no
Disallow: /x
`;
  const group = parseRobotsTxt(manual).groups[0];

  it("keeps each as a typed value with its line", () => {
    expect(group?.extensions).toEqual({
      crawlDelay: { seconds: 2.5, line: 2 },
      requestRates: [
        { requests: 1, seconds: 30, line: 3 },
        { requests: 10, seconds: 60, window: { start: 360, end: 525 }, line: 4 },
      ],
      visitTime: { start: 1320, end: 330, line: 5 },
      comments: [{ text: "be kind", line: 6 }],
      robotVersion: { version: "2.0", line: 7 },
      usage: [
        {
          format: "content-signal",
          pattern: "",
          statement: "ai-train=no",
          preferences: [{ key: "ai-train", allow: false }],
          others: [],
          valid: true,
          line: 8,
        },
      ],
      others: [],
    });
  });

  it("they do not end the group's user-agent lines", () => {
    const between = "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n";
    expect(parseRobotsTxt(between).groups.map((g) => g.agents)).toEqual([["a", "b"]]);
  });

  // Each row names the field its line would set, and asserts that very field stays unset.
  it.each([
    { line: "Crawl-delay: fast", field: "crawlDelay" },
    { line: "Crawl-delay: -1", field: "crawlDelay" },
    { line: "Request-rate: 1/0", field: "requestRates" },
    { line: "Request-rate: often", field: "requestRates" },
    { line: "Visit-time: 2500-0100", field: "visitTime" },
    { line: "Visit-time: evenings", field: "visitTime" },
  ] as const)("$line is an error and sets no $field", ({ line, field }) => {
    const robots = `User-agent: a\n${line}\n`;
    expect(codes(robots)).toContain("invalid-value");
    const extensions = parseRobotsTxt(robots).groups[0]?.extensions;
    expect(extensions).toBeDefined();
    const value = extensions?.[field];
    expect(Array.isArray(value) ? value : value === undefined ? [] : [value]).toEqual([]);
  });

  it("a second crawl-delay in a group: the first wins, lint warns", () => {
    const parsed = parseRobotsTxt("User-agent: a\nCrawl-delay: 1\nCrawl-delay: 9\n");
    expect(parsed.groups[0]?.extensions.crawlDelay?.seconds).toBe(1);
    expect(parsed.diagnostics.map((d) => d.code)).toContain("duplicate-value");
  });

  it("merged groups keep the first crawl-delay and all request-rates", () => {
    const merged = compileRobots(
      parseRobotsTxt("User-agent: a\nCrawl-delay: 1\n\nUser-agent: a\nCrawl-delay: 9\nRequest-rate: 1/5\n"),
    );
    expect(merged.groupFor(["a"])?.extensions.crawlDelay?.seconds).toBe(1);
    expect(merged.groupFor(["a"])?.extensions.requestRates).toHaveLength(1);
  });
});

describe("sitemaps", () => {
  it("th: collected from anywhere, case kept, non-ASCII allowed", () => {
    const robots = `user-agent: otherbot
disallow: /kale

sitemap: https://example.com/sitemap.xml
sitemap: https://cdn.example.org/other-sitemap.xml
sitemap: https://ja.example.org/テスト-サイトマップ.xml
`;
    expect(parseRobotsTxt(robots).sitemaps.map((s) => s.url)).toEqual([
      "https://example.com/sitemap.xml",
      "https://cdn.example.org/other-sitemap.xml",
      "https://ja.example.org/テスト-サイトマップ.xml",
    ]);
    expect(disallowedFor(robots, "otherbot", "/kale")).toBe(true);
  });

  // cr "Sitemap:" example lines, and its first example file (a sitemap after the `*` group).
  it("cr: each Sitemap line is kept, whatever group precedes it", () => {
    const robots = `User-agent: Googlebot
Disallow: /nogooglebot/

User-agent: *
Allow: /

Sitemap: https://example.com/sitemap.xml
Sitemap: http://www.example.com/sitemap.xml
`;
    expect(parseRobotsTxt(robots).sitemaps).toEqual([
      { url: "https://example.com/sitemap.xml", line: 7 },
      { url: "http://www.example.com/sitemap.xml", line: 8 },
    ]);
    expect(disallowedFor(robots, "googlebot", "/nogooglebot/x")).toBe(true);
  });
});

// One row per diagnostic code: what lint says about each kind of oddity.
const diagnosticRows: { robots: string; code: DiagnosticCode; line: number; severity: string }[] = [
  {
    robots: "<!DOCTYPE html>\n<html><body>Not found</body></html>\n",
    code: "html-content",
    line: 1,
    severity: "error",
  },
  { robots: "User-agent: *\nthis is not a directive\n", code: "not-key-value", line: 2, severity: "warning" },
  { robots: "User-agent: *\nDisallow /x\n", code: "missing-colon", line: 2, severity: "warning" },
  { robots: "User-agent: *\nDissalow: /x\n", code: "misspelt-field", line: 2, severity: "warning" },
  { robots: "User-agent: *\nHost: example.com\n", code: "unknown-field", line: 2, severity: "info" },
  { robots: "Disallow: /x\n", code: "rule-outside-group", line: 1, severity: "error" },
  { robots: "Crawl-delay: 5\nUser-agent: *\n", code: "extension-outside-group", line: 1, severity: "warning" },
  { robots: "User-agent: *\nDisallow: private\n", code: "path-not-rooted", line: 2, severity: "error" },
  { robots: "User-agent: *\nDisallow:\n", code: "empty-rule", line: 2, severity: "info" },
  {
    robots: "User-agent: Mozilla/5.0 (compatible; Googlebot/2.1)\nDisallow: /\n",
    code: "agent-not-product-token",
    line: 1,
    severity: "warning",
  },
  { robots: "User-agent: googlebot/1.2\nDisallow: /\n", code: "agent-not-product-token", line: 1, severity: "info" },
  { robots: "User-agent: /bot\nDisallow: /\n", code: "agent-empty", line: 1, severity: "warning" },
  { robots: "User-agent: MJ12bot\nDisallow: /\n", code: "agent-google-reading", line: 1, severity: "info" },
  { robots: "Sitemap: /sitemap.xml\n", code: "sitemap-not-absolute", line: 1, severity: "warning" },
  { robots: `User-agent: *\nDisallow: /${"a".repeat(20_000)}\n`, code: "line-too-long", line: 2, severity: "warning" },
  { robots: "User-agent: *\nDisallow: /x\0\n", code: "nul-byte", line: 2, severity: "warning" },
];

describe("diagnostics", () => {
  it.each(diagnosticRows)("$code at line $line ($severity)", ({ robots, code, line, severity }) => {
    expect(parseRobotsTxt(robots).diagnostics).toContainEqual(expect.objectContaining({ code, line, severity }));
  });

  it("a clean file has none", () => {
    expect(
      parseRobotsTxt("User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nSitemap: https://e.com/s.xml\n")
        .diagnostics,
    ).toEqual([]);
  });

  it("an HTML page yields its valid lines only", () => {
    const html = "<html>\n<head><title>x</title></head>\n<body>\nUser-agent: *\nDisallow: /secret\n</body>\n</html>\n";
    expect(disallowedFor(html, "anybot", "/secret")).toBe(true);
  });

  it("hostile input cannot grow the diagnostics without bound", () => {
    const robots = "nonsense line here\n".repeat(20_000);
    expect(parseRobotsTxt(robots).diagnostics.length).toBeLessThanOrEqual(1001);
  });
});

// RFC 9309 §2.3 wants UTF-8, and Google reads UTF-16 as bytes (so it finds no rules). A file
// with a UTF-16 byte-order mark is decoded (text.ts), and lint says so.
function utf16(text: string, bigEndian: boolean, mark: number[]): Uint8Array {
  const units = [...text].flatMap((char) => {
    const code = char.charCodeAt(0);
    return bigEndian ? [code >> 8, code & 255] : [code & 255, code >> 8];
  });
  return new Uint8Array([...mark, ...units]);
}

const utf16Rows = [
  {
    name: "UTF-16LE with its mark",
    bytes: utf16("User-agent: *\r\nDisallow: /x\r\n", false, [0xff, 0xfe]),
    code: "utf16",
  },
  { name: "UTF-16BE with its mark", bytes: utf16("User-agent: *\nDisallow: /x\n", true, [0xfe, 0xff]), code: "utf16" },
  {
    name: "UTF-16LE behind a mark re-encoded as UTF-8 (ÿþ, corpus 0232.txt)",
    bytes: utf16("User-agent: *\rDisallow: /x\r", false, [0xc3, 0xbf, 0xc3, 0xbe]),
    code: "utf16-mangled-bom",
  },
] as const;

describe("UTF-16", () => {
  it.each(utf16Rows)("$name is decoded and reported ($code)", ({ bytes, code }) => {
    expect(disallowedFor(bytes, "anybot", "/x")).toBe(true);
    expect(disallowedFor(bytes, "anybot", "/y")).toBe(false);
    expect(parseRobotsTxt(bytes).diagnostics).toContainEqual(
      expect.objectContaining({ code, line: 1, severity: "warning" }),
    );
  });

  it("a UTF-8 file starting with ÿþ and text is not UTF-16", () => {
    const bytes = bytesOf("ÿþ\nUser-agent: *\nDisallow: /x\n");
    expect(disallowedFor(bytes, "anybot", "/x")).toBe(true);
    expect(codes(bytes)).not.toContain("utf16-mangled-bom");
  });

  it("the corpus file 0232.txt (UTF-16LE, mangled mark) yields its rules", () => {
    const bytes = new Uint8Array(readFileSync(new URL("../fixtures/corpus/robots/0232.txt", import.meta.url)));
    expect(disallowedFor(bytes, "anybot", "/admin")).toBe(true);
    expect(disallowedFor(bytes, "anybot", "/cgi-bin/x")).toBe(true);
    expect(disallowedFor(bytes, "anybot", "/")).toBe(false);
  });
});
