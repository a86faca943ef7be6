// Issue #12, Web Bot Auth at the edge: a request signed by a trusted signer is judged as the
// crawler the signer stands for, whatever its User-Agent (ChatGPT agent sends a browser's); a
// signature that fails is a failed claim (VERIFY_CRAWLERS); one from a signer we do not trust
// is ignored, and its directory never fetched. Our own signer (test/agents/web-bot-auth).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newSigner, signRequest, type AgentHeader, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { call, CHROME, freshState, SITE } from "./helpers.ts";

const AGENT = "https://agent.test";
const STRANGER = "https://stranger.test";
/** httpsig-protocol-01: a signer naming its JWK Set directly. */
const JWKS = "https://keys.test/bots/example.jwks";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const SIGNATURE_AGENTS = JSON.stringify({ [AGENT]: { token: "ExampleAgent", category: "ai-assistant" } });
// ExampleAgent has a group of its own; everyone else falls to `*`.
const ROBOTS = "User-agent: ExampleAgent\nDisallow: /agent-private/\n\nUser-agent: *\nDisallow: /private/\n";

let signer: TestSigner;
let fetched: string[];
/** Signature Agent Card members the directory carries besides its keys. */
let card: Record<string, unknown>;

beforeEach(async () => {
  await freshState();
  signer = await newSigner();
  fetched = [];
  card = {};
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    fetched.push(request.url);
    const url = new URL(request.url);
    if (url.pathname === DIRECTORY || request.url === JWKS) {
      return new Response(JSON.stringify({ keys: [signer.publicJwk], ...card }), {
        headers: { "content-type": "application/http-message-signatures-directory+json" },
      });
    }
    if (url.pathname === "/robots.txt") return new Response(ROBOTS);
    return new Response(`origin page ${url.pathname}`);
  });
});
afterEach(freshState);

const now = () => Math.floor(Date.now() / 1000);

async function signed(path: string, agent: AgentHeader, overrides: { created?: number; expires?: number } = {}) {
  return signRequest(signer, {
    url: `${SITE}${path}`,
    agent,
    created: overrides.created ?? now() - 5,
    expires: overrides.expires ?? now() + 60,
  });
}

const dictionary: AgentHeader = { form: "dictionary", key: "sig1", origin: AGENT };
const legacy: AgentHeader = { form: "string", origin: AGENT };

describe("a verified signature: judged as the signer's crawler, whatever the User-Agent", () => {
  it.each([
    { why: "dictionary form, its own group disallows", path: "/agent-private/x", agent: dictionary, status: 403 },
    { why: "legacy string form, its own group disallows", path: "/agent-private/x", agent: legacy, status: 403 },
    { why: "its own group, not *, applies", path: "/private/x", agent: dictionary, status: 200 },
  ])("$why: $path -> $status", async ({ path, agent, status }) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const headers = await signed(path, agent);
    const response = await call(path, { ua: CHROME, headers, env: { SIGNATURE_AGENTS } });
    expect(response.status).toBe(status);
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: "robots-edge.decision", group: "exampleagent", signer: `${AGENT}${DIRECTORY}` }),
    );
  });

  it("the directory is fetched once, not per request", async () => {
    for (const path of ["/a", "/b", "/c"]) {
      await call(path, { ua: CHROME, headers: await signed(path, dictionary), env: { SIGNATURE_AGENTS } });
    }
    expect(fetched.filter((url) => url === `${AGENT}${DIRECTORY}`)).toHaveLength(1);
  });
});

describe("-01: a Signature-Agent naming its JWK Set directly", () => {
  it("trusted by its URL: the key set is fetched from that URL and the signer's group applies", async () => {
    const env = { SIGNATURE_AGENTS: JSON.stringify({ [JWKS]: { token: "ExampleAgent" } }) };
    const headers = await signed("/agent-private/x", { form: "dictionary", key: "sig1", origin: JWKS });
    expect((await call("/agent-private/x", { ua: CHROME, headers, env })).status).toBe(403);
    expect(fetched).toContain(JWKS);
    expect(fetched.some((url) => url.endsWith(DIRECTORY))).toBe(false);
  });

  it("a JWK Set URL on a host whose origin is trusted is not trusted by that: nothing fetched, the User-Agent decides", async () => {
    const headers = await signed("/agent-private/x", {
      form: "dictionary",
      key: "sig1",
      origin: `${AGENT}/other.jwks`,
    });
    expect((await call("/agent-private/x", { ua: CHROME, headers, env: { SIGNATURE_AGENTS } })).status).toBe(200);
    expect(fetched.some((url) => url.startsWith(AGENT))).toBe(false);
  });
});

