// Issue 30, "our failure is never the visitor's", for stored state and the request handler: the
// fault matrix as data. Every record the edge keeps in KV × {not JSON, wrong shape, truncated,
// empty, older schema, newer schema} × {a person, a crawler on an allowed path, a crawler on a
// disallowed path, /robots.txt, GET status, the admin repair}, each expected answer written
// down. A bad value is planted with env.ROBOTS.put before the first request, as a hand edit,
// a cut-short write or another release's record would leave it. Then KV reads and writes that
// throw, and exceptions on the request path itself.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/worker/index.ts";
import { isCrawler } from "../../src/worker/edge/own-fault.ts";
import { newSigner, signRequest, type TestSigner } from "../agents/web-bot-auth/signer.ts";
import { admin, call, CHROME, freshState, GOOGLEBOT, ORIGIN, runCron, SITE } from "./helpers.ts";

const ROBOTS = "User-agent: ExampleAgent\nDisallow: /agent-private/\n\nUser-agent: *\nDisallow: /private/\n";
const AGENT = "https://agent.test";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const SIGNATURE_AGENTS = JSON.stringify({ [AGENT]: { token: "ExampleAgent", category: "ai-assistant" } });
const GOOGLEBOT_ADDRESS = { "cf-connecting-ip": "66.249.64.7" };
/** A policy that blocks Googlebot on /open: in force only while the stored policy is read. */
const BLOCK_OPEN = '{"routes":[{"pattern":"/open","rules":[{"crawlers":["Googlebot"],"action":"block"}]}]}';

let signer: TestSigner;

beforeEach(async () => {
  await freshState();
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
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
    return new Response(`origin page ${url.pathname}`, { headers: { "x-origin": "yes" } });
  });
});
afterEach(freshState);

type Audience = "person" | "crawler, allowed path" | "crawler, disallowed path" | "/robots.txt";
type Fault = "not JSON" | "wrong shape" | "truncated" | "empty" | "older schema" | "newer schema";

/** One stored record: its key, the bad values to plant, and what each asker gets. */
interface StoredRecord {
  readonly key: string;
  /** A value this release writes (truncated: its JSON cut in half). */
  readonly valid: () => unknown;
  readonly notJson: string;
  readonly wrongShape: unknown;
  /** What an older release wrote (or would have). */
  readonly older: () => unknown;
  /** What a newer release writes (a schema this one does not know). */
  readonly newer: () => unknown;
  /** The crawler of the allowed and disallowed rows: its User-Agent, headers and paths. */
  readonly crawler: {
    readonly ua: string;
    readonly signed: boolean;
    readonly allowed: string;
    readonly disallowed: string;
  };
  readonly env?: Partial<Env>;
  /** What GET status says of it: the repair named, and more it must show. */
  readonly status: { readonly repair: string; readonly shows?: (body: Status) => void };
  /** The admin repair (or the cron, for what repairs itself), and what must then be stored. */
  readonly repair: () => Promise<void>;
}

interface Status {
  edge: { problems: string[]; pause: unknown };
  ownFaults: { key: string; cause: string; repair: string }[];
  policy: { version: number; source: string; stale: boolean; fallback: string | null };
  identity: { lists: { name: string; fetchedAt: string | null }[] };
  origins: { authority: string; state: string }[];
}

const now = () => Date.now();
const signerUrl = `${AGENT}${DIRECTORY}`;

