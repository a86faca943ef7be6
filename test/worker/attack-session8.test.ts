// Session 8 attack review (outside reviewer), in the runtime: attacks on today's features that
// HOLD, each row saying what was tried. The holes are in attack-session8-holes.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearLicenceMemory } from "../../src/worker/licence/introspect.ts";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { admin, call, CHROME, freshState, fromCrawler, GPTBOT, SITE, storeCrawlerLists } from "./helpers.ts";

const AGENT = "https://agent.test";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const now = () => Math.floor(Date.now() / 1000);

describe("a price: what a client can send holds", () => {
  const ENV = {
    SIGNATURE_AGENTS: JSON.stringify({ [AGENT]: { token: "GPTBot", category: "ai-training" } }),
    POLICY: JSON.stringify({
      routes: [
        { pattern: "/paid/", rules: [{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }] },
      ],
    }),
  };
  let signer: TestSigner;
  const fetched: string[] = [];
  beforeEach(async () => {
    await freshState();
    fetched.length = 0;
    signer = await newSigner();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      fetched.push(url.href);
      if (url.pathname === DIRECTORY) {
        return new Response(JSON.stringify({ keys: [signer.publicJwk] }), {
          headers: { "content-type": "application/http-message-signatures-directory+json" },
        });
      }
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      return new Response(`origin page ${url.pathname}`);
    });
  });
  afterEach(freshState);
  const charges = async () => {
    const response = await admin("charges", { env: ENV });
    return ((await response.json()) as { charges: { path: string }[] }).charges.map((row) => row.path);
  };

  // The signature no longer verifies on /paid/b: the claim is judged as an unproven GPTBot under
  // `*` (which allows everything here), as any anonymous client is: served, and never charged
  // to the signer. Only the page signed for is on its account.
  it("a signature covering @target-uri, replayed to another page: not charged, one row", async () => {
    const headers = await signRequest(signer, {
      url: `${SITE}/paid/a`,
      agent: { form: "dictionary", key: "sig1", origin: AGENT },
      components: ["@target-uri"],
      created: now() - 5,
      expires: now() + 60,
      fields: { "crawler-max-price": "USD 1" },
    });
    expect((await call("/paid/a", { ua: GPTBOT, headers, env: ENV })).status).toBe(200);
    const replay = await call("/paid/b", { ua: GPTBOT, headers, env: ENV });
    expect([replay.status, replay.headers.get("crawler-charged")]).toEqual([200, null]);
    expect(await charges()).toEqual(["/paid/a"]);
  });

  it("a person sending a price header with a signature agent it names (no signature): the page, never charged", async () => {
    const response = await call("/paid/a", {
      ua: CHROME,
      headers: { "crawler-max-price": "USD 1", "signature-agent": `sig1="${AGENT}"` },
      env: ENV,
    });
    expect([response.status, response.headers.get("crawler-charged")]).toEqual([200, null]);
    expect(await charges()).toEqual([]);
  });

  it("a Signature-Agent naming a host of the client's choosing is never fetched", async () => {
    const headers = await signRequest(signer, {
      url: `${SITE}/paid/a`,
      agent: { form: "dictionary", key: "sig1", origin: "https://attacker.test" },
      created: now() - 5,
      expires: now() + 60,
      fields: { "crawler-max-price": "USD 1" },
    });
    const response = await call("/paid/a", { ua: GPTBOT, headers, env: ENV });
    expect(response.headers.get("crawler-charged")).toBeNull();
    expect(fetched.filter((href) => href.includes("attacker.test"))).toEqual([]);
  });
});

describe("a licence per host: a token one host's server confirmed is not another host's", () => {
  const SERVER = "https://olp.test";
  const ROUTE_MODE = { ORIGIN_URL: "", AUTHORITIES: "shop.example, blog.example", VERIFY_CRAWLERS: "off" };
  const POLICY = JSON.stringify({
    licence: { url: "https://shop.example/license.xml", server: SERVER },
    routes: [{ pattern: "/premium/", licence: { required: true } }],
  });
  const asked: string[] = [];
  beforeEach(async () => {
    await freshState();
    clearLicenceMemory();
    asked.length = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.origin === SERVER) {
        asked.push(new URLSearchParams(await request.text()).get("resource") ?? "");
        // The server issued tok-1 for shop.example only, and says so.
        return Response.json({ active: true, aud: "https://shop.example" });
      }
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      return new Response(`origin page ${url.host}${url.pathname}`);
    });
  });
  afterEach(freshState);

  const ask = async (site: string) =>
    (
      await call("/premium/a", {
        ua: GPTBOT,
        headers: { authorization: "License tok-1" },
        env: { ...ROUTE_MODE, POLICY } as Partial<Env>,
        site,
      })
    ).status;

  it("confirmed on shop.example, then the same token on blog.example: asked anew, 401", async () => {
    expect(await ask("https://shop.example")).toBe(200);
    expect(await ask("https://blog.example")).toBe(401);
    expect(await ask("https://shop.example")).toBe(200);
    expect(asked).toEqual(["https://shop.example/premium/", "https://blog.example/premium/"]);
  });
});

