// The live operator policy (src/worker/live-policy.ts, src/worker/admin/policy.ts): stored in
// KV, changed through the admin API, in force on the isolate that saved it at once and on the
// others within RECHECK_MS; a failed KV read keeps the last good policy.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/worker/index.ts";
import { clearPolicyMemory } from "../../src/worker/live-policy.ts";
import { writePolicy } from "../../src/worker/store.ts";
import {
  admin,
  call,
  CHROME,
  CRAWLER_ADDRESSES,
  fakeOrigin,
  freshState,
  fromCrawler,
  GOOGLEBOT,
  SITE,
  storeCrawlerLists,
  TOKEN,
} from "./helpers.ts";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const CCBOT = "CCBot/2.0 (https://commoncrawl.org/faq/)";
const BLOCK_TRAINING = JSON.stringify(
  {
    routes: [
      { pattern: "/articles/", blockStatus: 451, rules: [{ crawlers: ["category:ai-training"], action: "block" }] },
    ],
  },
  null,
  2,
);
const ALLOW_PRIVATE_FOR_GOOGLEBOT = JSON.stringify({
  routes: [{ pattern: "/private/", rules: [{ crawlers: ["Googlebot"], action: "allow" }] }],
});

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: ROBOTS });
  // Googlebot's requests come from Google's listed address: a policy allow rule is granted only
  // to a proven claim (policy/claim.ts).
  await storeCrawlerLists();
});
const FROM_GOOGLE = fromCrawler("googlebot");
afterEach(freshState);

