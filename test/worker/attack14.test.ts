// Attack 14 (outside review of f607158..a1f9b21: the fail-safe reads FAIL_OPEN, one matching
// budget per request). Each row FAILS on a1f9b21; the expectations are the project's own rules
// ("a claim grants nothing it cannot prove", "every layer judges every spelling"), not the
// current behaviour.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ordinary from "../fixtures/corpus/robots/0097.txt?raw";
import { admin, call, fakeOrigin, freshState, GOOGLEBOT, GPTBOT, type FakeOrigin } from "./helpers.ts";

let origin: FakeOrigin;
beforeEach(async () => {
  await freshState();
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  origin = fakeOrigin({ body: ordinary });
});
afterEach(freshState);

/** `head` then `?q=aaa…` to `length` characters: the query the origin ignores pads every spelling. */
function padded(head: string, length: number): string {
  return `${head}?q=${"a".repeat(length - head.length - 3)}`;
}

describe("A14-1 FAIL_OPEN=true: a crawler buys a bypass of an ordinary file with a long URL", () => {
  // 0097.txt (a real file of the corpus, 1,187 lines under `User-agent: *`) disallows
  // `/learn/jp/`. The client's path `//x;p/learn%3Bz/jp/page` has 7 spellings
  // (path-spellings.ts); the only one the file refuses, `/learn/jp/page` (the network-path
  // reading of the `%3B`-decoded, parameters-dropped reading: a servlet container behind a
  // URL-reference reader serves it), comes LAST. The six before it pass, each ~170,000 steps
  // on a 16,000-character URL (the query pads them all), so the request's account
  // (REQUEST_STEP_BUDGET, 1,200,000) runs out on the refusing spelling: MatchingTooCostly
  // (1,194,061 steps spent, /tmp/s11-attack14-probe/order.ts). own-fault.ts reads FAIL_OPEN=true
  // and forwards the crawler unjudged: the origin serves the disallowed page. Shorter: 14,000
  // characters is still answered (403, 1,165,302 steps). A Googlebot UA the same.
  // Under FAIL_OPEN=false the same URL is answered 503 (the crawler's own URL: harmless).
  // Cloudflare accepts URLs up to 16 KB, so the client can always send this.
  const BYPASS = padded("//x;p/learn%3Bz/jp/page", 16_000);
  it.each([
    { who: "GPTBot", ua: GPTBOT },
    { who: "Googlebot (claim not verified)", ua: GOOGLEBOT },
  ])(
    "$who, FAIL_OPEN=true, 16,000-character URL whose last spelling is disallowed -> never the origin's page",
    async ({ ua }) => {
      const response = await call(BYPASS, { ua, env: { FAIL_OPEN: "true" } });
      const pages = origin.requests.filter((url) => !url.endsWith("/robots.txt"));
      expect([response.status === 200, pages.length]).toEqual([false, 0]);
    },
  );

  // Held (the control): the same file refuses the short spelling of the same page.
  it("GPTBot, FAIL_OPEN=true, /learn/jp/page?q=a -> 403", async () => {
    const response = await call("/learn/jp/page?q=a", { ua: GPTBOT, env: { FAIL_OPEN: "true" } });
    expect(response.status).toBe(403);
  });
});

describe("A14-2 MODE=report with a route the operator set to enforce: the same URL is forwarded", () => {
  // The policy's route mode replaces MODE on the paths it covers (operator-policy.ts): an
  // operator watching site-wide (MODE=report) still enforces `/learn/`. own-fault.ts reads the
  // global MODE only ("a policy route's own mode is not known here") and forwards every crawler
  // whose decision was too costly under MODE=report: A14-1's URL (the route covers only its last
  // spelling, where the request's account runs out) reaches the origin on the enforced route.
  const BYPASS = padded("//x;p/learn%3Bz/jp/page", 16_000);
  const REPORT = { MODE: "report" };
  beforeEach(async () => {
    const saved = await admin("policy", {
      method: "PUT",
      body: { routes: [{ pattern: "/learn/", mode: "enforce" }] },
      env: REPORT,
    });
    expect(saved.status).toBe(200);
  });

  it.each([
    { what: "/learn/jp/page?q=a (held)", path: "/learn/jp/page?q=a" },
    { what: "the 16,000-character URL", path: BYPASS },
  ])("GPTBot, MODE=report, route /learn/ enforce, $what -> never the origin's page", async ({ path }) => {
    const response = await call(path, { ua: GPTBOT, env: REPORT });
    const pages = origin.requests.filter((url) => !url.endsWith("/robots.txt"));
    expect([response.status === 200, pages.length]).toEqual([false, 0]);
  });
});