describe("explain: host= and url= naming two hosts", () => {
  const ROUTE_MODE = { ORIGIN_URL: "", AUTHORITIES: "shop.example, blog.example", VERIFY_CRAWLERS: "off" };
  beforeEach(freshState);
  afterEach(freshState);
  it.each([
    ["https://shop.example/x/a", 400],
    ["HTTPS://SHOP.EXAMPLE.:443/x/a", 400],
  ])("GET explain?host=blog.example&url=%s -> %i", async (target, status) => {
    const response = await call(`/__robots/explain?host=blog.example&ua=GPTBot&url=${encodeURIComponent(target)}`, {
      ua: CHROME,
      headers: { authorization: "Bearer test-admin-token" },
      env: ROUTE_MODE,
      site: "https://shop.example",
    });
    expect(response.status).toBe(status);
  });

  it("a protocol-relative url= is a path on host=, never resolved to the host it names", async () => {
    const response = await call(
      `/__robots/explain?host=blog.example&ua=GPTBot&url=${encodeURIComponent("//shop.example/x/a")}`,
      {
        ua: CHROME,
        headers: { authorization: "Bearer test-admin-token" },
        env: ROUTE_MODE,
        site: "https://shop.example",
      },
    );
    // Nothing is stored for blog.example yet: the answer names it, the host= one, not shop.example.
    expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([
      404,
      "no robots.txt stored for https://blog.example yet; POST refresh?origin=https://blog.example first",
    ]);
  });
});

describe("the License: line the policy adds to the served robots.txt", () => {
  beforeEach(async () => {
    await freshState();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      // An origin file that starts with a byte order mark: once it is no longer the file's
      // first line (the License line goes before it), a parser could read its first group's
      // User-agent as an unknown line and set GPTBot free.
      if (url.pathname === "/robots.txt") return new Response("\uFEFFUser-agent: GPTBot\nDisallow: /\n");
      return new Response(`origin page ${url.pathname}`);
    });
  });
  afterEach(freshState);

  it("before an origin file with a byte order mark: GPTBot is still refused, and told so", async () => {
    const env = {
      POLICY: JSON.stringify({ licence: { url: "https://origin.test/license.xml", robotsTxt: true }, routes: [] }),
      VERIFY_CRAWLERS: "off",
    } as Partial<Env>;
    const served = await (await call("/robots.txt", { env })).text();
    expect(served).toBe("License: https://origin.test/license.xml\nUser-agent: GPTBot\nDisallow: /\n");
    expect((await call("/a", { ua: GPTBOT, env })).status).toBe(403);
  });
});

const CHARGES_ENV = {
  SIGNATURE_AGENTS: JSON.stringify({ [AGENT]: { token: "GPTBot", category: "ai-training" } }),
  POLICY: JSON.stringify({
    routes: [
      { pattern: "/paid/", rules: [{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }] },
    ],
  }),
};
const charges = async () => {
  const response = await admin("charges", { env: CHARGES_ENV });
  return ((await response.json()) as { charges: { path: string }[] }).charges.map((row) => row.path);
};

describe("a price: a payment names its page, and only a 2xx page is charged (was a hole, session 8)", () => {
  let signer: TestSigner;
  beforeEach(async () => {
    await freshState();
    signer = await newSigner();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.pathname === DIRECTORY) {
        return new Response(JSON.stringify({ keys: [signer.publicJwk] }), {
          headers: { "content-type": "application/http-message-signatures-directory+json" },
        });
      }
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      if (url.pathname === "/paid/moved") {
        return new Response(null, { status: 301, headers: { location: "https://www.example.com/paid/new" } });
      }
      if (url.pathname === "/paid/same") return new Response(null, { status: 304 });
      return new Response(`origin page ${url.pathname}`);
    });
  });
  afterEach(freshState);

  it("one signed request for /paid/a (covering @authority and the price), replayed to /paid/b, /paid/a?x=2, /paid/c: none of them charged", async () => {
    // What a third party who saw the headers once (an origin's access log, a proxy) can do
    // within the signature's window: the reuse memory keys an unnonced signature by its bytes
    // AND the target, so each new target is a new use, served and charged to the signer.
    const headers = await signRequest(signer, {
      url: `${SITE}/paid/a`,
      agent: { form: "dictionary", key: "sig1", origin: AGENT },
      created: now() - 5,
      expires: now() + 60,
      fields: { "crawler-max-price": "USD 1" },
    });
    await call("/paid/a", { ua: GPTBOT, headers, env: CHARGES_ENV });
    const replays = [];
    for (const path of ["/paid/b", "/paid/a?x=2", "/paid/c"]) {
      const response = await call(path, { ua: GPTBOT, headers, env: CHARGES_ENV });
      replays.push(`${path} charged ${response.headers.get("crawler-charged")}`);
    }
    // Whatever the fix (a charge needs the target covered, or a replay is refused), the signer
    // is never charged for a page its signature does not name.
    expect(replays).toEqual(["/paid/b charged null", "/paid/a?x=2 charged null", "/paid/c charged null"]);
    expect((await charges()).filter((path) => path !== "/paid/a")).toEqual([]);
  });

  it.each([
    ["/paid/moved", 301],
    ["/paid/same", 304],
  ])("%s answered %i by the origin carries no page: not charged", async (path, status) => {
    const headers = await signRequest(signer, {
      url: `${SITE}${path}`,
      agent: { form: "dictionary", key: "sig1", origin: AGENT },
      components: ["@authority", "@path", "@query"],
      created: now() - 5,
      expires: now() + 60,
      fields: { "crawler-exact-price": "USD 0.01" },
    });
    const response = await call(path, { ua: GPTBOT, headers, env: CHARGES_ENV });
    expect([response.status, response.headers.get("crawler-charged")]).toEqual([status, null]);
    expect(await charges()).toEqual([]);
  });
});

