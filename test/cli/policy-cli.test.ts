// `robots-edge policy pull | plan | apply`, in process (main() with streams, an environment and
// a fetch of our own) against an in-process fake admin API (fake-edge.ts). Expectations are
// literal: the exit status, the lines a reviewer reads, and the calls the edge received.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { FakeEdge, type FakeEdgeOptions } from "./fake-edge.ts";

const dir = mkdtempSync(join(tmpdir(), "robots-edge-policycode-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = "fake-admin-token-0123";
const ENV = { ROBOTS_EDGE_URL: "http://127.0.0.1:9/", ROBOTS_EDGE_TOKEN: TOKEN };

async function run(args: string[], fake: FakeEdge, env: Readonly<Record<string, string | undefined>> = ENV) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(String(chunk)));
  stderr.on("data", (chunk: Buffer) => err.push(String(chunk)));
  const code = await main(args, { stdin: new PassThrough(), stdout, stderr, env, fetch: fake.fetch });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

let files = 0;
function file(content: unknown): string {
  const path = join(dir, `policy-${files++}.json`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const ALLOW_ALL = { routes: [] };
const BLOCK_GPTBOT_X = { routes: [{ pattern: "/x/", rules: [{ crawlers: ["GPTBot"], action: "block" }] }] };
const BLOCK_BLOG = {
  routes: [{ pattern: "/blog/", rules: [{ crawlers: ["category:search-engine"], action: "block" }] }],
};

function edge(options: Partial<FakeEdgeOptions> = {}): FakeEdge {
  return new FakeEdge({
    default: { version: 3, policy: ALLOW_ALL },
    hosts: { "a.example": { version: 2, policy: ALLOW_ALL }, "b.example": { version: 0, policy: null } },
    ...options,
  });
}

const puts = (fake: FakeEdge) =>
  fake.calls.filter((call) => call.method === "PUT").map(({ host, ifMatch }) => ({ host, ifMatch }));

describe("robots-edge policy plan", () => {
  it.each<{
    name: string;
    file: unknown;
    options: Partial<FakeEdgeOptions>;
    args: string[];
    code: number;
    lines: string[];
  }>([
    {
      name: "nothing changes",
      file: { default: ALLOW_ALL, hosts: { "a.example": ALLOW_ALL } },
      options: {},
      args: [],
      code: 0,
      lines: ["default (version 3): no change", "a.example (version 2): no change", "0 to change, 2 unchanged"],
    },
    {
      name: "a host's change that flips GPTBot only",
      file: { hosts: { "a.example": BLOCK_GPTBOT_X } },
      options: { recordedFlips: { "a.example": [{ token: "GPTBot", path: "/x/1", live: "pass", draft: "block" }] } },
      args: [],
      code: 0,
      lines: [
        "a.example (version 2): 1 change(s)",
        '  + routes[0]: {"pattern":"/x/","rules":[{"crawlers":["GPTBot"],"action":"block"}]}',
        "  recorded traffic: 40 requests judged, 1 would change",
        "    GPTBot: 1 (GET /x/1 pass -> block)",
        "1 to change, 0 unchanged",
      ],
    },
    {
      name: "a change that refuses Googlebot what it gets today",
      file: { hosts: { "a.example": BLOCK_BLOG } },
      options: {
        recordedFlips: { "a.example": [{ token: "Googlebot", path: "/blog/a", live: "pass", draft: "block" }] },
      },
      args: [],
      code: 1,
      lines: ["  ! refuses search crawler Googlebot GET /blog/a: pass -> block, policy /blog/a: block (traffic)"],
    },
    {
      name: "the same, allowed on purpose",
      file: { hosts: { "a.example": BLOCK_BLOG } },
      options: {
        recordedFlips: { "a.example": [{ token: "Googlebot", path: "/blog/a", live: "pass", draft: "block" }] },
      },
      args: ["--allow-search-changes"],
      code: 0,
      lines: ["  ! refuses search crawler Googlebot GET /blog/a: pass -> block, policy /blog/a: block (traffic)"],
    },
    {
      name: "a report-mode pass that a pace would refuse, for bingbot",
      file: { default: BLOCK_BLOG },
      options: {
        recordedFlips: { "default.example": [{ token: "bingbot", path: "/p", live: "report", draft: "rate-limited" }] },
      },
      args: [],
      code: 1,
      lines: ["  ! refuses search crawler bingbot GET /p: report -> rate-limited, policy /p: rate-limited (traffic)"],
    },
    {
      name: "opening to Googlebot what it is refused today",
      file: { default: BLOCK_BLOG },
      options: {
        recordedFlips: { "default.example": [{ token: "Googlebot", path: "/p", live: "block", draft: "pass" }] },
      },
      args: [],
      code: 0,
      lines: ["    Googlebot: 1 (GET /p block -> pass)"],
    },
    {
      name: "a search crawler marked, not refused (report)",
      file: { default: BLOCK_BLOG },
      options: {
        recordedFlips: { "default.example": [{ token: "Googlebot", path: "/p", live: "pass", draft: "report" }] },
      },
      args: [],
      code: 0,
      lines: ["    Googlebot: 1 (GET /p pass -> report)"],
    },
    {
      name: "the default, where it judges no site the edge knows: not checked",
      file: { default: BLOCK_GPTBOT_X },
      options: { origins: [] },
      args: [],
      code: 1,
      lines: [
        "  replay: the default judges no site the edge knows (GET status): no traffic to replay it on",
        "  ! not checked for search crawlers (see replay above)",
      ],
    },
    {
      name: "the default, replayed on the sites it judges, never on a host with a policy of its own",
      file: { default: BLOCK_BLOG },
      options: {
        origins: ["https://a.example", "https://c.example"],
        recordedFlips: {
          "a.example": [{ token: "GPTBot", path: "/a", live: "pass", draft: "block" }],
          "c.example": [{ token: "Googlebot", path: "/blog/c", live: "pass", draft: "block" }],
        },
      },
      args: [],
      code: 1,
      lines: [
        "  replay: replayed on the traffic of the 1 site(s) the default judges: https://c.example",
        "  ! refuses search crawler Googlebot GET /blog/c: pass -> block, policy /blog/c: block (traffic)",
      ],
    },
    {
      name: "a *. pattern's change where it judges no site the edge knows: not checked",
      file: { hosts: { "*.blog.example": BLOCK_GPTBOT_X } },
      options: { hosts: { "*.blog.example": { version: 1, policy: ALLOW_ALL } } },
      args: [],
      code: 1,
      lines: [
        "  replay: *.blog.example judges no site the edge knows (GET status): no traffic to replay it on",
        "  ! not checked for search crawlers (see replay above)",
      ],
    },
    {
      name: "a *. pattern's change, replayed on the sites it judges",
      file: { hosts: { "*.blog.example": BLOCK_BLOG } },
      options: {
        hosts: { "*.blog.example": { version: 1, policy: ALLOW_ALL } },
        origins: ["https://default.example", "https://x.blog.example"],
        recordedFlips: { "x.blog.example": [{ token: "bingbot", path: "/blog/x", live: "pass", draft: "block" }] },
      },
      args: [],
      code: 1,
      lines: [
        "  replay: replayed on the traffic of the 1 site(s) *.blog.example judges: https://x.blog.example",
        "  ! refuses search crawler bingbot GET /blog/x: pass -> block, policy /blog/x: block (traffic)",
      ],
    },
    {
      name: "a *. pattern's change, allowed on purpose",
      file: { hosts: { "*.blog.example": BLOCK_GPTBOT_X } },
      options: { hosts: { "*.blog.example": { version: 1, policy: ALLOW_ALL } } },
      args: ["--allow-search-changes"],
      code: 0,
      lines: ["*.blog.example (version 1): 1 change(s)"],
    },
  ])("$name: exit $code", async ({ file: content, options, args, code, lines }) => {
    const fake = edge(options);
    const answer = await run(["policy", "plan", file(content), ...args], fake);
    expect(answer.code, answer.stderr).toBe(code);
    const shown = answer.stdout.split("\n");
    for (const line of lines) expect(shown).toContain(line);
    expect(answer.stderr.includes("--allow-search-changes")).toBe(code === 1);
    expect(puts(fake)).toEqual([]);
  });

  // The default judges nine sites here; the plan replays them four at a time and reports them in site order.
  const NINE_SITES = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"].map((name) => `https://${name}.example`);
  const nineFlips = Object.fromEntries(
    ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"].map((name) => [
      `${name}.example`,
      [{ token: "Googlebot", path: `/blog/${name}`, live: "pass", draft: "block" }],
    ]),
  );

  it("replays a default on its sites four at a time, every site's flips reported in site order", async () => {
    const fake = edge({ origins: NINE_SITES, recordedFlips: nineFlips, replayDelayMs: 20 });
    const answer = await run(["policy", "plan", file({ default: BLOCK_BLOG })], fake);
    expect(answer.code, answer.stderr).toBe(1);
    expect(fake.maxReplaysInFlight).toBe(4);
    expect(fake.calls.filter((call) => call.path === "replay").length).toBe(9);
    const refusals = answer.stdout.split("\n").filter((line) => line.startsWith("  ! refuses"));
    expect(refusals).toEqual(
      ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"].map(
        (name) =>
          `  ! refuses search crawler Googlebot GET /blog/${name}: pass -> block, policy /blog/${name}: block (traffic)`,
      ),
    );
  });

  it("stops replaying at the first site the edge will not replay, and says which, leaving the change unchecked", async () => {
    const fake = edge({
      origins: NINE_SITES,
      recordedFlips: nineFlips,
      replayDelayMs: 20,
      unreplayable: ["s2.example", "s7.example"],
    });
    const answer = await run(["policy", "plan", file({ default: BLOCK_BLOG })], fake);
    expect(answer.code, answer.stderr).toBe(1);
    const shown = answer.stdout.split("\n");
    expect(shown).toContain(
      "  replay: the edge would not replay https://s2.example (s2.example is not an origin this edge serves)",
    );
    expect(shown).toContain("  ! not checked for search crawlers (see replay above)");
    // Four in flight when s2's answer came; at most one more was taken before it did.
    expect(fake.calls.filter((call) => call.path === "replay").length).toBeLessThanOrEqual(5);
  });

  it("reports the first site in order that could not be replayed, even when a later one failed sooner", async () => {
    const fake = edge({
      origins: NINE_SITES,
      recordedFlips: nineFlips,
      replayDelayMs: 20,
      unreplayable: ["s2.example"],
      failing: ["s4.example"],
    });
    const answer = await run(["policy", "plan", file({ default: BLOCK_BLOG })], fake);
    expect(answer.code, answer.stderr).toBe(1);
    expect(answer.stdout.split("\n")).toContain(
      "  replay: the edge would not replay https://s2.example (s2.example is not an origin this edge serves)",
    );
  });

  it("asks every URL of --urls of each search crawler and each crawler the policies name, and fails on a refusal", async () => {
    const urls = join(dir, "urls.txt");
    writeFileSync(urls, "# the pages that matter\n/blog/\n\nhttps://a.example/shop/?page=2\n");
    const fake = edge({
      asked: (token, path) =>
        token === "bingbot" && path === "/shop/?page=2" ? { live: "pass", draft: "block" } : undefined,
      // Each replay judges at most 7 asked: the CLI must ask again for the rest.
      askedBudget: 7,
    });
    const answer = await run(
      ["policy", "plan", file({ hosts: { "a.example": BLOCK_GPTBOT_X } }), "--urls", urls, "--json"],
      fake,
    );
    expect(answer.code).toBe(1);
    const plan = JSON.parse(answer.stdout) as {
      refused: boolean;
      targets: {
        host: string;
        asked: { requests: number; changedCount: number; byCrawler: Record<string, unknown[]> };
      }[];
    };
    expect(plan.refused).toBe(true);
    // 24 search crawlers of the table and GPTBot, two paths each.
    expect(plan.targets[0]?.asked).toMatchObject({ requests: 50, changedCount: 1 });
    expect(Object.keys(plan.targets[0]?.asked.byCrawler ?? {})).toEqual(["bingbot"]);
    const asked = fake.calls.flatMap(
      (call) => (call.body as { requests?: { token: string; path: string }[] } | undefined)?.requests ?? [],
    );
    // Every pair asked; the edge judged 7 a call (the last 7 sent), so 8 calls, each for what was left.
    expect(new Set(asked.map((request) => `${request.token} ${request.path}`)).size).toBe(50);
    const replays = fake.calls.filter((call) => call.path === "replay");
    expect(replays.map((call) => (call.body as { requests: unknown[] }).requests.length)).toEqual([
      50, 43, 36, 29, 22, 15, 8, 1,
    ]);
    expect([...new Set(asked.filter((request) => request.token === "GPTBot").map((request) => request.path))]).toEqual([
      "/blog/",
      "/shop/?page=2",
    ]);
  });

  it.each([
    {
      name: "a host the edge does not serve",
      content: { hosts: { "other-tenant.example": ALLOW_ALL } },
      code: 2,
      error: 'the file names "other-tenant.example", which this edge does not serve',
    },
    {
      name: "a host in another spelling",
      content: { hosts: { "A.Example": ALLOW_ALL } },
      code: 1,
      error: 'write it "a.example"',
    },
    {
      name: "a policy the edge would refuse",
      content: { default: { routes: [{ pattern: "/x", rules: [{ crawlers: ["GPTBot"], action: "deny" }] }] } },
      code: 1,
      error: 'default: routes[0].rules[0].action must be "block", "allow", "pace" or "charge", got "deny"',
    },
    { name: "not JSON", content: "{", code: 1, error: "not JSON" },
  ])("$name: exit $code, nothing saved", async ({ content, code, error }) => {
    const fake = edge();
    for (const command of ["plan", "apply"]) {
      const answer = await run(["policy", command, file(content)], fake);
      expect(answer.code).toBe(code);
      expect(answer.stderr).toContain(error);
    }
    expect(puts(fake)).toEqual([]);
  });

  it("names the hosts with a policy on the edge that the file leaves alone (every page of GET policies)", async () => {
    const hosts = Object.fromEntries(
      ["c", "d", "e", "f", "g"].map((name) => [`${name}.example`, { version: 1, policy: ALLOW_ALL }]),
    );
    const fake = edge({ hosts: { ...hosts, "a.example": { version: 2, policy: ALLOW_ALL } }, pageSize: 2 });
    const answer = await run(["policy", "plan", file({ hosts: { "a.example": ALLOW_ALL } })], fake);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain(
      "not in the file, left as they are: c.example (version 1), d.example (version 1), e.example (version 1), f.example (version 1), g.example (version 1)",
    );
  });
});

