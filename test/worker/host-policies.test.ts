// Policies per host (docs/operating.md "Policies per host"; src/worker/live-policy.ts,
// admin/policy.ts, admin/policies.ts, policy/host-names.ts): in route mode each request is judged
// by its own host's policy (exact name, else the nearest *. pattern, else the default), each host
// has its own versions and If-Match, and a host spelled otherwise is the same host.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config/read-config.ts";
import {
  clearPolicyMemory,
  MAX_ANSWERED,
  MAX_POLICY_HOSTS,
  MAX_REMEMBERED_TEXT_BYTES,
  policyInForce,
  RECHECK_MS,
  rememberedPolicies,
  type PolicySlot,
} from "../../src/worker/live-policy.ts";
import { clearStoreMemory } from "../../src/worker/store.ts";
import {
  call,
  CHROME,
  fakeOrigin,
  freshState,
  GOOGLEBOT,
  GPTBOT,
  TOKEN,
  countingKv,
  runCron,
  storeHostPolicies,
} from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const ROUTE_MODE = {
  ORIGIN_URL: "",
  AUTHORITIES: "shop.example, blog.example, docs.example, xn--bcher-kva.example, *.tenants.example",
  VERIFY_CRAWLERS: "off",
} as const;

/** A policy blocking GPTBot under `path` with `status`, so each answer says whose policy spoke. */
const blockGpt = (path: string, status: number) =>
  JSON.stringify({
    routes: [{ pattern: path, blockStatus: status, rules: [{ crawlers: ["GPTBot"], action: "block" }] }],
  });

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
});
afterEach(freshState);

/** An admin call in route mode with a raw body and headers (If-Match, X-Saved-By). */
async function send(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; env?: Partial<Env> } = {},
): Promise<Response> {
  return call(`/__robots/${path}`, {
    method,
    ua: CHROME,
    headers: { authorization: `Bearer ${TOKEN}`, ...options.headers },
    ...(options.body !== undefined && { body: options.body }),
    env: { ...ROUTE_MODE, ...options.env },
    site: "https://shop.example",
  });
}

const putPolicy = (query: string, text: string, headers: Record<string, string> = {}) =>
  send("PUT", `policy${query}`, { body: text, headers });

async function json<T = Record<string, unknown>>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

const statusOf = async (site: string, path: string, ua = GPTBOT) =>
  (await call(path, { ua, env: ROUTE_MODE, site })).status;

async function saveThree(): Promise<void> {
  expect((await putPolicy("?host=shop.example", blockGpt("/x/", 451), { "if-match": '"0"' })).status).toBe(200);
  expect((await putPolicy("?host=blog.example", blockGpt("/blog/", 452), { "if-match": '"0"' })).status).toBe(200);
  expect((await putPolicy("", blockGpt("/d/", 453), { "if-match": '"0"' })).status).toBe(200);
  expect((await putPolicy("?host=*.tenants.example", blockGpt("/t/", 454))).status).toBe(200);
  expect((await putPolicy("?host=vip.tenants.example", JSON.stringify({ routes: [] }))).status).toBe(200);
}

describe("each request is judged by its own host's policy", () => {
  const rows: { site: string; path: string; ua?: string; status: number; why: string }[] = [
    { site: "https://shop.example", path: "/x/a", status: 451, why: "shop's own policy" },
    { site: "https://shop.example", path: "/d/a", status: 200, why: "shop's own policy replaces the default" },
    { site: "https://blog.example", path: "/x/a", status: 200, why: "shop's rule is not blog's" },
    { site: "https://blog.example", path: "/blog/a", status: 452, why: "blog's own policy" },
    { site: "https://docs.example", path: "/d/a", status: 453, why: "no policy of its own: the default" },
    { site: "https://docs.example", path: "/x/a", status: 200, why: "the default has no /x/ rule" },
    { site: "https://a.tenants.example", path: "/t/a", status: 454, why: "the *.tenants.example pattern" },
    { site: "https://a.b.tenants.example", path: "/t/a", status: 454, why: "the pattern, a level deeper" },
    { site: "https://vip.tenants.example", path: "/t/a", status: 200, why: "an exact name beats the pattern" },
    { site: "https://SHOP.Example.", path: "/x/a", status: 451, why: "shop spelt in capitals with a dot" },
    { site: "https://shop.example:443", path: "/x/a", status: 451, why: "shop with its web port" },
    { site: "https://shop.example", path: "/x/a", ua: CHROME, status: 200, why: "a person is never blocked" },
    { site: "https://shop.example", path: "/private/a", ua: GOOGLEBOT, status: 403, why: "robots.txt still holds" },
  ];
  it.each(rows)("$site $path -> $status ($why)", async ({ site, path, ua, status }) => {
    await saveThree();
    expect(await statusOf(site, path, ua)).toBe(status);
  });

  it("on another isolate too: the index and each host's record, read from KV", async () => {
    await saveThree();
    clearPolicyMemory();
    expect(await statusOf("https://shop.example", "/x/a")).toBe(451);
    expect(await statusOf("https://blog.example", "/blog/a")).toBe(452);
    expect(await statusOf("https://docs.example", "/d/a")).toBe(453);
  });

  it("the POLICY var's per-host shape is each host's version 0; a plain document stays the default", async () => {
    const policy = JSON.stringify({
      default: JSON.parse(blockGpt("/d/", 453)),
      hosts: { "Shop.Example.": JSON.parse(blockGpt("/x/", 451)) },
    });
    const withVar = { ...ROUTE_MODE, POLICY: policy };
    expect((await call("/x/a", { ua: GPTBOT, env: withVar, site: "https://shop.example" })).status).toBe(451);
    expect((await call("/d/a", { ua: GPTBOT, env: withVar, site: "https://docs.example" })).status).toBe(453);
    const plain = { ...ROUTE_MODE, POLICY: blockGpt("/d/", 453) };
    expect((await call("/d/a", { ua: GPTBOT, env: plain, site: "https://shop.example" })).status).toBe(453);
  });
});