const RECORDS: readonly StoredRecord[] = [
  {
    key: `robots:${ORIGIN}`,
    valid: () => ({
      version: 1,
      authority: ORIGIN,
      state: "ok",
      copy: { bodyBase64: btoa(ROBOTS), model: "{}", fetchedAt: now(), status: 200 },
      lastFetchAt: now(),
      lastStatus: 200,
      expiresAt: now() + 3_600_000,
    }),
    notJson: ROBOTS, // the robots.txt itself, stored where its JSON entry belongs
    wrongShape: { version: 1, authority: ORIGIN, state: "fine", lastFetchAt: "yesterday" },
    older: () => ({ version: 0, authority: ORIGIN, state: "ok", body: ROBOTS }),
    newer: () => ({ version: 2, authority: ORIGIN, state: "ok", copies: [] }),
    crawler: { ua: GOOGLEBOT, signed: false, allowed: "/open", disallowed: "/private/x" },
    status: { repair: `POST refresh?origin=${ORIGIN}` },
    async repair() {
      const refreshed = await admin("refresh", { method: "POST" });
      expect(refreshed.status).toBe(200);
      expect(await refreshed.json()).toMatchObject({ authority: ORIGIN, state: "ok", lastStatus: 200 });
      expect(await env.ROBOTS.get(`robots:${ORIGIN}`, "json")).toMatchObject({ version: 1, state: "ok" });
    },
  },
  {
    key: "pause",
    valid: () => ({ until: now() + 3_600_000, retryAfter: 600, reason: "maintenance", startedAt: now() }),
    notJson: "paused until Monday",
    wrongShape: { until: now() + 3_600_000, retryAfter: "ten minutes" },
    older: () => ({ until: "2026-12-01T06:00:00Z", reason: "maintenance" }),
    newer: () => ({ schema: 2, until: now() + 3_600_000, retryAfter: 600, startedAt: now(), windows: [] }),
    crawler: { ua: GOOGLEBOT, signed: false, allowed: "/open", disallowed: "/private/x" },
    status: { repair: "DELETE pause", shows: (body) => expect(body.edge.pause).toBeNull() },
    async repair() {
      const ended = await admin("pause", { method: "DELETE" });
      expect(ended.status).toBe(200);
      expect(await ended.json()).toEqual({ ended: true, deletedStoredPause: true, pause: null });
      expect(await env.ROBOTS.get("pause")).toBeNull();
      expect((await admin("pause", { method: "POST", body: { minutes: 5 } })).status).toBe(200);
      expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(503);
    },
  },
  {
    key: "policy",
    valid: () => ({
      versions: [{ version: 1, savedAt: now(), text: BLOCK_OPEN, via: "put", saveId: "a" }],
    }),
    notJson: BLOCK_OPEN.replace("}]}]}", "},]}]}"), // a trailing comma: a hand edit
    wrongShape: { versions: "1" },
    older: () => ({ version: 1, text: BLOCK_OPEN }), // one policy, before versions were kept
    newer: () => ({ schema: 2, versions: [], drafts: [] }),
    crawler: { ua: GOOGLEBOT, signed: false, allowed: "/open", disallowed: "/private/x" },
    status: {
      repair: "PUT policy",
      shows: (body) =>
        expect(body.policy).toMatchObject({
          version: 0,
          source: "var",
          stale: true,
          fallback: expect.stringContaining("the stored record cannot be used") as unknown,
        }),
    },
    async repair() {
      const listed = await admin("policy");
      expect(listed.status).toBe(200);
      expect(await listed.json()).toMatchObject({ version: 0, source: "var" });
      const saved = await call("/__robots/policy", {
        method: "PUT",
        headers: { authorization: "Bearer test-admin-token" },
        body: BLOCK_OPEN,
      });
      expect(saved.status).toBe(200);
      expect(await saved.json()).toMatchObject({ version: 1 });
      expect(await (await admin("policy")).json()).toMatchObject({ version: 1, source: "kv", fallback: null });
      expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(403);
    },
  },
  {
    key: "crawler-ranges",
    valid: () => ({ sources: { googlebot: { fetchedAt: now(), cidrs: ["66.249.64.0/24"] } } }),
    notJson: "66.249.64.0/24\n66.249.65.0/24\n",
    wrongShape: { sources: { googlebot: { fetchedAt: now(), cidrs: ["66.249.64.0/99"] } } },
    older: () => ({ googlebot: ["66.249.64.0/24"] }), // the lists at the top, before sources/attempts
    newer: () => ({ schema: 2, sources: {}, lists: [] }),
    crawler: { ua: GOOGLEBOT, signed: false, allowed: "/open", disallowed: "/private/x" },
    status: {
      repair: "POST refresh?sources=ranges",
      shows: (body) =>
        expect(body.identity.lists.find((list) => list.name === "googlebot")).toMatchObject({ fetchedAt: null }),
    },
    async repair() {
      // The bad value is not read first: the lists are fetched (here each answer is not JSON) and stored.
      const refreshed = await admin("refresh?sources=ranges", { method: "POST" });
      expect(refreshed.status).toBe(200);
      expect(await env.ROBOTS.get("crawler-ranges", "json")).toMatchObject({
        schema: 1,
        sources: {},
        attempts: { googlebot: { error: "the answer is not JSON" } },
      });
    },
  },
  {
    key: `signature-directory:${signerUrl}`,
    valid: () => ({
      url: signerUrl,
      json: { keys: [] },
      fetchedAt: now(),
      nextFetchAt: now() + 3_600_000,
    }),
    notJson: "-----BEGIN PUBLIC KEY-----",
    wrongShape: { url: signerUrl, nextFetchAt: "soon" },
    older: () => ({ keys: [] }), // the JWKS stored bare
    newer: () => ({ schema: 2, url: signerUrl, nextFetchAt: now() + 3_600_000, sets: [] }),
    crawler: { ua: CHROME, signed: true, allowed: "/private/x", disallowed: "/agent-private/x" },
    env: { SIGNATURE_AGENTS },
    status: { repair: "fetched and stored anew by the next cron run" },
    async repair() {
      await runCron({ SIGNATURE_AGENTS });
      expect(await env.ROBOTS.get(`signature-directory:${signerUrl}`, "json")).toMatchObject({
        schema: 1,
        url: signerUrl,
        json: { keys: [{ kty: "OKP" }] },
      });
    },
  },
];

