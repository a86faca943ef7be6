// The real-world corpus (test/fixtures/corpus/robots, described in its README): 237 robots.txt files
// as sites served them, HTML error pages, BOMs, bad bytes and a 3.7 MB file included.
// Every file must parse, compile and decide without throwing, and what the parser says about
// each file must agree with the bytes. manifest.tsv drives expectations where it is exact
// (bytes, notes); its counts are rough hints and are not asserted.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  canonicalizePath,
  compileRobots,
  MAX_ROBOTS_BYTES,
  parseRobotsTxt,
  type RobotsTxt,
} from "../../src/core/index.ts";
import { referenceDecide } from "./reference-matcher.ts";

const CORPUS = path.resolve(import.meta.dirname, "../fixtures/corpus/robots");

interface ManifestRow {
  readonly file: string;
  readonly bytes: number;
  readonly notes: string;
}

function readManifest(): Map<string, ManifestRow> {
  const [header = "", ...rows] = readFileSync(path.join(CORPUS, "manifest.tsv"), "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const columns = header.split("\t");
  const at = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? "";
  const entries = rows.map((row) => {
    const cells = row.split("\t");
    return { file: at(cells, "file"), bytes: Number(at(cells, "bytes")), notes: at(cells, "notes") };
  });
  return new Map(entries.map((entry) => [entry.file, entry]));
}

const manifest = readManifest();
const files = readdirSync(CORPUS)
  .filter((name) => name.endsWith(".txt"))
  .toSorted();

const bytesCache = new Map<string, Uint8Array>();
function bytesOf(file: string): Uint8Array {
  let bytes = bytesCache.get(file);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(path.join(CORPUS, file)));
    bytesCache.set(file, bytes);
  }
  return bytes;
}

const parsedCache = new Map<string, RobotsTxt>();
function parsed(file: string): RobotsTxt {
  let robots = parsedCache.get(file);
  if (!robots) {
    robots = parseRobotsTxt(bytesOf(file));
    parsedCache.set(file, robots);
  }
  return robots;
}

const notes = (file: string) => manifest.get(file)?.notes ?? "";
const hasBom = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** How many lines start before byte `limit` (CR, LF and CR LF each end a line). */
function linesStartingBefore(bytes: Uint8Array, limit: number): number {
  let count = 1;
  for (let i = 0; i < Math.min(limit, bytes.length) - 1; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) count++;
  }
  return count;
}

/** The file's lines as this test reads them, apart from the parser: for pointing at a line. */
function linesOf(file: string): string[] {
  const text = new TextDecoder("utf-8").decode(bytesOf(file));
  return text.split(/\r\n|\r|\n/);
}

/** 1-based line of the first byte that is not UTF-8, found apart from the parser. */
function firstInvalidUtf8Line(bytes: Uint8Array): number | undefined {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    const text = new TextDecoder("utf-8").decode(bytes);
    return text.slice(0, text.indexOf("\uFFFD")).split(/\r\n|\r|\n/).length;
  }
}

/** Paths built from a rule's pattern: `*` filled in, `$` kept or dropped, a tail added. */
function pathsNear(pattern: string): string[] {
  const rooted = pattern.startsWith("/") ? pattern : `/${pattern}`;
  const filled = rooted.replaceAll("*", "x/");
  const bare = filled.endsWith("$") ? filled.slice(0, -1) : filled;
  return [bare, `${bare}z`, bare.slice(0, -1), filled].map((near) => (near.startsWith("/") ? near : `/${near}`));
}

// Files the manifest's line scanner labels wrongly, with the reason (README: the notes are
// from "a simple line scan, not a conforming parser").
const manifestMislabels = new Map([
  ["0129.txt", "HTML content: it is a valid robots.txt holding a git merge conflict (<<<<<<< HEAD), not an HTML page"],
]);

function sizesBy(size: (file: string) => number | undefined): Record<string, number | undefined> {
  return Object.fromEntries(files.map((file) => [file, size(file)]));
}

