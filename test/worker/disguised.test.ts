// Crawlers in disguise in the real runtime (issue 24): a browser User-Agent from an address in a
// crawler-only published list is judged as that crawler — its group (403 where it disallows the
// path, in every spelling), its activity record marked "disguised" — under
// DISGUISED_CRAWLERS=enforce; passed and recorded under report; a person from a mixed list, a
// stale list, no list, or with no address. Also the lists' refresh from CRAWLER_RANGES, its
// bounds, POST refresh?sources=ranges and what GET status shows.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { RANGE_SOURCES } from "../../src/agents/operators/tables.ts";
import { MAX_RANGE_PREFIXES, STALE_LIST_MS } from "../../src/worker/identity/crawler-ranges.ts";
import { admin, call, CHROME, fakeOrigin, freshState, runCron } from "./helpers.ts";

const ROBOTS = "User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n";
const GPTBOT_ADDRESS = "20.171.206.7"; // in the gptbot list below: crawler-only
const CHATGPT_USER_ADDRESS = "23.98.142.180"; // in the chatgpt-user list: mixed
const GPTBOT_V6 = "2a0a:4cc0:1:2::9";
const PERSON = "203.0.113.9";

async function storeLists(gptbotFetchedAt = Date.now()): Promise<void> {
  const sources = {
    gptbot: { fetchedAt: gptbotFetchedAt, cidrs: ["20.171.206.0/24", "2a0a:4cc0:1::/48"] },
    "chatgpt-user": { fetchedAt: Date.now(), cidrs: ["23.98.142.176/28"] },
  };
  await env.ROBOTS.put("crawler-ranges", JSON.stringify({ sources }));
}

/** Watch the decision log lines (JSON, one per crawler decision). */
function watchLog(): () => Record<string, unknown>[] {
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  return () => decisionsIn(log.mock.calls);
}

function decisionsIn(calls: unknown[][]): Record<string, unknown>[] {
  return calls
    .map(([line]) => (typeof line === "string" && line.includes('"robots-edge.decision"') ? JSON.parse(line) : null))
    .filter((line): line is Record<string, unknown> => line !== null);
}

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
});

describe("a browser User-Agent from a published list", () => {
  const rows: {
    name: string;
    setting: string;
    address: string | null;
    path: string;
    lists?: "fresh" | "stale" | "none";
    status: number;
    marker: string | null;
  }[] = [
    {
      name: "enforce: GPTBot's group disallows /private/",
      setting: "enforce",
      address: GPTBOT_ADDRESS,
      path: "/private/x",
      status: 403,
      marker: "blocked",
    },
    {
      name: "enforce: every spelling of the path",
      setting: "enforce",
      address: GPTBOT_ADDRESS,
      path: "/%70rivate/x",
      status: 403,
      marker: "blocked",
    },
    {
      name: "enforce: IPv6 in the list",
      setting: "enforce",
      address: GPTBOT_V6,
      path: "/private/x",
      status: 403,
      marker: "blocked",
    },
    {
      name: "enforce: a path its group allows",
      setting: "enforce",
      address: GPTBOT_ADDRESS,
      path: "/public",
      status: 200,
      marker: null,
    },
    {
      name: "report: passes; what it would have been is recorded, never told to it (issue 31)",
      setting: "report",
      address: GPTBOT_ADDRESS,
      path: "/private/x",
      status: 200,
      marker: null,
    },
    { name: "off: a person", setting: "off", address: GPTBOT_ADDRESS, path: "/private/x", status: 200, marker: null },
    {
      name: "a mixed list (chatgpt-user): a person",
      setting: "enforce",
      address: CHATGPT_USER_ADDRESS,
      path: "/private/x",
      status: 200,
      marker: null,
    },
    {
      name: "an address in no list: a person",
      setting: "enforce",
      address: PERSON,
      path: "/private/x",
      status: 200,
      marker: null,
    },
    {
      name: "no client address: a person",
      setting: "enforce",
      address: null,
      path: "/private/x",
      status: 200,
      marker: null,
    },
    {
      name: "a stale list: a person (a list problem never blocks)",
      setting: "enforce",
      address: GPTBOT_ADDRESS,
      path: "/private/x",
      lists: "stale",
      status: 200,
      marker: null,
    },
    {
      name: "no list loaded: a person",
      setting: "enforce",
      address: GPTBOT_ADDRESS,
      path: "/private/x",
      lists: "none",
      status: 200,
      marker: null,
    },
  ];
  it.each(rows)("$name -> $status", async ({ setting, address, path, lists, status, marker }) => {
    if (lists !== "none") await storeLists(lists === "stale" ? Date.now() - STALE_LIST_MS - 60_000 : Date.now());
    const response = await call(path, {
      ua: CHROME,
      headers: address ? { "cf-connecting-ip": address } : {},
      env: { DISGUISED_CRAWLERS: setting },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-robots-edge")?.split(";")[0] ?? null).toBe(marker);
  });

  it.each([
    { setting: "enforce", action: "block" },
    { setting: "report", action: "report" },
  ])("$setting: logged and recorded as GPTBot, marked disguised", async ({ setting, action }) => {
    await storeLists();
    const loggedDecisions = watchLog();
    await call("/private/x", {
      ua: CHROME,
      headers: { "cf-connecting-ip": GPTBOT_ADDRESS },
      env: { DISGUISED_CRAWLERS: setting },
    });
    const [line] = loggedDecisions();
    expect(line).toMatchObject({
      action,
      tokens: ["GPTBot"],
      judgedAs: "disguised",
      verification: { status: "verified", method: "ip-list", evidence: "gptbot" },
    });
    const view = (await (await admin("activity")).json()) as {
      crawlers: { token: string; verified: Record<string, number>; total: Record<string, number> }[];
      recent: { token: string; verified: string; action: string }[];
    };
    const gptbot = view.crawlers.find((crawler) => crawler.token === "GPTBot");
    expect(gptbot?.verified["disguised"]).toBe(1);
    expect(gptbot?.total[action]).toBe(1);
    expect(view.recent).toEqual([expect.objectContaining({ token: "GPTBot", verified: "disguised", action })]);
  });

  it("a person from a mixed list is counted as a person, never logged as a crawler", async () => {
    await storeLists();
    const loggedDecisions = watchLog();
    await call("/private/x", {
      ua: CHROME,
      headers: { "cf-connecting-ip": CHATGPT_USER_ADDRESS },
      env: { DISGUISED_CRAWLERS: "enforce" },
    });
    expect(loggedDecisions()).toEqual([]);
    const view = (await (await admin("activity")).json()) as { humans: { total: number }; crawlers: unknown[] };
    expect(view.humans.total).toBe(1);
    expect(view.crawlers).toEqual([]);
  });
});

/** Answer the lists' fetches (robots.txt as the origin's). */
function serveLists(answer: (url: string) => Response): string[] {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new Request(input, init).url;
    asked.push(url);
    if (url.endsWith("/robots.txt")) return new Response(ROBOTS);
    return answer(url);
  });
  return asked;
}