describe("a signature used twice: 429, asking for a fresh one", () => {
  it("the same signed request replayed is answered 429 with Retry-After; a fresh signature passes", async () => {
    const headers = await signed("/private/x", dictionary);
    const env = { SIGNATURE_AGENTS };
    expect((await call("/private/x", { ua: CHROME, headers, env })).status).toBe(200);
    const replay = await call("/private/x", { ua: CHROME, headers, env });
    expect(replay.status).toBe(429);
    expect(replay.headers.get("retry-after")).toBe("1");
    expect(replay.headers.get("x-robots-edge")).toBe("signature-reused");
    // Ed25519 is deterministic: a fresh signature differs by its created time (or a nonce).
    const fresh = await signed("/private/x", dictionary, { created: now() - 30 });
    expect((await call("/private/x", { ua: CHROME, headers: fresh, env })).status).toBe(200);
  });

  it("without a nonce, the same @authority-only signature on another path is not a replay of that request", async () => {
    // An honest agent signing @authority alone sends these very bytes for every request in
    // the same second. Only the same request again is a reuse.
    const headers = await signed("/a", dictionary);
    const env = { SIGNATURE_AGENTS };
    expect((await call("/a", { ua: CHROME, headers, env })).status).toBe(200);
    expect((await call("/b", { ua: CHROME, headers, env })).status).toBe(200);
    expect((await call("/a", { ua: CHROME, headers, env })).status).toBe(429);
  });

  it("the same nonce under a new signature is a reuse too", async () => {
    const env = { SIGNATURE_AGENTS };
    const first = await signRequest(signer, {
      url: `${SITE}/a`,
      agent: dictionary,
      created: now() - 5,
      expires: now() + 60,
      nonce: "one-use-only",
      components: ["@authority", "@path"],
    });
    const second = await signRequest(signer, {
      url: `${SITE}/b`,
      agent: dictionary,
      created: now() - 5,
      expires: now() + 60,
      nonce: "one-use-only",
      components: ["@authority", "@path"],
    });
    expect((await call("/a", { ua: CHROME, headers: first, env })).status).toBe(200);
    expect((await call("/b", { ua: CHROME, headers: second, env })).status).toBe(429);
  });
});

describe('a route that asks for a signature (policy rule "signature": "required")', () => {
  const POLICY = JSON.stringify({
    routes: [
      { pattern: "/agent-private/", rules: [{ crawlers: ["ExampleAgent"], action: "allow", signature: "required" }] },
    ],
  });

  it("an unsigned ExampleAgent: 403 with Accept-Signature naming what we accept", async () => {
    const response = await call("/agent-private/x", { ua: "ExampleAgent/1.0", env: { SIGNATURE_AGENTS, POLICY } });
    expect(response.status).toBe(403);
    expect(response.headers.get("accept-signature")).toBe(
      'sig1=("@authority" "signature-agent";key="sig1");created;expires;tag="web-bot-auth"',
    );
    expect(response.headers.get("x-robots-edge")).toMatch(
      /^blocked; policy="\/agent-private\/".*; signature=required$/,
    );
  });

  it("the same agent, signed as asked: its rule applies (allow)", async () => {
    const headers = await signed("/agent-private/x", dictionary);
    const response = await call("/agent-private/x", {
      ua: "ExampleAgent/1.0",
      headers,
      env: { SIGNATURE_AGENTS, POLICY },
    });
    // robots.txt alone refuses ExampleAgent here; the rule, for a signed request, allows it.
    expect(response.status).toBe(200);
  });

  it("a person on that route is never asked to sign", async () => {
    expect((await call("/agent-private/x", { ua: CHROME, env: { SIGNATURE_AGENTS, POLICY } })).status).toBe(200);
  });
});

describe("a failed signature verifies nothing: a failed claim", () => {
  it.each([
    {
      why: "tampered",
      tamper: true,
      created: undefined,
      expires: undefined,
      verify: "unknown",
      status: 403,
      marker: "blocked",
    },
    {
      why: "tampered, VERIFY_CRAWLERS=block",
      tamper: true,
      created: undefined,
      expires: undefined,
      verify: "block",
      status: 403,
      marker: "impostor",
    },
    {
      why: "expired",
      tamper: false,
      created: now() - 600,
      expires: now() - 300,
      verify: "unknown",
      status: 403,
      marker: "blocked",
    },
    {
      why: "created in the future",
      tamper: false,
      created: now() + 600,
      expires: now() + 900,
      verify: "unknown",
      status: 403,
      marker: "blocked",
    },
  ])("$why: /private/x under * -> $status ($marker)", async ({ tamper, created, expires, verify, status, marker }) => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const headers = await signed("/private/x", dictionary, {
      ...(created && { created }),
      ...(expires && { expires }),
    });
    if (tamper) headers["signature"] = headers["signature"]?.replace(/:./, (c) => (c === ":A" ? ":B" : ":A")) ?? "";
    const env = { SIGNATURE_AGENTS, VERIFY_CRAWLERS: verify };
    const response = await call("/private/x", { ua: CHROME, headers, env });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-robots-edge")?.split(";")[0]).toBe(marker);
    // Never the signer's group: its own group would allow /private/x.
  });
});

