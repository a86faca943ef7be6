// Issue #31, what the operator sees with purposes in force: the tester's draft is judged
// through the purposes as live is, and during a pause the tester says what robots.txt says
// beside the 503 and compares drafts on it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { admin, CHROME, fakeOrigin, freshState, GOOGLEBOT, GPTBOT, BINGBOT } from "./helpers.ts";

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