describe("versions and If-Match are each host's own", () => {
  it("a save to one host leaves another host's and the default's versions alone", async () => {
    expect(await json(putPolicy("?host=shop.example", blockGpt("/x/", 451), { "if-match": '"0"' }))).toMatchObject({
      host: "shop.example",
      version: 1,
    });
    // shop is at 1 now, blog and the default still at 0.
    expect((await putPolicy("?host=shop.example", blockGpt("/y/", 451), { "if-match": '"0"' })).status).toBe(412);
    expect((await putPolicy("?host=blog.example", blockGpt("/y/", 452), { "if-match": '"0"' })).status).toBe(200);
    expect((await putPolicy("", blockGpt("/y/", 453), { "if-match": '"0"' })).status).toBe(200);
    expect((await putPolicy("?host=shop.example", blockGpt("/y/", 451), { "if-match": '"1"' })).status).toBe(200);
    const shop = await send("GET", "policy?host=shop.example");
    expect(shop.headers.get("etag")).toBe('"2"');
    expect(await shop.json()).toMatchObject({
      host: "shop.example",
      version: 2,
      judgedBy: { host: "shop.example", version: 2 },
      history: [{ version: 2 }, { version: 1 }, { version: 0, via: "POLICY var" }],
    });
    expect((await send("GET", "policy")).headers.get("etag")).toBe('"1"');
  });

  const spellings = ["SHOP.EXAMPLE", "shop.example.", "shop.example:443", "Shop.Example.:80", " shop.example "];
  it.each(spellings)("%j is shop.example: the same versions, the same If-Match", async (spelling) => {
    await putPolicy("?host=shop.example", blockGpt("/x/", 451));
    const query = `?host=${encodeURIComponent(spelling)}`;
    expect((await putPolicy(query, blockGpt("/y/", 451), { "if-match": '"0"' })).status).toBe(412);
    expect(await json(putPolicy(query, blockGpt("/y/", 451), { "if-match": '"1"' }))).toEqual({
      host: "shop.example",
      version: 2,
      savedAt: expect.any(String),
    });
    expect(await statusOf("https://shop.example", "/y/a")).toBe(451);
  });

  it("an internationalised name is its ASCII form", async () => {
    await putPolicy(`?host=${encodeURIComponent("BÜCHER.example")}`, blockGpt("/x/", 455));
    expect(await json(send("GET", "policy?host=xn--bcher-kva.example"))).toMatchObject({
      host: "xn--bcher-kva.example",
      version: 1,
    });
    expect(await statusOf("https://bücher.example", "/x/a")).toBe(455);
  });

  it("DELETE removes a host's own policy as a new version; rollback brings it back", async () => {
    await saveThree();
    expect(
      await json(send("DELETE", "policy?host=shop.example", { headers: { "if-match": '"1"', "x-saved-by": "ci" } })),
    ).toMatchObject({ host: "shop.example", version: 2 });
    expect(await statusOf("https://shop.example", "/x/a")).toBe(200);
    expect(await statusOf("https://shop.example", "/d/a")).toBe(453); // the default judges it now
    expect(await json(send("GET", "policy?host=shop.example"))).toMatchObject({
      version: 2,
      text: null,
      judgedBy: { host: null, version: 1 },
      history: [{ version: 2, via: "delete", by: "ci" }, { version: 1 }, { version: 0 }],
    });
    await send("POST", "policy/rollback?host=shop.example", { body: '{"version": 1}' });
    expect(await statusOf("https://shop.example", "/x/a")).toBe(451);
  });
});