const FAULTS: readonly {
  readonly fault: Fault;
  readonly value: (record: StoredRecord) => string;
  readonly cause: (record: StoredRecord) => string;
}[] = [
  { fault: "not JSON", value: (record) => record.notJson, cause: () => "the stored value is not JSON" },
  {
    fault: "wrong shape",
    value: (record) => JSON.stringify(record.wrongShape),
    cause: () => "not the shape this release writes",
  },
  {
    fault: "truncated",
    value: (record) => {
      const text = JSON.stringify(record.valid());
      return text.slice(0, Math.floor(text.length / 2));
    },
    cause: () => "the stored value is not JSON",
  },
  { fault: "empty", value: () => "", cause: () => "the stored value is empty" },
  {
    fault: "older schema",
    value: (record) => JSON.stringify(record.older()),
    cause: (record) =>
      record.key.startsWith("robots:")
        ? "written by an older release (entry version 0"
        : "not the shape this release writes",
  },
  {
    fault: "newer schema",
    value: (record) => JSON.stringify(record.newer()),
    cause: (record) =>
      record.key.startsWith("robots:")
        ? "written by a newer release (entry version 2"
        : "written by a newer release (schema 2",
  },
];

/** What each asker gets, whatever the record and the fault: the answer without the record. */
const ANSWERS: readonly { readonly audience: Audience; readonly status: number; readonly body?: string }[] = [
  { audience: "person", status: 200, body: "origin page /private/x" },
  { audience: "crawler, allowed path", status: 200 },
  { audience: "crawler, disallowed path", status: 403 },
  { audience: "/robots.txt", status: 200, body: ROBOTS },
];

async function ask(record: StoredRecord, audience: Audience): Promise<Response> {
  const options = { ...(record.env && { env: record.env }) };
  switch (audience) {
    case "person":
      return call("/private/x", { ua: CHROME, headers: GOOGLEBOT_ADDRESS, ...options });
    case "/robots.txt":
      return call("/robots.txt", { ua: GOOGLEBOT, ...options });
    default: {
      const path = audience === "crawler, allowed path" ? record.crawler.allowed : record.crawler.disallowed;
      const headers = record.crawler.signed ? await signed(path) : GOOGLEBOT_ADDRESS;
      return call(path, { ua: record.crawler.ua, headers, ...options });
    }
  }
}

