// Session 8 attack review (outside reviewer), in the runtime: HOLES in today's features. Each
// test FAILS on main as of this review and states what the project's rules ask for. Attacks
// that hold are in attack-session8.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { admin, call, freshState, GPTBOT, SITE } from "./helpers.ts";

const AGENT = "https://agent.test";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const CHARGES_ENV = {
  SIGNATURE_AGENTS: JSON.stringify({ [AGENT]: { token: "GPTBot", category: "ai-training" } }),
  POLICY: JSON.stringify({
    routes: [
      { pattern: "/paid/", rules: [{ crawlers: ["category:ai-training"], action: "charge", price: "USD 0.01" }] },
    ],
  }),
};
const now = () => Math.floor(Date.now() / 1000);
const charges = async () => {
  const response = await admin("charges", { env: CHARGES_ENV });
  return ((await response.json()) as { charges: { path: string }[] }).charges.map((row) => row.path);
};

describe("HOLE: a price paid by a signature that names no page", () => {
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
      components: ["@authority", "@path"],
      created: now() - 5,
      expires: now() + 60,
      fields: { "crawler-exact-price": "USD 0.01" },
    });
    const response = await call(path, { ua: GPTBOT, headers, env: CHARGES_ENV });
    expect([response.status, response.headers.get("crawler-charged")]).toEqual([status, null]);
    expect(await charges()).toEqual([]);
  });
});