describe("host= is refused for a host the edge does not serve", () => {
  const rows: { host: string; env?: Partial<Env>; status: number; error: string }[] = [
    { host: "evil.example", status: 404, error: "evil.example is not a host this edge serves" },
    { host: "shop.example.evil.test", status: 404, error: "is not a host this edge serves" },
    { host: "*.example", status: 404, error: "*.example is not a host this edge serves" },
    { host: "*.a.shop.example", status: 404, error: "a pattern must be listed, or lie under a listed pattern" },
    { host: "tenants.example", status: 404, error: "is not a host this edge serves" }, // the pattern's apex
    { host: "shop.example:8443", status: 404, error: "is not a host this edge serves" },
    { host: "https://shop.example/", status: 400, error: "host must be a host name" },
    { host: "shop.example/x", status: 400, error: "host must be a host name" },
    { host: "a*.tenants.example", status: 400, error: "host must be a host name" },
    { host: "user@shop.example", status: 400, error: "host must be a host name" },
    { host: "", status: 400, error: "host must be a host name" },
    { host: "shop.example", env: { ORIGIN_URL: "https://origin.test" }, status: 400, error: "proxy mode" },
    { host: "shop.example", env: { AUTHORITIES: "" }, status: 400, error: "need AUTHORITIES" },
  ];
  it.each(rows)("host=$host -> $status", async ({ host, env: vars, status, error }) => {
    const query = `?host=${encodeURIComponent(host)}`;
    const body = blockGpt("/x/", 451);
    for (const response of [
      await send("GET", `policy${query}`, { env: vars ?? {} }),
      await send("PUT", `policy${query}`, { body, env: vars ?? {} }),
      await send("GET", `explain?ua=GPTBot&url=/x/a&host=${encodeURIComponent(host)}`, { env: vars ?? {} }),
    ]) {
      expect(response.status).toBe(status);
      expect((await json<{ error: string }>(response)).error).toContain(error);
    }
    expect((await env.ROBOTS.list({ prefix: "policy" })).keys).toEqual([]);
  });
});

describe("saves that would grow without bound, or carry what a log would obey", () => {
  it.each([
    { why: "a control character", by: "ci\u001b[2J", status: 400 },
    { why: "101 characters", by: "x".repeat(101), status: 400 },
    { why: "a name", by: "alice@agency (CI job 42)", status: 200 },
  ])("X-Saved-By with $why -> $status", async ({ by, status }) => {
    const response = await putPolicy("?host=shop.example", blockGpt("/x/", 451), { "x-saved-by": by });
    expect(response.status).toBe(status);
    expect((await env.ROBOTS.list({ prefix: "policy:host:" })).keys.length).toBe(status === 200 ? 1 : 0);
  });

  it("a new host beyond MAX_POLICY_HOSTS is refused; a host already counted may still save", async () => {
    const line = { version: 1, savedAt: 1, via: "put", own: true };
    const hosts = Object.fromEntries(
      Array.from({ length: MAX_POLICY_HOSTS }, (_, i) => [`h${i}.tenants.example`, line]),
    );
    await env.ROBOTS.put("policy-hosts", JSON.stringify({ schema: 1, hosts }));
    const refused = await putPolicy("?host=shop.example", blockGpt("/x/", 451));
    expect(refused.status).toBe(400);
    expect((await json<{ error: string }>(refused)).error).toBe(
      "at most 5000 hosts may have a policy of their own: remove one (DELETE policy?host=…) or use a *. pattern",
    );
    expect((await putPolicy("?host=h7.tenants.example", blockGpt("/x/", 451))).status).toBe(200);
  });
});

describe("GET policies: hosts with a policy, their versions and who saved them, paged", () => {
  it("lists the default and each host, sorted, with X-Saved-By; a removed host is not listed", async () => {
    await saveThree();
    await putPolicy("?host=docs.example", blockGpt("/z/", 456), { "x-saved-by": "alice@agency" });
    await send("DELETE", "policy?host=blog.example");
    expect(await json(send("GET", "policies"))).toEqual({
      default: { host: null, version: 1, savedAt: expect.any(String), via: "put", by: null, source: "kv" },
      hosts: [
        { host: "*.tenants.example", version: 1, savedAt: expect.any(String), via: "put", by: null, source: "kv" },
        { host: "docs.example", version: 1, savedAt: expect.any(String), via: "put", by: "alice@agency", source: "kv" },
        { host: "shop.example", version: 1, savedAt: expect.any(String), via: "put", by: null, source: "kv" },
        { host: "vip.tenants.example", version: 1, savedAt: expect.any(String), via: "put", by: null, source: "kv" },
      ],
      next: null,
    });
  });

  it("pages with limit and cursor, the var's hosts among the stored ones", async () => {
    const POLICY = JSON.stringify({ hosts: { "blog.example": { routes: [] } } });
    await saveThree();
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 5; page++) {
      const answer = await json<{ hosts: { host: string; source: string }[]; next: string | null }>(
        send("GET", `policies?limit=2${cursor && `&cursor=${cursor}`}`, { env: { POLICY } }),
      );
      seen.push(...answer.hosts.map(({ host, source }) => `${host} ${source}`));
      if (answer.next === null) break;
      cursor = answer.next;
    }
    expect(seen).toEqual(["*.tenants.example kv", "blog.example kv", "shop.example kv", "vip.tenants.example kv"]);
    expect((await send("GET", "policies?limit=0")).status).toBe(400);
    expect((await send("GET", "policies?cursor=nonsense")).status).toBe(400);
  });
});

