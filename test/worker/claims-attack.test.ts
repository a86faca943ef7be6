// Attack rows that hold: an outside review of Rule 1, "a claim grants nothing it cannot prove"
// (policy/claim.ts, agents/verification.ts). Every row is a client that is NOT the crawler it
// names, trying to get more than `User-agent: *` gives an anonymous bot — or, marked "do no
// harm", a real crawler or a person that must not be refused for our failure to check.
//
// robots.txt: `*` may not fetch /private/; Googlebot's and Amazonbot's own groups may. So under
// /private/x: an anonymous bot gets 403, an unproven claim 503 + Retry-After (`unproven-claim`),
// a refuted one under VERIFY_CRAWLERS=block 403 (`impostor`), a proven one 200.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ADSBOT, call, CHROME, CRAWLER_ADDRESSES, freshState, GOOGLEBOT, storeCrawlerLists } from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: Amazonbot\nAllow: /\n";
const ATTACKER = "203.0.113.9";
const GOOGLE = CRAWLER_ADDRESSES.googlebot;
const AMAZON_LOOKALIKE = "192.0.2.10";
const AMAZONBOT = "Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)";
const CHATGPT_USER = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0";
const POLICY_ALLOW_GOOGLEBOT = JSON.stringify({
  routes: [{ pattern: "/private/", rules: [{ crawlers: ["Googlebot"], action: "allow" }] }],
});
const POLICY_ALLOW_SEARCH = JSON.stringify({
  routes: [{ pattern: "/private/", rules: [{ crawlers: ["category:search-engine"], action: "allow" }] }],
});

/** What our fake DoH resolver answers: the PTR names of the client's address, and A records by name. */
interface Dns {
  readonly ptr: readonly string[];
  readonly a?: Readonly<Record<string, string>>;
}

interface Row {
  readonly why: string;
  readonly ua: string;
  readonly ip?: string;
  readonly cf?: Record<string, unknown>;
  readonly vars?: Partial<Env>;
  /** Whether the cron has stored the published lists (helpers.storeCrawlerLists), or stored them two days ago. */
  readonly lists?: boolean | "stale";
  readonly dns?: Dns;
  readonly headers?: Record<string, string>;
  /** Status, then the first field of x-robots-edge (null: none). */
  readonly expected: readonly [number, string | null];
}

const ANONYMOUS: Row["expected"] = [403, "blocked"];
const UNPROVEN: Row["expected"] = [503, "unproven-claim"];

function fakeNetwork(dns: Dns | undefined): void {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(new Request(input, init).url);
    if (url.hostname === "cloudflare-dns.com") {
      const name = (url.searchParams.get("name") ?? "").toLowerCase().replace(/\.$/, "");
      const type = url.searchParams.get("type");
      if (!dns) return Response.json({ Status: 3 });
      if (type === "PTR")
        return Response.json({ Status: 0, Answer: dns.ptr.map((data) => ({ name, type: 12, data })) });
      const address = dns.a?.[name];
      return Response.json({ Status: 0, Answer: address && type === "A" ? [{ name, type: 1, data: address }] : [] });
    }
    if (url.pathname === "/robots.txt") return new Response(ROBOTS);
    return new Response(`origin page ${url.pathname}`);
  });
}

beforeEach(freshState);
afterEach(freshState);