/** An admin request with a raw body (text, bytes or a stream), as a client could send it. */
async function send(
  method: string,
  path: string,
  body?: BodyInit,
  options: { headers?: Record<string, string>; env?: Partial<Env> } = {},
): Promise<Response> {
  const headers = new Headers({ authorization: `Bearer ${TOKEN}`, "user-agent": CHROME, ...options.headers });
  const init: RequestInit & { duplex?: string } = { method, headers, body: body ?? null };
  if (body instanceof ReadableStream) init.duplex = "half";
  const ctx = createExecutionContext();
  const testEnv = options.env ? ({ ...env, ...options.env } as Env) : (env as Env);
  const response = await worker.fetch(new Request(`${SITE}/__robots/${path}`, init), testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const put = (text: string, headers?: Record<string, string>) => send("PUT", "policy", text, { headers: headers ?? {} });
const rollback = (version: unknown) => send("POST", "policy/rollback", JSON.stringify({ version }));

interface PolicyView {
  version: number;
  savedAt: string | null;
  source: string;
  policy: unknown;
  text: string | null;
  history: { version: number; savedAt: string | null; via: string; from: number | null }[];
}

async function view(options: { env?: Partial<Env> } = {}): Promise<PolicyView> {
  return (await (await admin("policy", options)).json()) as PolicyView;
}

describe("versions", () => {
  it("before any save, version 0 is the POLICY var's policy, or none", async () => {
    expect(await view()).toMatchObject({
      version: 0,
      savedAt: null,
      source: "var",
      policy: null,
      history: [{ version: 0 }],
    });
    const withVar = await view({ env: { POLICY: ALLOW_PRIVATE_FOR_GOOGLEBOT } });
    expect(withVar).toMatchObject({ version: 0, source: "var", policy: JSON.parse(ALLOW_PRIVATE_FOR_GOOGLEBOT) });
  });

  it("PUT answers the new version; GET shows it in force, with its time, and the history", async () => {
    const saved = await put(BLOCK_TRAINING);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ version: 1, savedAt: expect.stringMatching(/^\d{4}-/) });
    const response = await admin("policy");
    expect(response.headers.get("etag")).toBe('"1"');
    const body = (await response.json()) as PolicyView;
    expect(body).toMatchObject({ version: 1, source: "kv", text: BLOCK_TRAINING, policy: JSON.parse(BLOCK_TRAINING) });
    expect(body.history.map((entry) => [entry.version, entry.via])).toEqual([
      [1, "put"],
      [0, "POLICY var"],
    ]);
  });

  it("rollback puts an earlier policy back as a new, higher version; 0 is the POLICY var's", async () => {
    await put(BLOCK_TRAINING);
    await put(ALLOW_PRIVATE_FOR_GOOGLEBOT);
    const back = await rollback(1);
    expect(await back.json()).toMatchObject({ version: 3 });
    expect(await view()).toMatchObject({ version: 3, text: BLOCK_TRAINING });
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(451);
    expect(await (await rollback(0)).json()).toMatchObject({ version: 4 });
    const body = await view();
    expect(body).toMatchObject({ version: 4, policy: null, text: null });
    expect(body.history.map((entry) => [entry.version, entry.via, entry.from])).toEqual([
      [4, "rollback", 0],
      [3, "rollback", 1],
      [2, "put", null],
      [1, "put", null],
      [0, "POLICY var", null],
    ]);
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(200);
  });

  it("keeps the last 20 versions (and 0); an older one cannot be rolled back to", async () => {
    for (let i = 0; i < 22; i++) {
      const policy = { routes: [{ pattern: `/v${i + 1}/`, rules: [{ crawlers: ["GPTBot"], action: "block" }] }] };
      expect((await put(JSON.stringify(policy))).status).toBe(200);
    }
    const body = await view();
    expect(body.version).toBe(22);
    expect(body.history.map((entry) => entry.version)).toEqual([
      22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 0,
    ]);
    const tooOld = await rollback(2);
    expect(tooOld.status).toBe(400);
    expect(((await tooOld.json()) as { error: string }).error).toContain("version 2 is not kept");
    expect(await (await rollback(3)).json()).toMatchObject({ version: 23 });
  });

  it("If-Match: a save against the version in force goes through, against an older one is refused (412)", async () => {
    await put(BLOCK_TRAINING);
    expect((await put(ALLOW_PRIVATE_FOR_GOOGLEBOT, { "if-match": '"1"' })).status).toBe(200);
    const stale = await put(BLOCK_TRAINING, { "if-match": '"1"' });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ version: 2, error: expect.stringContaining("version 2 is in force") });
    expect((await send("POST", "policy/rollback", '{"version": 1}', { headers: { "if-match": '"1"' } })).status).toBe(
      412,
    );
    expect((await view()).version).toBe(2);
  });

  it("If-Match: * (RFC 9110 §13.1.1: any current version) saves unconditionally", async () => {
    await put(BLOCK_TRAINING);
    const saved = await put(ALLOW_PRIVATE_FOR_GOOGLEBOT, { "if-match": "*" });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("etag")).toBe('"2"');
    expect((await send("POST", "policy/rollback", '{"version": 1}', { headers: { "if-match": " * " } })).status).toBe(
      200,
    );
    expect((await view()).version).toBe(3);
  });

  it("two saves at the same moment: none is lost silently (the loser is told 409, or both get their own version)", async () => {
    const answers = await Promise.all([put(BLOCK_TRAINING), put(ALLOW_PRIVATE_FOR_GOOGLEBOT)]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { version: number }[];
    expect(answers.map((answer) => answer.status).every((status) => status === 200 || status === 409)).toBe(true);
    const savedVersions = bodies.filter((_, i) => answers[i]?.status === 200).map((body) => body.version);
    expect(savedVersions.length).toBeGreaterThan(0);
    expect((await view()).version).toBe(Math.max(...savedVersions));
  });
});

