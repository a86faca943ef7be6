// The referrer table (src/agents/referrers.ts): which product a person arrived from, by the
// Referer's host or the link's utm_source, and the operator of crawlers.ts it counts for.
// Each row is written down with the operator it must give (or none) and why.
import { describe, expect, it } from "vitest";
import { KNOWN_CRAWLERS } from "../../src/agents/operators/tables.ts";
import { MAX_REFERER_LENGTH, refererHost, referringOperator, utmSource } from "../../src/agents/referrers.ts";
import { REFERRER_PRODUCTS } from "../../src/agents/operators/tables.ts";

describe("a Referer's host names an operator only on its own registrable domain", () => {
  it.each([
    ["https://www.google.de/", "Google", "a country domain of Google Search"],
    ["https://www.google.com/search?q=x", "Google", "google.com"],
    ["https://google.co.uk/", "Google", "a two-label country suffix, bare"],
    ["https://www.google.com.br/url?sa=t", "Google", "google.com.br"],
    ["https://news.google.com/articles/x", "Google", "Google News is a host of google.com"],
    ["https://gemini.google.com/app", "Google", "Gemini is a host of google.com"],
    ["https://www.bing.com/search?q=x", "Microsoft", "Bing"],
    ["https://copilot.microsoft.com/", "Microsoft", "Copilot's host"],
    ["https://chatgpt.com/", "OpenAI", "ChatGPT"],
    ["https://chat.openai.com/c/1", "OpenAI", "ChatGPT's former host"],
    ["https://www.perplexity.ai/search/x", "Perplexity", "Perplexity"],
    ["https://claude.ai/chat/1", "Anthropic", "Claude"],
    ["https://duckduckgo.com/", "DuckDuckGo", "DuckDuckGo"],
    ["https://yandex.ru/search/?text=x", "Yandex", "Yandex"],
    ["https://ya.ru/", "Yandex", "Yandex's short domain"],
    ["https://m.baidu.com/s?wd=x", "Baidu", "Baidu mobile"],
    ["https://de.search.yahoo.com/", "Yahoo", "a country host under search.yahoo.com"],
    ["https://search.yahoo.co.jp/search?p=x", "Yahoo", "the table's longest name (4 labels)"],
    ["https://a.b.c.d.e.www.google.de/", "Google", "a deep host under a listed name"],
    ["https://google/", undefined, "a single label"],
    ["https://de/", undefined, "a bare country code"],
    ["https://petalsearch.com/", "Huawei", "Petal Search"],
    ["HTTPS://WWW.GOOGLE.DE/", "Google", "scheme and host are case-insensitive"],
    ["https://www.google.de./", "Google", "a fully qualified name's trailing dot"],
    ["https://www.google.de:443/x", "Google", "a port"],
    ["https://user@www.google.de/", "Google", "userinfo is not the host"],
    ["https://evil-google.com/", undefined, "another domain that contains the name"],
    ["https://evilgoogle.com/", undefined, "another domain that ends with the name"],
    ["https://google.com.evil.net/", undefined, "the name as a subdomain of another domain"],
    ["https://www.google.evil/", undefined, "google.* with a suffix Google does not serve from"],
    ["https://google.de@evil.net/", undefined, "userinfo that looks like the host"],
    ["https://evil.net/?u=https://www.google.de/", undefined, "the name in the query"],
    ["https://evil.net/www.google.de", undefined, "the name in the path"],
    ["https://mail.yahoo.com/", undefined, "yahoo.com outside its search"],
    ["https://microsoft.com/", undefined, "microsoft.com outside Copilot"],
    ["https://openai.com/", undefined, "openai.com outside ChatGPT"],
    ["ftp://www.google.de/", undefined, "not an http(s) URL"],
    ["android-app://com.google.android.googlequicksearchbox/", undefined, "an app referrer (no host to prove)"],
    ["https://[2001:db8::1]/", undefined, "an address literal"],
    ["www.google.de", undefined, "not a URL"],
    ["", undefined, "empty"],
  ])("%s -> %s (%s)", (referer: string, operator: string | undefined, _why: string) => {
    expect(referringOperator(referer, "")).toBe(operator);
  });

  it("a Referer past MAX_REFERER_LENGTH is not read", () => {
    const long = `https://www.google.de/${"a".repeat(MAX_REFERER_LENGTH)}`;
    expect(referringOperator(long, "")).toBeUndefined();
    expect(refererHost(`https://www.google.de/${"a".repeat(MAX_REFERER_LENGTH - 30)}`)).toBe("www.google.de");
  });
});

