// Every admin route that reads a body reads it through one size-limited reader
// (worker/admin-body.ts): a Content-Length past the route's bound is refused before reading,
// and a body without one (chunked) is cancelled as soon as it passes the bound: 413, nothing
// saved. Before, POST replay read a chunked body whole before its 1 MiB check, and POST test
// and POST pause read any body whole (request.json()).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import worker from "../../src/worker/index.ts";
import { readPause } from "../../src/worker/store.ts";
import { admin, CHROME, fakeOrigin, freshState, SITE, TOKEN } from "./helpers.ts";

beforeEach(async () => {
  await freshState();
  fakeOrigin({ body: "User-agent: *\nDisallow: /private/\n" });
});
afterEach(freshState);

const CHUNK = 16 * 1024;
/** What a client offers: 8 MiB of spaces inside a JSON string, in 16 KiB chunks, counting what the Worker pulls. */
function offeredBody(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const total = 8 * 1024 * 1024;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === 0) {
        const start = new TextEncoder().encode('{"reason": "');
        pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x20).map((byte, i) => start[i] ?? byte));
        return;
      }
      if (pulled >= total) {
        controller.close();
        return;
      }
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
    },
  });
  return { stream, pulled: () => pulled };
}

async function send(method: string, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const init: RequestInit & { duplex?: string } = {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "user-agent": CHROME, "content-type": "application/json", ...headers },
    body,
  };
  if (body instanceof ReadableStream) init.duplex = "half";
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${SITE}/__robots/${path}`, init), env as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const routes = [
  { method: "PUT", path: "policy", max: 65_536 },
  { method: "POST", path: "policy/rollback", max: 1024 },
  { method: "POST", path: "replay", max: 1_048_576 },
  { method: "POST", path: "test", max: 1_048_576 },
  { method: "POST", path: "pause", max: 16_384 },
];

describe("admin bodies are read no further than their bound", () => {
  it.each(routes)(
    "$method $path: a chunked body past $max bytes -> 413, read no further",
    async ({ method, path, max }) => {
      const offered = offeredBody();
      const response = await send(method, path, offered.stream);
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: string }).error).toBe(`the body must be at most ${max} bytes`);
      expect(offered.pulled()).toBeLessThanOrEqual(max + 4 * CHUNK);
    },
  );

  it.each(routes)("$method $path: a Content-Length past $max bytes -> 413", async ({ method, path, max }) => {
    const response = await send(method, path, " ".repeat(max + 1));
    expect(response.status).toBe(413);
  });

  it("nothing was saved: no pause, policy version 0", async () => {
    for (const { method, path } of routes) await send(method, path, offeredBody().stream);
    expect(await readPause(env.ROBOTS)).toBeUndefined();
    const policy = (await (await admin("policy")).json()) as { version: number };
    expect(policy.version).toBe(0);
  });

  it.each([
    { method: "POST", path: "pause", body: JSON.stringify({ minutes: 5, reason: "é".repeat(500) }), status: 200 },
    { method: "POST", path: "test", body: JSON.stringify({ ua: "FooBot/1.0", urls: ["/private/x"] }), status: 200 },
  ])("$method $path: a body within the bound is read as before", async ({ method, path, body, status }) => {
    expect((await send(method, path, body)).status).toBe(status);
  });
});
