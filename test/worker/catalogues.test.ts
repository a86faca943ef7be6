// Crawler catalogues at the edge (CRAWLER_CATALOGUES, worker/identity/catalogues.ts): fetched by
// POST refresh?sources=catalogues and the cron from a loopback URL (fetch mocked), kept as the
// address lists are, and used to give a token the built-in table lacks its category, which can
// only restrict.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import robotsJson from "../fixtures/catalogues/robots.json";
import { admin, call, CHROME, freshState, runCron } from "./helpers.ts";

const CATALOGUE_URL = "http://127.0.0.1:9/robots.json";
const OURS_URL = "http://127.0.0.1:9/operators.json";
const VARS = {
  CRAWLER_CATALOGUES: JSON.stringify({ "ai-robots-txt": CATALOGUE_URL }),
  FETCH_TIMEOUT_MS: "300",
} as const;
const NAGET = "NagetBot/1.0 (+https://naget.example/bot)";
const ROBOTS = "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n";

type Answer = "good" | "503" | "oversized" | "not-json" | "not-a-catalogue" | "hang" | "network";

/** The catalogue server's behaviour, and every catalogue URL asked for. */
const server = { answer: "good" as Answer, body: robotsJson as unknown, asked: [] as string[] };

function catalogueAnswer(signal: AbortSignal): Promise<Response> {
  switch (server.answer) {
    case "good":
      return Promise.resolve(Response.json(server.body));
    case "503":
      return Promise.resolve(new Response("down", { status: 503 }));
    case "oversized":
      return Promise.resolve(new Response(`{"x": "${"a".repeat(1024 * 1024 + 10)}"}`));
    case "not-json":
      return Promise.resolve(new Response("<html>a soft error</html>"));
    case "not-a-catalogue":
      return Promise.resolve(Response.json("GPTBot"));
    case "hang":
      return new Promise((_, fail) => signal.addEventListener("abort", () => fail(signal.reason)));
    case "network":
      return Promise.reject(new TypeError("Network connection lost."));
  }
}

beforeEach(async () => {
  await freshState();
  server.answer = "good";
  server.body = robotsJson;
  server.asked = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname === "127.0.0.1") {
      server.asked.push(request.url);
      return catalogueAnswer(request.signal);
    }
    if (url.pathname === "/robots.txt") return Promise.resolve(new Response(ROBOTS));
    return Promise.resolve(new Response(`origin page ${url.pathname}`));
  });
});
afterEach(freshState);

async function refresh(vars: Partial<Env> = VARS): Promise<Response> {
  return admin("refresh?sources=catalogues", { method: "POST", env: vars });
}

interface Status {
  edge: { problems: string[] };
  ownFaults: { key: string; cause: string }[];
  catalogues: {
    catalogues: {
      name: string;
      url: string;
      fetchedAt: string | null;
      ageSeconds: number | null;
      count: number | null;
      lastError: string | null;
    }[];
    disagreements: { catalogue: string; token: string; catalogued: string; table: string }[];
  };
}

async function statusOf(vars: Partial<Env> = VARS): Promise<Status> {
  return (await admin("status", { env: vars })).json<Status>();
}

const purposes = (training: "allow" | "block") => ({
  purposes: [
    { path: "/", "search-engine": "allow", "ai-search": "allow", "ai-assistant": "allow", "ai-training": training },
  ],
});

describe("a token the built-in table lacks, listed as AI training (robots.json's NagetBot)", () => {
  it.each([
    { training: "block", status: 403 },
    { training: "allow", status: 200 },
  ] as const)("purposes with training $training: $status", async ({ training, status }) => {
    expect((await refresh()).status).toBe(200);
    expect((await admin("policy", { method: "PUT", body: purposes(training), env: VARS })).status).toBe(200);
    expect((await call("/blog/", { ua: NAGET, env: VARS })).status).toBe(status);
    // A person is never refused by a catalogue.
    expect((await call("/blog/", { ua: CHROME, env: VARS })).status).toBe(200);
  });

  it("without the var, the same token is a generic bot under *: passed", async () => {
    await admin("policy", { method: "PUT", body: purposes("block") });
    expect((await call("/blog/", { ua: NAGET })).status).toBe(200);
  });

  it("the cron fetches the catalogue as the refresh does", async () => {
    await runCron(VARS);
    expect(server.asked).toEqual([CATALOGUE_URL]);
    await admin("policy", { method: "PUT", body: purposes("block"), env: VARS });
    expect((await call("/blog/", { ua: NAGET, env: VARS })).status).toBe(403);
  });
});

