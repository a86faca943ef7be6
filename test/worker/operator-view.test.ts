// Issue #31, what the operator sees with purposes in force: the tester's draft is judged
// through the purposes as live is, and during a pause the tester says what robots.txt says
// beside the 503 and compares drafts on it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GENERATED_FOOTER } from "../../src/policy/purposes-robots.ts";
import { admin, call, CHROME, fakeOrigin, freshState, GOOGLEBOT, GPTBOT, BINGBOT } from "./helpers.ts";

const ORIGIN_ROBOTS = "User-agent: *\nDisallow: /admin/\n\nUser-agent: bingbot\nDisallow: /private/\n";
const PURPOSES = {
  purposes: [
    { path: "/", "ai-training": "block" },
    { path: "/members/", "search-engine": "block", "ai-training": "block" },
  ],
};
const OFF = { VERIFY_CRAWLERS: "off" } as const;

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ORIGIN_ROBOTS });
});
afterEach(freshState);

interface Side {
  allowed: boolean;
  action: { action: string; status: number | null };
  rule: { line: number } | null;
  afterPause?: { allowed: boolean; rule: { line: number } | null };
}
interface Tested {
  paused: boolean;
  results: { url: string; live: Side; draft: Side; differs: boolean }[];
}

async function tested(ua: string, urls: string[], draft: string): Promise<Tested> {
  const response = await admin("test", { method: "POST", body: { ua, urls, draft }, env: OFF });
  expect(response.status).toBe(200);
  return (await response.json()) as Tested;
}

describe("POST test: the draft column applies the purposes in force, as live and replay do", () => {
  // [ua, url, live allowed, draft allowed, differs], the draft being the origin's own file.
  const agents: Record<string, string> = { GPTBot: GPTBOT, Googlebot: GOOGLEBOT, bingbot: BINGBOT };
  const rows: [string, string, boolean, boolean, boolean][] = [
    ["GPTBot", "/blog/", false, false, false],
    ["GPTBot", "/members/x", false, false, false],
    ["Googlebot", "/members/x", false, false, false],
    ["Googlebot", "/blog/", true, true, false],
    ["Googlebot", "/admin/x", false, false, false],
    // The owner's bingbot group wins over the purposes (the note says so): allowed on both sides.
    ["bingbot", "/members/x", true, true, false],
    ["bingbot", "/private/x", false, false, false],
  ];
  it.each(rows)("%s %s: live %s, draft %s, differs %s", async (name, url, live, draft, differs) => {
    const ua = agents[name] ?? "";
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const [result] = (await tested(ua, [url], ORIGIN_ROBOTS)).results;
    expect([result?.live.allowed, result?.draft.allowed, result?.differs]).toEqual([live, draft, differs]);
  });

  it("a draft that does change a crawler's answer still differs, through the purposes", async () => {
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const draft = `${ORIGIN_ROBOTS}\nUser-agent: *\nDisallow: /blog/\n`;
    const { results } = await tested(GOOGLEBOT, ["/blog/", "/members/x", "/about"], draft);
    expect(results.map((r) => [r.url, r.live.allowed, r.draft.allowed, r.differs])).toEqual([
      ["/blog/", true, false, true],
      ["/members/x", false, false, false],
      ["/about", true, true, false],
    ]);
  });
});

describe("POST test during a pause: robots.txt's verdict beside the 503, and drafts compared on it", () => {
  const draft = "User-agent: *\nDisallow: /admin/\nDisallow: /drafts/\n";
  // [url, live allowed, live line, draft allowed, draft line, differs]
  const rows: [string, boolean, number | null, boolean, number | null, boolean][] = [
    ["/admin/x", false, 2, false, 2, false],
    ["/drafts/y", true, null, false, 3, true],
    ["/blog/", true, null, true, null, false],
  ];
  it.each(rows)("%s: live allowed %s (line %s), draft %s (line %s), differs %s", async (url, ...expected) => {
    await admin("pause", { method: "POST", body: { minutes: 30, retryAfter: 600 }, env: OFF });
    const result = await tested(GOOGLEBOT, [url], draft);
    expect(result.paused).toBe(true);
    const [row] = result.results;
    // The edge's answer now: 503 on both sides.
    expect([row?.live.action.status, row?.draft.action.status]).toEqual([503, 503]);
    expect([
      row?.live.allowed,
      row?.live.afterPause?.rule?.line ?? null,
      row?.draft.allowed,
      row?.draft.afterPause?.rule?.line ?? null,
      row?.differs,
    ]).toEqual(expected);
  });

  it("a person is not paused: no verdict to show beside a pause", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30 }, env: OFF });
    const [row] = (await tested(CHROME, ["/admin/x"], draft)).results;
    expect([row?.live.action.action, row?.live.afterPause]).toEqual(["pass", undefined]);
  });
});

