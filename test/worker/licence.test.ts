// The licence check in the real runtime (src/worker/licence/introspect.ts): a route requiring
// an RSL licence, a stub licence server behind the global fetch that answers, hangs, lies,
// confirms an expired token or one for another site, and what the crawler and the operator see.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearLicenceMemory, INTROSPECT_TIMEOUT_MS } from "../../src/worker/licence/introspect.ts";
import { clearTdmrepNotes } from "../../src/worker/licence/tdmrep-route.ts";
import { admin, call, CHROME, freshState, fromCrawler, GOOGLEBOT, GPTBOT, storeCrawlerLists } from "./helpers.ts";

const SERVER = "https://olp.test";
const POLICY = JSON.stringify({
  licence: { url: "https://origin.test/license.xml", server: SERVER },
  purposes: [{ path: "/members/", "ai-training": "block" }],
  routes: [{ pattern: "/premium/", licence: { required: true } }],
});

/** How the stub licence server answers /introspect. */
type ServerBehaviour = { status?: number; body: unknown } | { hang: true } | { networkError: true } | { raw: string };

interface Stub {
  server: ServerBehaviour;
  /** Each introspection request's form body and Authorization, in order. */
  readonly asked: { form: Record<string, string>; authorization: string | null }[];
  /** Every URL fetched, in order. */
  readonly fetched: string[];
  /** The origin's own /.well-known/tdmrep.json, if it has one. */
  ownTdmrep?: string;
}

function stub(server: ServerBehaviour): Stub {
  const state: Stub = { server, asked: [], fetched: [] };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    state.fetched.push(request.url);
    const url = new URL(request.url);
    if (url.origin === SERVER) {
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      state.asked.push({ form, authorization: request.headers.get("authorization") });
      const behaviour = state.server;
      if ("hang" in behaviour) {
        return new Promise((_, fail) => request.signal.addEventListener("abort", () => fail(request.signal.reason)));
      }
      if ("networkError" in behaviour) throw new TypeError("Network connection lost.");
      if ("raw" in behaviour) return new Response(behaviour.raw, { status: 200 });
      return Response.json(behaviour.body, { status: behaviour.status ?? 200 });
    }
    if (url.pathname === "/robots.txt") return new Response("User-agent: *\nDisallow: /private/\n");
    if (url.pathname === "/.well-known/tdmrep.json") {
      return state.ownTdmrep === undefined ? new Response("not found", { status: 404 }) : new Response(state.ownTdmrep);
    }
    return new Response(`origin page ${url.pathname}`, { headers: { "x-origin": "yes" } });
  });
  return state;
}

const NOW_S = () => Math.floor(Date.now() / 1000);
const withPolicy = { POLICY, LICENCE_SERVER_CREDENTIALS: "edge-client:s3cret" } as Partial<Env>;
const asGptbot = (token?: string) => ({
  ua: GPTBOT,
  headers: { ...fromCrawler("gptbot"), ...(token !== undefined && { authorization: `License ${token}` }) },
  env: withPolicy,
});

beforeEach(async () => {
  await freshState();
  clearLicenceMemory();
  clearTdmrepNotes();
  await storeCrawlerLists();
});
afterEach(freshState);

/** A response in the words the table checks: status, the licence headers, and the body's origin. */
async function seen(response: Response): Promise<string> {
  const parts = [String(response.status)];
  for (const name of ["www-authenticate", "link", "retry-after", "tdm-reservation"]) {
    const value = response.headers.get(name);
    if (value !== null) parts.push(`${name}: ${value}`);
  }
  parts.push(response.headers.get("x-origin") === "yes" ? "origin" : "edge");
  await response.body?.cancel();
  return parts.join(" | ");
}

const LINK = 'link: <https://origin.test/license.xml>; rel="license"; type="application/rsl+xml"';