describe("a licence's aud or resource covers a route only cut at a path segment (introspect.ts covers)", () => {
  // Was a hole: a licence for /prem covered /premium/ (a bare string prefix).
  const SERVER = "https://olp.test";
  const POLICY = JSON.stringify({
    licence: { url: "https://origin.test/license.xml", server: SERVER },
    routes: [{ pattern: "/premium/", licence: { required: true } }],
  });
  let answer: unknown;
  beforeEach(async () => {
    await freshState();
    clearLicenceMemory();
    await storeCrawlerLists();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.origin === SERVER) return Response.json(answer);
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      return new Response(`origin page ${url.pathname}`);
    });
  });
  afterEach(freshState);

  it.each([
    [{ active: true, aud: "https://origin.test/prem" }, 401],
    [{ active: true, resource: "https://origin.test/premium-lite/" }, 401],
    [{ active: true, aud: "https://origin.test/premium/a" }, 401],
    [{ active: true, aud: "https://origin.test/premium" }, 200],
    [{ active: true, aud: "https://origin.test/premium/" }, 200],
    [{ active: true, resource: "https://origin.test/" }, 200],
    [{ active: true, aud: "https://origin.test" }, 200],
  ])("the server says %j of the token: %i", async (body, expected) => {
    answer = body;
    const response = await call("/premium/a", {
      ua: GPTBOT,
      headers: { ...fromCrawler("gptbot"), authorization: "License tok-1" },
      env: { POLICY } as Partial<Env>,
    });
    expect(response.status).toBe(expected);
  });
});

describe("POST test: an absolute URL of another site than the one tested", () => {
  // Was a hole: POST test?host=blog.example judged https://shop.example/… by blog.example's
  // policy and robots.txt. Refused as explain's url= is (tester.ts foreignUrlProblem).
  const ROUTE_MODE = { ORIGIN_URL: "", AUTHORITIES: "shop.example, blog.example", VERIFY_CRAWLERS: "off" };
  const send = (method: string, path: string, body: string) =>
    call(`/__robots/${path}`, {
      method,
      ua: CHROME,
      headers: { authorization: `Bearer test-admin-token`, "content-type": "application/json" },
      body,
      env: ROUTE_MODE,
      site: "https://shop.example",
    });
  beforeEach(async () => {
    await freshState();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      return new Response(`origin page ${url.pathname}`);
    });
  });
  afterEach(freshState);

  it.each([
    ["test?host=blog.example", ["https://shop.example/x/a"], 400],
    ["test?host=blog.example", ["/x/a", "https://SHOP.example.:443/x/a"], 400],
    ["test", ["https://blog.example/x/a"], 400],
    ["test?origin=https://blog.example", ["https://shop.example/x/a"], 400],
    ["test?host=blog.example", ["https://BLOG.EXAMPLE.:443/x/a", "/x/b", "//shop.example/x/c"], 200],
    ["test", ["https://shop.example/x/a", "/x/b"], 200],
  ])("POST %s with urls %j -> %i", async (path, urls, status) => {
    const response = await send("POST", path, JSON.stringify({ ua: GPTBOT, urls }));
    expect(response.status).toBe(status);
  });

  it("the refusal says which URL names which site", async () => {
    const response = await send(
      "POST",
      "test?host=blog.example",
      JSON.stringify({ ua: GPTBOT, urls: ["https://shop.example/x/a"] }),
    );
    expect((await response.json()) as { error: string }).toMatchObject({
      error: '"https://shop.example/x/a" names shop.example, host= names blog.example: give one site',
    });
  });
});
