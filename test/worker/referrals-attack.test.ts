// An outsider's attacks on the crawl-to-referral ledger (issue 24, part 2), in the real runtime:
// what a request can add to an operator's referrals, and what it cannot. Expectations are
// literal: the requests below and the counts they must leave.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { admin, call, CHROME, freshState, fromCrawler, GOOGLEBOT, GPTBOT, storeCrawlerLists } from "./helpers.ts";

function origin(): void {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(new Request(input, init).url);
    return new Response(url.pathname === "/robots.txt" ? "User-agent: *\nAllow: /\n" : "page");
  });
}

beforeEach(async () => {
  await freshState();
  origin();
  await admin("refresh", { method: "POST" });
});

async function counts(): Promise<{ operator: string; crawls: number; referrals: number }[]> {
  const rows = ((await (await admin("activity")).json()) as { operators: Record<string, unknown>[] }).operators;
  return rows.map((row) => ({
    operator: String(row["operator"]),
    crawls: Number(row["crawls"]),
    referrals: Number(row["referrals"]),
  }));
}

describe("a referral is a person's visit, not any request that names a product", () => {
  // A page shown on a product's own page (an image in Google Images, a script a product's
  // page loads) is fetched with that page as its Referer: no person visited the site.
  const rows: { name: string; headers: Record<string, string>; referrals: number }[] = [
    {
      name: "an image hotlinked from Google Images (no-cors, image)",
      headers: { "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image", "sec-fetch-site": "cross-site" },
      referrals: 0,
    },
    {
      name: "a fetch() from a product's page (cors, empty)",
      headers: { "sec-fetch-mode": "cors", "sec-fetch-dest": "empty", "sec-fetch-site": "cross-site" },
      referrals: 0,
    },
    {
      name: "a navigation from the search page (navigate, document)",
      headers: { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", "sec-fetch-site": "cross-site" },
      referrals: 1,
    },
    { name: "a browser that sends no Sec-Fetch fields (older ones): taken as a visit", headers: {}, referrals: 1 },
  ];
  it.each(rows)("$name -> $referrals", async ({ headers, referrals }) => {
    await call("/pic.png", { ua: CHROME, headers: { ...headers, referer: "https://www.google.com/" } });
    const google = (await counts()).find((row) => row.operator === "Google");
    expect(google?.referrals ?? 0).toBe(referrals);
  });
});

describe("a crawler cannot count itself as referred", () => {
  it("a verified GPTBot with ChatGPT's Referer and utm_source: one crawl, no referral", async () => {
    await storeCrawlerLists();
    await call("/a?utm_source=chatgpt.com", {
      ua: GPTBOT,
      headers: { ...fromCrawler("gptbot"), referer: "https://chatgpt.com/" },
    });
    expect(await counts()).toEqual([{ operator: "OpenAI", crawls: 1, referrals: 0 }]);
  });

  it("GPTBot in disguise (a browser's User-Agent from its range, report) with ChatGPT's Referer: a crawl, no referral", async () => {
    await storeCrawlerLists();
    await call("/a", {
      ua: CHROME,
      headers: { ...fromCrawler("gptbot"), referer: "https://chatgpt.com/" },
      env: { DISGUISED_CRAWLERS: "report" },
    });
    expect(await counts()).toEqual([{ operator: "OpenAI", crawls: 1, referrals: 0 }]);
  });

  it("an impostor (Googlebot's name, another address) with Google's Referer counts for nobody", async () => {
    await storeCrawlerLists();
    await call("/a", {
      ua: GOOGLEBOT,
      headers: { "cf-connecting-ip": "203.0.113.9", referer: "https://www.google.com/" },
    });
    expect(await counts()).toEqual([]);
  });
});

describe("forged values make no key", () => {
  it("fifty made-up referrers and utm_sources leave no row; only operators of the tables are ever counted", async () => {
    for (let i = 0; i < 25; i++) {
      await call(`/a?utm_source=forged-${i}`, { ua: CHROME, headers: { referer: `https://google-${i}.evil.net/` } });
      await call(`/b?utm_source=google.com.evil${i}`, {
        ua: CHROME,
        headers: { referer: `https://xn--ggle-${i}.com/` },
      });
    }
    expect(await counts()).toEqual([]);
    const stored = await env.ROBOTS.list();
    expect(stored.keys.map((key) => key.name).filter((name) => name.includes("evil"))).toEqual([]);
  });
});

/** The operators' crawls as GET activity answers them. */
async function ledger(): Promise<{ operator: string; crawls: number; verified: number }[]> {
  const rows = ((await (await admin("activity")).json()) as { operators: Record<string, unknown>[] }).operators;
  return rows.map((row) => ({
    operator: String(row["operator"]),
    crawls: Number(row["crawls"]),
    verified: Number(row["verified"]),
  }));
}

// Issue 31 (medium): a crawler paced by other people's clicks. The condition counts only crawls
// by the operator's crawlers (never its user-triggered fetchers) that the origin answered with
// content, of the category of the crawler the rule names; refusals and robots.txt fetches never.
describe("crawlsPerReferral is fed only by answered crawls of the operator's crawlers, per category", () => {
  const ADDRESSES = {
    "oai-searchbot": "20.42.10.7",
    "chatgpt-user": "23.98.142.7",
    "google-user-triggered": "66.249.88.7",
    gptbot: "20.171.206.7",
  } as const;
  const UA = {
    searchbot:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot",
    chatgptUser:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    feedFetcher: "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
  };
  /** Pace OpenAI's ai-search crawlers (OAI-SearchBot) above 2 crawls per referral. */
  const PACE_SEARCH = JSON.stringify({
    routes: [
      {
        pattern: "/",
        rules: [
          {
            crawlers: ["category:ai-search", "category:search-engine"],
            action: "pace",
            retryAfter: 600,
            when: { crawlsPerReferral: { above: 2, days: 1 } },
          },
        ],
      },
    ],
  });
  const from = (source: keyof typeof ADDRESSES) => ({ "cf-connecting-ip": ADDRESSES[source] });

  async function storeLists(): Promise<void> {
    const sources = Object.fromEntries(
      Object.entries(ADDRESSES).map(([name, address]) => [
        name,
        { fetchedAt: Date.now(), cidrs: [`${address.split(".").slice(0, 3).join(".")}.0/24`] },
      ]),
    );
    await env.ROBOTS.put("crawler-ranges", JSON.stringify({ sources }));
  }

  /** OAI-SearchBot's next request, the isolate's counts read first (a new isolate has none: do no harm). */
  async function searchBotStatus(): Promise<number> {
    const policy = { POLICY: PACE_SEARCH };
    await call("/warm", { ua: UA.searchbot, headers: from("oai-searchbot"), env: { POLICY: "" } });
    const { clearLedgerMemory } = await import("../../src/worker/activity/ledger-memory.ts");
    clearLedgerMemory();
    await call("/read", { ua: UA.searchbot, headers: from("oai-searchbot"), env: policy });
    return (await call("/next", { ua: UA.searchbot, headers: from("oai-searchbot"), env: policy })).status;
  }

  it("verified ChatGPT-User fetches (any ChatGPT user) are no OpenAI crawl and never get OAI-SearchBot paced", async () => {
    await storeLists();
    for (let i = 0; i < 6; i++) {
      expect((await call(`/p${i}`, { ua: UA.chatgptUser, headers: from("chatgpt-user") })).status).toBe(200);
    }
    expect(await ledger()).toEqual([]);
    expect(await searchBotStatus()).toBe(200);
  });

  it("Google's FeedFetcher (user-triggered) is no Google crawl", async () => {
    await storeLists();
    for (let i = 0; i < 3; i++) await call(`/feed${i}`, { ua: UA.feedFetcher, headers: from("google-user-triggered") });
    expect(await ledger()).toEqual([]);
  });

  it("GPTBot's crawls (ai-training) do not count for a rule naming ai-search", async () => {
    await storeLists();
    for (let i = 0; i < 6; i++) await call(`/t${i}`, { ua: GPTBOT, headers: from("gptbot") });
    expect(await ledger()).toEqual([{ operator: "OpenAI", crawls: 6, verified: 6 }]);
    expect(await searchBotStatus()).toBe(200);
  });

  it("refusals (403), robots.txt fetches and HEADs are no crawl; only GETs the origin answered 2xx are", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nDisallow: /private/\n");
      if (url.pathname === "/gone") return new Response("no", { status: 404 });
      return new Response("page");
    });
    await admin("refresh", { method: "POST" });
    await storeLists();
    const searchbot = { ua: UA.searchbot, headers: from("oai-searchbot") };
    expect((await call("/private/a", searchbot)).status).toBe(403);
    expect((await call("/robots.txt", searchbot)).status).toBe(200);
    expect((await call("/gone", searchbot)).status).toBe(404);
    expect((await call("/page", { ...searchbot, method: "HEAD" })).status).toBe(200);
    expect(await ledger()).toEqual([]);
    expect((await call("/page", searchbot)).status).toBe(200);
    expect(await ledger()).toEqual([{ operator: "OpenAI", crawls: 1, verified: 1 }]);
  });

  it("a pace's own 429s never feed it: once paced, retries leave the count where it was", async () => {
    await storeLists();
    const searchbot = { ua: UA.searchbot, headers: from("oai-searchbot") };
    for (let i = 0; i < 3; i++) expect((await call(`/s${i}`, searchbot)).status).toBe(200);
    expect(await searchBotStatus()).toBe(429);
    for (let i = 0; i < 5; i++) {
      expect((await call(`/r${i}`, { ...searchbot, env: { POLICY: PACE_SEARCH } })).status).toBe(429);
    }
    // 3 answered, then /warm (no policy) and /read (the isolate held no counts yet) answered;
    // /next and the 5 retries paced: 5 crawls, whatever the retries.
    expect(await ledger()).toEqual([{ operator: "OpenAI", crawls: 5, verified: 5 }]);
  });
});

// Issue 31 (low): referrals forged at no origin cost. Only a navigation the origin answered counts.
describe("a referral is a navigation the origin answered", () => {
  const rows: { name: string; path: string; headers: Record<string, string>; referrals: number }[] = [
    {
      name: "GET /robots.txt (the edge answers it) with ChatGPT's Referer",
      path: "/robots.txt",
      headers: { referer: "https://chatgpt.com/" },
      referrals: 0,
    },
    {
      name: "GET /robots.txt?utm_source=chatgpt.com",
      path: "/robots.txt?utm_source=chatgpt.com",
      headers: {},
      referrals: 0,
    },
    {
      name: "a page the origin answered, with ChatGPT's Referer",
      path: "/a",
      headers: { referer: "https://chatgpt.com/" },
      referrals: 1,
    },
  ];
  it.each(rows)("$name -> $referrals", async ({ path, headers, referrals }) => {
    const response = await call(path, { ua: CHROME, headers: { ...headers, "sec-fetch-mode": "navigate" } });
    expect(response.status).toBe(200);
    const openai = (await counts()).find((row) => row.operator === "OpenAI");
    expect(openai?.referrals ?? 0).toBe(referrals);
  });
});
