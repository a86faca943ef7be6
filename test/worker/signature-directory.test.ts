// Web Bot Auth directories in the real runtime: only trusted signers are fetched, over https
// (http for an operator-listed loopback origin), never through a redirect, within a size
// limit, once per cache lifetime, and a failed refresh keeps the last good keys.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { verifyWebBotAuth } from "../../src/agents/web-bot-auth/verify.ts";
import { trustedSignatureAgents } from "../../src/agents/web-bot-auth/signature-agents.ts";
import {
  clearSignatureDirectoryMemory,
  refreshSignatureDirectories,
  signatureDirectory,
  signatureKeyLookup,
  type DirectoryOptions,
} from "../../src/worker/identity/signature-directory.ts";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { freshState } from "./helpers.ts";

const DIRECTORY = "/.well-known/http-message-signatures-directory";
// Signer URLs (signer-url.ts): a bare origin stands for its well-known directory.
const AGENT_ORIGIN = "https://agent.example";
const AGENT = `${AGENT_ORIGIN}${DIRECTORY}`;
const LOOPBACK = `http://127.0.0.1:8788${DIRECTORY}`;
/** httpsig-protocol-01: a Signature-Agent may name a JWK Set anywhere on its host. */
const JWKS = "https://keys.example/bots/agent.jwks";

type Answer = { status?: number; body?: string; headers?: Record<string, string> } | "network-error";

let signer: TestSigner;
let answers: Map<string, Answer>;
let fetched: string[];
let options: DirectoryOptions;

beforeEach(async () => {
  await freshState();
  clearSignatureDirectoryMemory();
  signer = await newSigner();
  fetched = [];
  answers = new Map();
  answers.set(AGENT, directoryAnswer(signer, "max-age=600"));
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    fetched.push(request.url);
    expect(request.redirect).toBe("manual");
    const answer = answers.get(request.url) ?? { status: 404 };
    if (answer === "network-error") throw new TypeError("Network connection lost.");
    return new Response(answer.body ?? "", { status: answer.status ?? 200, headers: answer.headers ?? {} });
  });
  options = {
    kv: env.ROBOTS,
    agents: trustedSignatureAgents([
      { url: AGENT, token: "ExampleAgent", docs: "SIGNATURE_AGENTS" },
      { url: LOOPBACK, token: "LocalAgent", docs: "SIGNATURE_AGENTS" },
      { url: JWKS, token: "KeyAgent", docs: "SIGNATURE_AGENTS" },
    ]),
    timeoutMs: 1000,
  };
});
afterEach(() => {
  vi.useRealTimers();
  clearSignatureDirectoryMemory();
});

function directoryAnswer(key: TestSigner, cacheControl?: string): Answer {
  return {
    body: JSON.stringify({ keys: [key.publicJwk] }),
    headers: {
      "content-type": "application/http-message-signatures-directory+json",
      ...(cacheControl && { "cache-control": cacheControl }),
    },
  };
}

async function keyids(signerUrl: string): Promise<string[]> {
  return [...((await signatureDirectory(options, signerUrl))?.directory?.keys.keys() ?? [])];
}

describe("which directories are fetched", () => {
  it("fetches a trusted signer's directory over https", async () => {
    expect(await keyids(AGENT)).toEqual([signer.keyid]);
    expect(fetched).toEqual([AGENT]);
  });

  it("fetches a trusted JWK Set URL as it is, not its origin's well-known directory", async () => {
    answers.set(JWKS, directoryAnswer(signer));
    expect(await keyids(JWKS)).toEqual([signer.keyid]);
    expect(fetched).toEqual([JWKS]);
  });

  it("never fetches an origin outside the trust table (no SSRF)", async () => {
    expect(await signatureDirectory(options, `https://evil.example${DIRECTORY}`)).toBeUndefined();
    expect(await signatureDirectory(options, "http://169.254.169.254/latest/meta-data")).toBeUndefined();
    expect(await signatureDirectory(options, "https://keys.example/bots/other.jwks")).toBeUndefined();
    expect(fetched).toEqual([]);
  });

  it("fetches an operator-listed loopback origin over http", async () => {
    answers.set(LOOPBACK, directoryAnswer(signer));
    expect(await keyids(LOOPBACK)).toEqual([signer.keyid]);
  });

  it("refuses http for a non-loopback origin even if the table holds it", async () => {
    options = {
      ...options,
      agents: new Map([
        [`http://agent.example${DIRECTORY}`, { url: `http://agent.example${DIRECTORY}`, docs: "SIGNATURE_AGENTS" }],
      ]),
    };
    expect(await keyids(`http://agent.example${DIRECTORY}`)).toEqual([]);
    expect(fetched).toEqual([]);
    expect((await signatureDirectory(options, `http://agent.example${DIRECTORY}`))?.lastError).toMatch(
      /^refused: .* is not https/,
    );
  });

  it.each<{ why: string; answer: Answer; error: string | RegExp }>([
    {
      why: "a redirect is not followed",
      answer: { status: 302, headers: { location: "https://elsewhere.example/keys" } },
      error: "refused: redirect (302)",
    },
    {
      why: "a declared size over 64 KiB",
      answer: { body: "{}", headers: { "content-length": String(70_000) } },
      error: "refused: larger than 65536 bytes",
    },
    {
      why: "a body over 64 KiB",
      answer: { body: `{"keys":[],"pad":"${"x".repeat(70_000)}"}` },
      error: "refused: larger than 65536 bytes",
    },
    { why: "a 500", answer: { status: 500 }, error: "directory answered 500" },
    { why: "not JSON", answer: { body: "<html>" }, error: /JSON/ },
    { why: "no usable keys", answer: { body: '{"keys":[{"kty":"EC"}]}' }, error: "no usable keys in the directory" },
  ])("$why: no keys, and the reason kept", async ({ answer, error }) => {
    answers.set(AGENT, answer);
    const directory = await signatureDirectory(options, AGENT);
    expect(directory?.directory).toBeUndefined();
    expect(directory?.lastError).toMatch(error);
    expect(fetched).toEqual([AGENT]);
  });
});