// Findings of the second adversarial review: a window without bound, junk headers from a
// person's browser, and a card naming another operator's crawler.
describe("signatures that prove less than they claim", () => {
  it("expires 10 years ahead: refused (longer than SIGNATURE_MAX_WINDOW), so judged under * not its own group", async () => {
    const headers = await signed("/private/x", dictionary, { expires: now() + 10 * 365 * 86_400 });
    const response = await call("/private/x", { ua: CHROME, headers, env: { SIGNATURE_AGENTS } });
    expect(response.status).toBe(403);
  });

  it("SIGNATURE_MAX_WINDOW raised to an hour accepts a 30-minute window", async () => {
    const headers = await signed("/private/x", dictionary, { expires: now() + 1_800 });
    const env = { SIGNATURE_AGENTS, SIGNATURE_MAX_WINDOW: "3600" };
    expect((await call("/private/x", { ua: CHROME, headers, env })).status).toBe(200);
  });

  it.each<{ why: string; headers: Record<string, string> }>([
    {
      why: "unparsable Signature-Input",
      headers: { "signature-input": 'sig1=("@authority"', signature: "sig1=:AAAA:" },
    },
    { why: "Signature-Input with no web-bot-auth member", headers: { "signature-input": "x=?1" } },
    {
      why: "web-bot-auth input without a Signature",
      headers: { "signature-input": 'sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"' },
    },
  ])("a browser with $why is a person, not a failed signer (VERIFY_CRAWLERS=block)", async ({ headers }) => {
    const env = { SIGNATURE_AGENTS, VERIFY_CRAWLERS: "block" };
    const response = await call("/private/x", { ua: CHROME, headers, env });
    expect(response.status).toBe(200);
    expect(fetched.some((url) => url.endsWith(DIRECTORY))).toBe(false);
  });

  it("a trusted signer listed without a token whose card names AdsBot-Google does not skip *", async () => {
    card = { web_bot_auth: { "rfc9309-product-token": "AdsBot-Google", purpose: "search" } };
    const env = { SIGNATURE_AGENTS: JSON.stringify({ [AGENT]: {} }) };
    const headers = await signed("/private/x", dictionary);
    const response = await call("/private/x", { ua: "ExampleFetcher/1.0 (+https://agent.test/bot)", headers, env });
    expect(response.status).toBe(403);
  });

  it("the same signer whose card names a token of its own is judged by that token's group", async () => {
    card = { web_bot_auth: { "rfc9309-product-token": "ExampleAgent" } };
    const env = { SIGNATURE_AGENTS: JSON.stringify({ [AGENT]: {} }) };
    const headers = await signed("/agent-private/x", dictionary);
    const response = await call("/agent-private/x", { ua: CHROME, headers, env });
    expect(response.status).toBe(403);
  });
});

describe("signatures we do not check", () => {
  it("a signer we do not trust: its directory is never fetched; the User-Agent decides (a browser passes)", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const headers = await signed("/private/x", { form: "dictionary", key: "sig1", origin: STRANGER });
    const response = await call("/private/x", { ua: CHROME, headers, env: { SIGNATURE_AGENTS } });
    expect(response.status).toBe(200);
    expect(fetched.some((url) => url.startsWith(STRANGER))).toBe(false);
  });

  it("VERIFY_CRAWLERS=off: signatures are not checked; the User-Agent decides", async () => {
    const headers = await signed("/agent-private/x", dictionary);
    const response = await call("/agent-private/x", {
      ua: CHROME,
      headers,
      env: { SIGNATURE_AGENTS, VERIFY_CRAWLERS: "off" },
    });
    expect(response.status).toBe(200);
    expect(fetched.some((url) => url.endsWith(DIRECTORY))).toBe(false);
  });

  it("a browser without signature headers costs no directory fetch", async () => {
    expect((await call("/agent-private/x", { ua: CHROME, env: { SIGNATURE_AGENTS } })).status).toBe(200);
    expect(fetched).toEqual([`https://origin.test/agent-private/x`]);
  });

  it("an invalid SIGNATURE_AGENTS is a configuration problem: its signers are not trusted, evil.test never fetched", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const headers = await signed("/agent-private/x", dictionary);
    const response = await call("/agent-private/x", {
      ua: CHROME,
      headers,
      env: { SIGNATURE_AGENTS: '{"http://evil.test": {"token": "X"}}' },
    });
    expect(response.status).toBe(200);
    expect(fetched.some((url) => url.includes("evil.test"))).toBe(false);
  });
});