describe("attack rows that hold", () => {
  it.each<Row>([
    // --- User-Agent tricks (lists loaded; the client is at an address in no list) ---
    { why: "two product tokens, Googlebot first", ua: "Googlebot AdsBot-Google", ip: ATTACKER, expected: ANONYMOUS },
    {
      why: "AdsBot-Google first, from Googlebot's list only",
      ua: "AdsBot-Google Googlebot",
      ip: GOOGLE,
      expected: ANONYMOUS,
    },
    { why: "AdsBot-Google inside a browser's UA", ua: `${CHROME} AdsBot-Google`, ip: ATTACKER, expected: ANONYMOUS },
    { why: "lower case adsbot-google", ua: "adsbot-google", ip: ATTACKER, expected: ANONYMOUS },
    { why: "AdsBot-Google-Mobile", ua: "AdsBot-Google-Mobile", ip: ATTACKER, expected: ANONYMOUS },
    { why: "an unlisted variant AdsBot-Google-Foo", ua: "AdsBot-Google-Foo", ip: ATTACKER, expected: ANONYMOUS },
    { why: "an unlisted variant Googlebot-Foo", ua: "Googlebot-Foo/1.0", ip: ATTACKER, expected: ANONYMOUS },
    { why: "trailing dots Googlebot..", ua: "Googlebot..", ip: ATTACKER, expected: ANONYMOUS },
    { why: "Perplexity-User.1 (a dotted suffix)", ua: "Perplexity-User.1", ip: ATTACKER, expected: UNPROVEN },
    {
      why: "Applebot from Google's address: Googlebot's group by Applebot's fallback needs Apple's proof",
      ua: "Mozilla/5.0 (compatible; Applebot/0.1; +http://www.apple.com/go/applebot)",
      ip: GOOGLE,
      expected: UNPROVEN,
    },
    // --- CF-Connecting-IP spellings (a client can set them only where Cloudflare does not) ---
    { why: "two addresses, the list's last", ua: GOOGLEBOT, ip: `${ATTACKER}, ${GOOGLE}`, expected: ANONYMOUS },
    { why: "two addresses, the list's first", ua: GOOGLEBOT, ip: `${GOOGLE}, ${ATTACKER}`, expected: ANONYMOUS },
    { why: "IPv4-mapped IPv6 of an outsider", ua: GOOGLEBOT, ip: `::ffff:${ATTACKER}`, expected: ANONYMOUS },
    { why: "a zone id on the list's address", ua: GOOGLEBOT, ip: `${GOOGLE}%eth0`, expected: ANONYMOUS },
    {
      why: "do no harm: IPv4-mapped IPv6 of the list's address",
      ua: GOOGLEBOT,
      ip: `::ffff:${GOOGLE}`,
      expected: [200, null],
    },
    {
      why: "do no harm: no address under VERIFY_CRAWLERS=block is 503, not 403",
      ua: GOOGLEBOT,
      vars: { VERIFY_CRAWLERS: "block" },
      expected: UNPROVEN,
    },
    {
      why: "fixed, do no harm: a real Googlebot from a range added after our list went stale, under block",
      ua: GOOGLEBOT,
      ip: "66.249.79.7",
      lists: "stale",
      vars: { VERIFY_CRAWLERS: "block" },
      expected: UNPROVEN,
    },
    {
      why: "a stale list still verifies the addresses it holds",
      ua: GOOGLEBOT,
      ip: GOOGLE,
      lists: "stale",
      expected: [200, null],
    },
    // --- request.cf: Cloudflare's fields never prove an exemption, nor a category they veto ---
    {
      why: "AdsBot-Google, verifiedBot true in its category, no list loaded",
      ua: ADSBOT,
      ip: ATTACKER,
      lists: false,
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: "Advertising & Marketing" },
      expected: UNPROVEN,
    },
    {
      why: "ChatGPT-User, verifiedBot true as an AI Assistant, no list loaded",
      ua: CHATGPT_USER,
      ip: ATTACKER,
      lists: false,
      cf: { botManagement: { verifiedBot: true }, verifiedBotCategory: "AI Assistant" },
      expected: UNPROVEN,
    },
    {
      why: "fixed: an unknown bot whose search-engine category Cloudflare vetoes, under a policy allowing search engines",
      ua: "FooBot/1.0 (+https://foo.example/bot)",
      ip: ATTACKER,
      cf: { botManagement: { verifiedBot: false }, verifiedBotCategory: "Search Engine Crawler" },
      vars: { POLICY: POLICY_ALLOW_SEARCH },
      expected: ANONYMOUS,
    },
    // --- reverse DNS answers the client's own reverse zone chooses (Amazonbot: no list exists) ---
    {
      why: "PTR of a lookalike under another domain",
      ua: AMAZONBOT,
      ip: AMAZON_LOOKALIKE,
      dns: {
        ptr: ["c1.crawl.amazonbot.amazon.evil.example."],
        a: { "c1.crawl.amazonbot.amazon.evil.example": AMAZON_LOOKALIKE },
      },
      expected: ANONYMOUS,
    },
    {
      why: "PTR whose label only ends like the domain",
      ua: AMAZONBOT,
      ip: AMAZON_LOOKALIKE,
      dns: { ptr: ["evilcrawl.amazonbot.amazon."], a: { "evilcrawl.amazonbot.amazon": AMAZON_LOOKALIKE } },
      expected: ANONYMOUS,
    },
    {
      why: "several PTRs, the crawler's name not resolving back",
      ua: AMAZONBOT,
      ip: AMAZON_LOOKALIKE,
      dns: { ptr: ["evil.example.", "c1.crawl.amazonbot.amazon."], a: { "c1.crawl.amazonbot.amazon": "198.51.100.7" } },
      expected: ANONYMOUS,
    },
    {
      why: "do no harm: an upper-case PTR with a trailing dot that resolves back",
      ua: AMAZONBOT,
      ip: AMAZON_LOOKALIKE,
      dns: { ptr: ["C1.CRAWL.AMAZONBOT.AMAZON."], a: { "c1.crawl.amazonbot.amazon": AMAZON_LOOKALIKE } },
      expected: [200, null],
    },
    {
      why: "Googlebot, no list loaded, PTR crawl-1.googlebot.com.evil.example",
      ua: GOOGLEBOT,
      ip: AMAZON_LOOKALIKE,
      lists: false,
      dns: {
        ptr: ["crawl-1.googlebot.com.evil.example."],
        a: { "crawl-1.googlebot.com.evil.example": AMAZON_LOOKALIKE },
      },
      expected: UNPROVEN,
    },
    {
      why: "AdsBot-Google, no list loaded, a Googlebot host name (another class)",
      ua: ADSBOT,
      ip: AMAZON_LOOKALIKE,
      lists: false,
      dns: { ptr: ["crawl-192-0-2-10.googlebot.com."], a: { "crawl-192-0-2-10.googlebot.com": AMAZON_LOOKALIKE } },
      expected: UNPROVEN,
    },
    {
      why: "Googlebot, no list loaded, an AdsBot host name (another class)",
      ua: GOOGLEBOT,
      ip: AMAZON_LOOKALIKE,
      lists: false,
      dns: {
        ptr: ["rate-limited-proxy-192-0-2-10.google.com."],
        a: { "rate-limited-proxy-192-0-2-10.google.com": AMAZON_LOOKALIKE },
      },
      expected: UNPROVEN,
    },
    // --- VERIFY_CRAWLERS and MODE ---
    {
      why: "VERIFY_CRAWLERS=off: ChatGPT-User held to *",
      ua: CHATGPT_USER,
      ip: ATTACKER,
      vars: { VERIFY_CRAWLERS: "off" },
      expected: ANONYMOUS,
    },
    {
      why: "VERIFY_CRAWLERS=block: an impostor",
      ua: GOOGLEBOT,
      ip: ATTACKER,
      vars: { VERIFY_CRAWLERS: "block" },
      expected: [403, "impostor"],
    },
    {
      why: "MODE=report: an unproven claim is only marked",
      ua: GOOGLEBOT,
      lists: false,
      vars: { MODE: "report" },
      expected: [200, "would-block"],
    },
    // --- a live policy's allow rules ---
    {
      why: "a policy allow naming Googlebot, refuted",
      ua: GOOGLEBOT,
      ip: ATTACKER,
      vars: { POLICY: POLICY_ALLOW_GOOGLEBOT },
      expected: ANONYMOUS,
    },
    {
      why: "a policy allow naming Googlebot, no address",
      ua: GOOGLEBOT,
      vars: { POLICY: POLICY_ALLOW_GOOGLEBOT },
      expected: UNPROVEN,
    },
    {
      why: "a policy allow by category, refuted Googlebot",
      ua: GOOGLEBOT,
      ip: ATTACKER,
      vars: { POLICY: POLICY_ALLOW_SEARCH },
      expected: ANONYMOUS,
    },
    // --- a person ---
    {
      why: "do no harm: a browser with a malformed Signature-Input under VERIFY_CRAWLERS=block",
      ua: CHROME,
      headers: { "signature-input": "garbage", signature: "sig1=:AAAA:" },
      vars: { VERIFY_CRAWLERS: "block" },
      expected: [200, null],
    },
  ])("$why -> $expected", async ({ ua, ip, cf, vars, lists, dns, headers, expected }) => {
    fakeNetwork(dns);
    if (lists ?? true) await storeCrawlerLists();
    if (lists === "stale") await ageStoredLists(2 * 24 * 3600_000);
    const response = await call("/private/x", {
      ua,
      headers: { ...headers, ...(ip !== undefined && { "cf-connecting-ip": ip }) },
      ...(cf && { cf }),
      ...(vars && { env: vars }),
    });
    expect([response.status, response.headers.get("x-robots-edge")?.split(";")[0] ?? null]).toEqual(expected);
    if (response.status === 503) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

/** Backdates every stored list, as if the cron had failed to refresh them since. */
async function ageStoredLists(byMs: number): Promise<void> {
  const stored = await env.ROBOTS.get<{ sources: Record<string, { fetchedAt: number }> }>("crawler-ranges", "json");
  for (const source of Object.values(stored?.sources ?? {})) source.fetchedAt -= byMs;
  await env.ROBOTS.put("crawler-ranges", JSON.stringify(stored));
}

// The lists the rows store hold these addresses; a row that relies on "in no list" must not be.
it("the attacker's addresses are in no stored list", async () => {
  await storeCrawlerLists();
  const stored = await env.ROBOTS.get("crawler-ranges");
  expect(stored).not.toContain("203.0.113");
  expect(stored).not.toContain("192.0.2");
});