describe("the policy in force decides", () => {
  it("a crawler request is judged by the new policy at once on the isolate that saved it; humans untouched", async () => {
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(200);
    await put(BLOCK_TRAINING);
    const blocked = await call("/articles/1", { ua: CCBOT });
    expect(blocked.status).toBe(451);
    expect(blocked.headers.get("x-robots-edge")).toBe('blocked; policy="/articles/"; route=1; rule=1');
    expect((await call("/articles/1", { ua: GOOGLEBOT, headers: FROM_GOOGLE })).status).toBe(200);
    expect((await call("/articles/1", { ua: CHROME })).status).toBe(200);
  });

  it("explain and POST test use the policy in force", async () => {
    await admin("refresh", { method: "POST" });
    await put(ALLOW_PRIVATE_FOR_GOOGLEBOT);
    const ip = CRAWLER_ADDRESSES.googlebot;
    const explained = await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=/private/x&ip=${ip}`);
    expect(await explained.json()).toMatchObject({ layer: "policy", allowed: true, action: { action: "pass" } });
    // Without an address the claim cannot be checked: the allow rule is not granted, `*` refuses.
    const unchecked = await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=/private/x`);
    expect(await unchecked.json()).toMatchObject({
      reason: "unproven-claim",
      layer: "unproven-claim",
      action: { action: "unavailable", status: 503 },
    });
    const tested = await admin("test", { method: "POST", body: { ua: GOOGLEBOT, urls: ["/private/x"] } });
    expect(await tested.json()).toMatchObject({ results: [{ live: { layer: "unproven-claim", allowed: false } }] });
  });

  it("the POLICY var is in force while KV holds no version", async () => {
    const withVar = { POLICY: ALLOW_PRIVATE_FOR_GOOGLEBOT };
    expect((await call("/private/x", { ua: GOOGLEBOT, env: withVar, headers: FROM_GOOGLE })).status).toBe(200);
    expect((await call("/private/x", { ua: GOOGLEBOT, headers: FROM_GOOGLE })).status).toBe(403);
  });

  it("another isolate's save is in force here within RECHECK_MS (10 s), not before", async () => {
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(200); // remembers "no policy"
    await writePolicy(env.ROBOTS, {
      versions: [{ version: 1, savedAt: Date.now(), text: BLOCK_TRAINING, via: "put", saveId: "elsewhere" }],
    });
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10_001);
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(451);
  });
});

/** The test KV, with reads of the policy record failing. */
function failingPolicyReads(): KVNamespace {
  const kv = env.ROBOTS;
  return {
    get: ((key: string, options?: unknown) =>
      key === "policy"
        ? Promise.reject(new Error("KV GET failed: 503"))
        : kv.get(key, options as "text")) as KVNamespace["get"],
    getWithMetadata: kv.getWithMetadata.bind(kv),
    put: kv.put.bind(kv),
    delete: kv.delete.bind(kv),
    list: kv.list.bind(kv),
  } as KVNamespace;
}

describe("a failed or unusable read keeps the last good policy", () => {
  let errors: string[];
  beforeEach(() => {
    errors = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
  });

  it("KV read failure: the last good version stays in force, and the failure is logged", async () => {
    await put(BLOCK_TRAINING);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10_001);
    const response = await call("/articles/1", { ua: CCBOT, env: { ROBOTS: failingPolicyReads() } });
    expect(response.status).toBe(451);
    expect(errors.join("\n")).toContain("policy read failed, keeping version 1");
  });

  it("a cold isolate whose read fails falls back to version 0 (the POLICY var), logged", async () => {
    clearPolicyMemory();
    const response = await call("/private/x", {
      ua: GOOGLEBOT,
      headers: FROM_GOOGLE,
      env: { ROBOTS: failingPolicyReads(), POLICY: ALLOW_PRIVATE_FOR_GOOGLEBOT },
    });
    expect(response.status).toBe(200);
    expect(errors.join("\n")).toContain("keeping version 0 (POLICY var)");
  });

  it.each([
    { why: "no versions", record: { versions: [] } },
    { why: "not a record", record: "garbage" },
    {
      why: "a stored policy that no longer validates",
      record: { versions: [{ version: 2, savedAt: 0, text: '{"routes": 1}', via: "put", saveId: "x" }] },
    },
  ])("an unusable stored record ($why): the last good version stays", async ({ record }) => {
    await put(BLOCK_TRAINING);
    await env.ROBOTS.put("policy", JSON.stringify(record));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10_001);
    expect((await call("/articles/1", { ua: CCBOT })).status).toBe(451);
    expect(errors.join("\n")).toContain("keeping version 1");
    // The admin API still answers, and a save replaces the record whole.
    expect((await admin("policy")).status).toBe(200);
    expect((await put(ALLOW_PRIVATE_FOR_GOOGLEBOT)).status).toBe(200);
    expect((await call("/private/x", { ua: GOOGLEBOT, headers: FROM_GOOGLE })).status).toBe(200);
  });
});