describe("a catalogue can only restrict", () => {
  const OURS = { CRAWLER_CATALOGUES: JSON.stringify({ ours: OURS_URL }), FETCH_TIMEOUT_MS: "300" };
  const HOSTILE = {
    operators: [
      {
        name: "hostile",
        crawlers: [
          // Fields a catalogue might try: a fallback to Googlebot's group, an exemption from *, a verification.
          {
            token: "NagetBot",
            category: "search-engine",
            fallbacks: ["Googlebot"],
            obeysGlobalGroup: false,
            verified: true,
          },
          { token: "GPTBot", category: "search-engine" },
        ],
      },
    ],
  };
  const ALLOW_SEARCH = {
    routes: [{ pattern: "/", rules: [{ crawlers: ["category:search-engine"], action: "allow" }] }],
  };

  it.each([
    { name: "a pass past * (a category's allow rule)", ua: NAGET, path: "/private/x", status: 403 },
    { name: "Googlebot's group (a fallback)", ua: NAGET, path: "/private/x", status: 403 },
    { name: "the table's GPTBot: the entry changes nothing", ua: "GPTBot/1.2", path: "/private/x", status: 403 },
  ])("no $name", async ({ ua, path, status }) => {
    server.body = HOSTILE;
    expect((await refresh(OURS)).status).toBe(200);
    expect((await admin("policy", { method: "PUT", body: ALLOW_SEARCH, env: OURS })).status).toBe(200);
    expect((await call(path, { ua, env: OURS })).status).toBe(status);
  });

  it("no verification: explain says catalogued, unverified; status notes the table's disagreement", async () => {
    server.body = HOSTILE;
    await refresh(OURS);
    await admin("refresh", { method: "POST", env: OURS }); // explain reads the stored robots.txt, never fetches
    const explained = await (
      await admin(`explain?ua=${encodeURIComponent(NAGET)}&url=/private/x`, { env: OURS })
    ).json<{ judgedAs: string; verification: { status: string }; action: { status: number } }>();
    expect(explained.judgedAs).toBe("catalogued");
    expect(explained.verification.status).not.toBe("verified");
    expect(explained.action.status).toBe(403);
    expect((await statusOf(OURS)).catalogues.disagreements).toEqual([
      { catalogue: "ours", token: "GPTBot", catalogued: "search-engine", table: "ai-training" },
    ]);
  });
});

describe("a catalogue that fails keeps its last good copy, and status says so", () => {
  it.each([
    { answer: "503", error: "HTTP 503" },
    { answer: "oversized", error: "refused: larger than 1048576 bytes" },
    { answer: "not-json", error: "the answer is not JSON" },
    { answer: "not-a-catalogue", error: "not a JSON object (robots.json or our operators shape)" },
    { answer: "hang", error: "The operation was aborted due to timeout" },
    { answer: "network", error: "Network connection lost." },
  ] as const)("$answer", async ({ answer, error }) => {
    await refresh();
    const good = (await statusOf()).catalogues.catalogues[0];
    expect(good).toMatchObject({ name: "ai-robots-txt", url: CATALOGUE_URL, count: 9, lastError: null });
    server.answer = answer;
    await refresh();
    const after = await statusOf();
    expect(after.catalogues.catalogues[0]).toMatchObject({ count: 9, fetchedAt: good?.fetchedAt, lastError: error });
    expect(after.edge.problems).toContain(
      `crawler catalogue ai-robots-txt: the last fetch failed: ${error}; its copy of ${good?.fetchedAt} stays in force`,
    );
    // The last good copy is still in force.
    await admin("policy", { method: "PUT", body: purposes("block"), env: VARS });
    expect((await call("/blog/", { ua: NAGET, env: VARS })).status).toBe(403);
  });

  it("with no good copy yet: not loaded, named in status; the token is a generic bot", async () => {
    server.answer = "503";
    await refresh();
    const after = await statusOf();
    expect(after.catalogues.catalogues[0]).toMatchObject({ count: null, fetchedAt: null, lastError: "HTTP 503" });
    expect(after.edge.problems).toContain(
      "crawler catalogue ai-robots-txt is not loaded: HTTP 503; until it is, only the built-in table gives categories (POST refresh?sources=catalogues)",
    );
    await admin("policy", { method: "PUT", body: purposes("block"), env: VARS });
    expect((await call("/blog/", { ua: NAGET, env: VARS })).status).toBe(200);
  });
});

