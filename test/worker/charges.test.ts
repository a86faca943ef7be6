// Issue 32 part 1 in the runtime: a `charge` rule in the POLICY var, our own Web Bot Auth signer
// standing for GPTBot, and the charges ledger (a Durable Object) read back through GET charges.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { admin, call, CHROME, freshState, GOOGLEBOT, GPTBOT, SITE } from "./helpers.ts";

const AGENT = "https://agent.test";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const ROBOTS = "User-agent: *\nAllow: /\n";
const ENV = {
  SIGNATURE_AGENTS: JSON.stringify({ [AGENT]: { token: "GPTBot", category: "ai-training" } }),
  POLICY: JSON.stringify({
    routes: [
      { pattern: "/paid/", rules: [{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }] },
    ],
  }),
};

let signer: TestSigner;

beforeEach(async () => {
  await freshState();
  signer = await newSigner();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.pathname === DIRECTORY) {
      return new Response(JSON.stringify({ keys: [signer.publicJwk] }), {
        headers: { "content-type": "application/http-message-signatures-directory+json" },
      });
    }
    if (url.pathname === "/robots.txt") return new Response(ROBOTS);
    if (url.pathname === "/paid/missing") return new Response("not here", { status: 404 });
    return new Response(`origin page ${url.pathname}`);
  });
});
afterEach(freshState);

const now = () => Math.floor(Date.now() / 1000);

async function paying(path: string, fields: Record<string, string>, nonce?: string) {
  const headers = await signRequest(signer, {
    url: `${SITE}${path}`,
    agent: { form: "dictionary", key: "sig1", origin: AGENT },
    components: ["@authority", "@path", "@query"],
    created: now() - 5,
    expires: now() + 60,
    fields,
    ...(nonce && { nonce }),
  });
  return call(path, { ua: GPTBOT, headers, env: ENV });
}

async function ledger(query = ""): Promise<{ charges: Record<string, string>[]; totals: unknown[] }> {
  const response = await admin(`charges${query}`, { env: ENV });
  expect(response.status).toBe(200);
  return response.json();
}

function priceHeaders(response: Response) {
  return {
    status: response.status,
    price: response.headers.get("crawler-price"),
    error: response.headers.get("crawler-error"),
    charged: response.headers.get("crawler-charged"),
  };
}