describe("admin explain with ip=: what the edge would do with a browser from that address", () => {
  it.each([
    { setting: "enforce", ip: GPTBOT_ADDRESS, allowed: false, evidence: "gptbot", group: "gptbot" },
    { setting: "report", ip: GPTBOT_ADDRESS, allowed: false, evidence: "gptbot", group: "gptbot" },
    { setting: "off", ip: GPTBOT_ADDRESS, allowed: true, evidence: null, group: null },
    { setting: "enforce", ip: CHATGPT_USER_ADDRESS, allowed: true, evidence: null, group: null },
  ])(
    "$setting, $ip -> group $group (the group token as robots.txt writes it, lowercased)",
    async ({ setting, ip, allowed, evidence, group }) => {
      await storeLists();
      const vars = { DISGUISED_CRAWLERS: setting };
      await admin("refresh", { method: "POST", env: vars });
      const url = `explain?ua=${encodeURIComponent(CHROME)}&url=/private/x&ip=${ip}`;
      const body = (await (await admin(url, { env: vars })).json()) as {
        allowed: boolean | null;
        group: { token: string } | null;
        verification: { evidence: string | null };
      };
      expect({ allowed: body.allowed, evidence: body.verification.evidence, group: body.group?.token ?? null }).toEqual(
        {
          allowed,
          evidence,
          group,
        },
      );
    },
  );
});

