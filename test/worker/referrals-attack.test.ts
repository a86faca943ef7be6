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