describe("robots-edge policy apply", () => {
  it("saves each changed policy with If-Match of the version planned, and prints the new versions", async () => {
    const fake = edge();
    const content = { default: BLOCK_GPTBOT_X, hosts: { "a.example": ALLOW_ALL, "b.example": BLOCK_GPTBOT_X } };
    const answer = await run(["policy", "apply", file(content)], fake, { ...ENV, USER: "ci-user" });
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout).toBe(
      "default: version 4 saved (was 3)\nb.example: version 1 saved (was 0)\n2 saved, 1 unchanged\n",
    );
    expect(puts(fake)).toEqual([
      { host: null, ifMatch: '"3"' },
      { host: "b.example", ifMatch: '"0"' },
    ]);
    expect(fake.calls.find((call) => call.method === "PUT")?.savedBy).toBe("robots-edge policy apply: ci-user");
    expect(fake.policies.get("b.example")).toEqual({ version: 1, policy: BLOCK_GPTBOT_X });
    // Applied: the same file plans no change.
    const again = await run(["policy", "plan", file(content)], fake);
    expect(again.stdout).toContain("0 to change, 3 unchanged");
  });

  it("a conflict saves nothing for that host, the others are saved, exit 1", async () => {
    const fake = edge({
      beforePut: (host, edgeNow) => {
        if (host === "a.example" && edgeNow.policies.get(host)?.version === 2) {
          edgeNow.policies.set(host, { version: 3, policy: { routes: [{ pattern: "/someone-else/", rules: [] }] } });
        }
      },
    });
    const content = { default: BLOCK_GPTBOT_X, hosts: { "a.example": BLOCK_GPTBOT_X } };
    const answer = await run(["policy", "apply", file(content), "--json"], fake);
    expect(answer.code).toBe(1);
    const result = JSON.parse(answer.stdout) as { results: { host: string | null; saved: boolean; status?: number }[] };
    expect(result.results.map(({ host, saved, status }) => ({ host, saved, status }))).toEqual([
      { host: null, saved: true, status: undefined },
      { host: "a.example", saved: false, status: 412 },
    ]);
    expect(fake.policies.get("a.example")).toEqual({
      version: 3,
      policy: { routes: [{ pattern: "/someone-else/", rules: [] }] },
    });
  });

  it("refuses, saving nothing, when the plan refuses a search crawler; saves with --allow-search-changes", async () => {
    const options = {
      recordedFlips: { "a.example": [{ token: "Googlebot", path: "/blog/a", live: "pass", draft: "block" }] },
    };
    const content = file({ default: BLOCK_GPTBOT_X, hosts: { "a.example": BLOCK_BLOG } });
    const refused = edge(options);
    const answer = await run(["policy", "apply", content], refused);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain("nothing saved");
    expect(puts(refused)).toEqual([]);
    const allowed = edge(options);
    expect((await run(["policy", "apply", content, "--allow-search-changes"], allowed)).code).toBe(0);
    expect(puts(allowed)).toEqual([
      { host: null, ifMatch: '"3"' },
      { host: "a.example", ifMatch: '"2"' },
    ]);
  });
});

