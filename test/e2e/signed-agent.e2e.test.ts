// Issue #12 end to end: a signing agent on loopback publishes its key directory and signs its
// requests (both Signature-Agent forms) with a browser's User-Agent, as ChatGPT agent does.
// The edge (wrangler dev) trusts it through SIGNATURE_AGENTS and judges it by its product
// token's group; a tampered signature is a failed claim; an unsigned browser passes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { newSigner, signRequest, type AgentHeader, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { rawRequest } from "./clients.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
// The agent's own group allows /blog/ and nothing under /docs/; `*` (the demo's) is different.
const ROBOTS = "User-agent: LoopAgent\nDisallow: /docs/\n\nUser-agent: *\nDisallow: /blog/\n";

let origin: DemoOrigin;
let edge: EdgeProcess;
let directory: Server;
let agentOrigin: string;
let signer: TestSigner;
let directoryFetches = 0;
let jwksFetches = 0;
/** httpsig-protocol-01: the agent's JWK Set at a URL of its own choosing. */
const JWKS_PATH = "/keys/loop-agent.jwks";

beforeAll(async () => {
  signer = await newSigner();
  directory = createServer((request, response) => {
    const wellKnown = request.url === "/.well-known/http-message-signatures-directory";
    const jwks = request.url === JWKS_PATH;
    if (wellKnown) directoryFetches++;
    if (jwks) jwksFetches++;
    const found = wellKnown || jwks;
    response.writeHead(found ? 200 : 404, {
      "content-type": jwks ? "application/jwk-set+json" : "application/http-message-signatures-directory+json",
      "cache-control": "max-age=3600",
    });
    response.end(found ? JSON.stringify({ keys: [signer.publicJwk] }) : "");
  });
  await new Promise<void>((done) => directory.listen(0, "127.0.0.1", done));
  agentOrigin = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
  origin = await startDemoOrigin();
  origin.setRobots(ROBOTS);
  edge = await startEdge({
    vars: {
      ORIGIN_URL: origin.url,
      ADMIN_TOKEN: "e2e-signed-agent-token",
      // Address checks cannot work on loopback (every client is 127.0.0.1, no list is stored,
      // and wrangler dev's stand-in request.cf says verifiedBot: false), but signatures can.
      VERIFY_CRAWLERS: "unknown",
      // A route asking SignMe to sign; no other crawler is named, so the rows above are untouched.
      POLICY: JSON.stringify({
        routes: [{ pattern: "/blog/", rules: [{ crawlers: ["SignMe"], action: "allow", signature: "required" }] }],
      }),
      SIGNATURE_AGENTS: JSON.stringify({
        [agentOrigin]: { token: "LoopAgent", category: "ai-assistant" },
        [`${agentOrigin}${JWKS_PATH}`]: { token: "LoopAgent", category: "ai-assistant" },
      }),
    },
  });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
  await new Promise<void>((done) => (directory ? directory.close(() => done()) : done()));
});

async function signedHeaders(path: string, agent: AgentHeader, created = Math.floor(Date.now() / 1000) - 5) {
  return signRequest(signer, { url: `${edge.url}${path}`, agent, created, expires: created + 60 });
}

async function signedGet(path: string, agent: AgentHeader, tamper = false) {
  const headers = await signedHeaders(path, agent);
  if (tamper) headers["signature"] = (headers["signature"] ?? "").replace(/:./, (c) => (c === ":A" ? ":B" : ":A"));
  return rawRequest(edge.url, path, { ua: CHROME, headers });
}

const dictionary = (): AgentHeader => ({ form: "dictionary", key: "sig1", origin: agentOrigin });
const legacy = (): AgentHeader => ({ form: "string", origin: agentOrigin });
const jwksUrl = (): AgentHeader => ({ form: "dictionary", key: "sig1", origin: `${agentOrigin}${JWKS_PATH}` });

describe("a signing agent on loopback", () => {
  it.each([
    { why: "dictionary form: its own group disallows /docs/", path: "/docs/guide/", form: "dictionary", status: 403 },
    { why: "legacy string form: the same", path: "/docs/guide/", form: "string", status: 403 },
    { why: "-01: a full JWK Set URL as Signature-Agent: the same", path: "/docs/guide/", form: "jwks", status: 403 },
    { why: "-01: a full JWK Set URL, /blog/ allowed by its group", path: "/blog/", form: "jwks", status: 200 },
    { why: "its group, not *, applies: /blog/ allowed", path: "/blog/", form: "dictionary", status: 200 },
  ])("$why -> $status", async ({ path, form, status }) => {
    const agent = form === "string" ? legacy() : form === "jwks" ? jwksUrl() : dictionary();
    const response = await signedGet(path, agent);
    expect(response.status).toBe(status);
  });

  it("a tampered signature is a failed claim: judged as an anonymous bot under * (/blog/ blocked)", async () => {
    expect((await signedGet("/blog/", dictionary(), true)).status).toBe(403);
  });

  it("the same browser without a signature is a person and passes everywhere", async () => {
    expect((await rawRequest(edge.url, "/blog/", { ua: CHROME })).status).toBe(200);
    expect((await rawRequest(edge.url, "/docs/guide/", { ua: CHROME })).status).toBe(200);
  });

  it("a signed request sent twice: the replay is answered 429 with Retry-After", async () => {
    const headers = await signedHeaders("/blog/", jwksUrl(), Math.floor(Date.now() / 1000) - 20);
    expect((await rawRequest(edge.url, "/blog/", { ua: CHROME, headers })).status).toBe(200);
    const replay = await rawRequest(edge.url, "/blog/", { ua: CHROME, headers });
    expect(replay.status).toBe(429);
    expect(replay.headers["retry-after"]).toBe("1");
  });

  it("an unsigned crawler on a route that requires a signature: 403 with Accept-Signature", async () => {
    const response = await rawRequest(edge.url, "/blog/", { ua: "SignMe/1.0 (+https://signme.example/bot)" });
    expect(response.status).toBe(403);
    expect(response.headers["accept-signature"]).toBe(
      'sig1=("@authority" "signature-agent";key="sig1");created;expires;tag="web-bot-auth"',
    );
  });

  it("each key set was fetched once for all of these requests, from the URL the signer named", () => {
    expect(directoryFetches).toBe(1);
    expect(jwksFetches).toBe(1);
  });
});