describe("a charge rule at the edge", () => {
  it.each([
    {
      why: "unsigned GPTBot: the offer",
      ua: GPTBOT,
      path: "/paid/a",
      headers: {},
      expected: { status: 402, price: "USD 0.01", error: "MissingCrawlerPrice", charged: null },
    },
    {
      why: "unsigned GPTBot naming a price: a price needs a signature",
      ua: GPTBOT,
      path: "/paid/a",
      headers: { "crawler-max-price": "USD 1" },
      expected: { status: 400, price: "USD 0.01", error: "StrongAuthRequired", charged: null },
    },
    {
      why: "a person: untouched",
      ua: CHROME,
      path: "/paid/a",
      headers: { "crawler-max-price": "USD 1" },
      expected: { status: 200, price: null, error: null, charged: null },
    },
    {
      why: "robots.txt: free",
      ua: GPTBOT,
      path: "/robots.txt",
      headers: {},
      expected: { status: 200, price: null, error: null, charged: null },
    },
    {
      why: "Googlebot: no rule names it",
      ua: GOOGLEBOT,
      path: "/paid/a",
      headers: {},
      expected: { status: 200, price: null, error: null, charged: null },
    },
  ])("$why", async ({ ua, path, headers, expected }) => {
    expect(priceHeaders(await call(path, { ua, headers: headers as Record<string, string>, env: ENV }))).toEqual(
      expected,
    );
    expect((await ledger()).charges).toEqual([]);
  });

  it("signed, crawler-max-price covered and above the price: 200, crawler-charged, one ledger row", async () => {
    const response = await paying("/paid/a?x=1", { "crawler-max-price": "USD 0.02" });
    expect(priceHeaders(response)).toEqual({ status: 200, price: null, error: null, charged: "USD 0.01" });
    expect(await response.text()).toBe("origin page /paid/a");
    const { charges, totals } = await ledger();
    expect(charges).toHaveLength(1);
    const [row] = charges;
    expect({ ...row, time: "t", base: "b", signature: "s" }).toEqual({
      time: "t",
      operator: "OpenAI",
      crawler: "GPTBot",
      signer: `${AGENT}/.well-known/http-message-signatures-directory`,
      keyid: signer.keyid,
      path: "/paid/a?x=1",
      price: "USD 0.01",
      header: "crawler-max-price",
      offered: "USD 0.02",
      base: "b",
      signature: "s",
    });
    expect(row?.["base"]).toContain('"crawler-max-price": USD 0.02\n');
    expect(row?.["base"]).toContain('"@signature-params": ("@authority" "@path" "@query" "crawler-max-price"');
    expect(totals).toEqual([{ operator: "OpenAI", currency: "USD", charges: 1, total: "USD 0.010000" }]);
  });

  it("the same paid request again (a replay): 429, still one row", async () => {
    const headers = await signRequest(signer, {
      url: `${SITE}/paid/a`,
      agent: { form: "dictionary", key: "sig1", origin: AGENT },
      components: ["@authority", "@path", "@query"],
      created: now() - 5,
      expires: now() + 60,
      fields: { "crawler-exact-price": "USD 0.01" },
    });
    expect((await call("/paid/a", { ua: GPTBOT, headers, env: ENV })).status).toBe(200);
    expect((await call("/paid/a", { ua: GPTBOT, headers, env: ENV })).status).toBe(429);
    expect((await ledger()).charges).toHaveLength(1);
  });

  it("crawler-exact-price below the price: 402 InvalidCrawlerExactPrice, nothing charged", async () => {
    const response = await paying("/paid/a", { "crawler-exact-price": "USD 0.005" });
    expect(priceHeaders(response)).toEqual({
      status: 402,
      price: "USD 0.01",
      error: "InvalidCrawlerExactPrice",
      charged: null,
    });
    expect((await ledger()).charges).toEqual([]);
  });

  it("a price header sent but not covered by the signature: 400 InvalidSignature", async () => {
    const headers = await signRequest(signer, {
      url: `${SITE}/paid/a`,
      agent: { form: "dictionary", key: "sig1", origin: AGENT },
      components: ["@authority", "@path", "@query"],
      created: now() - 5,
      expires: now() + 60,
    });
    const response = await call("/paid/a", {
      ua: GPTBOT,
      headers: { ...headers, "crawler-max-price": "USD 5" },
      env: ENV,
    });
    expect(priceHeaders(response)).toEqual({
      status: 400,
      price: "USD 0.01",
      error: "InvalidSignature",
      charged: null,
    });
  });

  it("a page the origin does not have is not charged", async () => {
    const response = await paying("/paid/missing", { "crawler-max-price": "USD 0.02" });
    expect(priceHeaders(response)).toEqual({ status: 404, price: null, error: null, charged: null });
    expect((await ledger()).charges).toEqual([]);
  });

  it("GET charges: by operator, by period, as CSV; a bad period is a problem", async () => {
    await paying("/paid/one", { "crawler-max-price": "USD 0.02" }, "n1");
    await paying("/paid/two", { "crawler-max-price": "USD 0.02" }, "n2");
    expect((await ledger()).charges.map((row) => row["path"])).toEqual(["/paid/one", "/paid/two"]);
    expect((await ledger("?operator=OpenAI")).charges).toHaveLength(2);
    expect((await ledger("?operator=Anthropic")).charges).toEqual([]);
    expect((await ledger("?from=2020-01-01&to=2020-02-01")).charges).toEqual([]);
    const csv = await (await admin("charges?format=csv", { env: ENV })).text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("time,operator,crawler,signer,keyid,path,price,header,offered,base,signature");
    expect(lines[1]).toMatch(
      /^\d{4}-\d{2}-\d{2}T[\d:.]+Z,OpenAI,GPTBot,https:\/\/agent\.test\/\.well-known\/http-message-signatures-directory,[^,]+,\/paid\/one,USD 0\.01,crawler-max-price,USD 0\.02,"""@authority"": www\.example\.com\n/,
    );
    const bad = await admin("charges?from=yesterday", { env: ENV });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: 'from must be a date (2026-11-01) or a UTC date-time (2026-11-01T00:00:00Z), got "yesterday"',
      problems: ['from must be a date (2026-11-01) or a UTC date-time (2026-11-01T00:00:00Z), got "yesterday"'],
    });
  });

  it("rendered from the one record: the decision log and explain say the price", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await paying("/paid/a", { "crawler-max-price": "USD 0.02" }, "n3");
    await call("/paid/b", { ua: GPTBOT, env: ENV });
    const lines = log.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((line) => line["event"] === "robots-edge.decision")
      .map(({ status, layer, path, charge }) => ({ status, layer, path, charge }));
    expect(lines).toEqual([
      { status: null, layer: "policy", path: "/paid/a", charge: { price: "USD 0.01", charged: true, error: null } },
      {
        status: 402,
        layer: "charge",
        path: "/paid/b",
        charge: { price: "USD 0.01", charged: false, error: "MissingCrawlerPrice" },
      },
    ]);
    const explained = (await (
      await admin(`explain?ua=${encodeURIComponent(GPTBOT)}&url=/paid/a`, { env: ENV })
    ).json()) as Record<string, unknown>;
    expect([explained["layer"], explained["charge"]]).toEqual([
      "charge",
      { price: "USD 0.01", charged: false, error: "MissingCrawlerPrice" },
    ]);
  });
});