describe("robots-edge policy pull", () => {
  it("writes the default and every host with a policy of its own; the file plans no change", async () => {
    const fake = edge({
      hosts: { "a.example": { version: 2, policy: BLOCK_GPTBOT_X }, "b.example": { version: 0, policy: null } },
    });
    const path = join(dir, "pulled.json");
    const answer = await run(["policy", "pull", path], fake);
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout).toBe(`wrote ${path}: default (version 3), a.example (version 2)\n`);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      $schema: "./node_modules/robots-edge/schema/policy-file.schema.json",
      default: ALLOW_ALL,
      hosts: { "a.example": BLOCK_GPTBOT_X },
    });
    const plan = await run(["policy", "plan", path], fake);
    expect(plan.stdout).toContain("0 to change, 2 unchanged");
  });

  it("--json: the file written and the version of each policy pulled", async () => {
    const fake = edge({ hosts: { "a.example": { version: 2, policy: BLOCK_GPTBOT_X } } });
    const path = join(dir, "pulled-json.json");
    const answer = await run(["policy", "pull", path, "--json"], fake);
    expect(JSON.parse(answer.stdout)).toEqual({
      file: path,
      policies: [
        { host: null, version: 3 },
        { host: "a.example", version: 2 },
      ],
    });
  });

  it("without a file, writes it to stdout", async () => {
    const answer = await run(["policy", "pull"], edge());
    expect(JSON.parse(answer.stdout)).toMatchObject({ default: ALLOW_ALL, hosts: {} });
  });
});