async function signed(path: string): Promise<Record<string, string>> {
  const seconds = Math.floor(Date.now() / 1000);
  return signRequest(signer, {
    url: `${SITE}${path}`,
    agent: { form: "dictionary", key: "sig1", origin: AGENT },
    created: seconds - 5,
    expires: seconds + 60,
  });
}

const CELLS = RECORDS.flatMap((record) =>
  FAULTS.flatMap((fault) => ANSWERS.map((answer) => ({ key: record.key, record, ...fault, ...answer }))),
);

describe("the fault matrix: every stored record × every fault × every asker", () => {
  it.each(CELLS)("$key, $fault: $audience -> $status", async ({ record, value, audience, status, body }) => {
    await env.ROBOTS.put(record.key, value(record));
    const response = await ask(record, audience);
    expect(response.status).toBe(status);
    if (body !== undefined) expect(await response.text()).toBe(body);
  });

  it.each(RECORDS.flatMap((record) => FAULTS.map((fault) => ({ key: record.key, record, ...fault }))))(
    "$key, $fault: GET status names the key, the cause and the repair",
    async ({ record, value, cause }) => {
      await env.ROBOTS.put(record.key, value(record));
      const response = await admin("status", { ...(record.env && { env: record.env }) });
      expect(response.status).toBe(200);
      const status = (await response.json()) as Status;
      expect(status.ownFaults).toEqual([
        expect.objectContaining({
          key: record.key,
          cause: expect.stringContaining(cause(record)) as unknown,
          repair: expect.stringContaining(record.status.repair) as unknown,
        }),
      ]);
      expect(status.edge.problems).toEqual([expect.stringMatching(new RegExp(`^${escaped(record.key)}: `))]);
      record.status.shows?.(status);
    },
  );

  it.each(RECORDS.flatMap((record) => FAULTS.map((fault) => ({ key: record.key, record, ...fault }))))(
    "$key, $fault: the admin repair works over it, and status is clear after",
    async ({ record, value }) => {
      await env.ROBOTS.put(record.key, value(record));
      await record.repair();
      const status = (await (await admin("status", { ...(record.env && { env: record.env }) })).json()) as Status;
      expect(status.ownFaults).toEqual([]);
    },
  );
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The test KV with planted faults: reads of some keys, writes, deletes or listing with a cursor throw. */
function faultyKv(faults: {
  readonly get?: (key: string) => boolean;
  readonly put?: boolean;
  readonly delete?: boolean;
  readonly listWithCursor?: boolean;
}): KVNamespace {
  const kv = env.ROBOTS;
  return {
    get: ((key: string, options?: unknown) =>
      faults.get?.(key)
        ? Promise.reject(new Error("planted: KV GET failed"))
        : kv.get(key, options as "text")) as KVNamespace["get"],
    getWithMetadata: kv.getWithMetadata.bind(kv),
    put: ((...args: Parameters<KVNamespace["put"]>) =>
      faults.put
        ? Promise.reject(new Error("planted: KV PUT failed: 429 Too Many Requests"))
        : kv.put(...args)) as KVNamespace["put"],
    delete: ((key: string) =>
      faults.delete ? Promise.reject(new Error("planted: KV DELETE failed")) : kv.delete(key)) as KVNamespace["delete"],
    list: ((options?: KVNamespaceListOptions) =>
      faults.listWithCursor && options?.cursor
        ? Promise.reject(new Error("planted: KV LIST refused the cursor"))
        : kv.list(options)) as KVNamespace["list"],
  } as KVNamespace;
}

const refused = (key: string) =>
  `the store refused to write ${key} (planted: KV PUT failed: 429 Too Many Requests): nothing was saved, what was in force stays in force; try again shortly`;

/** The test env with one var whose read throws: the config itself cannot be read. */
function brokenConfigEnv(): Env {
  return new Proxy(env as Env, {
    get(target, name, receiver) {
      if (name === "MODE") throw new Error("planted: MODE cannot be read");
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}
async function fetchWith(environment: Env, path: string, init: RequestInit & { ua: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("user-agent", init.ua);
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${SITE}${path}`, { ...init, headers }), environment, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
const storedVersion = (n: number, text: string | null) => ({
  version: n,
  savedAt: 1_795_000_000_000 + n,
  text,
  via: "put",
  saveId: `s${n}`,
});

const ALLOW_ALL = '{"routes":[]}';

describe("KV reads that throw: read as absent, named in status", () => {
  it.each(RECORDS.map((record) => ({ key: record.key, record })))("$key", async ({ key, record }) => {
    // A good value is stored; every read of it fails.
    await env.ROBOTS.put(key, JSON.stringify(record.valid()));
    const failing = { ...record.env, ROBOTS: faultyKv({ get: (read) => read === key }) };
    const status = (await (await admin("status", { env: failing })).json()) as Status;
    expect(status.ownFaults).toEqual([
      expect.objectContaining({
        key,
        cause: "the read failed (planted: KV GET failed); read as absent",
        repair: expect.stringContaining(record.status.repair) as unknown,
      }),
    ]);
    const person = await call("/private/x", { ua: CHROME, headers: GOOGLEBOT_ADDRESS, env: failing });
    expect([person.status, await person.text()]).toEqual([200, "origin page /private/x"]);
    expect((await call("/open", { ua: GOOGLEBOT, headers: GOOGLEBOT_ADDRESS, env: failing })).status).toBe(200);
    expect((await call("/private/x", { ua: GOOGLEBOT, headers: GOOGLEBOT_ADDRESS, env: failing })).status).toBe(403);
    const robots = await call("/robots.txt", { ua: GOOGLEBOT, env: failing });
    expect([robots.status, await robots.text()]).toEqual([200, ROBOTS]);
  });
});

describe("admin writes the store refuses: a JSON 503 saying so; nothing else changes", () => {
  const refusing = { ROBOTS: faultyKv({ put: true, delete: true }) };

  it.each([
    { route: "POST pause", path: "pause", method: "POST", body: { minutes: 5 }, error: refused("pause") },
    {
      route: "POST policy/rollback",
      path: "policy/rollback",
      method: "POST",
      body: { version: 0 },
      error: refused("policy"),
    },
    {
      route: "POST refresh?sources=ranges",
      path: "refresh?sources=ranges",
      method: "POST",
      body: undefined,
      error: refused("crawler-ranges"),
    },
  ])("$route -> 503", async ({ path, method, body, error }) => {
    const response = await admin(path, { method, env: refusing, ...(body !== undefined && { body }) });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error });
    // Nothing changed in force: no pause, no policy version.
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
    expect(await (await admin("policy")).json()).toMatchObject({ version: 0 });
  });

  it("PUT policy -> 503, and version 0 stays in force", async () => {
    const response = await call("/__robots/policy", {
      method: "PUT",
      headers: { authorization: "Bearer test-admin-token" },
      body: BLOCK_OPEN,
      env: refusing,
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: refused("policy") });
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
  });

  it.each([
    { route: "DELETE pause", path: "pause", key: "pause" },
    { route: "DELETE origin", path: `origin?origin=${ORIGIN}`, key: `robots:${ORIGIN}` },
  ])("$route -> 503 when the delete is refused", async ({ path, key }) => {
    await env.ROBOTS.put(key, "{}");
    const response = await admin(path, { method: "DELETE", env: { ROBOTS: faultyKv({ delete: true }) } });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: `the store refused to write ${key} (planted: KV DELETE failed): nothing was saved, what was in force stays in force; try again shortly`,
    });
  });

  it("POST refresh -> 503; the fetched copy is in force unsaved, and status shows it (not the stored one)", async () => {
    const response = await admin("refresh", { method: "POST", env: refusing });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: `the store refused to write robots:${ORIGIN}: the fetched robots.txt is in force on this isolate only, until it expires; try again shortly`,
      origin: { authority: ORIGIN, state: "ok", unsaved: true },
    });
    expect(await env.ROBOTS.get(`robots:${ORIGIN}`)).toBeNull();
    expect((await call("/private/x", { ua: GOOGLEBOT, env: refusing })).status).toBe(403);
    // Status lists the stored keys: store an older entry, then ask.
    await env.ROBOTS.put(
      `robots:${ORIGIN}`,
      JSON.stringify({
        version: 1,
        authority: ORIGIN,
        state: "none",
        lastFetchAt: Date.now() - 60_000,
        lastStatus: 404,
        expiresAt: Date.now() + 3_600_000,
      }),
    );
    const status = (await (await admin("status")).json()) as Status;
    expect(status.origins).toEqual([expect.objectContaining({ authority: ORIGIN, state: "ok", unsaved: true })]);
  });
});

describe("an exception on the request path (index.ts's one catch, edge/own-fault.ts)", () => {
  it.each([
    { who: "a person", path: "/private/x", ua: CHROME, status: 200, body: "origin page /private/x", retryAfter: null },
    {
      who: "a person's POST",
      path: "/form",
      ua: CHROME,
      method: "POST",
      status: 200,
      body: "origin page /form",
      retryAfter: null,
    },
    {
      who: "a crawler",
      path: "/open",
      ua: GOOGLEBOT,
      status: 503,
      body: "This site's edge had a fault of its own; please retry later.\n",
      retryAfter: "120",
    },
    {
      who: "/robots.txt with no copy loaded",
      path: "/robots.txt",
      ua: GOOGLEBOT,
      status: 503,
      body: "robots.txt is temporarily unavailable: this site's edge had a fault of its own.\n",
      retryAfter: "120",
    },
  ])("$who -> $status", async ({ path, ua, method, status, body, retryAfter }) => {
    const response = await fetchWith(brokenConfigEnv(), path, {
      ua,
      method: method ?? "GET",
      ...(method && { body: "a=1" }),
    });
    expect(response.status).toBe(status);
    expect(response.headers.get("retry-after")).toBe(retryAfter);
    expect(await response.text()).toBe(body);
  });

  it("a person's request that carries the admin token is kept from the origin on the fallback too", async () => {
    const response = await fetchWith(brokenConfigEnv(), "/__ROBOTS/status", {
      ua: CHROME,
      headers: { authorization: "Bearer test-admin-token" },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("test-admin-token");
    expect(vi.mocked(globalThis.fetch)).not.toHaveBeenCalled();
  });

  it("/robots.txt: the last copy this isolate loaded is served", async () => {
    expect((await call("/robots.txt", { ua: GOOGLEBOT })).status).toBe(200);
    const response = await fetchWith(brokenConfigEnv(), "/robots.txt", { ua: GOOGLEBOT });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(ROBOTS);
  });

  // The limiter is the one dependency whose failure is not answered 503: a pace is the site's
  // request for a slower crawl, and a limiter that cannot answer must not turn it into refusals
  // (src/worker/edge/pacing.ts says why). The crawler passes unpaced; the problem is named.
  it("a rate limiter that throws on a crawler's path -> the crawler passes unpaced, never 500, the problem named", async () => {
    const crawlRate = {
      idFromName() {
        throw new Error("planted: CRAWL_RATE unavailable");
      },
    } as unknown as Env["CRAWL_RATE"];
    const vars = { CRAWL_RATE: crawlRate, ENFORCE_RATES: "all" };
    vi.mocked(globalThis.fetch).mockImplementation(async (input) => {
      const url = new URL(new Request(input).url);
      if (url.pathname === "/robots.txt") return new Response("User-agent: *\nCrawl-delay: 5\nDisallow: /private/\n");
      return new Response(`origin page ${url.pathname}`);
    });
    const crawler = await call("/open", { ua: GOOGLEBOT, env: vars });
    expect([crawler.status, await crawler.text()]).toEqual([200, "origin page /open"]);
    const person = await call("/open", { ua: CHROME, env: vars });
    expect([person.status, await person.text()]).toEqual([200, "origin page /open"]);
    const status = (await (await admin("status")).json()) as Status & { objects: { problems: string[] } };
    expect(status.objects.problems).toEqual([
      expect.stringContaining("planted: CRAWL_RATE unavailable): requests pass unpaced until it does"),
    ]);
  });

  it("who is a person is asked of the classifier alone; if even that fails, a person (forwarded)", () => {
    const unreadable = {
      headers: {
        get() {
          throw new Error("planted: headers unreadable");
        },
      },
    } as unknown as Request;
    expect(isCrawler(unreadable)).toBe(false);
    expect(isCrawler(new Request(SITE, { headers: { "user-agent": GOOGLEBOT } }))).toBe(true);
    expect(isCrawler(new Request(SITE, { headers: { "user-agent": CHROME } }))).toBe(false);
  });
});

describe("policy versions: the newest that validates is in force", () => {
  it("a version that no longer validates is passed over; GET policy and status say which and why", async () => {
    await env.ROBOTS.put(
      "policy",
      JSON.stringify({
        versions: [
          storedVersion(3, '{"routes": 1}'),
          "junk",
          storedVersion(2, BLOCK_OPEN),
          storedVersion(1, ALLOW_ALL),
        ],
      }),
    );
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(403);
    const listed = await admin("policy");
    expect(listed.headers.get("etag")).toBe('"2"');
    const body = (await listed.json()) as { version: number; fallback: string; history: unknown[] };
    expect(body.version).toBe(2);
    expect(body.fallback).toBe(
      'version 3 no longer validates: must be an object with a "routes" list; version ? cannot be read by this release: not an object; version 2 is in force',
    );
    expect(body.history).toEqual([
      expect.objectContaining({
        version: 3,
        inForce: false,
        problem: 'no longer validates: must be an object with a "routes" list',
      }),
      { version: null, inForce: false, problem: "cannot be read by this release: not an object" },
      expect.objectContaining({ version: 2, inForce: true, problem: null }),
      expect.objectContaining({ version: 1, inForce: false, problem: null }),
      expect.objectContaining({ version: 0, inForce: false, problem: null }),
    ]);
    const status = (await (await admin("status")).json()) as Status;
    expect(status.policy).toEqual({ version: 2, source: "kv", stale: false, fallback: body.fallback });
    expect(status.ownFaults).toEqual([expect.objectContaining({ key: "policy", cause: body.fallback })]);
  });

  it("a save over such a record takes the next number (numbers only grow) and keeps the readable versions", async () => {
    await env.ROBOTS.put(
      "policy",
      JSON.stringify({ versions: [storedVersion(3, '{"routes": 1}'), storedVersion(2, BLOCK_OPEN)] }),
    );
    const saved = await call("/__robots/policy", {
      method: "PUT",
      headers: { authorization: "Bearer test-admin-token", "if-match": '"2"' },
      body: ALLOW_ALL,
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ version: 4 });
    const stored = (await env.ROBOTS.get("policy", "json")) as { versions: { version: number }[] };
    expect(stored.versions.map((entry) => entry.version)).toEqual([4, 3, 2]);
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(200);
  });
});

describe("the isolate's last good value stands in for a record that turns bad", () => {
  it("a pause read well stays in force here when its record is overwritten with junk", async () => {
    expect((await admin("pause", { method: "POST", body: { minutes: 30 } })).status).toBe(200);
    await env.ROBOTS.put("pause", "{not json");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31_000); // past the pause memory's 30 s: KV is read again
    expect((await call("/open", { ua: GOOGLEBOT })).status).toBe(503);
    const status = (await (await admin("status")).json()) as Status;
    expect(status.ownFaults).toEqual([
      expect.objectContaining({
        key: "pause",
        cause: expect.stringContaining("this isolate keeps its last good value") as unknown,
      }),
    ]);
  });
});

describe("the cron's stored cursor", () => {
  it("a cursor KV refuses is dropped and the run starts from the top, instead of failing every run", async () => {
    const site = "https://www.example.com";
    await env.ROBOTS.put("cron-cursor", "not-a-cursor");
    await env.ROBOTS.put(`robots:${site}`, "{}", { metadata: { state: "ok", expiresAt: 0 } });
    await runCron({ ORIGIN_URL: "", ROBOTS: faultyKv({ listWithCursor: true }) });
    expect(await env.ROBOTS.get("cron-cursor")).toBeNull();
    expect(await env.ROBOTS.get(`robots:${site}`, "json")).toMatchObject({ version: 1, authority: site, state: "ok" });
  });
});
