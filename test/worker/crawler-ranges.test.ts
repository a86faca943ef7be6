// The cron's refresh of published lists: what a failed or bad fetch leaves in KV (fetch mocked).
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { RANGE_SOURCES } from "../../src/agents/operators/tables.ts";
import { refreshCrawlerRanges } from "../../src/worker/identity/crawler-ranges.ts";
import { ROBOTS_FETCH_USER_AGENT } from "../../src/worker/robots/origin-fetch.ts";
import { freshState } from "./helpers.ts";

const OLD = { fetchedAt: 1, cidrs: ["192.0.2.0/24"] };
const JAFAR = { formatVersion: "1.0", prefixes: [{ ipv4Prefix: "198.51.100.0/24" }] };
type Behaviour = "jafar" | "v2" | "503" | "html" | "network";

function answer(behaviour: Behaviour): Promise<Response> {
  switch (behaviour) {
    case "jafar":
      return Promise.resolve(Response.json(JAFAR));
    case "v2":
      return Promise.resolve(Response.json({ ...JAFAR, formatVersion: "2.0" }));
    case "503":
      return Promise.resolve(new Response("down", { status: 503 }));
    case "html":
      return Promise.resolve(new Response("<html>", { headers: { "content-type": "text/html" } }));
    case "network":
      return Promise.reject(new TypeError("network down"));
  }
}

beforeEach(freshState);

describe("refreshCrawlerRanges keeps the last good list", () => {
  it.each([
    { behaviour: "jafar", previous: OLD, stored: ["198.51.100.0/24"], error: null },
    { behaviour: "jafar", previous: undefined, stored: ["198.51.100.0/24"], error: null },
    { behaviour: "v2", previous: OLD, stored: OLD.cidrs, error: "no valid prefixes in the answer" },
    { behaviour: "503", previous: OLD, stored: OLD.cidrs, error: "HTTP 503" },
    {
      behaviour: "html",
      previous: OLD,
      stored: OLD.cidrs,
      error: "the answer is not JSON",
    },
    { behaviour: "network", previous: OLD, stored: OLD.cidrs, error: "network down" },
    { behaviour: "503", previous: undefined, stored: undefined, error: "HTTP 503" },
    { behaviour: "network", previous: undefined, stored: undefined, error: "network down" },
  ] as const)("$behaviour with previous $previous.cidrs -> $stored", async ({ behaviour, previous, stored, error }) => {
    const asked: string[] = [];
    const agents = new Set<string | null>();
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const request = new Request(input, init);
      asked.push(request.url);
      agents.add(request.headers.get("user-agent"));
      return answer(behaviour);
    });
    if (previous) await env.ROBOTS.put("crawler-ranges", JSON.stringify({ sources: { anthropic: previous } }));
    await refreshCrawlerRanges(env.ROBOTS, { timeoutMs: 1000, urls: new Map() });
    const after = await env.ROBOTS.get<{
      sources: Record<string, { cidrs: string[] }>;
      attempts: Record<string, { error: string | null }>;
    }>("crawler-ranges", "json");
    expect(after?.sources["anthropic"]?.cidrs).toEqual(stored);
    expect(after?.attempts["anthropic"]?.error).toBe(error); // what GET status shows as the last error
    expect(asked.toSorted()).toEqual(RANGE_SOURCES.map((source) => source.url).toSorted());
    // Operators' CDNs refuse anonymous clients: the fetch names itself as the robots.txt fetch does.
    expect([...agents]).toEqual([ROBOTS_FETCH_USER_AGENT]);
  });
});