describe("explain, replay, status and activity take host=", () => {
  beforeEach(async () => {
    for (const host of ["shop.example", "blog.example", "docs.example"]) {
      await send("POST", `refresh?host=${host}`);
    }
    await saveThree();
  });

  const explainRows: { query: string; status: number | null; action: string }[] = [
    { query: "url=/x/a&host=shop.example", status: 451, action: "block" },
    { query: "url=/x/a&host=SHOP.example.", status: 451, action: "block" },
    { query: "url=/x/a&host=blog.example", status: null, action: "pass" },
    { query: "url=/d/a&host=docs.example", status: 453, action: "block" },
    { query: `url=${encodeURIComponent("https://blog.example/blog/a")}`, status: 452, action: "block" },
  ];
  it.each(explainRows)("explain $query -> $action $status", async ({ query, status, action }) => {
    const answer = await json<{ action: { action: string; status?: number } }>(
      send("GET", `explain?ua=${encodeURIComponent(GPTBOT)}&${query}`),
    );
    expect(answer.action.action).toBe(action);
    expect(answer.action.status ?? null).toBe(status);
  });

  it("explain refuses a host= that an absolute url contradicts", async () => {
    const url = encodeURIComponent("https://blog.example/x/a");
    const response = await send("GET", `explain?ua=GPTBot&url=${url}&host=shop.example`);
    expect(response.status).toBe(400);
    expect((await json<{ error: string }>(response)).error).toBe(
      "url= names blog.example, host= names shop.example: give one",
    );
  });

  it("replay judges a host's recorded requests under that host's live policy and the draft", async () => {
    for (const site of ["https://shop.example", "https://blog.example"]) {
      for (const path of ["/x/a", "/blog/a"]) await call(path, { ua: GPTBOT, env: ROUTE_MODE, site });
    }
    const draft = JSON.stringify({ policy: { routes: [] } });
    const shop = await json<{ changedCount: number; changed: { path: string; live: { action: string } }[] }>(
      send("POST", "replay?host=shop.example", { body: draft }),
    );
    expect(shop.changedCount).toBe(1);
    expect(shop.changed.map(({ path, live }) => `${path} ${live.action}`)).toEqual(["/x/a block"]);
    const blog = await json<{ changedCount: number; changed: { path: string }[] }>(
      send("POST", "replay?host=blog.example", { body: draft }),
    );
    expect(blog.changed.map(({ path }) => path)).toEqual(["/blog/a"]);
    expect((await send("POST", "replay?host=*.tenants.example", { body: draft })).status).toBe(400);
  });

  it("status?host= names the policy judging that host and the faults of its records", async () => {
    await env.ROBOTS.put("policy:host:blog.example", "{ cut short");
    // A new isolate: none of blog's versions read well here before.
    clearPolicyMemory();
    clearStoreMemory();
    const answer = await json<{ policyHost: Record<string, unknown> }>(send("GET", "status?host=blog.example"));
    expect(answer.policyHost).toMatchObject({
      host: "blog.example",
      version: 0,
      judgedBy: { host: null, version: 1 },
      ownFaults: [{ key: "policy:host:blog.example", cause: expect.stringContaining("not JSON") }],
    });
    // Its requests: the record cannot be read, so the default judges them (never a 500).
    expect(await statusOf("https://blog.example", "/blog/a")).toBe(200);
    expect(await statusOf("https://blog.example", "/d/a")).toBe(453);
  });

  it("status names each host policy's purposes problems, by whose policy they are", async () => {
    const passing = JSON.stringify({
      purposes: [{ path: "/members/", "ai-training": "block" }],
      routes: [{ pattern: "/members/", rules: [{ crawlers: ["GPTBot"], action: "allow" }] }],
    });
    expect((await putPolicy("?host=shop.example", passing)).status).toBe(200);
    expect((await putPolicy("?host=*.tenants.example", passing)).status).toBe(200);
    for (const site of ["https://shop.example", "https://blog.example", "https://a.tenants.example"]) {
      await statusOf(site, "/"); // each origin known to the edge, on the status page
    }
    const { edge } = await json<{ edge: { problems: string[] } }>(send("GET", "status"));
    const conflict =
      'routes[0].rules[0] lets GPTBot pass on "/members/", where purposes[0] blocks them ("/members/"): the served robots.txt tells them "Disallow: /members/" while the edge passes them; block them in the route too, or change the purposes';
    expect(edge.problems.filter((problem) => problem.includes("purposes")).toSorted()).toEqual([
      `purposes of *.tenants.example's policy: ${conflict}`,
      `purposes of shop.example's policy: ${conflict}`,
    ]);
  });

  it("activity?host= is that host's origin", async () => {
    await call("/x/a", { ua: GPTBOT, env: ROUTE_MODE, site: "https://shop.example" });
    const answer = await json<{ origin: string }>(send("GET", "activity?host=shop.example"));
    expect(answer.origin).toBe("https://shop.example");
  });
});