const redirecting = async () => new Response(null, { status: 302, headers: { location: "https://evil.example/" } });

describe("where the edge is, and the token", () => {
  it.each([
    { env: {}, args: [], error: "which edge? give --edge" },
    { env: { ROBOTS_EDGE_URL: "http://127.0.0.1:9/" }, args: [], error: "give --token (or set ROBOTS_EDGE_TOKEN)" },
    {
      env: {},
      args: ["--edge", "http://shop.example", "--token", TOKEN],
      error: "is plain http: the admin token would cross the network in clear",
    },
    { env: {}, args: ["--edge", "ftp://shop.example", "--token", TOKEN], error: "--edge must be an http(s) URL" },
    { env: ENV, args: ["--token", "wrong-token-0123456"], error: "401, the edge refused the token" },
  ])("$error: exit 2", async ({ env, args, error }) => {
    const answer = await run(["policy", "pull", ...args], edge(), env);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain(error);
  });

  it("flags win over the environment; the admin prefix defaults to /__robots/", async () => {
    const seen: string[] = [];
    const fake = edge();
    const spy = (request: Request) => {
      seen.push(request.url);
      return fake.fetch(request);
    };
    const stdout = new PassThrough();
    stdout.resume();
    const code = await main(["policy", "pull", "--edge", "https://shop.example", "--token", TOKEN], {
      stdin: new PassThrough(),
      stdout,
      stderr: new PassThrough(),
      env: { ROBOTS_EDGE_URL: "https://elsewhere.example/", ROBOTS_EDGE_TOKEN: "not-this-one" },
      fetch: spy,
    });
    expect(code).toBe(0);
    expect(seen[0]).toBe("https://shop.example/__robots/policy");
  });

  it("refuses a redirect rather than send the token on", async () => {
    const stderr = new PassThrough();
    const err: string[] = [];
    stderr.on("data", (chunk: Buffer) => err.push(String(chunk)));
    const code = await main(["policy", "pull"], {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr,
      env: ENV,
      fetch: redirecting,
    });
    expect(code).toBe(2);
    expect(err.join("")).toContain("answered a redirect (302 to https://evil.example/); the token is not sent on");
  });
});
