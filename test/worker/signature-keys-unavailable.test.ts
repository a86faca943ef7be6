// Issue 30 item 4, the third review's high finding: keys we could not fetch are unverifiable,
// never refuted. A trusted signer whose key set failed (an error, a hang, a bad body) or lacks
// the signature's keyid (a rotation after we cached the set) proves nothing and refutes nothing:
// the request is judged as if it carried no signature (the User-Agent decides), so never 403
// under VERIFY_CRAWLERS=block and never stricter than the same request unsigned. The set is
// fetched again, at most once per signer per minute.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { call, CHROME, freshState, SITE } from "./helpers.ts";

const AGENT = "https://agent.test";
const DIRECTORY_URL = `${AGENT}/.well-known/http-message-signatures-directory`;
const SIGNATURE_AGENTS = JSON.stringify({ [AGENT]: { token: "ExampleAgent", category: "ai-assistant" } });
// ExampleAgent's own group refuses /agent-private/; `*` refuses /private/.
const ROBOTS = "User-agent: ExampleAgent\nDisallow: /agent-private/\n\nUser-agent: *\nDisallow: /private/\n";
const T0 = 1_800_000_000_000;

type Directory = "ok" | "error-500" | "network-error" | "hang" | "not-json" | "other-key";

let signer: TestSigner;
let other: TestSigner;
let directory: Directory;
let fetched: number;

beforeEach(async () => {
  await freshState();
  vi.useFakeTimers({ now: T0, toFake: ["Date"] });
  signer = await newSigner();
  other = await newSigner();
  directory = "ok";
  fetched = 0;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.url === DIRECTORY_URL) {
      fetched++;
      return directoryAnswer(request.signal);
    }
    if (url.pathname === "/robots.txt") return new Response(ROBOTS);
    return new Response(`origin page ${url.pathname}`);
  });
});
afterEach(freshState);

function keys(key: TestSigner): Response {
  return new Response(JSON.stringify({ keys: [key.publicJwk] }), {
    headers: { "content-type": "application/http-message-signatures-directory+json", "cache-control": "max-age=600" },
  });
}

function directoryAnswer(signal: AbortSignal): Promise<Response> {
  switch (directory) {
    case "ok":
      return Promise.resolve(keys(signer));
    case "other-key":
      return Promise.resolve(keys(other));
    case "error-500":
      return Promise.resolve(new Response("down", { status: 500 }));
    case "network-error":
      return Promise.reject(new TypeError("Network connection lost."));
    case "not-json":
      return Promise.resolve(new Response("<html>maintenance</html>"));
    case "hang":
      return new Promise((_, fail) => signal.addEventListener("abort", () => fail(signal.reason)));
  }
}

async function signedBy(key: TestSigner, path: string): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  return signRequest(key, {
    url: `${SITE}${path}`,
    agent: { form: "dictionary", key: "sig1", origin: AGENT },
    created: now - 5,
    expires: now + 60,
  });
}

const env = (verify: string) => ({ SIGNATURE_AGENTS, VERIFY_CRAWLERS: verify, FETCH_TIMEOUT_MS: "200" });

describe("a trusted signer whose keys we could not get: judged as the same request unsigned", () => {
  it.each<{ why: string; directory: Directory; verify: string }>([
    { why: "the directory answers 500", directory: "error-500", verify: "block" },
    { why: "the directory answers 500", directory: "error-500", verify: "unknown" },
    { why: "the directory cannot be reached", directory: "network-error", verify: "block" },
    { why: "the directory hangs past FETCH_TIMEOUT_MS", directory: "hang", verify: "block" },
    { why: "the directory hangs past FETCH_TIMEOUT_MS", directory: "hang", verify: "unknown" },
    { why: "the directory's body is not JSON", directory: "not-json", verify: "block" },
    { why: "the directory lacks the keyid (rotated)", directory: "other-key", verify: "block" },
    { why: "the directory lacks the keyid (rotated)", directory: "other-key", verify: "unknown" },
  ])("$why, VERIFY_CRAWLERS=$verify: /private/x answers as unsigned (200), never 403", async (row) => {
    directory = row.directory;
    const unsigned = await call("/private/x", { ua: CHROME, env: env(row.verify) });
    const signed = await call("/private/x", {
      ua: CHROME,
      headers: await signedBy(signer, "/private/x"),
      env: env(row.verify),
    });
    expect([unsigned.status, signed.status]).toEqual([200, 200]);
    expect(signed.headers.get("x-robots-edge")).toBeNull();
  });

  it("the decision log names the signer and why its keys could not be used", async () => {
    directory = "error-500";
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const ua = "ExampleAgent/1.0 (+https://agent.test/bot)";
    await call("/private/x", { ua, headers: await signedBy(signer, "/private/x"), env: env("block") });
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "robots-edge.decision",
        signer: DIRECTORY_URL,
        verification: expect.objectContaining({
          status: "unverifiable",
          why: "lookup-failed",
          reason: expect.stringMatching(/directory answered 500/),
        }),
      }),
    );
  });
});

describe("the key set is fetched again, at most once per signer per minute", () => {
  it("a directory that failed: not asked again within the minute, asked again after it, then verifies", async () => {
    directory = "error-500";
    for (const path of ["/agent-private/a", "/agent-private/b", "/agent-private/c"]) {
      const response = await call(path, { ua: CHROME, headers: await signedBy(signer, path), env: env("block") });
      expect(response.status).toBe(200); // unverifiable: its own group (which refuses) is not applied either
    }
    expect(fetched).toBe(1);
    directory = "ok";
    vi.setSystemTime(T0 + 61_000);
    const path = "/agent-private/d";
    const response = await call(path, { ua: CHROME, headers: await signedBy(signer, path), env: env("block") });
    expect(fetched).toBe(2);
    expect(response.status).toBe(403); // verified now: ExampleAgent's own group refuses the path
  });

  it("a rotation: a keyid missing from a cached set fetches the set again (not within the minute), then verifies", async () => {
    const first = await call("/agent-private/a", {
      ua: CHROME,
      headers: await signedBy(signer, "/agent-private/a"),
      env: env("block"),
    });
    expect(first.status).toBe(403); // verified with the cached key
    directory = "other-key"; // the signer rotates to a key added after we cached the set
    vi.setSystemTime(T0 + 30_000);
    const early = await call("/agent-private/b", {
      ua: CHROME,
      headers: await signedBy(other, "/agent-private/b"),
      env: env("block"),
    });
    expect([early.status, fetched]).toEqual([200, 1]); // within the minute: no fetch, unverifiable
    vi.setSystemTime(T0 + 61_000);
    const later = await call("/agent-private/c", {
      ua: CHROME,
      headers: await signedBy(other, "/agent-private/c"),
      env: env("block"),
    });
    expect([later.status, fetched]).toEqual([403, 2]); // fetched again: the new key verifies
  });
});