describe("a host's record or the index that cannot be read (our fault, never the visitor's)", () => {
  const SHOP_RECORD = JSON.stringify({
    schema: 1,
    versions: [{ version: 1, savedAt: 1, via: "put", saveId: "a", text: blockGpt("/x/", 451) }],
  });
  const INDEX = JSON.stringify({
    schema: 1,
    hosts: { "shop.example": { version: 1, savedAt: 1, via: "put", own: true } },
  });
  const faults = [
    { fault: "not JSON", value: '{"schema": 1, "versions": [' },
    { fault: "wrong shape", value: '{"versions": "1", "hosts": []}' },
    { fault: "newer schema", value: '{"schema": 2, "versions": [], "hosts": {}}' },
  ];
  const rows = faults.flatMap(({ fault, value }) => [
    { key: "policy:host:shop.example", fault, planted: { "policy:host:shop.example": value, "policy-hosts": INDEX } },
    { key: "policy-hosts", fault, planted: { "policy:host:shop.example": SHOP_RECORD, "policy-hosts": value } },
  ]);
  // The default (POLICY var) blocks /d/: while shop's own policy cannot be read, the default judges shop.
  const vars = { POLICY: blockGpt("/d/", 453) };
  it.each(rows)("$key, $fault: served, named in status, repaired by PUT policy?host=", async ({ key, planted }) => {
    for (const [name, value] of Object.entries(planted)) await env.ROBOTS.put(name, value);
    const site = "https://shop.example";
    expect((await call("/x/a", { ua: CHROME, env: { ...ROUTE_MODE, ...vars }, site })).status).toBe(200);
    expect((await call("/x/a", { ua: GPTBOT, env: { ...ROUTE_MODE, ...vars }, site })).status).toBe(200);
    expect((await call("/d/a", { ua: GPTBOT, env: { ...ROUTE_MODE, ...vars }, site })).status).toBe(453);
    const status = await json<{ ownFaults: { key: string; repair: string }[] }>(send("GET", "status", { env: vars }));
    expect(status.ownFaults).toEqual([
      expect.objectContaining({
        key,
        repair:
          key === "policy-hosts"
            ? expect.stringContaining("the next save of any policy")
            : expect.stringContaining("PUT policy?host=shop.example"),
      }),
    ]);
    expect((await putPolicy("?host=shop.example", blockGpt("/x/", 451), {})).status).toBe(200);
    expect((await call("/x/a", { ua: GPTBOT, env: { ...ROUTE_MODE, ...vars }, site })).status).toBe(451);
    clearPolicyMemory(); // another isolate reads the repaired records
    expect((await call("/x/a", { ua: GPTBOT, env: { ...ROUTE_MODE, ...vars }, site })).status).toBe(451);
    expect((await json<{ ownFaults: unknown[] }>(send("GET", "status", { env: vars }))).ownFaults).toEqual([]);
  });
});

describe("scale: the request path's KV reads", () => {
  it("steady state: no policy read per request; the index once per RECHECK_MS, a record only when its version changed", async () => {
    await saveThree();
    clearPolicyMemory();
    const reads: string[] = [];
    const counted = { ...ROUTE_MODE, ROBOTS: countingKv(reads) };
    const sites = ["https://shop.example", "https://blog.example", "https://docs.example"];
    for (const site of sites) await call("/x/a", { ua: GPTBOT, env: counted, site });
    // The first (cold) requests: the index, then each judging record once.
    expect(reads).toEqual(["policy-hosts", "policy:host:shop.example", "policy:host:blog.example", "policy"]);
    reads.length = 0;
    for (let i = 0; i < 30; i++) await call("/x/a", { ua: GPTBOT, env: counted, site: sites[i % 3] });
    expect(reads).toEqual([]);
    // After RECHECK_MS: the index once; no record, since no version changed.
    vi.useFakeTimers({ now: Date.now() + RECHECK_MS + 1, toFake: ["Date"] });
    for (let i = 0; i < 30; i++) await call("/x/a", { ua: GPTBOT, env: counted, site: sites[i % 3] });
    expect(reads).toEqual(["policy-hosts"]);
    // Another isolate saves shop's version 2: once the index shows it, one read per request —
    // the index's request still judges by version 1, the next reads the record.
    const index = JSON.parse((await env.ROBOTS.get("policy-hosts")) ?? "{}") as { hosts: Record<string, object> };
    index.hosts["shop.example"] = { version: 2, savedAt: 2, via: "put", own: true };
    await env.ROBOTS.put("policy-hosts", JSON.stringify(index));
    const version2 = { version: 2, savedAt: 2, via: "put", saveId: "b", text: blockGpt("/x/", 460) };
    await env.ROBOTS.put("policy:host:shop.example", JSON.stringify({ schema: 1, versions: [version2] }));
    reads.length = 0;
    vi.useFakeTimers({ now: Date.now() + 2 * RECHECK_MS + 2, toFake: ["Date"] });
    const shop = async () => (await call("/x/a", { ua: GPTBOT, env: counted, site: "https://shop.example" })).status;
    expect([await shop(), reads.splice(0)]).toEqual([451, ["policy-hosts"]]);
    expect([await shop(), reads.splice(0)]).toEqual([460, ["policy:host:shop.example"]]);
    expect([await shop(), reads.splice(0)]).toEqual([460, []]);
  }, 60_000);
});