describe("corpus: the folder and its manifest", () => {
  it("lists every file, and every file it lists is here", () => {
    expect(files.length).toBeGreaterThan(200);
    expect([...manifest.keys()].toSorted()).toEqual(files);
  });

  it("gives each file's size in bytes", () => {
    expect(sizesBy((file) => bytesOf(file).length)).toEqual(sizesBy((file) => manifest.get(file)?.bytes));
  });

  it("labels each file in manifestMislabels as the reason says", () => {
    for (const file of manifestMislabels.keys()) expect(notes(file)).toContain("HTML content");
  });
});

describe("corpus: parsing", () => {
  it.each(files)("rfc9309 §2.5 %s: parses; bytes is the file size; past 500 KiB is cut and said", (file) => {
    const bytes = bytesOf(file);
    const robots = parsed(file);
    expect(robots.bytes).toBe(bytes.length);
    const truncations = robots.diagnostics.filter((diagnostic) => diagnostic.code === "truncated");
    if (bytes.length > MAX_ROBOTS_BYTES) {
      expect(robots.truncated).toBe(true);
      expect(truncations).toHaveLength(1);
      // Nothing from a line that starts past the limit is used.
      const linesWithinLimit = linesStartingBefore(bytes, MAX_ROBOTS_BYTES);
      const usedLines = robots.groups.flatMap((group) => [
        ...group.rules.map((rule) => rule.line),
        ...group.agentLines.map((agent) => agent.line),
      ]);
      expect(Math.max(0, ...usedLines)).toBeLessThanOrEqual(linesWithinLimit);
    } else {
      expect(robots.truncated).toBe(false);
      expect(truncations).toEqual([]);
    }
  });

  const bomFiles = files.filter((file) => hasBom(bytesOf(file)));

  it("google the manifest's UTF-8 BOM note matches the bytes", () => {
    expect(bomFiles.length).toBeGreaterThan(0);
    expect(bomFiles).toEqual(files.filter((file) => notes(file).includes("UTF-8 BOM")));
  });

  it.each(bomFiles)("google %s: a leading UTF-8 BOM changes nothing", (file) => {
    const withBom = parsed(file);
    const without = parseRobotsTxt(bytesOf(file).subarray(3));
    expect(withBom.groups.length).toBeGreaterThan(0);
    expect(withBom.groups).toEqual(without.groups);
    expect(withBom.sitemaps).toEqual(without.sitemaps);
    expect(withBom.others).toEqual(without.others);
    expect(withBom.diagnostics).toEqual(without.diagnostics);
    expect(withBom.lines).toBe(without.lines);
    expect(withBom.bytes).toBe(without.bytes + 3);
  });

  const htmlFiles = files.filter((file) => notes(file).includes("HTML content") && !manifestMislabels.has(file));

  it.each(htmlFiles)("google %s: an HTML page served as robots.txt is reported", (file) => {
    expect(parsed(file).diagnostics).toContainEqual(
      expect.objectContaining({ code: "html-content", severity: "error" }),
    );
  });

  it.each(files.filter((file) => !htmlFiles.includes(file)))(
    "google %s: no html-content report on a file that is not HTML",
    (file) => {
      expect(parsed(file).diagnostics.map((diagnostic) => diagnostic.code)).not.toContain("html-content");
    },
  );

  const invalidFiles = files.filter((file) => notes(file).includes("not valid UTF-8"));

  it("google the manifest's not-UTF-8 note matches the bytes", () => {
    expect(invalidFiles.length).toBeGreaterThan(0);
    expect(
      files.filter((file) => firstInvalidUtf8Line(bytesOf(file).subarray(0, MAX_ROBOTS_BYTES)) !== undefined),
    ).toEqual(invalidFiles);
  });

  it.each(files)("google %s: bytes that are not UTF-8 are reported on their line, and only then", (file) => {
    const invalid = parsed(file).diagnostics.filter((diagnostic) => diagnostic.code === "invalid-utf8");
    const expectedLine = firstInvalidUtf8Line(bytesOf(file).subarray(0, MAX_ROBOTS_BYTES));
    if (expectedLine === undefined) {
      expect(invalid).toEqual([]);
    } else {
      expect(invalid[0]?.line).toBe(expectedLine);
    }
  });
});

