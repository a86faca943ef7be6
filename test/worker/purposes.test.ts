// Purposes at the edge (src/worker/robots/purposes-served.ts): /robots.txt serves the origin's file
// with the generated lines, and the decision enforces that same file. Parity: for every token
// of the crawler table and a set of paths, the served file read by the core matcher gives the
// edge's answer. VERIFY_CRAWLERS=off: claims are judged as made (their group, never an
// exemption from `*`), so the parity is about the file, not about addresses.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { KNOWN_CRAWLERS, type KnownCrawler } from "../../src/agents/operators/tables.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { GENERATED_FOOTER, GENERATED_HEADER } from "../../src/policy/purposes-robots.ts";
import { admin, call, CHROME, fakeOrigin, freshState } from "./helpers.ts";

const ORIGIN_ROBOTS =
  "User-agent: *\nDisallow: /admin/\nAllow: /admin/public/\n\nUser-agent: bingbot\nDisallow: /private/\n";
const PURPOSES = {
  purposes: [
    { path: "/", "search-engine": "allow", "ai-search": "allow", "ai-assistant": "allow", "ai-training": "block" },
    {
      path: "/members/",
      "search-engine": "block",
      "ai-search": "block",
      "ai-assistant": "block",
      "ai-training": "block",
    },
  ],
};
const OFF = { VERIFY_CRAWLERS: "off" } as const;
const PATHS = ["/", "/blog/x.html", "/admin/x", "/admin/public/x", "/members/x", "/private/x"];

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ORIGIN_ROBOTS });
});
afterEach(freshState);

/** A User-Agent carrying the name the crawler sends (its pattern, else its token). */
function userAgentOf(crawler: KnownCrawler): string {
  const name = crawler.pattern === undefined ? crawler.token : [crawler.pattern].flat()[0];
  return `Mozilla/5.0 (compatible; ${name}/1.0; +https://example.test/bot)`;
}

async function servedText(env: Partial<Env> = OFF): Promise<string> {
  const response = await call("/robots.txt", { ua: CHROME, env });
  expect(response.status).toBe(200);
  return response.text();
}