describe("scale: a host's answer kept in memory is the answer read again (live-policy.ts answered)", () => {
  it("another config (its POLICY var) answers by its own, not the last config's", async () => {
    const withVar = parseConfig({
      ...env,
      ...ROUTE_MODE,
      POLICY: JSON.stringify({ default: { routes: [] }, hosts: { "docs.example": JSON.parse(blockGpt("/x/", 451)) } }),
    }).config;
    const plain = parseConfig({ ...env, ...ROUTE_MODE }).config;
    const docs = async (config: typeof plain) => {
      const live = await policyInForce(env.ROBOTS, config, "docs.example");
      return { host: live.host, version: live.version, source: live.source };
    };
    expect(await docs(withVar)).toEqual({ host: "docs.example", version: 0, source: "var" });
    expect(await docs(withVar)).toEqual({ host: "docs.example", version: 0, source: "var" }); // kept
    expect(await docs(plain)).toEqual({ host: null, version: 0, source: "var" });
  });

  it("hosts whose policies are written alike share one compiled policy; a save to one leaves the others'", async () => {
    await saveThree();
    const template = blockGpt("/t/", 470);
    for (const host of ["shop.example", "blog.example", "docs.example"]) {
      expect((await putPolicy(`?host=${host}`, template)).status).toBe(200);
    }
    clearPolicyMemory(); // as on another isolate: each host's record read and compiled
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    const compiled = async (host: string) => (await policyInForce(env.ROBOTS, config, host)).compiled;
    const [shop, blog, docs] = [
      await compiled("shop.example"),
      await compiled("blog.example"),
      await compiled("docs.example"),
    ];
    expect([blog === shop, docs === shop]).toEqual([true, true]);
    expect(rememberedPolicies()).toMatchObject({ count: 3, compiled: 1 });
    expect((await putPolicy("?host=shop.example", blockGpt("/t/", 471))).status).toBe(200);
    expect([await statusOf("https://shop.example", "/t/a"), await statusOf("https://blog.example", "/t/a")]).toEqual([
      471, 470,
    ]);
    expect(rememberedPolicies()).toMatchObject({ count: 3, compiled: 2 });
    // The template's last holders move on: it is dropped, nothing kept beyond what is remembered.
    for (const host of ["blog.example", "docs.example"]) {
      expect((await putPolicy(`?host=${host}`, blockGpt("/t/", 471))).status).toBe(200);
    }
    expect(rememberedPolicies()).toMatchObject({ count: 3, compiled: 1 });
  });

  it("the default saved on another isolate: in force here once a host's request re-reads the index", async () => {
    await saveThree(); // the default's version 1, saved on this isolate
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    const defaultVersion = async () => (await policyInForce(env.ROBOTS, config)).version;
    expect([await defaultVersion(), await defaultVersion()]).toEqual([1, 1]); // the second kept
    const index = JSON.parse((await env.ROBOTS.get("policy-hosts")) ?? "{}") as { default: object };
    index.default = { version: 2, savedAt: 2, via: "put", own: true };
    await env.ROBOTS.put("policy-hosts", JSON.stringify(index));
    const version2 = { version: 2, savedAt: 2, via: "put", saveId: "b", text: blockGpt("/d/", 460) };
    await env.ROBOTS.put("policy", JSON.stringify({ schema: 1, versions: [version2] }));
    vi.useFakeTimers({ now: Date.now() + RECHECK_MS + 1, toFake: ["Date"] });
    await policyInForce(env.ROBOTS, config, "shop.example"); // re-reads the index
    expect(await defaultVersion()).toBe(2);
  });
});

