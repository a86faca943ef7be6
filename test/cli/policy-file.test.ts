// The policy file as input: what readPolicyFile says of each kind of mistake (literal messages,
// each naming where), and the bounds the CLI keeps on the file and on a --urls list.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { readPolicyFile } from "../../src/cli/policy-file.ts";

const dir = mkdtempSync(join(tmpdir(), "robots-edge-policycode-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readPolicyFile", () => {
  it.each([
    { text: "[]", problems: ['must be an object {"default": {…policy}, "hosts": {"<host>": {…policy}}}'] },
    {
      text: '{"defaults": {"routes": []}}',
      problems: ['"defaults" is not a member of a policy file ($schema, default, hosts)'],
    },
    {
      text: '{"hosts": {"Shop.Example.": {"routes": []}}}',
      problems: [
        'hosts.Shop.Example.: write it "shop.example" (as the edge keeps host names: lower case, xn-- for an IDN, no trailing dot, no :80 or :443)',
      ],
    },
    {
      text: '{"hosts": {"bücher.example:443": {"routes": []}}}',
      problems: [
        'hosts.bücher.example:443: write it "xn--bcher-kva.example" (as the edge keeps host names: lower case, xn-- for an IDN, no trailing dot, no :80 or :443)',
      ],
    },
    {
      text: '{"hosts": {"user@shop.example": {"routes": []}}}',
      problems: [
        'hosts.user@shop.example: not a host name (letters, digits and "-" in dot-separated labels, an optional "*." before them and ":port" after, no path)',
      ],
    },
    {
      text: '{"default": {"routes": [{"pattern": "x"}]}, "hosts": {"a.example": {"routes": 1}}}',
      problems: ['default: routes[0].pattern must be a path pattern starting with "/" or "*", got "x"'],
    },
    {
      text: '{"hosts": {"a.example": {"routes": 1}, "b.example": {"routes": [{"pattern": "/", "mode": "x"}]}}}',
      problems: [
        'hosts.a.example: must be an object with a "routes" list',
        'hosts.b.example: routes[0].mode must be one of enforce, report, off, got "x"',
      ],
    },
    {
      text: `{"hosts": {${Array.from({ length: 1001 }, (_, i) => `"h${i}.example": {"routes": []}`).join(",")}}}`,
      problems: ["hosts names 1001 hosts; a policy file holds at most 1000"],
    },
    {
      text: JSON.stringify({ default: { routes: [{ pattern: `/${"a".repeat(66_000)}`, rules: [] }] } }),
      problems: ["default is 66074 bytes as sent; a policy may be at most 65536 (PUT policy's cap)"],
    },
  ])("$problems.0", ({ text, problems }) => {
    expect(readPolicyFile(text)).toEqual({ ok: false, problems });
  });

  it("keeps each policy's text as apply sends it, hosts in the file's order", () => {
    const read = readPolicyFile('{"hosts": {"b.example": {"routes": []}, "*.a.example:8443": {"purposes": []}}}');
    expect(read.ok && [...read.value.hosts]).toEqual([
      ["b.example", { text: '{\n  "routes": []\n}\n', document: { routes: [] } }],
      ["*.a.example:8443", { text: '{\n  "purposes": []\n}\n', document: { purposes: [] } }],
    ]);
    expect(read.ok && read.value.default).toBeUndefined();
  });
});

async function run(args: string[]) {
  const stderr = new PassThrough();
  const err: string[] = [];
  stderr.on("data", (chunk: Buffer) => err.push(String(chunk)));
  const calls: string[] = [];
  const code = await main(args, {
    stdin: new PassThrough(),
    stdout: new PassThrough().resume(),
    stderr,
    env: { ROBOTS_EDGE_URL: "http://127.0.0.1:9/", ROBOTS_EDGE_TOKEN: "fake-admin-token-0123" },
    fetch: async (request) => {
      calls.push(request.url);
      return new Response("{}", { status: 500 });
    },
  });
  return { code, stderr: err.join(""), calls };
}

describe("bounds on what the CLI reads", () => {
  it.each([
    {
      name: "a policy file over 8 MiB",
      files: { "big.json": " ".repeat(8 * 1024 * 1024 + 1) },
      args: ["policy", "plan", "big.json"],
      error: "is larger than 8388608 bytes, the most a policy file may be; not read",
    },
    {
      name: "a policy file that is not UTF-8",
      files: { "latin1.json": Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]) },
      args: ["policy", "plan", "latin1.json"],
      error: "latin1.json is not UTF-8 text; a policy file is JSON in UTF-8",
    },
    {
      name: "a URL list over 1 MiB",
      files: { "ok.json": "{}", "urls.txt": "/x\n".repeat(400_000) },
      args: ["policy", "plan", "ok.json", "--urls", "urls.txt"],
      error: "is larger than 1048576 bytes, the most a URL list may be; not read",
    },
    {
      name: "a URL list of more than 10,000 lines",
      files: { "ok.json": "{}", "urls.txt": "/x\n".repeat(10_001) },
      args: ["policy", "plan", "ok.json", "--urls", "urls.txt"],
      error: "has more than 10000 URLs",
    },
    {
      name: "a URL list line that is neither a path nor a URL",
      files: { "ok.json": "{}", "urls.txt": "/fine\nmailto:x@example.com\n" },
      args: ["policy", "plan", "ok.json", "--urls", "urls.txt"],
      error: 'urls.txt:2: expected a path starting with "/" or an http(s) URL, got "mailto:x@example.com"',
    },
  ])("$name: refused before any call, exit 2", async ({ files, args, error }) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const answer = await run(args.map((arg) => (arg.includes(".") ? join(dir, arg) : arg)));
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain(error);
    expect(answer.calls).toEqual([]);
  });
});