describe("utm_source names an operator by its exact value", () => {
  it.each([
    ["?utm_source=chatgpt.com", "OpenAI", "ChatGPT search's links"],
    ["?a=1&utm_source=chatgpt.com&b=2", "OpenAI", "among other parameters"],
    ["?utm_source=ChatGPT.com", "OpenAI", "case-insensitive"],
    ["?utm_source=chatgpt%2Ecom", "OpenAI", "percent-encoded"],
    ["?utm_source=perplexity", "Perplexity", "Perplexity's links"],
    ["?utm_source=copilot.com", "Microsoft", "Copilot's links"],
    ["?utm_source=chatgpt.com.evil", undefined, "a longer value"],
    ["?utm_source=evilchatgpt.com", undefined, "a value that ends with it"],
    ["?xutm_source=chatgpt.com", undefined, "another parameter ending in utm_source"],
    ["?utm_source=%E0%A4%A", undefined, "a broken escape"],
    ["?utm_source=", undefined, "empty"],
    ["?q=utm_source=chatgpt.com", undefined, "the text inside another parameter's value"],
    ["?utm_source=x&utm_source=chatgpt.com", undefined, "the first utm_source counts"],
    ["", undefined, "no query"],
  ])("%s -> %s (%s)", (search: string, operator: string | undefined, _why: string) => {
    expect(referringOperator(null, search)).toBe(operator);
  });

  it("an over-long value names nothing", () => {
    expect(utmSource(`?utm_source=${"a".repeat(500)}`)).toBeUndefined();
  });

  it("the Referer wins over utm_source when both name a product", () => {
    expect(referringOperator("https://www.bing.com/", "?utm_source=chatgpt.com")).toBe("Microsoft");
    expect(referringOperator("https://example.org/", "?utm_source=chatgpt.com")).toBe("OpenAI");
  });
});

describe("the table itself", () => {
  const crawlerOperators = new Set(KNOWN_CRAWLERS.map((crawler) => crawler.operator));

  it.each(REFERRER_PRODUCTS.map((row) => [row.product, row]))(
    "%s: its operator runs a crawler of crawlers.ts, every host is a lower-case DNS name, a source is given",
    (_product, row) => {
      expect(crawlerOperators.has(row.operator)).toBe(true);
      for (const host of row.hosts) expect(host).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      for (const value of row.utmSources) expect(value).toBe(value.toLowerCase());
      expect(row.source).toMatch(/^https:\/\//);
    },
  );

  it("a host or utm_source appears in one row only", () => {
    const hosts = REFERRER_PRODUCTS.flatMap((row) => row.hosts);
    const values = REFERRER_PRODUCTS.flatMap((row) => row.utmSources);
    expect(new Set(hosts).size).toBe(hosts.length);
    expect(new Set(values).size).toBe(values.length);
  });

  it("a name under another name of the table belongs to the same operator", () => {
    const rows = REFERRER_PRODUCTS.flatMap((row) => row.hosts.map((host) => [host, row.operator] as const));
    for (const [host, operator] of rows) {
      for (const [parent, other] of rows)
        if (host.endsWith(`.${parent}`)) expect([host, other]).toEqual([host, operator]);
    }
  });

  it("Google's row holds its country domains (a sample written down)", () => {
    const google = REFERRER_PRODUCTS.find((row) => row.operator === "Google");
    expect(google?.hosts).toEqual(
      expect.arrayContaining([
        "google.com",
        "google.de",
        "google.co.uk",
        "google.com.au",
        "google.co.jp",
        "google.cat",
      ]),
    );
    expect(google?.hosts.length).toBeGreaterThan(180);
  });
});