describe("scale: compiled policies kept per isolate within bounds", () => {
  it("keeps at most MAX_REMEMBERED_TEXT_BYTES of policy text however many hosts are judged, and status names the eviction", async () => {
    // 120 hosts with a policy of 60,000 bytes each, written around the admin API (which refuses
    // past 6 MiB together): 7.2 MB, past the 6 MiB + 64 KiB bound.
    const text = blockGpt("/x/", 451) + " ".repeat(60_000 - blockGpt("/x/", 451).length);
    const hosts = Array.from({ length: 120 }, (_, i) => `h${i}.tenants.example`);
    await storeHostPolicies(hosts, text);
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    for (const host of hosts) {
      expect(await policyInForce(env.ROBOTS, config, host)).toMatchObject({ host, version: 1 });
    }
    // (6 MiB + 64 KiB) / 60,000 bytes: the 105 most recently judged are kept.
    expect(MAX_REMEMBERED_TEXT_BYTES).toBe(6 * 1024 * 1024 + 64 * 1024);
    // ...all written alike: one compiled policy for the 105.
    expect(rememberedPolicies()).toMatchObject({ count: 105, textBytes: 105 * 60_000, compiled: 1 });
    const status = await json<{ edge: { problems: string[] } }>(send("GET", "status"));
    expect(status.edge.problems.filter((problem) => problem.startsWith("host policies exceed"))).toEqual([
      "host policies exceed what an isolate keeps compiled (5001 policies, 6356992 characters of text; 105 kept, 6300000 characters): an evicted host's policy is read from KV again when next asked, up to one read per request; shrink or remove host policies (GET policies lists them)",
    ]);
  }, 60_000);

  it("a save that would put all hosts' policy text past MAX_HOST_POLICY_TEXT is refused; under it, saved", async () => {
    // 100 hosts saved with 62,500 characters each (6,250,000), as the index names them.
    const line = { version: 1, savedAt: 1, via: "put", own: true, textLength: 62_500 };
    const hosts = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`h${i}.tenants.example`, line]));
    await env.ROBOTS.put("policy-hosts", JSON.stringify({ schema: 1, hosts }));
    const big = blockGpt("/x/", 451) + " ".repeat(60_000 - blockGpt("/x/", 451).length);
    const refused = await putPolicy("?host=shop.example", big);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({
      error:
        "the host policies would hold 6310000 characters of policy text together, past 6291456 (what an isolate keeps compiled): nothing was saved; shrink this or another host's policy, or use a *. pattern",
      total: 6_310_000,
      limit: 6_291_456,
    });
    expect((await env.ROBOTS.list({ prefix: "policy:host:shop" })).keys).toEqual([]);
    // A host already counted replaces its own text: 99 × 62,500 + 60,000 fits.
    expect((await putPolicy("?host=h7.tenants.example", big)).status).toBe(200);
    expect((await putPolicy("?host=shop.example", blockGpt("/x/", 451))).status).toBe(200);
  }, 60_000);

  it("hosts a client names under a pattern: at most MAX_ANSWERED lookups kept answered, each still right", async () => {
    await saveThree(); // *.tenants.example blocks /t/ with 454
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    const judgedBy = async (host: string) => (await policyInForce(env.ROBOTS, config, host)).host;
    const named = Array.from({ length: MAX_ANSWERED + 100 }, (_, i) => `c${i}.tenants.example`);
    for (const host of named) await judgedBy(host);
    for (const host of named) expect(await judgedBy(host)).toBe("*.tenants.example");
    expect(MAX_ANSWERED).toBe(4_096);
    expect(rememberedPolicies().answered).toBeLessThanOrEqual(4_096);
    expect(await judgedBy("vip.tenants.example")).toBe("vip.tenants.example");
  }, 60_000);

  it("a caller's slot (the request path's, one per host) answers what the Map would: after a save, after the table is emptied, after memory is cleared", async () => {
    await saveThree();
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    const slot: PolicySlot = { policy: undefined };
    const judged = async () => {
      const live = await policyInForce(env.ROBOTS, config, "shop.example", slot);
      return [live.host, live.version];
    };
    expect(await judged()).toEqual(["shop.example", 1]);
    expect(await judged()).toEqual(["shop.example", 1]); // from the slot
    expect((await putPolicy("?host=shop.example", blockGpt("/y/", 451))).status).toBe(200);
    expect(await judged()).toEqual(["shop.example", 2]);
    // MAX_ANSWERED other hosts empty the table: the slot's answer is retired, and read again.
    for (let i = 0; i < MAX_ANSWERED; i++) await policyInForce(env.ROBOTS, config, `c${i}.tenants.example`);
    expect(await judged()).toEqual(["shop.example", 2]);
    expect((await send("DELETE", "policy?host=shop.example")).status).toBe(200); // version 3: none of its own
    expect(await judged()).toEqual([null, 1]); // the default's
    clearPolicyMemory();
    expect(await judged()).toEqual([null, 1]);
    expect((await putPolicy("?host=shop.example", blockGpt("/z/", 451))).status).toBe(200);
    expect(await judged()).toEqual(["shop.example", 4]);
  }, 60_000);

  it("a host whose kept answer is used stays: the least recently judged goes first", async () => {
    const text = blockGpt("/x/", 451) + " ".repeat(60_000 - blockGpt("/x/", 451).length);
    const hosts = Array.from({ length: 106 }, (_, i) => `h${i}.tenants.example`);
    await storeHostPolicies(hosts, text);
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    const judge = async (host: string, kv = env.ROBOTS) => (await policyInForce(kv, config, host)).version;
    const first105 = hosts.slice(0, 105);
    for (const host of first105) await judge(host); // read from KV: 105 fill the 6 MiB + 64 KiB
    for (const host of first105) await judge(host); // from memory: each answer kept
    await judge("h0.tenants.example"); // the kept answer: h0 is now the most recently judged
    await judge("h105.tenants.example"); // one more: the least recently judged, h1, goes
    const reads: string[] = [];
    expect(await judge("h0.tenants.example", countingKv(reads))).toBe(1);
    expect(await judge("h1.tenants.example", countingKv(reads))).toBe(1);
    expect(reads).toEqual(["policy:host:h1.tenants.example"]);
  }, 60_000);

  it("a kept answer's use survives the answers' table starting again (past MAX_ANSWERED hosts)", async () => {
    const text = blockGpt("/x/", 451) + " ".repeat(60_000 - blockGpt("/x/", 451).length);
    const hosts = Array.from({ length: 106 }, (_, i) => `h${i}.tenants.example`);
    await storeHostPolicies(hosts, text);
    const { config } = parseConfig({ ...env, ...ROUTE_MODE });
    const judge = async (host: string, kv = env.ROBOTS) => (await policyInForce(kv, config, host)).version;
    const first105 = hosts.slice(0, 105);
    for (const host of first105) await judge(host); // read from KV: 105 fill the 6 MiB + 64 KiB
    for (const host of first105) await judge(host); // from memory: each answer kept
    await judge("h0.tenants.example"); // the kept answer: h0 is now the most recently judged
    // Hosts nobody gave a policy, past MAX_ANSWERED: the table of kept answers starts again.
    for (let i = 0; i <= MAX_ANSWERED; i++) await judge(`c${i}.tenants.example`);
    await judge("h105.tenants.example"); // one more: the least recently judged, h1, goes
    const reads: string[] = [];
    expect(await judge("h0.tenants.example", countingKv(reads))).toBe(1);
    expect(await judge("h1.tenants.example", countingKv(reads))).toBe(1);
    expect(reads).toEqual(["policy:host:h1.tenants.example"]);
  }, 60_000);
});

