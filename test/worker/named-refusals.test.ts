// Issue 31 (Low): every refusal names what refused it. A policy `pace` 429 named no rule and
// blamed robots.txt; a reused signature's 429 was recorded as "(unnamed)". The response names
// the policy rule (or the robots.txt group whose rate lines refused), and the record names the
// signer's agent, so the activity view shows who was refused.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { admin, call, CHROME, fakeOrigin, freshState, SITE } from "./helpers.ts";

const AGENT = "https://agent.test";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const SIGNATURE_AGENTS = JSON.stringify({ [AGENT]: { token: "ExampleAgent", category: "ai-assistant" } });
const PACE = JSON.stringify({
  routes: [{ pattern: "/articles/", rules: [{ crawlers: ["FooBot"], action: "pace", retryAfter: 600 }] }],
});

beforeEach(freshState);
afterEach(freshState);

describe("a policy pace names its rule, not robots.txt", () => {
  it("429: the body and X-Robots-Edge name the policy route and rule", async () => {
    fakeOrigin({ body: "User-agent: *\nAllow: /\n" });
    const response = await call("/articles/one", { ua: "FooBot/1.0", env: { POLICY: PACE } });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("600");
    expect(response.headers.get("x-robots-edge")).toBe('rate-limited; policy="/articles/"; route=1; rule=1');
    expect(await response.text()).toBe(
      'Too many requests: this site\'s crawler policy paces this crawler here ("/articles/", route 1, rule 1).\n',
    );
  });

  it("a Crawl-delay 429 names the robots.txt group whose rate lines refused", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 27, 12), toFake: ["Date"] });
    fakeOrigin({ body: "User-agent: FooBot\nCrawl-delay: 10\n" });
    expect((await call("/a", { ua: "FooBot/1.0" })).status).toBe(200);
    const second = await call("/b", { ua: "FooBot/1.0" });
    expect(second.status).toBe(429);
    expect(second.headers.get("x-robots-edge")).toBe('rate-limited; group="foobot"');
    expect(await second.text()).toBe(
      'Too many requests: this site\'s robots.txt asks for a slower crawl (Crawl-delay / Request-rate in the group for "foobot").\n',
    );
  });
});

describe("a reused signature is recorded as the signer's agent, not (unnamed)", () => {
  let signer: TestSigner;
  beforeEach(async () => {
    signer = await newSigner();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input, init).url);
      if (url.pathname === DIRECTORY) {
        return new Response(JSON.stringify({ keys: [signer.publicJwk] }), {
          headers: { "content-type": "application/http-message-signatures-directory+json" },
        });
      }
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      return new Response("origin page");
    });
  });

  it("the replay's 429 is recorded under ExampleAgent, with the signer in the log", async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = await signRequest(signer, {
      url: `${SITE}/a`,
      agent: { form: "dictionary", key: "sig1", origin: AGENT },
      created: now - 5,
      expires: now + 60,
    });
    const env = { SIGNATURE_AGENTS };
    expect((await call("/a", { ua: CHROME, headers, env })).status).toBe(200);
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    expect((await call("/a", { ua: CHROME, headers, env })).status).toBe(429);
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "robots-edge.decision",
        layer: "signature",
        tokens: ["ExampleAgent"],
        signer: `${AGENT}${DIRECTORY}`,
      }),
    );
    const activity = (await (await admin("activity?recent=5")).json()) as { recent: Record<string, unknown>[] };
    expect(activity.recent.map(({ token, action }) => ({ token, action }))).toEqual([
      { token: "ExampleAgent", action: "rate-limited" },
      { token: "ExampleAgent", action: "pass" },
    ]);
  });
});