describe("the lists' sources: CRAWLER_RANGES, bounds, refresh now, status", () => {
  const LIST = { prefixes: [{ ipv4Prefix: "20.171.206.0/24" }] };
  const MIRROR = "https://mirror.example/gptbot.json";

  it("POST refresh?sources=ranges fetches every list now, gptbot's from CRAWLER_RANGES, and answers the sources", async () => {
    const asked = serveLists((url) => (url === MIRROR ? Response.json(LIST) : new Response("down", { status: 503 })));
    const vars = { CRAWLER_RANGES: JSON.stringify({ gptbot: MIRROR }), DISGUISED_CRAWLERS: "enforce" };
    const response = await call("/__robots/refresh?sources=ranges", {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token" },
      env: vars,
    });
    expect(response.status).toBe(200);
    const expectedUrls = RANGE_SOURCES.map((source) => (source.name === "gptbot" ? MIRROR : source.url));
    expect(asked.toSorted()).toEqual(expectedUrls.toSorted());
    const body = (await response.json()) as { lists: Record<string, unknown>[] };
    expect(body.lists.find((list) => list["name"] === "gptbot")).toMatchObject({
      url: MIRROR,
      configured: true,
      lastAttemptUrl: MIRROR,
      use: "crawler-only",
      lastError: null,
      ageSeconds: 0,
    });
    expect(body.lists.find((list) => list["name"] === "chatgpt-user")).toMatchObject({
      url: "https://openai.com/chatgpt-user.json",
      configured: false,
      use: "mixed",
      lastError: "HTTP 503",
      fetchedAt: null,
    });
    // The list is in force at once: the next browser from it is GPTBot.
    const disguised = await call("/private/x", {
      ua: CHROME,
      headers: { "cf-connecting-ip": GPTBOT_ADDRESS },
      env: vars,
    });
    expect(disguised.status).toBe(403);
    // GET status shows the same.
    const status = (await (
      await call("/__robots/status", { headers: { authorization: "Bearer test-admin-token" }, env: vars })
    ).json()) as {
      identity: { lists: Record<string, unknown>[] };
    };
    expect(status.identity.lists.find((list) => list["name"] === "gptbot")).toMatchObject({
      url: MIRROR,
      lastError: null,
    });
  });

  it.each([
    { verify: "off", disguised: "report", fetched: true },
    { verify: "off", disguised: "off", fetched: false },
    { verify: "unknown", disguised: "off", fetched: true },
  ])(
    "the cron fetches the lists when VERIFY_CRAWLERS=$verify, DISGUISED_CRAWLERS=$disguised: $fetched",
    async ({ verify, disguised, fetched }) => {
      const asked = serveLists(() => Response.json(LIST));
      await runCron({ VERIFY_CRAWLERS: verify, DISGUISED_CRAWLERS: disguised });
      expect(asked.includes("https://openai.com/gptbot.json")).toBe(fetched);
    },
  );

  it("POST refresh?sources=other is refused (400)", async () => {
    const response = await admin("refresh?sources=robots", { method: "POST" });
    expect(response.status).toBe(400);
  });

  it.each([
    {
      name: "more prefixes than the bound",
      body: () =>
        Response.json({
          prefixes: Array.from({ length: MAX_RANGE_PREFIXES + 1 }, () => ({ ipv4Prefix: "192.0.2.0/24" })),
        }),
      error: `refused: ${MAX_RANGE_PREFIXES + 1} prefixes, more than ${MAX_RANGE_PREFIXES}`,
    },
    {
      name: "a body over 1 MiB",
      body: () => new Response(`{"prefixes": [${" ".repeat(1024 * 1024)}]}`),
      error: "refused: larger than 1048576 bytes",
    },
  ])("$name: refused, the previous list kept, the error shown", async ({ body, error }) => {
    await storeLists();
    serveLists((url) => (url === MIRROR ? body() : new Response("down", { status: 503 })));
    const response = await admin("refresh?sources=ranges", {
      method: "POST",
      env: { CRAWLER_RANGES: JSON.stringify({ gptbot: MIRROR }) },
    });
    const lists = ((await response.json()) as { lists: Record<string, unknown>[] }).lists;
    expect(lists.find((list) => list["name"] === "gptbot")).toMatchObject({ lastError: error });
    const stored = await env.ROBOTS.get<{ sources: Record<string, { cidrs: string[] }> }>("crawler-ranges", "json");
    expect(stored?.sources["gptbot"]?.cidrs).toEqual(["20.171.206.0/24", "2a0a:4cc0:1::/48"]);
  });

  it("an invalid CRAWLER_RANGES degrades only itself: the built-in addresses, and a problem in status", async () => {
    const asked = serveLists(() => Response.json(LIST));
    const vars = { CRAWLER_RANGES: JSON.stringify({ gptbot: "http://mirror.example/gptbot.json" }) };
    await call("/__robots/refresh?sources=ranges", {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token" },
      env: vars,
    });
    expect(asked).toContain("https://openai.com/gptbot.json");
    expect(asked).not.toContain("http://mirror.example/gptbot.json");
    const status = (await (
      await call("/__robots/status", { headers: { authorization: "Bearer test-admin-token" }, env: vars })
    ).json()) as {
      problems?: string[];
    };
    expect(JSON.stringify(status)).toContain("CRAWLER_RANGES: the URL of gptbot must be an https URL");
  });
});