describe("caching", () => {
  it("fetches once per lifetime, from memory and from KV", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["Date"] });
    await keyids(AGENT);
    await keyids(AGENT);
    clearSignatureDirectoryMemory(); // a new isolate: KV answers
    await keyids(AGENT);
    expect(fetched).toHaveLength(1);
    vi.setSystemTime(1_800_000_000_000 + 601_000); // max-age=600 is over
    await keyids(AGENT);
    expect(fetched).toHaveLength(2);
  });

  it.each([
    { cacheControl: "max-age=10", lifetimeMs: 300_000, why: "floor: 5 minutes" },
    { cacheControl: "max-age=604800", lifetimeMs: 86_400_000, why: "ceiling: 24 hours" },
    { cacheControl: "no-store", lifetimeMs: 300_000, why: "no-store: the floor" },
    { cacheControl: undefined, lifetimeMs: 3_600_000, why: "none: 1 hour" },
  ])("lifetime from Cache-Control $cacheControl ($why)", async ({ cacheControl, lifetimeMs }) => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["Date"] });
    answers.set(AGENT, directoryAnswer(signer, cacheControl));
    expect((await signatureDirectory(options, AGENT))?.nextFetchAt).toBe(1_800_000_000_000 + lifetimeMs);
  });

  it("a failed refresh keeps the last good keys and is not retried per request", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["Date"] });
    await keyids(AGENT);
    answers.set(AGENT, "network-error");
    vi.setSystemTime(1_800_000_000_000 + 601_000);
    expect(await keyids(AGENT)).toEqual([signer.keyid]);
    expect(await keyids(AGENT)).toEqual([signer.keyid]);
    clearSignatureDirectoryMemory();
    expect(await keyids(AGENT)).toEqual([signer.keyid]);
    expect(fetched).toHaveLength(2);
  });

  it("a signer that is down from the start is asked again after a minute, not before (issue 30)", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["Date"] });
    answers.set(AGENT, "network-error");
    for (let i = 0; i < 5; i++) await keyids(AGENT);
    expect(fetched).toHaveLength(1);
    vi.setSystemTime(1_800_000_000_000 + 59_000);
    await keyids(AGENT);
    expect(fetched).toHaveLength(1);
    vi.setSystemTime(1_800_000_000_000 + 61_000);
    await keyids(AGENT);
    expect(fetched).toHaveLength(2);
  });
});

describe("the cron refresh", () => {
  it("fetches each trusted directory that is due, and reports per origin", async () => {
    const report = await refreshSignatureDirectories(options);
    expect(report).toEqual({
      [`https://chatgpt.com${DIRECTORY}`]: "directory answered 404",
      [`https://agent.bot.goog${DIRECTORY}`]: "directory answered 404",
      [AGENT]: "fetched",
      [LOOPBACK]: "directory answered 404",
      [JWKS]: "directory answered 404",
    });
    expect(await refreshSignatureDirectories(options)).toMatchObject({ [AGENT]: "fresh" });
    expect(fetched.filter((url) => url.startsWith(AGENT))).toHaveLength(1);
  });
});

describe("verification with fetched keys", () => {
  it("verifies a signed request with the directory's key, and fetches the directory once", async () => {
    const now = Math.floor(Date.now() / 1000);
    const url = "https://www.example.com/news";
    const verify = async () =>
      verifyWebBotAuth(
        {
          method: "GET",
          url,
          headers: new Headers(
            await signRequest(signer, {
              url,
              agent: { form: "dictionary", key: "sig1", origin: AGENT_ORIGIN },
              created: now,
              expires: now + 60,
            }),
          ),
        },
        { now: Date.now(), isTrusted: (origin) => options.agents.has(origin), lookupKey: signatureKeyLookup(options) },
      );
    expect(await verify()).toMatchObject({ status: "verified", signer: AGENT, keyid: signer.keyid });
    expect(await verify()).toMatchObject({ status: "verified", signer: AGENT, keyid: signer.keyid });
    expect(fetched).toHaveLength(1);
  });

  it("a client-chosen Signature-Agent outside the table is refused without any fetch (no SSRF)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const url = "https://www.example.com/news";
    const outcomes = [];
    const chosen = [
      "http://169.254.169.254",
      "https://internal.example",
      "http://127.0.0.1:9999",
      "https://keys.example/x",
    ];
    for (const origin of chosen) {
      const headers = await signRequest(signer, {
        url,
        agent: { form: "dictionary", key: "sig1", origin },
        created: now,
        expires: now + 60,
      });
      const outcome = await verifyWebBotAuth(
        { method: "GET", url, headers: new Headers(headers) },
        { now: Date.now(), isTrusted: (o) => options.agents.has(o), lookupKey: signatureKeyLookup(options) },
      );
      outcomes.push(outcome.status === "failed" ? outcome.why : outcome.status);
    }
    expect(outcomes).toEqual(["untrusted-signer", "untrusted-signer", "untrusted-signer", "untrusted-signer"]);
    expect(fetched).toEqual([]);
  });
});