describe("purposes set through the admin API", () => {
  it("/robots.txt serves the generated groups first, then the origin's file unchanged", async () => {
    expect((await admin("policy", { method: "PUT", body: PURPOSES, env: OFF })).status).toBe(200);
    const text = await servedText();
    expect(text.startsWith(GENERATED_HEADER)).toBe(true);
    expect(text.endsWith(`${GENERATED_FOOTER}\n\n${ORIGIN_ROBOTS}`)).toBe(true);
    expect(text).toContain("User-agent: GPTBot\n");
    expect(text).toContain("User-agent: Google-Extended\n");
    expect(text).toContain("Content-Usage: / train-ai=n, search=y\n");
    expect(text.slice(0, text.indexOf(GENERATED_FOOTER))).not.toMatch(/^User-agent: bingbot$/im); // the owner's group wins
  });

  it("parity: for every table token and path, the edge answers what the served file says", async () => {
    await admin("policy", { method: "PUT", body: PURPOSES, env: OFF });
    const matcher = compileRobots(parseRobotsTxt(await servedText()));
    const mismatches: string[] = [];
    let blocked = 0;
    for (const crawler of KNOWN_CRAWLERS) {
      const ua = userAgentOf(crawler);
      const agent = classifyUserAgent(ua);
      for (const path of PATHS) {
        // VERIFY_CRAWLERS=off: the claimed group, never an exemption from `*`.
        const allowed = matcher.decide(agent.tokens, path, { obeysGlobalGroup: true }).allowed;
        const status = (await call(path, { ua, env: OFF })).status;
        if (!allowed) blocked++;
        if (status !== (allowed ? 200 : 403))
          mismatches.push(`${crawler.token} ${path}: file ${allowed}, edge ${status}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(blocked).toBeGreaterThan(100); // the file does block: the comparison is not vacuous
  }, 120_000); // ~540 requests through the Worker; the machine is shared

  it("people are untouched: a browser reaches /members/ and /", async () => {
    await admin("policy", { method: "PUT", body: PURPOSES, env: OFF });
    expect((await call("/members/x", { ua: CHROME, env: OFF })).status).toBe(200);
    expect((await call("/", { ua: CHROME, env: OFF })).status).toBe(200);
  });

  it("a policy without purposes serves the origin's bytes exactly", async () => {
    await admin("policy", { method: "PUT", body: { routes: [] }, env: OFF });
    expect(await servedText()).toBe(ORIGIN_ROBOTS);
  });
});

describe("purposes from the POLICY var, and an origin without robots.txt", () => {
  it("the POLICY var's purposes are served and enforced like a saved version", async () => {
    const env = { ...OFF, POLICY: JSON.stringify(PURPOSES) };
    expect(await servedText(env)).toContain("User-agent: CCBot\n");
    expect((await call("/", { ua: "CCBot/2.0 (https://commoncrawl.org/faq/)", env })).status).toBe(403);
  });

  it("an origin with no robots.txt (404) gets the generated lines as its whole file", async () => {
    fakeOrigin({ status: 404 });
    const env = { ...OFF, POLICY: JSON.stringify(PURPOSES) };
    const text = await servedText(env);
    expect(text.startsWith(GENERATED_HEADER)).toBe(true);
    expect(text.endsWith(`${GENERATED_FOOTER}\n\n`)).toBe(true);
    const gptbot =
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    expect((await call("/", { ua: gptbot, env })).status).toBe(403);
  });
});

describe("the origin's lines before any user-agent line (outside attack, session 7)", () => {
  // They apply to no crawler in the origin's file; after the generated groups they would join
  // the last one. Served commented out, at their own line numbers, and named in GET status.
  const STRAY = "Disallow: /\nAllow: /members/\n\nUser-agent: *\nDisallow: /admin/\n";
  const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const GPTBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";

  it("served commented out; Googlebot keeps the site, GPTBot stays blocked; GET status says so", async () => {
    fakeOrigin({ body: STRAY });
    const policy = { purposes: [{ path: "/members/", "search-engine": "allow", "ai-training": "block" }] };
    expect((await admin("policy", { method: "PUT", body: policy, env: OFF })).status).toBe(200);
    const text = await servedText();
    expect(
      text.endsWith(
        "commented out (they apply to no crawler)\n\n# Disallow: /\n# Allow: /members/\n\nUser-agent: *\nDisallow: /admin/\n",
      ),
    ).toBe(true);
    const answers = [
      await call("/blog/", { ua: GOOGLEBOT, env: OFF }),
      await call("/members/x", { ua: GPTBOT, env: OFF }),
      await call("/admin/x", { ua: GOOGLEBOT, env: OFF }),
    ].map((response) => [response.status, response.headers.get("x-robots-edge")]);
    expect(answers.map(([status]) => status)).toEqual([200, 403, 403]);
    expect(answers[2]?.[1]).toMatch(/line=5\b/);
    const status = (await (await admin("status", { env: OFF })).json()) as { edge: { problems: string[] } };
    expect(status.edge.problems.filter((problem) => problem.includes("before its first user-agent line"))).toEqual([
      expect.stringMatching(
        /^purposes at .*: the origin's robots.txt has lines before its first user-agent line \(line 1, 2\); they apply to no crawler/,
      ),
    ]);
  });
});

describe("draft replay with purposes", () => {
  it("a draft policy's purposes are judged through the file they would serve", async () => {
    const ccbot = "CCBot/2.0 (https://commoncrawl.org/faq/)";
    const oaiSearch = "Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)";
    await call("/blog/a", { ua: ccbot, env: OFF }); // pass today: nothing names CCBot
    await call("/members/a", { ua: oaiSearch, env: OFF }); // pass today
    await call("/blog/a", { ua: oaiSearch, env: OFF }); // pass today and under the draft
    const response = await admin("replay", { method: "POST", body: { policy: PURPOSES }, env: OFF });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      requests: number;
      changedCount: number;
      changed: { token: string; path: string; live: { action: string }; draft: { action: string; layer: string } }[];
    };
    expect(answer.requests).toBe(3);
    expect(answer.changedCount).toBe(2);
    expect(
      answer.changed.map(({ token, path, live, draft }) => [token, path, live.action, draft.action, draft.layer]),
    ).toEqual(
      expect.arrayContaining([
        ["CCBot", "/blog/a", "pass", "block", "robots.txt"],
        ["OAI-SearchBot", "/members/a", "pass", "block", "robots.txt"],
      ]),
    );
  });
});

describe("POST purposes/preview: the page's view of a setting, saving nothing", () => {
  it.each([
    {
      why: "a draft: its generated lines next to the stored copy",
      body: { purposes: [{ path: "/", "ai-training": "block" }] },
      status: 200,
      generated: "\nUser-agent: GPTBot\n",
    },
    { why: "no draft: the purposes in force (none)", body: {}, status: 200, generated: "" },
    {
      why: "a draft with a wildcard path",
      body: { purposes: [{ path: "/a*", "ai-training": "block" }] },
      status: 400,
      error: 'purposes[0].path must be a path prefix starting with "/"',
    },
    { why: "not an object", body: [1], status: 400, error: 'the body must be a JSON object {"purposes"?: […]}' },
  ])("$why -> $status", async ({ body, status, generated, error }) => {
    await call("/robots.txt", { ua: CHROME, env: OFF }); // stores the origin's copy
    const response = await admin("purposes/preview", { method: "POST", body, env: OFF });
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { originText?: string; generated?: string; error?: string };
    if (generated === undefined) {
      expect(answer.error).toContain(error);
      return;
    }
    expect(answer.originText).toBe(ORIGIN_ROBOTS);
    if (generated === "") expect(answer.generated).toBe("");
    else expect(answer.generated).toContain(generated);
    expect((await admin("policy", { env: OFF }).then((r) => r.json())) as { version: number }).toMatchObject({
      version: 0,
    });
  });

  it("a body past the policy bound is refused unread (413)", async () => {
    const response = await admin("purposes/preview", {
      method: "POST",
      body: { purposes: [], pad: "x".repeat(70_000) },
      env: OFF,
    });
    expect(response.status).toBe(413);
  });
});