const LONG_PATH = `/${"segment/".repeat(600)}page.html?q=${"x".repeat(200)}`;
const URLS = ["/", "/search?q=x", "/wp-admin/", "https://example.com/wp-admin/admin-ajax.php", LONG_PATH];
// A crawler no file names, with no "*" of its own: it gets the global group, if any.
const TOKEN_SETS = [["googlebot"], ["gptbot"], ["qzvx-corpus-probe"]];

describe("corpus: decisions", () => {
  it.each(files)("rfc9309 §2.2.2 %s: decides without throwing; a deciding rule is real and agrees", (file) => {
    const robots = parsed(file);
    const lines = linesOf(file);
    const matcher = compileRobots(robots);
    for (const tokens of TOKEN_SETS) {
      for (const url of URLS) {
        const decision = matcher.decide(tokens, url);
        if (decision.reason === "rule") {
          const rule = decision.rule;
          expect(rule).toBeDefined();
          if (!rule) continue;
          expect(rule.kind).toBe(decision.allowed ? "allow" : "disallow");
          expect(rule.line).toBeGreaterThanOrEqual(1);
          expect(rule.line).toBeLessThanOrEqual(robots.lines);
          expect(lines[rule.line - 1]).toContain(rule.pattern);
          expect(decision.group?.rules).toContain(rule);
        } else if (decision.reason === "no-group") {
          expect(decision.allowed).toBe(true);
          expect(robots.groups.flatMap((group) => group.agents)).not.toContain("*");
        } else {
          expect(decision.reason).toBe("no-matching-rule");
          expect(decision.allowed).toBe(true);
        }
      }
    }
  });

  // The reference matcher on real rules: the rules of the group the compiled matcher chose,
  // canonicalised, against paths made from those rules. Google's index.html extension is
  // off here, since the reference is the RFC alone.
  it.each(files)("rfc9309 §2.2.2 %s: compiled matcher = reference matcher on the file's own rules", (file) => {
    const robots = parsed(file);
    const matcher = compileRobots(robots, { indexHtmlAllowsDirectory: false });
    const checked = new Set<string>();
    for (const tokens of TOKEN_SETS) {
      const group = matcher.groupFor(tokens);
      if (!group || checked.has(group.token)) continue;
      checked.add(group.token);
      // A rule holding a character no request carries raw (a space, `"`, `<`, `>`, backquote,
      // `{`, `}`, a control) matches nothing under RFC 9309 and at Google (issue 30).
      const rules = group.rules
        .filter((rule) => ![...rule.pattern].some((c) => c <= " " || c === "\u007f" || '"<>`{}'.includes(c)))
        .map((rule) => ({ kind: rule.kind, pattern: canonicalizePath(rule.pattern) }));
      const step = Math.max(1, Math.floor(group.rules.length / 25));
      const sampled = group.rules.filter((_, i) => i % step === 0).slice(0, 25);
      const paths = [
        ...URLS.filter((url) => url.startsWith("/")),
        ...sampled.flatMap((rule) => pathsNear(rule.pattern)),
      ];
      for (const raw of paths) {
        if (raw.includes("#")) continue;
        const decision = matcher.decide(tokens, raw);
        const expected = referenceDecide(rules, canonicalizePath(raw));
        const winner = decision.rule
          ? { kind: decision.rule.kind, length: canonicalizePath(decision.rule.pattern).length }
          : undefined;
        expect({ path: raw, allowed: decision.allowed, winner }).toEqual({
          path: raw,
          allowed: expected.allowed,
          winner: expected.winner,
        });
      }
    }
  });
});
