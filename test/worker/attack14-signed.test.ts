// Attack 14 (outside review of f607158..a1f9b21), A14-4: the fail-safe is told of a crawler in
// disguise the decision recognised (request-path.ts judged: only when facts.disguise is an
// object), not of a request the decision judged as a crawler because a trusted signer signed it
// (Web Bot Auth: "judged as the signer's crawler, whatever its User-Agent"; ChatGPT agent sends
// a browser's). Such a request whose decision is too costly is asked of the User-Agent again
// ("a person") and forwarded unjudged, under the DEFAULT settings (no FAIL_OPEN, no report):
// the signed agent gets what its group disallows. FAILS on a1f9b21.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ordinary from "../fixtures/corpus/robots/0097.txt?raw";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { call, CHROME, freshState, SITE } from "./helpers.ts";

const AGENT = "https://agent.test";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const SIGNATURE_AGENTS = JSON.stringify({ [AGENT]: { token: "ExampleAgent", category: "ai-assistant" } });

let signer: TestSigner;
let pages: string[];

beforeEach(async () => {
  await freshState();
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  signer = await newSigner();
  pages = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.pathname === DIRECTORY) {
      return new Response(JSON.stringify({ keys: [signer.publicJwk] }), {
        headers: { "content-type": "application/http-message-signatures-directory+json" },
      });
    }
    // 0097.txt, a real file of the corpus: `User-agent: *` disallows /learn/jp/.
    if (url.pathname === "/robots.txt") return new Response(ordinary);
    pages.push(url.pathname);
    return new Response(`origin page ${url.pathname}`);
  });
});
afterEach(freshState);

async function signedCall(path: string): Promise<Response> {
  const now = Math.floor(Date.now() / 1000);
  const headers = await signRequest(signer, {
    url: `${SITE}${path}`,
    agent: { form: "dictionary", key: "sig1", origin: AGENT },
    created: now - 5,
    expires: now + 60,
  });
  return call(path, { ua: CHROME, headers, env: { SIGNATURE_AGENTS } });
}

describe("A14-4 a signed agent with a browser's User-Agent, decision too costly: forwarded unjudged by default", () => {
  // A14-1's URL: seven spellings, the only refusing one (/learn/jp/page) last, padded by the
  // query to 16,000 characters: the request's matching account runs out on it.
  const head = "//x;p/learn%3Bz/jp/page";
  const BYPASS = `${head}?q=${"a".repeat(16_000 - head.length - 3)}`;

  it.each([
    { what: "/learn/jp/page?q=a (held: 403)", path: "/learn/jp/page?q=a" },
    { what: "the 16,000-character URL", path: BYPASS },
  ])("ExampleAgent signed, Chrome UA, $what -> never the origin's page", async ({ path }) => {
    const response = await signedCall(path);
    expect([response.status === 200, pages.length]).toEqual([false, 0]);
  });
});