const readIndex = async () =>
  JSON.parse((await env.ROBOTS.get("policy-hosts")) ?? "{}") as { hosts: Record<string, { version: number }> };

const plantIndex = async (edit: (hosts: Record<string, { version: number }>) => void) => {
  const index = await readIndex();
  edit(index.hosts);
  await env.ROBOTS.put("policy-hosts", JSON.stringify(index));
  clearPolicyMemory(); // another isolate, reading the index as planted
};

describe("the cron repairs an index that lost a host's save (KV has no compare-and-set)", () => {
  it.each([
    {
      lost: "the host's line (another host's save wrote the index at the same moment)",
      plant: (hosts: Record<string, { version: number }>) => delete hosts["shop.example"],
      before: 200, // the default judges shop: its own policy is not known to exist
    },
  ])("$lost: judged by the host's newest policy again after the cron", async ({ plant, before }) => {
    await putPolicy("?host=shop.example", blockGpt("/x/", 451));
    await putPolicy("?host=shop.example", blockGpt("/x/", 452));
    await putPolicy("?host=blog.example", blockGpt("/x/", 455));
    await plantIndex(plant);
    expect(await statusOf("https://shop.example", "/x/a")).toBe(before);
    await runCron();
    expect((await readIndex()).hosts["shop.example"]?.version).toBe(2);
    expect((await readIndex()).hosts["blog.example"]?.version).toBe(1);
    clearPolicyMemory();
    expect(await statusOf("https://shop.example", "/x/a")).toBe(452);
    expect(await statusOf("https://blog.example", "/x/a")).toBe(455);
  });

  it("a newer version the index lost: an isolate that remembers version 1 reads version 2 once the cron repaired the index", async () => {
    await putPolicy("?host=shop.example", blockGpt("/x/", 451));
    expect(await statusOf("https://shop.example", "/x/a")).toBe(451);
    // Another isolate saves version 2; its index write is lost (the record and its metadata land).
    const version = (n: number, status: number) => ({
      version: n,
      savedAt: n,
      via: "put",
      saveId: `s${n}`,
      text: blockGpt("/x/", status),
    });
    const text2 = blockGpt("/x/", 452);
    await env.ROBOTS.put(
      "policy:host:shop.example",
      JSON.stringify({ schema: 1, versions: [version(2, 452), version(1, 451)] }),
      { metadata: { version: 2, savedAt: 2, via: "put", own: true, textLength: text2.length } },
    );
    vi.useFakeTimers({ now: Date.now() + RECHECK_MS + 1, toFake: ["Date"] });
    expect(await statusOf("https://shop.example", "/x/a")).toBe(451); // the index still names version 1
    await runCron();
    expect((await readIndex()).hosts["shop.example"]?.version).toBe(2);
    vi.setSystemTime(Date.now() + RECHECK_MS + 1);
    // The request that re-reads the index still judges by version 1 (one KV read a request); the next reads version 2.
    expect(await statusOf("https://shop.example", "/x/a")).toBe(451);
    expect(await statusOf("https://shop.example", "/x/a")).toBe(452);
  });

  it("writes nothing when no save was lost, and leaves an index it cannot read to the next save", async () => {
    await putPolicy("?host=shop.example", blockGpt("/x/", 451));
    const whole = await env.ROBOTS.get("policy-hosts");
    await runCron();
    expect(await env.ROBOTS.get("policy-hosts")).toBe(whole);
    const newer = '{"schema": 2, "hosts": {}}';
    await env.ROBOTS.put("policy-hosts", newer);
    await runCron();
    expect(await env.ROBOTS.get("policy-hosts")).toBe(newer);
  });
});

/** env.ROBOTS with `method` failing as a KV outage would. */
const failing = (method: "list" | "put") =>
  new Proxy(env.ROBOTS, {
    get(target, property) {
      if (property === method) return () => Promise.reject(new Error(`KV ${method} unavailable`));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });

describe("the cron's index repair when KV fails (planted faults)", () => {
  it.each([
    { fault: "list" as const, logged: "KV list unavailable" },
    { fault: "put" as const, logged: "the store refused to write policy-hosts (KV put unavailable)" },
  ])(
    "KV $fault fails: the cron logs it, the index is untouched, people and the host's policy answer as before",
    async ({ fault, logged }) => {
      await putPolicy("?host=shop.example", blockGpt("/x/", 451));
      await putPolicy("?host=blog.example", blockGpt("/x/", 455));
      await plantIndex((hosts) => delete hosts["blog.example"]); // a lost line: the repair has work to do
      const before = await env.ROBOTS.get("policy-hosts");
      const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
      await runCron({ ROBOTS: failing(fault) });
      expect(await env.ROBOTS.get("policy-hosts")).toBe(before);
      expect(errors.mock.calls.some(([line]) => String(line).includes(logged))).toBe(true);
      expect(await statusOf("https://shop.example", "/x/a")).toBe(451);
      expect(await statusOf("https://blog.example", "/x/a", CHROME)).toBe(200);
      await runCron(); // KV back: the next run repairs it
      clearPolicyMemory();
      expect(await statusOf("https://blog.example", "/x/a")).toBe(455);
    },
  );
});