describe("problems, on their lines", () => {
  it("every problem, with its line in the submitted text; nothing is saved", async () => {
    const text = [
      "{",
      '  "routes": [',
      '    {"pattern": "articles",',
      '     "mode": "loud",',
      '     "rules": [{"crawlers": ["GPTBot"], "action": "deny"}]}',
      "  ]",
      "}",
    ].join("\n");
    const response = await put(text);
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: string;
      problems: string[];
      at: { line: number; problem: string }[];
    };
    expect(body.error).toBe("the policy has 3 problem(s); nothing was saved");
    expect(body.at.map(({ line, problem }) => [line, problem.split(" ")[0]])).toEqual([
      [3, "routes[0].pattern"],
      [4, "routes[0].mode"],
      [5, "routes[0].rules[0].action"],
    ]);
    expect(body.problems).toEqual(body.at.map((entry) => entry.problem));
    expect((await view()).version).toBe(0);
  });
});

/** A body streamed without a Content-Length. */
const stream = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let sent = 0; sent < bytes; sent += 8192) controller.enqueue(new Uint8Array(8192).fill(0x20));
      controller.close();
    },
  });

describe("bad input is a clear 4xx, never a crash (attack rows)", () => {
  const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
  const big = `{"routes": [], "padding": "${"x".repeat(70 * 1024)}"}`;
  it.each([
    { why: "an empty body", method: "PUT", path: "policy", body: "", status: 400, error: "problem" },
    { why: "not JSON", method: "PUT", path: "policy", body: "routes: []", status: 400, error: "problem" },
    { why: "a JSON list", method: "PUT", path: "policy", body: "[]", status: 400, error: "problem" },
    { why: "JSON null", method: "PUT", path: "policy", body: "null", status: 400, error: "problem" },
    { why: "a JSON string", method: "PUT", path: "policy", body: '"{}"', status: 400, error: "problem" },
    {
      why: "__proto__ smuggling",
      method: "PUT",
      path: "policy",
      body: '{"__proto__": {"routes": []}}',
      status: 400,
      error: "problem",
    },
    {
      why: "64 KiB of nesting",
      method: "PUT",
      path: "policy",
      body: "[".repeat(60_000),
      status: 400,
      error: "problem",
    },
    { why: "over 64 KiB", method: "PUT", path: "policy", body: big, status: 413, error: "at most 65536 bytes" },
    {
      why: "over 64 KiB, streamed without a length",
      method: "PUT",
      path: "policy",
      body: "stream",
      status: 413,
      error: "at most 65536 bytes",
    },
    { why: "not UTF-8", method: "PUT", path: "policy", body: invalidUtf8, status: 400, error: "UTF-8" },
    {
      why: "a pattern that is a URL",
      method: "PUT",
      path: "policy",
      body: '{"routes": [{"pattern": "https://evil.test/"}]}',
      status: 400,
      error: "problem",
    },
    {
      why: "rollback without a body",
      method: "POST",
      path: "policy/rollback",
      body: "",
      status: 400,
      error: '{"version": N}',
    },
    {
      why: "rollback to a string",
      method: "POST",
      path: "policy/rollback",
      body: '{"version": "1"}',
      status: 400,
      error: '{"version": N}',
    },
    {
      why: "rollback to -1",
      method: "POST",
      path: "policy/rollback",
      body: '{"version": -1}',
      status: 400,
      error: '{"version": N}',
    },
    {
      why: "rollback to 1.5",
      method: "POST",
      path: "policy/rollback",
      body: '{"version": 1.5}',
      status: 400,
      error: '{"version": N}',
    },
    {
      why: "rollback to 2^60",
      method: "POST",
      path: "policy/rollback",
      body: '{"version": 1152921504606846976}',
      status: 400,
      error: '{"version": N}',
    },
    {
      why: "rollback to an unknown version",
      method: "POST",
      path: "policy/rollback",
      body: '{"version": 7}',
      status: 400,
      error: "version 7 is not kept",
    },
    {
      why: "a rollback body over 1 KiB",
      method: "POST",
      path: "policy/rollback",
      body: `{"version": 1, "x": "${"y".repeat(2000)}"}`,
      status: 413,
      error: "at most 1024 bytes",
    },
    {
      why: "a bad If-Match",
      method: "PUT",
      path: "policy",
      body: BLOCK_TRAINING,
      headers: { "if-match": "3" },
      status: 400,
      error: "If-Match",
    },
    {
      why: "DELETE of the default (only a host's own policy can be removed)",
      method: "DELETE",
      path: "policy",
      body: undefined,
      status: 400,
      error: "DELETE policy needs host=",
    },
    {
      why: "PATCH is no route",
      method: "PATCH",
      path: "policy",
      body: undefined,
      status: 404,
      error: "no admin route",
    },
  ])("$why -> $status", async ({ method, path, body, status, error, headers }) => {
    const sent = body === "stream" ? stream(70 * 1024) : body;
    const response = await send(method, path, sent, { headers: headers ?? {} });
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toContain(error);
    expect((await view()).version).toBe(0);
  });

  it("without the token nothing is read or saved", async () => {
    const response = await send("PUT", "policy", BLOCK_TRAINING, {
      headers: { authorization: "Bearer wrong-token-123456" },
    });
    expect(response.status).toBe(401);
    expect((await admin("policy", { token: null })).status).toBe(401);
    expect((await view()).version).toBe(0);
  });

  it("a byte-order mark before the JSON is accepted", async () => {
    expect((await put(`\uFEFF${BLOCK_TRAINING}`)).status).toBe(200);
    expect((await view()).text).toBe(BLOCK_TRAINING);
  });
});