describe("a route requiring a licence, against a stub licence server", () => {
  // [what the server does, expected answer to GPTBot presenting "tok-1" on /premium/a]
  const rows: [string, ServerBehaviour, string][] = [
    ["confirms", { body: { active: true, exp: NOW_S() + 600 } }, `200 | ${LINK} | origin`],
    ["confirms for this site", { body: { active: true, aud: "https://origin.test" } }, `200 | ${LINK} | origin`],
    [
      "says not active",
      { body: { active: false } },
      `401 | www-authenticate: License error="invalid_token", error_description="the licence server did not confirm this token for this site" | ${LINK} | edge`,
    ],
    [
      "says active of an expired token",
      { body: { active: true, exp: NOW_S() - 5 } },
      `401 | www-authenticate: License error="invalid_token", error_description="the licence server did not confirm this token for this site" | ${LINK} | edge`,
    ],
    [
      "says active of a token for another site",
      { body: { active: true, aud: "https://other.example" } },
      `401 | www-authenticate: License error="invalid_token", error_description="the licence server did not confirm this token for this site" | ${LINK} | edge`,
    ],
    [
      "says active of a token for another resource",
      { body: { active: true, resource: "https://origin.test/other/" } },
      `401 | www-authenticate: License error="invalid_token", error_description="the licence server did not confirm this token for this site" | ${LINK} | edge`,
    ],
    ["answers 500", { status: 500, body: { error: "server_error" } }, `503 | ${LINK} | retry-after: 120 | edge`],
    ["answers HTML", { raw: "<html>oops</html>" }, `503 | ${LINK} | retry-after: 120 | edge`],
    ["answers JSON without active", { body: { valid: true } }, `503 | ${LINK} | retry-after: 120 | edge`],
    [
      "answers more than 16 KiB",
      { raw: `{"active":true,"x":"${"a".repeat(17_000)}"}` },
      `503 | ${LINK} | retry-after: 120 | edge`,
    ],
    ["cannot be reached", { networkError: true }, `503 | ${LINK} | retry-after: 120 | edge`],
  ];
  it.each(rows)("the server %s -> %s", async (_what, behaviour, expected) => {
    const state = stub(behaviour);
    expect(await seen(await call("/premium/a", asGptbot("tok-1")))).toBe(expected);
    // Asked once, of the policy's server, for this site's route, authenticated as the edge.
    expect(state.asked).toEqual([
      {
        form: { token: "tok-1", resource: "https://origin.test/premium/" },
        authorization: `Basic ${btoa("edge-client:s3cret")}`,
      },
    ]);
  });

  it("a server that hangs: 503 with Retry-After after the timeout, named in GET status", async () => {
    stub({ hang: true });
    const started = Date.now();
    expect(await seen(await call("/premium/a", asGptbot("tok-1")))).toBe(`503 | ${LINK} | retry-after: 120 | edge`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(INTROSPECT_TIMEOUT_MS - 100);
    const status = (await (await admin("status")).json()) as { ownFaults: { key: string; cause: string }[] };
    expect(status.ownFaults.map((fault) => fault.key)).toContain(`licence server ${SERVER}`);
  });

  it("no token: 401 with the challenge, the server never asked", async () => {
    const state = stub({ body: { active: true } });
    expect(await seen(await call("/premium/a", asGptbot()))).toBe(
      `401 | www-authenticate: License error="invalid_request", error_description="a licence token is required here: Authorization: License <token>" | ${LINK} | edge`,
    );
    expect(state.asked).toEqual([]);
  });

  it("an oversized Authorization header: 401 unread, the server never asked", async () => {
    const state = stub({ body: { active: true } });
    expect(await seen(await call("/premium/a", asGptbot("a".repeat(10_000))))).toBe(
      `401 | www-authenticate: License error="invalid_request", error_description="the Authorization: License header is malformed or too long" | ${LINK} | edge`,
    );
    expect(state.asked).toEqual([]);
  });

  it("a confirmation is kept within its lifetime; a refusal briefly; the token is asked again after", async () => {
    const state = stub({ body: { active: true, exp: NOW_S() + 600 } });
    for (let i = 0; i < 3; i++) expect((await call("/premium/a", asGptbot("tok-1"))).status).toBe(200);
    expect(state.asked).toHaveLength(1);
    state.server = { body: { active: false } };
    expect((await call("/premium/a", asGptbot("tok-2"))).status).toBe(401);
    expect((await call("/premium/a", asGptbot("tok-2"))).status).toBe(401);
    expect(state.asked).toHaveLength(2);
  });

  it("people, Googlebot and other routes: never asked for a licence; crawlers see the link", async () => {
    const state = stub({ body: { active: true } });
    expect(await seen(await call("/premium/a", { ua: CHROME, env: withPolicy }))).toBe("200 | origin");
    expect(
      await seen(await call("/premium/a", { ua: GOOGLEBOT, headers: fromCrawler("googlebot"), env: withPolicy })),
    ).toBe(`200 | ${LINK} | origin`);
    expect(await seen(await call("/blog/", asGptbot()))).toBe(`200 | ${LINK} | origin`);
    expect(
      await seen(await call("/members/x", { ua: GOOGLEBOT, headers: fromCrawler("googlebot"), env: withPolicy })),
    ).toBe(`200 | ${LINK} | tdm-reservation: 1 | origin`);
    expect(state.asked).toEqual([]);
    // The licence server is the policy's only: a request naming another host changes nothing.
    expect(state.fetched.some((url) => !url.startsWith("https://origin.test/"))).toBe(false);
  });
});

describe("the licence server's fault is ours, recorded as what the edge did", () => {
  it("activity and the decision log say 503 by the licence layer", async () => {
    stub({ networkError: true });
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await call("/premium/a", {
      ...asGptbot("tok-1"),
      env: { ...withPolicy, LOG_DECISIONS: "all", LOG_FORMAT: "json" } as Partial<Env>,
    });
    const line = logged.mock.calls.map((args) => String(args[0])).find((text) => text.includes("/premium/a"));
    expect(line).toBeDefined();
    const record = JSON.parse(line ?? "{}") as Record<string, unknown>;
    expect([record["status"], record["layer"]]).toEqual([503, "licence"]);
  });
});
describe("what the operator sees: the tester renders the record's terms", () => {
  it("POST test: the 401 of a licence route, the link and the reservation, as the edge would answer", async () => {
    stub({ body: { active: true } });
    const response = await admin("test", {
      method: "POST",
      body: { ua: GPTBOT, urls: ["/premium/a", "/members/x"], draft: "User-agent: *\nDisallow: /private/\n" },
      env: withPolicy,
    });
    const body = (await response.json()) as {
      results: { url: string; live: { action: { status: number | null }; layer: string; terms: unknown } }[];
    };
    expect(body.results.map(({ url, live }) => [url, live.action.status, live.layer, live.terms])).toEqual([
      [
        "/premium/a",
        401,
        "licence",
        { licence: "https://origin.test/license.xml", licenceCheck: "missing", tdmReservation: false, tdmPolicy: null },
      ],
      [
        "/members/x",
        403,
        "robots.txt",
        {
          licence: "https://origin.test/license.xml",
          licenceCheck: "not-required",
          tdmReservation: true,
          tdmPolicy: null,
        },
      ],
    ]);
  });
});

describe("TDMRep's well-known file and RSL's robots.txt line", () => {
  it("/.well-known/tdmrep.json: generated from the purposes when the origin has none, to anyone", async () => {
    stub({ body: { active: true } });
    for (const ua of [CHROME, GPTBOT]) {
      const response = await call("/.well-known/tdmrep.json", { ua, env: withPolicy });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ location: "/members/*", "tdm-reservation": 1 }]);
    }
  });

  it("/.well-known/tdmrep.json: the origin's own file wins; GET status says where it and the purposes disagree", async () => {
    const state = stub({ body: { active: true } });
    state.ownTdmrep = '[{"location": "/blog/*", "tdm-reservation": 1}]';
    const response = await call("/.well-known/tdmrep.json", { ua: GPTBOT, env: withPolicy });
    expect(await response.text()).toBe('[{"location": "/blog/*", "tdm-reservation": 1}]');
    const status = (await (await admin("status", { env: withPolicy })).json()) as { edge: { problems: string[] } };
    expect(status.edge.problems.filter((problem) => problem.startsWith("tdmrep"))).toEqual([
      "tdmrep at https://origin.test: the purposes block ai-training under /members/, but the origin's tdmrep.json does not reserve it; its file is the one served",
      "tdmrep at https://origin.test: the origin's tdmrep.json reserves /blog/*, where the purposes do not block ai-training",
    ]);
  });

  it("no purposes reserving anything: the request goes on to the origin as any other", async () => {
    stub({ body: { active: true } });
    const policy = JSON.stringify({ licence: { url: "https://origin.test/license.xml" } });
    const response = await call("/.well-known/tdmrep.json", { ua: CHROME, env: { POLICY: policy } as Partial<Env> });
    expect([response.status, await response.text()]).toEqual([404, "not found"]);
  });

  it("robots.txt carries License: only when asked, as generated line 1; origin lines keep their numbers", async () => {
    stub({ body: { active: true } });
    expect(await (await call("/robots.txt", { ua: GPTBOT, env: withPolicy })).text()).not.toContain("License:");
    const optIn = JSON.stringify({ licence: { url: "https://origin.test/license.xml", robotsTxt: true } });
    const optedIn = { POLICY: optIn } as Partial<Env>;
    expect(await (await call("/robots.txt", { ua: GPTBOT, env: optedIn })).text()).toBe(
      "License: https://origin.test/license.xml\nUser-agent: *\nDisallow: /private/\n",
    );
    const refused = await call("/private/x", { ua: GPTBOT, headers: fromCrawler("gptbot"), env: optedIn });
    expect([refused.status, refused.headers.get("x-robots-edge")]).toEqual([
      403,
      'blocked; rule="disallow: /private/"; line=2',
    ]);
  });
});