describe("GET explain during a pause answers as the tester does: the 503 now, robots.txt's verdict beside it", () => {
  interface Explained {
    allowed: boolean;
    layer: string;
    action: { action: string; status: number | null };
    afterPause?: { allowed: boolean; layer: string; rule: { line: number } | null } | null;
  }
  // [ua, url, allowed, afterPause layer, afterPause line] for ORIGIN_ROBOTS, paused.
  const rows: [string, string, boolean, string, number | null][] = [
    ["Googlebot", "/admin/x", false, "robots.txt", 2],
    ["Googlebot", "/blog/", true, "robots.txt", null],
    ["bingbot", "/private/x", false, "robots.txt", 5],
  ];
  const agents: Record<string, string> = { Googlebot: GOOGLEBOT, bingbot: BINGBOT };
  it.each(rows)("%s %s: allowed %s (%s line %s), and the same in the tester", async (name, url, ...expected) => {
    const ua = agents[name] ?? "";
    await admin("pause", { method: "POST", body: { minutes: 30, retryAfter: 600 }, env: OFF });
    await admin("refresh", { method: "POST", env: OFF });
    const response = await admin(`explain?ua=${encodeURIComponent(ua)}&url=${encodeURIComponent(url)}`, { env: OFF });
    const explained = (await response.json()) as Explained;
    expect([explained.action.status, explained.layer]).toEqual([503, "pause"]);
    expect([explained.allowed, explained.afterPause?.layer, explained.afterPause?.rule?.line ?? null]).toEqual(
      expected,
    );
    const [row] = (await tested(ua, [url], ORIGIN_ROBOTS)).results;
    expect([row?.live.allowed, row?.live.afterPause?.rule?.line ?? null]).toEqual([expected[0], expected[2]]);
  });

  it("no copy stored yet: the verdict after the pause is unknown, said as null", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30 }, env: OFF });
    const explained = (await (
      await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=/admin/x`, { env: OFF })
    ).json()) as Explained;
    expect([explained.action.status, explained.afterPause]).toEqual([503, null]);
  });

  it("a person is not paused: no afterPause, allowed", async () => {
    await admin("pause", { method: "POST", body: { minutes: 30 }, env: OFF });
    await admin("refresh", { method: "POST", env: OFF });
    const explained = (await (
      await admin(`explain?ua=${encodeURIComponent(CHROME)}&url=/admin/x`, { env: OFF })
    ).json()) as Explained;
    expect([explained.allowed, explained.layer, explained.afterPause]).toEqual([true, "human", undefined]);
  });
});

describe("one numbering with purposes in force: origin lines by their origin number, generated lines as g<n>", () => {
  interface Explained {
    rule: { line: number; kind: string; pattern: string } | null;
    line: { line: number | null } | null;
  }
  /** The edge's every report of the deciding line for one request. */
  async function reports(ua: string, path: string) {
    const response = await call(path, { ua, env: OFF });
    const body = await response.text();
    const explained = (await (
      await admin(`explain?ua=${encodeURIComponent(ua)}&url=${encodeURIComponent(path)}`, { env: OFF })
    ).json()) as Explained;
    const [testedRow] = (await tested(ua, [path], ORIGIN_ROBOTS)).results;
    return {
      status: response.status,
      header: response.headers.get("x-robots-edge"),
      body,
      explainLine: explained.rule?.line,
      recordLine: explained.line?.line,
      testerLine: testedRow?.live.rule?.line,
    };
  }

  // [crawler, path, X-Robots-Edge, 403 body's line, JSON line]: origin lines keep their number.
  const originRows: [string, string, string, string, number][] = [
    // A crawler no purpose speaks for obeys the origin's `*` group: its line 2.
    ["ExampleBot", "/admin/x", 'blocked; rule="disallow: /admin/"; line=2', "(line 2)", 2],
    ["bingbot", "/private/x", 'blocked; rule="disallow: /private/"; line=5', "(line 5)", 5],
  ];
  const agents: Record<string, string> = { ExampleBot: "ExampleBot/1.0 (+https://example.test/bot)", bingbot: BINGBOT };
  it.each(originRows)("%s %s: %s", async (name, path, header, bodyLine, line) => {
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const seen = await reports(agents[name] ?? "", path);
    expect(seen).toMatchObject({ status: 403, header, explainLine: line, recordLine: line, testerLine: line });
    expect(seen.body).toContain(bodyLine);
  });

  it("a generated rule is cited g<n>: line n of the served file, inside the generated block, everywhere", async () => {
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const served = (await (await call("/robots.txt", { ua: CHROME, env: OFF })).text()).split("\n");
    const seen = await reports(GPTBOT, "/blog/");
    const cited = /; line=g(\d+)$/.exec(seen.header ?? "");
    expect(seen.header).toMatch(/^blocked; rule="disallow: \/"; line=g\d+$/);
    const n = Number(cited?.[1]);
    expect(served[n - 1]).toBe("Disallow: /");
    expect(served.indexOf(GENERATED_FOOTER)).toBeGreaterThan(n - 1);
    expect(seen.body).toContain(`(generated line ${n})`);
    // JSON says a generated line as its negative: -n.
    expect([seen.explainLine, seen.recordLine, seen.testerLine]).toEqual([-n, -n, -n]);
  });

  it("a rule the generated group restates is cited where it is restated, not at the origin's line", async () => {
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const served = (await (await call("/robots.txt", { ua: CHROME, env: OFF })).text()).split("\n");
    // Googlebot has a generated group (search engines are blocked on /members/) restating `*`.
    const seen = await reports(GOOGLEBOT, "/admin/x");
    expect(seen.header).toMatch(/^blocked; rule="disallow: \/admin\/"; line=g\d+$/);
    const n = Number(/; line=g(\d+)$/.exec(seen.header ?? "")?.[1]);
    expect(served[n - 1]).toBe("Disallow: /admin/");
    expect(served.indexOf(GENERATED_FOOTER)).toBeGreaterThan(n - 1);
    expect([seen.explainLine, seen.recordLine, seen.testerLine]).toEqual([-n, -n, -n]);
  });

  it("GET robots shows the served file: the generated lines, then the origin's, each line as the edge cites it", async () => {
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const served = await (await call("/robots.txt", { ua: CHROME, env: OFF })).text();
    const view = (await (await admin("robots", { env: OFF })).json()) as {
      text: string;
      originText: string;
      generatedLines: number;
      groups: { agents: string[]; lines: number[] }[];
    };
    expect(view.text).toBe(served);
    expect(view.originText).toBe(ORIGIN_ROBOTS);
    const lines = view.text.split("\n");
    expect(lines[view.generatedLines - 1]).toBe(""); // the blank line after the footer
    expect(lines[view.generatedLines - 2]).toBe(GENERATED_FOOTER);
    // Origin line 5 ("Disallow: /private/" in bingbot's group) is served line generatedLines + 5.
    expect(lines[view.generatedLines + 4]).toBe("Disallow: /private/");
    expect(view.groups).toContainEqual({ agents: ["bingbot"], lines: [4], rules: 1 });
    const gptbot = view.groups.find((group) => group.agents.includes("gptbot"));
    expect(gptbot?.lines.some((line) => line < 0 && lines[-line - 1] === "User-agent: GPTBot")).toBe(true);
    expect(gptbot?.lines.every((line) => line < 0 && -line < view.generatedLines)).toBe(true);
  });

  it("without purposes nothing is generated: GET robots' text is the origin's, numbered as it is", async () => {
    await admin("refresh", { method: "POST", env: OFF });
    const view = (await (await admin("robots", { env: OFF })).json()) as { text: string; generatedLines: number };
    expect([view.text, view.generatedLines]).toEqual([ORIGIN_ROBOTS, 0]);
    expect((await call("/admin/x", { ua: GOOGLEBOT, env: OFF })).headers.get("x-robots-edge")).toBe(
      'blocked; rule="disallow: /admin/"; line=2',
    );
  });
});

describe("purposes problems in GET status (the page's banner), and in the save's answer", () => {
  interface Status {
    edge: { problems: string[] };
  }
  async function problems(robots: string, policy: unknown): Promise<{ saved: unknown; status: string[] }> {
    fakeOrigin({ body: robots });
    await admin("refresh", { method: "POST", env: OFF });
    const saved = await (await admin("policy", { method: "PUT", body: policy, env: OFF })).json();
    const status = (await (await admin("status", { env: OFF })).json()) as Status;
    return { saved, status: status.edge.problems };
  }
  const TRAINING = { purposes: [{ path: "/", "ai-training": "block" }] };
  const NAMED = { purposes: [{ path: "/", GPTBot: "block" }] };
  const CMS = "User-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nAllow: /\n";

  // [case, origin robots.txt, policy, a problem contains (null: none)]
  const rows: [string, string, unknown, string | null][] = [
    ["the origin names GPTBot (category entry)", CMS, TRAINING, "GPTBot: the origin's own group (user-agent line 4)"],
    ["the origin names GPTBot (entry naming it)", CMS, NAMED, "GPTBot: the origin's own group (user-agent line 4)"],
    ["the origin does not name it", ORIGIN_ROBOTS, TRAINING, null],
    [
      "a route allows the category the purposes block",
      ORIGIN_ROBOTS,
      { ...TRAINING, routes: [{ pattern: "/a/", rules: [{ crawlers: ["category:ai-training"], action: "allow" }] }] },
      "routes[0].rules[0] lets GPTBot",
    ],
    [
      "a route with mode off under a block",
      ORIGIN_ROBOTS,
      { ...TRAINING, routes: [{ pattern: "/a/", mode: "off" }] },
      "routes[0] (mode off) lets GPTBot",
    ],
    [
      "a route allowing one named crawler under a named block",
      ORIGIN_ROBOTS,
      { ...NAMED, routes: [{ pattern: "/a/*.html", rules: [{ crawlers: ["gptbot"], action: "allow" }] }] },
      "routes[0].rules[0] lets GPTBot",
    ],
    [
      "a route that blocks what the purposes block",
      ORIGIN_ROBOTS,
      { ...TRAINING, routes: [{ pattern: "/a/", rules: [{ crawlers: ["category:ai-training"], action: "block" }] }] },
      null,
    ],
    [
      "a route allowing search, which the purposes leave alone",
      ORIGIN_ROBOTS,
      { ...TRAINING, routes: [{ pattern: "/a/", rules: [{ crawlers: ["category:search-engine"], action: "allow" }] }] },
      null,
    ],
  ];
  it.each(rows)("%s", async (_, robots, policy, expected) => {
    const { saved, status } = await problems(robots, policy);
    const found = status.filter((problem) => problem.includes("purposes"));
    if (expected === null) {
      expect(found).toEqual([]);
      expect(saved).not.toHaveProperty("notes");
    } else {
      expect(found).toEqual([expect.stringContaining(expected)]);
      // The route conflicts need no origin: the save says them too.
      if (expected.startsWith("routes[")) expect(saved).toMatchObject({ notes: [expect.stringContaining(expected)] });
    }
  });

  it("one token twice in different case is refused, on its line", async () => {
    const text = '{"purposes": [\n  {"path": "/",\n   "GPTBot": "block",\n   "gptbot": "allow"}\n]}';
    const response = await call("/__robots/policy", {
      method: "PUT",
      ua: CHROME,
      body: text,
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
      env: OFF,
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { problems: string[]; at: { line: number; problem: string }[] };
    expect(answer.problems).toEqual([expect.stringMatching(/^purposes\[0\]\.gptbot names GPTBot again/)]);
    expect(answer.at.map((entry) => entry.line)).toEqual([4]);
  });
});
