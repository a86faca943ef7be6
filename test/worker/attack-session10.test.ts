// Attack session 10: today's cron repair of the host policy index (live-policy.ts
// repairPolicyIndex) is a read-modify-write of the whole index, like a save's, but without a
// save's read-back: a default save that lands between its read and its write (KV has no
// compare-and-set; a cron's read may also be a copy up to 60 s old in its location) is written
// out of the index, and nothing repairs the default's line (the listing holds hosts only); a host's
// DELETE that lands there is undone (its deleted policy judges again) until the next cron, 30 min.
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

const send = (method: string, query: string, body?: string) =>
  call(`/__robots/policy${query}`, {
    method,
    ua: CHROME,
    headers: { authorization: `Bearer ${TOKEN}` },
    ...(body !== undefined && { body }),
    env: ROUTE_MODE,
    site: "https://shop.example",
  });

const putPolicy = (query: string, text: string) => send("PUT", query, text);

const statusOf = async (site: string, path: string) => (await call(path, { ua: GPTBOT, env: ROUTE_MODE, site })).status;

interface Index {
  default?: { version: number };
  hosts: Record<string, { version: number }>;
}

const readIndex = async () => JSON.parse((await env.ROBOTS.get("policy-hosts")) ?? "{}") as Index;

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

/** These keys as KV holds them now (what another isolate's save leaves), to be put back later. */
async function snapshot(keys: readonly string[]): Promise<() => Promise<void>> {
  const records = await Promise.all(keys.map(async (key) => [key, await env.ROBOTS.getWithMetadata(key)] as const));
  return async () => {
    for (const [key, record] of records)
      await env.ROBOTS.put(key, record.value ?? "", record.metadata ? { metadata: record.metadata } : {});
  };
}

describe("the cron's index repair never loses a save made while it runs", () => {
  it.each([
    {
      name: "another isolate saves the default (version 2)",
      change: () => putPolicy("", blockGpt("/d/", 454)),
      keys: ["policy", "policy-hosts"],
      line: (index: Index) => index.default?.version,
      version: 2,
      site: "https://docs.example", // no policy of its own: the default's newest judges it
      path: "/d/a",
      before: 453,
      after: 454,
    },
    {
      name: "another isolate deletes shop.example's own policy (version 2, none of its own)",
      change: () => send("DELETE", "?host=shop.example"),
      keys: ["policy:host:shop.example", "policy-hosts"],
      line: (index: Index) => index.hosts["shop.example"]?.version,
      version: 2,
      site: "https://shop.example", // judged by the default again, which does not block /x/
      path: "/x/a",
      before: 451,
      after: 200,
    },
  ])(
    "$name between the cron's index read and its write: the index names it, and an isolate that knew version 1 judges by it",
    async ({ change, keys, line, version, site, path, before, after }) => {
      expect((await putPolicy("", blockGpt("/d/", 453))).status).toBe(200);
      expect((await putPolicy("?host=shop.example", blockGpt("/x/", 451))).status).toBe(200);
      expect((await putPolicy("?host=blog.example", blockGpt("/x/", 452))).status).toBe(200);
      // blog's line lost to a simultaneous save, so the cron has something to repair and writes the index.
      const index = await readIndex();
      delete index.hosts["blog.example"];
      await env.ROBOTS.put("policy-hosts", JSON.stringify(index));
      const unchanged = await snapshot(keys);
      // The change as another isolate leaves KV (record and index), then KV back as it was.
      expect((await change()).status).toBe(200);
      const changed = await snapshot(keys);
      await unchanged();
      clearPolicyMemory();
      expect(await statusOf(site, path)).toBe(before); // this isolate remembers version 1
      await runCron({ ROBOTS: kvWithSaveDuringIndexRead(changed) });
      expect((await readIndex()).hosts["blog.example"]?.version).toBe(1); // the repair itself worked
      expect(line(await readIndex())).toBe(version);
      vi.useFakeTimers({ now: Date.now() + RECHECK_MS + 1, toFake: ["Date"] });
      await statusOf(site, path); // re-reads the index
      expect(await statusOf(site, path)).toBe(after);
    },
  );
});
