// The CLI as users run it: its commands, streams and exit statuses. Most cases call `main` in
// this process (runCli); the rows marked "the real process" start bin/robots-edge.js under Node
// (runBin), where the exit code the shell sees, a pipe or a file on stdin is what is tested.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBin, runBinWithStdinFile, runCli as run } from "./run-cli.ts";
// Fixtures named while the tests are collected are written when they run (beforeAll), so a
// collection that never runs them leaves nothing behind; the folder goes with the run.
const dir = join(tmpdir(), `robots-edge-cli-${process.pid}-${Date.now()}`);
const pending = new Map<string, string | Uint8Array>();
let ready = false;
beforeAll(() => {
  mkdirSync(dir);
  for (const [path, text] of pending) writeFileSync(path, text);
  ready = true;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fixture(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  if (ready) writeFileSync(path, text);
  else pending.set(path, text);
  return path;
}

const ROBOTS_TEXT =
  "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n";
const ROBOTS = fixture("robots.txt", ROBOTS_TEXT);

describe("robots-edge check <file> <token> [url…]", () => {
  it.each([
    { token: "bingbot", url: "/private/x", line: "disallowed\t/private/x\tdisallow: /private (line 2)" },
    {
      token: "bingbot",
      url: "https://example.com/private/ok?x=1",
      line: "allowed\thttps://example.com/private/ok?x=1\tallow: /private/ok (line 3)",
    },
    { token: "bingbot", url: "/public", line: 'allowed\t/public\tno matching rule in group "*"' },
    { token: "Googlebot", url: "/private/x", line: 'allowed\t/private/x\tno matching rule in group "googlebot"' },
    { token: "Googlebot", url: "/nogoogle/a", line: "disallowed\t/nogoogle/a\tdisallow: /nogoogle/ (line 6)" },
    { token: "bingbot", url: "/robots.txt", line: "allowed\t/robots.txt\t/robots.txt is always allowed" },
  ])("$token $url -> $line", async ({ token, url, line }) => {
    const result = await run(["check", ROBOTS, token, url]);
    expect(result.stdout).toBe(`${line}\n`);
    expect(result.code).toBe(line.startsWith("disallowed") ? 1 : 0);
  });

  it("the real process: reads URLs from a pipe on stdin when none are given, one output line each, in order, exit 1", async () => {
    const result = await runBin(["check", ROBOTS, "bingbot"], "/a\n/private\n\n/private/ok\n");
    expect(result.stdout.split("\n")).toEqual([
      'allowed\t/a\tno matching rule in group "*"',
      "disallowed\t/private\tdisallow: /private (line 2)",
      "allowed\t/private/ok\tallow: /private/ok (line 3)",
      "",
    ]);
    expect(result.code).toBe(1);
  });

  it.each([
    {
      name: "a URL with a letter outside ASCII, as UTF-8",
      url: "/private/é",
      line: "disallowed\t/private/é\tdisallow: /private (line 2)",
    },
    {
      name: "a C1 control, escaped",
      url: "/private/a\u009bb",
      line: "disallowed\t/private/a\\u009bb\tdisallow: /private (line 2)",
    },
    { name: "a DEL, escaped", url: "/a\u007fb", line: 'allowed\t/a\\u007fb\tno matching rule in group "*"' },
    { name: "a CR inside the URL, escaped", url: "/a\rb", line: 'allowed\t/a\\u000db\tno matching rule in group "*"' },
  ])("stdin: $name", async ({ url, line }) => {
    const result = await run(["check", ROBOTS, "bingbot"], `/x\n${url}\n/x\n`);
    const other = 'allowed\t/x\tno matching rule in group "*"';
    expect(result.stdout).toBe(`${other}\n${line}\n${other}\n`);
  });

  // A regular file on stdin is read directly, in 64 KiB blocks (src/cli/io.ts): lines and
  // multi-byte characters that straddle a block, the last line without its LF, and a file
  // another reader has already started (read from where it stands, as every Unix filter does).
  describe("URLs from a file on stdin", () => {
    // 3,000 lines of 50 bytes (with the LF), each with a two-byte letter at bytes 35 and 36:
    // the first block (65,536 = 1,310 × 50 + 36 bytes) ends inside a letter.
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `/private/${String(i).padStart(5, "0")}-${"x".repeat(20)}é${"x".repeat(12)}`,
    );
    const URLS = fixture("urls.txt", `${lines.join("\n")}\r\n/public`);
    const expected = (from: number) => [
      ...lines.slice(from).map((url) => `disallowed\t${url}\tdisallow: /private (line 2)`),
      'allowed\t/public\tno matching rule in group "*"',
      "",
    ];

    it.each([
      { name: "from its start", skipBytes: 0, from: 0 },
      { name: "from where an earlier reader left it (after 10 lines)", skipBytes: 10 * 50, from: 10 },
    ])("$name", async ({ skipBytes, from }) => {
      const result = await runBinWithStdinFile(["check", ROBOTS, "bingbot"], URLS, skipBytes);
      expect(result.stderr).toBe("");
      expect(result.stdout.split("\n")).toEqual(expected(from));
      expect(result.code).toBe(1);
    });

    it("a line longer than several blocks (300 KiB), between two short ones, read whole", async () => {
      const long = `/private/${"y".repeat(300 * 1024)}`;
      const file = fixture("long-line.txt", `/a\n${long}\n/b\n`);
      const result = await runBinWithStdinFile(["check", ROBOTS, "bingbot"], file, 0);
      expect(result.stdout.split("\n")).toEqual([
        'allowed\t/a\tno matching rule in group "*"',
        `disallowed\t${long}\tdisallow: /private (line 2)`,
        'allowed\t/b\tno matching rule in group "*"',
        "",
      ]);
    });
  });

  // Was a hole (attack-claims): a URL operand may hold a line feed (the WHATWG parser drops it, so it
  // is accepted), and shownUrl escapes C0 controls with terminalSafe, which keeps LF: the URL
  // column then ends mid-URL and a second output line starts "y<TAB>reason", no verdict first.
  // Reproduce: node bin/robots-edge.js check robots.txt bot $'http://a.example/x\ny' | od -c
  // Fixed: shownUrl escapes "\n" as it escapes "\t".
  it("an argument URL with a line feed stays on one output line, the LF escaped", async () => {
    const result = await run(["check", ROBOTS, "bingbot", "http://a.example/x\ny"]);
    expect(result.stdout).toBe('allowed\thttp://a.example/x\\u000ay\tno matching rule in group "*"\n');
  });

  it("a group-less file says so", async () => {
    const result = await run(["check", fixture("empty.txt", ""), "bot", "/x"]);
    expect(result.stdout).toBe("allowed\t/x\tno group applies to this crawler\n");
  });

  it.each([
    { args: ["check"], message: "check needs a robots.txt file and a user-agent token" },
    { args: ["check", join(dir, "missing.txt"), "bot", "/"], message: "cannot read robots.txt file" },
    { args: ["frobnicate"], message: 'unknown command "frobnicate"' },
    { args: [], message: "usage:" },
  ])("the real process: usage and I/O errors exit 2: $args", async ({ args, message }) => {
    const result = await runBin(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe("robots-edge check --jsonl", () => {
  it("answers each line in order, with the deciding rule", async () => {
    const robots = "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n";
    const input = [
      { robots, ua: "bingbot", url: "https://example.com/x/1" },
      { robots, ua: "GPTBot", url: "https://example.com/anything" },
      { robots, ua: "bingbot", url: "https://example.com/y" },
    ];
    const result = await run(["check", "--jsonl"], input.map((line) => JSON.stringify(line)).join("\n"));
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { allowed: false, rule: { kind: "disallow", pattern: "/x", line: 2 }, reason: "rule", group: "*" },
      { allowed: false, rule: { kind: "disallow", pattern: "/", line: 5 }, reason: "rule", group: "gptbot" },
      { allowed: true, rule: null, reason: "no-matching-rule", group: "*" },
    ]);
  });

  it("a bad line gets an error object in its place, the others still answer, exit 2", async () => {
    const good = JSON.stringify({ robots: "User-agent: *\nDisallow: /", ua: "a", url: "https://e.com/" });
    const result = await run(["check", "--jsonl"], `${good}\nnot json\n{"robots": 1}\n${good}\n`);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ allowed: false });
    expect(lines[1].error).toMatch(/^line 2: not a JSON object/);
    expect(lines[2].error).toBe('line 3: "robots" must be a string');
    expect(lines[3]).toMatchObject({ allowed: false });
    expect(result.code).toBe(2);
  });

  it("handles 20,000 lines over many distinct files in one run", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const robots = `User-agent: bot${i % 100 === 0 ? "x" : ""}\nDisallow: /p${i % 300}/\n`;
      lines.push(JSON.stringify({ robots, ua: "bot", url: `https://e.com/p${i % 7}/q` }));
    }
    const result = await run(["check", "--jsonl"], lines.join("\n"));
    const out = result.stdout.trim().split("\n");
    expect(out).toHaveLength(20_000);
    expect(JSON.parse(out[3] ?? "")).toMatchObject({ allowed: false });
    expect(JSON.parse(out[8] ?? "")).toMatchObject({ allowed: true });
  }, 30_000); // CPU-bound seconds: 20,000 decisions, most on a robots.txt parsed afresh
});