describe("every spelling is judged under the live policy (a route chosen by one spelling lifts nothing)", () => {
  const GPTBOT =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
  it.each(["/beta/..%2Fprivate/x", "/beta/..;/private/x", "//beta/private/x", "/beta/x;y=%2F..%2F..%2F/private/x"])(
    'policy {"routes":[{"pattern":"/beta/","mode":"report"}]}: %s -> 403, never forwarded',
    async (path) => {
      const origin = fakeOrigin({ body: ROBOTS });
      await put('{"routes":[{"pattern":"/beta/","mode":"report"}]}');
      const response = await call(path, { ua: CCBOT });
      expect(response.status).toBe(403);
      expect(origin.requests.filter((url) => !url.endsWith("/robots.txt"))).toEqual([]);
      expect((await call("/beta/x", { ua: CCBOT })).status).toBe(200);
    },
  );

  it.each(["/pub/..%2Fai-no/x", "/pub/..;/ai-no/x", "//pub/ai-no/x", "/ai-no;x=1/x"])(
    "Content-Usage: /ai-no/ train-ai=n: GPTBot on %s -> 403",
    async (path) => {
      fakeOrigin({ body: "User-agent: *\nAllow: /\nContent-Usage: /ai-no/ train-ai=n\n" });
      const response = await call(path, { ua: GPTBOT });
      expect(response.status).toBe(403);
      expect((await call("/pub/x", { ua: GPTBOT })).status).toBe(200);
    },
  );
});