describe("explain names the catalogue and its date", () => {
  it("GET explain", async () => {
    await refresh();
    const fetchedAt = (await statusOf()).catalogues.catalogues[0]?.fetchedAt;
    await admin("policy", { method: "PUT", body: purposes("block"), env: VARS });
    await admin("refresh", { method: "POST", env: VARS }); // explain reads the stored robots.txt, never fetches
    const explained = await (
      await admin(`explain?ua=${encodeURIComponent(NAGET)}&url=/blog/`, { env: VARS })
    ).json<{ catalogue: unknown; layer: string }>();
    expect(explained.layer).toBe("usage-signal");
    expect(explained.catalogue).toEqual({
      name: "ai-robots-txt",
      fetchedAt,
      token: "NagetBot",
      category: "ai-training",
    });
  });
});

describe("the decision log line names the catalogue", () => {
  it("a catalogued refusal's line", async () => {
    await refresh();
    const fetchedAt = (await statusOf()).catalogues.catalogues[0]?.fetchedAt;
    await admin("policy", { method: "PUT", body: purposes("block"), env: VARS });
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    expect((await call("/blog/", { ua: NAGET, env: VARS })).status).toBe(403);
    const lines = log.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((line) => line["event"] === "robots-edge.decision");
    expect(lines.map((line) => [line["judgedAs"], line["category"], line["catalogue"]])).toEqual([
      ["catalogued", "ai-training", { name: "ai-robots-txt", fetchedAt, token: "NagetBot" }],
    ]);
  });
});

describe("a bad var or a bad stored record degrades only itself, loudly", () => {
  it.each([
    {
      value: JSON.stringify({ lists: "http://catalogue.example/robots.json" }),
      problem:
        'CRAWLER_CATALOGUES: the URL of lists must be an https URL (http only for localhost, 127.0.0.0/8 or [::1]) without user name or password, got "http://catalogue.example/robots.json"',
    },
    {
      value: "not json",
      problem:
        'CRAWLER_CATALOGUES must be a JSON object such as {"ai-robots-txt": "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json"}',
    },
  ])("CRAWLER_CATALOGUES=$value", async ({ value, problem }) => {
    const vars = { CRAWLER_CATALOGUES: value };
    await refresh(vars);
    await runCron(vars);
    expect(server.asked).toEqual([]); // nothing fetched from a refused var
    expect((await statusOf(vars)).edge.problems).toContain(problem);
    expect((await call("/private/x", { ua: NAGET, env: vars })).status).toBe(403); // enforcement stands
    expect((await call("/blog/", { ua: NAGET, env: vars })).status).toBe(200);
  });

  it("a stored record that is not JSON: an own fault in status; requests are served", async () => {
    await env.ROBOTS.put("crawler-catalogues", "{ cut short");
    expect((await call("/blog/", { ua: NAGET, env: VARS })).status).toBe(200);
    expect((await call("/blog/", { ua: CHROME, env: VARS })).status).toBe(200);
    const faults = (await statusOf()).ownFaults;
    expect(faults.map((fault) => fault.key)).toContain("crawler-catalogues");
    // The refresh replaces it.
    await refresh();
    expect((await statusOf()).ownFaults.map((fault) => fault.key)).not.toContain("crawler-catalogues");
  });
});