describe("robots-edge lint", () => {
  it("prints one diagnostic per line with its line number and exits 1 on errors", async () => {
    const file = fixture("lint.txt", "Disallow: /early\nUser-agent: *\nDissalow: /x\nCrawl-delay: soon\n");
    const result = await run(["lint", file]);
    expect(result.stdout.split("\n")).toEqual([
      `${file}:1: error: disallow before any user-agent line applies to no crawler; add a user-agent line above it [rule-outside-group]`,
      `${file}:3: warning: "Dissalow" is read as "disallow" (Google accepts this spelling; other crawlers may not) [misspelt-field]`,
      `${file}:4: error: cannot read crawl-delay: expected seconds (a number such as 10 or 0.5) [invalid-value]`,
      "",
    ]);
    expect(result.stderr).toContain("2 error(s), 1 warning(s)");
    expect(result.code).toBe(1);
  });

  // Issue 30: the readings of a file disagree: an error naming the crawlers, the line and the fix.
  it.each([
    {
      name: "the issue's bingbot file",
      robots:
        "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: msnbot\nCrawl-delay: 10\n\nUser-agent: Applebot\nCrawl-delay: 10\n\nuser-agent: AhrefsBot\ndisallow: /\n",
      errors: [
        ":1: error: for bingbot, RFC 9309 and Google's parser read on from line 1 to the rules below (only an allow or disallow line ends a group's user-agent lines), so \"disallow: /\" (line 11) applies to them; urllib.robotparser, robots-parser and the 1996 draft end their group at line 2 (a blank line or another field comes before the next user-agent line) and give them no such rule. The edge refuses them only what both readings refuse, except Google's crawlers, held to Google's reading. Fix: add \"Disallow:\" after line 2 if the rules below are not meant for them; if they are, repeat the rules under their own user-agent line [reading-disputed]",
        ":4: error: for msnbot,",
        ":7: error: for Applebot,",
      ],
    },
    {
      name: "a raw space",
      robots: "User-agent: *\nDisallow: /sp ace\n",
      errors: [
        ":2: error: disallow: /sp ace holds a raw space, which no request carries (clients send it percent-encoded): RFC 9309 and Google's matcher never match this rule, urllib.robotparser and robots-parser encode it and match /sp%20ace. For * (every crawler without a group of its own), the edge applies it to no crawler (crawlers other than Google's are marked would-block where those readers apply it). Fix: write \"disallow: /sp%20ace\" [reading-disputed]",
      ],
    },
  ])("exits 1 where the readings disagree: $name", async ({ robots, errors }) => {
    const file = fixture("readings.txt", robots);
    const result = await run(["lint", file]);
    const found = result.stdout.split("\n").filter((line) => line.includes(": error: "));
    expect(found).toHaveLength(errors.length);
    errors.forEach((error, i) => expect(found[i]).toContain(`${file}${error}`));
    expect(result.code).toBe(1);
  });

  it("exits 0 on a file with warnings only", async () => {
    const result = await run(["lint", fixture("warn.txt", "User-agent: *\nDisallow /x\n")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("[missing-colon]");
  });
});

describe("robots-edge explain", () => {
  const file = fixture("explain.txt", "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n");
  const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

  it("a crawler: tokens, group, deciding rule and line, decision, edge action; exit 1 when blocked", async () => {
    const result = await run(["explain", file, googlebot, "https://example.com/a/../private/r"]);
    expect(result.stdout).toBe(
      [
        "agent:    crawler (known: Googlebot, search-engine)",
        "tokens:   Googlebot",
        "verified: unverifiable: no client address given; the edge would check by ip-list, reverse-dns",
        "group:    * (user-agent line 1)",
        "rule:     disallow: /private/ (line 2)",
        "path:     /a/../private/r (judged as /private/r)",
        "decision: disallowed",
        "edge:     block (403)",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(1);
  });

  it("a human passes; --json gives the admin API's shape", async () => {
    const result = await run([
      "explain",
      file,
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
      "/private/",
      "--json",
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({ crawler: false, action: { action: "pass", status: null } });
    expect(result.code).toBe(0);
  });

  it("a group with Crawl-delay: says when the edge would limit (the rate state is the edge's)", async () => {
    const paced = fixture("explain-paced.txt", "User-agent: bingbot\nCrawl-delay: 5\n");
    const result = await run(["explain", paced, "Mozilla/5.0 (compatible; bingbot/2.0)", "/x"]);
    expect(result.stdout).toContain("rate:     would be limited (429) if faster than one request every 5 s\n");
    expect(result.code).toBe(0);
  });

  // A file has no address: the answer names the verification the edge would make, or why none.
  it.each([
    {
      ua: "GPTBot/1.2",
      verified: "verified: unverifiable: no client address given; the edge would check by ip-list",
      why: "OpenAI publishes a list",
    },
    {
      ua: "Mozilla/5.0 (compatible; Amazonbot/0.1)",
      verified: "verified: unverifiable: no client address given; the edge would check by reverse-dns",
      why: "Amazon documents reverse DNS only",
    },
    { ua: "FooBot/1.0", verified: "verified: no: claims no crawler that can be verified", why: "unknown bot" },
    {
      ua: "Mozilla/5.0 (Windows NT 10.0) Chrome/124.0",
      verified: "verified: no: not a crawler",
      why: "a browser is never checked",
    },
  ])("the verification line for $ua ($why)", async ({ ua, verified }) => {
    const result = await run(["explain", file, ua, "/blog/"]);
    expect(result.stdout).toContain(`${verified}\n`);
  });

  it("GPTBot gets its own group", async () => {
    const result = await run(["explain", file, "GPTBot/1.2", "/blog/", "--json"]);
    expect(JSON.parse(result.stdout)).toMatchObject({
      tokens: ["GPTBot"],
      group: { token: "gptbot", lines: [4] },
      allowed: false,
    });
  });
});

describe("the CLI answers only what it was asked", () => {
  it.each([
    {
      args: ["check", ROBOTS, "bot", "search/foo"],
      message: 'argument "search/foo" is neither an absolute http(s) URL nor a path starting with "/"',
    },
    { args: ["check", ROBOTS, "bot", "not a url"], message: 'argument "not a url" is neither' },
    { args: ["check", ROBOTS, "bot", "ftp://example.com/x"], message: 'argument "ftp://example.com/x" is neither' },
    { args: ["check", ROBOTS, "bot", "/ok", "example.com/x"], message: 'argument "example.com/x" is neither' },
    { args: ["explain", ROBOTS, "Googlebot/2.1", "search/foo"], message: 'argument "search/foo" is neither' },
    { args: ["explain", ROBOTS, "Googlebot/2.1", "/a", "/b"], message: 'unexpected argument "/b"' },
    { args: ["check", ROBOTS, "bot", "--frobnicate"], message: 'unknown option "--frobnicate"' },
    { args: ["lint", "--strict", ROBOTS], message: 'unknown option "--strict"' },
    { args: ["config", "lint"], message: 'the only config command is "check"' },
    { args: ["--frobnicate"], message: 'unknown option "--frobnicate" (this command takes --help, --json, --version)' },
    { args: ["--version", "check"], message: "the command comes first: robots-edge <command> [options]" },
    { args: ["config", "check", "-", "--env"], message: "--env needs a value (--env VALUE or --env=VALUE)" },
    { args: ["config", "check", "--env", "--json"], message: "--env needs a value" },
    { args: ["config", "check", "--env="], message: "--env needs a name: --env production" },
    { args: ["config", "check", "a.toml", "b.toml"], message: 'unexpected argument "b.toml" (one file per call)' },
    { args: ["check", ROBOTS, "bot", "/x", "--json=yes"], message: "--json takes no value" },
    { args: ["check", "--jsonl", "--json"], message: "--jsonl takes its cases on stdin and nothing else" },
    { args: ["lint", "-x", ROBOTS], message: 'unknown option "-x" (this command takes --json, --purposes, --help)' },
    {
      args: [
        "check",
        ROBOTS,
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
        "/",
      ],
      message: "is a browser's User-Agent header",
    },
  ])("exit 2 naming the argument: $args", async ({ args, message }) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });

  it("a bad URL on stdin is a usage error naming its line", async () => {
    const result = await run(["check", ROBOTS, "bot"], "/a\nsearch/foo\n");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('stdin line 2: "search/foo" is neither');
  });

  it.each([
    {
      agent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      note: "product tokens Googlebot (then *)",
      line: "disallowed\t/nogoogle/a\tdisallow: /nogoogle/ (line 6)",
    },
    { agent: "Googlebot/2.1", note: "", line: "disallowed\t/nogoogle/a\tdisallow: /nogoogle/ (line 6)" },
    {
      agent: "Mozilla/5.0 (compatible; AdsBot-Google; +http://www.google.com/adsbot.html)",
      note: "product tokens AdsBot-Google (never *: this crawler ignores it)",
      line: "allowed\t/nogoogle/a\tno group applies to this crawler",
    },
    { agent: "Googlebot", note: "", line: "disallowed\t/nogoogle/a\tdisallow: /nogoogle/ (line 6)" },
    { agent: "*", note: "", line: 'allowed\t/nogoogle/a\tno matching rule in group "*"' },
  ])("a whole User-Agent header gets the edge's tokens, said on stderr: $agent", async ({ agent, note, line }) => {
    const result = await run(["check", ROBOTS, agent, "/nogoogle/a"]);
    expect(result.stdout).toBe(`${line}\n`);
    if (note === "") expect(result.stderr).toBe("");
    else expect(result.stderr).toContain(note);
  });

  it.each([
    { args: ["check", "--help"], first: "  robots-edge check <robots.txt|->" },
    { args: ["lint", "--help"], first: "  robots-edge lint <robots.txt|->" },
    { args: ["lint", "-h"], first: "  robots-edge lint <robots.txt|->" },
    { args: ["explain", ROBOTS, "--help"], first: "  robots-edge explain <robots.txt|->" },
    { args: ["config", "check", "--help"], first: "  robots-edge config check [wrangler.toml|-]" },
    { args: ["--help"], first: "  robots-edge check <robots.txt|->" },
  ])("$args prints usage and exits 0, opening no file", async ({ args, first }) => {
    const result = await run(args);
    expect(result.code).toBe(0);
    expect(result.stdout.slice(0, `usage:\n${first}`.length)).toBe(`usage:\n${first}`);
    expect(result.stderr).toBe("");
  });

  // Node's parseArgs reads every command line: its spellings hold for every command.
  it.each([
    {
      name: "-- ends the options: what follows is an operand, even when it starts with -",
      args: ["check", "--json", "--", "-", "bot", "/private/x"],
      stdin: ROBOTS_TEXT,
      code: 1,
      stdout:
        '{"url":"/private/x","allowed":false,"rule":{"kind":"disallow","pattern":"/private","line":2},"reason":"rule","group":"*"}\n',
    },
    {
      name: "--env=NAME is --env NAME",
      args: ["config", "check", "-", "--json", "--env=production"],
      stdin: '[env.production.vars]\nMODE = "report"\n',
      code: 1, // no bindings: a table with only vars
      stdout: '{"file":"stdin","env":"production","errors":3,',
    },
    {
      name: "--env NAME before the file",
      args: ["config", "check", "--env", "production", "-", "--json"],
      stdin: '[env.production.vars]\nMODE = "report"\n',
      code: 1, // no bindings: a table with only vars
      stdout: '{"file":"stdin","env":"production","errors":3,',
    },
    { name: "-v is --version", args: ["-v"], stdin: "", code: 0, stdout: "robots-edge 0.1.0\n" },
  ])("$name", async ({ args, stdin, code, stdout }) => {
    const result = await run(args, stdin);
    expect(result.code).toBe(code);
    if (stdout.endsWith("\n")) expect(result.stdout).toBe(stdout);
    else expect(result.stdout).toContain(stdout);
  });

  it("the real process: --version prints the package version, exit 0", async () => {
    const result = await runBin(["--version"]);
    expect(result).toEqual({ code: 0, stdout: "robots-edge 0.1.0\n", stderr: "" });
  });

  it.each([
    { name: "png", bytes: Uint8Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256), code: 1, binary: true },
    {
      name: "elf",
      bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0]),
      code: 1,
      binary: true,
    },
    { name: "nul-typo", bytes: new TextEncoder().encode("User-agent: *\0\nDisallow: /x\n"), code: 0, binary: false },
    {
      name: "utf16",
      bytes: Uint8Array.from([0xff, 0xfe, ..."User-agent: *\n".split("").flatMap((c) => [c.charCodeAt(0), 0])]),
      code: 0,
      binary: false,
    },
  ])("lint on $name: binary $binary", async ({ name, bytes, code, binary }) => {
    const file = fixture(`${name}.bin`, bytes);
    const result = await run(["lint", file]);
    expect(result.code).toBe(code);
    if (binary) expect(result.stderr).toContain(`${file}: error: not a text file`);
    else expect(result.stderr).not.toContain("not a text file");
  });

  it.each([
    { name: "escape in a rule", robots: "User-agent: *\nDisallow: /a\u001b]0;pwned\u0007b\n", url: "/a" },
    { name: "C1 control in a rule", robots: "User-agent: *\nDisallow: /a\u009bb\n", url: "/a" },
  ])("no raw control bytes reach the terminal: $name", async ({ name, robots, url }) => {
    const file = fixture(`${name.replaceAll(" ", "-")}.txt`, robots);
    for (const args of [
      ["lint", file],
      ["check", file, "bot", url],
      ["explain", file, "bot/1.0", url],
    ]) {
      const result = await run(args);
      // oxlint-disable-next-line no-control-regex -- matching control characters is the point
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });
});

describe("every command: --json, and - for stdin", () => {
  it.each([
    {
      name: "check --json: one object per URL, naming it",
      args: ["check", ROBOTS, "bingbot", "/private/x", "/a", "--json"],
      stdin: "",
      code: 1,
      stdout:
        '{"url":"/private/x","allowed":false,"rule":{"kind":"disallow","pattern":"/private","line":2},"reason":"rule","group":"*"}\n' +
        '{"url":"/a","allowed":true,"rule":null,"reason":"no-matching-rule","group":"*"}\n',
    },
    {
      name: "check --json with URLs on stdin",
      args: ["check", "--json", ROBOTS, "Googlebot"],
      stdin: "/nogoogle/x\n",
      code: 1,
      stdout:
        '{"url":"/nogoogle/x","allowed":false,"rule":{"kind":"disallow","pattern":"/nogoogle/","line":6},"reason":"rule","group":"googlebot"}\n',
    },
    {
      name: "check with - as the URL list: stdin",
      args: ["check", ROBOTS, "bingbot", "-"],
      stdin: "/private/ok\n",
      code: 0,
      stdout: "allowed\t/private/ok\tallow: /private/ok (line 3)\n",
    },
    {
      name: "check with - as robots.txt: stdin, URLs as arguments",
      args: ["check", "-", "Googlebot", "/nogoogle/a"],
      stdin: ROBOTS_TEXT,
      code: 1,
      stdout: "disallowed\t/nogoogle/a\tdisallow: /nogoogle/ (line 6)\n",
    },
    {
      name: "check: a tab inside a URL is shown escaped, the columns stay three",
      args: ["check", ROBOTS, "bingbot", "/private/a\tb"],
      stdin: "",
      code: 1,
      stdout: "disallowed\t/private/a\\u0009b\tdisallow: /private (line 2)\n",
    },
    {
      name: "lint - --json",
      args: ["lint", "-", "--json"],
      stdin: "User-agent: *\nDissalow: /x\n",
      code: 0,
      stdout:
        '{"file":"stdin","errors":0,"warnings":1,"groups":1,"diagnostics":[{"line":2,"code":"misspelt-field","severity":"warning","message":"\\"Dissalow\\" is read as \\"disallow\\" (Google accepts this spelling; other crawlers may not)"}]}\n',
    },
    {
      name: "lint - : diagnostics name stdin",
      args: ["lint", "-"],
      stdin: "User-agent: *\nDissalow: /x\n",
      code: 0,
      stdout:
        'stdin:2: warning: "Dissalow" is read as "disallow" (Google accepts this spelling; other crawlers may not) [misspelt-field]\n',
    },
    {
      name: "explain - reads robots.txt from stdin",
      args: ["explain", "-", "GPTBot/1.2", "/private/ok", "--json"],
      stdin: ROBOTS_TEXT,
      code: 0,
      stdout: '"allowed": true',
    },
    {
      name: "config check - --json",
      args: ["config", "check", "-", "--json"],
      stdin: '[vars]\nMDOE = "report"\n',
      code: 1,
      stdout: '{"file":"stdin","env":null,"errors":',
    },
    {
      name: "--version --json",
      args: ["--version", "--json"],
      stdin: "",
      code: 0,
      stdout: '{"version":"0.1.0"}\n',
    },
  ])("$name", async ({ args, stdin, code, stdout }) => {
    const result = await run(args, stdin);
    expect(result.code).toBe(code);
    if (stdout.endsWith("\n")) expect(result.stdout).toBe(stdout);
    else expect(result.stdout).toContain(stdout);
  });

  it("config check --json names the misspelt var and its closest known name", async () => {
    const result = await run(["config", "check", "-", "--json"], '[vars]\nMDOE = "report"\n');
    const report = JSON.parse(result.stdout) as { findings: { severity: string; message: string }[] };
    expect(report.findings).toContainEqual({
      severity: "error",
      message: '[vars] has "MDOE", a var the Worker never reads: did you mean "MODE"? (rename it, or remove it)',
    });
  });

  it("check - with no URL arguments: robots.txt and the URLs cannot both be stdin", async () => {
    const result = await run(["check", "-", "bingbot"], ROBOTS_TEXT);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('robots.txt comes from stdin ("-"), so the URLs must be arguments');
  });
});
