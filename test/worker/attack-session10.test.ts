// Attack session 10: today's cron repair of the host policy index (live-policy.ts
// repairPolicyIndex) is a read-modify-write of the whole index, like a save's, but without a
// save's read-back: a default save that lands between its read and its write (KV has no
// compare-and-set; a cron's read may also be a copy up to 60 s old in its location) is written
// out of the index, and nothing repairs the default's line (the listing holds hosts only).
// FAILS on attack10 (the hole this session reports).
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearPolicyMemory, RECHECK_MS } from "../../src/worker/live-policy.ts";
import { call, CHROME, fakeOrigin, freshState, GPTBOT, TOKEN, runCron } from "./helpers.ts";

const ROUTE_MODE = {
  ORIGIN_URL: "",
  AUTHORITIES: "shop.example, blog.example, docs.example, *.tenants.example",
  VERIFY_CRAWLERS: "off",
} as const;

const blockGpt = (path: string, status: number) =>
  JSON.stringify({
    routes: [{ pattern: path, blockStatus: status, rules: [{ crawlers: ["GPTBot"], action: "block" }] }],
  });

const putPolicy = (query: string, text: string) =>
  call(`/__robots/policy${query}`, {
    method: "PUT",
    ua: CHROME,
    headers: { authorization: `Bearer ${TOKEN}` },
    body: text,
    env: ROUTE_MODE,
    site: "https://shop.example",
  });

const statusOf = async (site: string, path: string) => (await call(path, { ua: GPTBOT, env: ROUTE_MODE, site })).status;

const readIndex = async () =>
  JSON.parse((await env.ROBOTS.get("policy-hosts")) ?? "{}") as {
    default?: { version: number };
    hosts: Record<string, { version: number }>;
  };

/** env.ROBOTS, but the first read of the index runs `meanwhile` before answering what it read. */
function kvWithSaveDuringIndexRead(meanwhile: () => Promise<unknown>): KVNamespace {
  let done = false;
  return new Proxy(env.ROBOTS, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "get") return (value as (...args: unknown[]) => unknown).bind(target);
      return async (key: string, ...rest: unknown[]) => {
        const read: unknown = await (value as (...args: unknown[]) => Promise<unknown>).call(target, key, ...rest);
        if (key === "policy-hosts" && !done) {
          done = true;
          await meanwhile();
        }
        return read;
      };
    },
  });
}

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: "User-agent: *\nAllow: /\n" });
});
afterEach(async () => {
  vi.useRealTimers();
  await freshState();
});

/** The default record and the index as KV holds them now (what another isolate's save leaves). */
async function snapshot(): Promise<() => Promise<void>> {
  const record = await env.ROBOTS.getWithMetadata("policy");
  const index = await env.ROBOTS.get("policy-hosts");
  return async () => {
    await env.ROBOTS.put("policy", record.value ?? "", { metadata: record.metadata });
    await env.ROBOTS.put("policy-hosts", index ?? "");
  };
}

describe("the cron's index repair never loses a save made while it runs", () => {
  it.each([
    {
      name: "another isolate saves the default between the cron's index read and its write",
      defaultVersion: 2,
      docsStatus: 454, // docs.example has no policy of its own: the default's newest judges it
    },
  ])(
    "$name: the index names it, and an isolate that knew version 1 is judged by version 2",
    async ({ defaultVersion, docsStatus }) => {
      expect((await putPolicy("", blockGpt("/d/", 453))).status).toBe(200);
      expect((await putPolicy("?host=shop.example", blockGpt("/x/", 451))).status).toBe(200);
      expect((await putPolicy("?host=blog.example", blockGpt("/x/", 452))).status).toBe(200);
      // blog's line lost to a simultaneous save, so the cron has something to repair and writes the index.
      const index = await readIndex();
      delete index.hosts["blog.example"];
      await env.ROBOTS.put("policy-hosts", JSON.stringify(index));
      const version1 = await snapshot();
      // The default's version 2 as another isolate's save leaves KV (record and index), then back to version 1.
      expect((await putPolicy("", blockGpt("/d/", 454))).status).toBe(200);
      const version2 = await snapshot();
      await version1();
      clearPolicyMemory();
      expect(await statusOf("https://docs.example", "/d/a")).toBe(453); // this isolate remembers default v1
      await runCron({ ROBOTS: kvWithSaveDuringIndexRead(version2) });
      expect((await readIndex()).hosts["blog.example"]?.version).toBe(1); // the repair itself worked
      expect((await readIndex()).default?.version).toBe(defaultVersion);
      vi.useFakeTimers({ now: Date.now() + RECHECK_MS + 1, toFake: ["Date"] });
      await statusOf("https://docs.example", "/d/a"); // re-reads the index
      expect(await statusOf("https://docs.example", "/d/a")).toBe(docsStatus);
    },
  );
});
