// The cron's refresh of published lists: what a failed or bad fetch leaves in KV (fetch mocked).
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { RANGE_SOURCES } from "../../src/agents/verification.ts";
import { refreshCrawlerRanges } from "../../src/worker/crawler-ranges.ts";
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
    { behaviour: "jafar", previous: OLD, stored: ["198.51.100.0/24"] },
    { behaviour: "jafar", previous: undefined, stored: ["198.51.100.0/24"] },
    { behaviour: "v2", previous: OLD, stored: OLD.cidrs },
    { behaviour: "503", previous: OLD, stored: OLD.cidrs },
    { behaviour: "html", previous: OLD, stored: OLD.cidrs },
    { behaviour: "network", previous: OLD, stored: OLD.cidrs },
    { behaviour: "503", previous: undefined, stored: undefined },
    { behaviour: "network", previous: undefined, stored: undefined },
  ] as const)("$behaviour with previous $previous.cidrs -> $stored", async ({ behaviour, previous, stored }) => {
    const asked: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation((input) => {
      asked.push(new Request(input).url);
      return answer(behaviour);
    });
    if (previous) await env.ROBOTS.put("crawler-ranges", JSON.stringify({ sources: { anthropic: previous } }));
    await refreshCrawlerRanges(env.ROBOTS, 1000);
    const after = await env.ROBOTS.get<{ sources: Record<string, { cidrs: string[] }> }>("crawler-ranges", "json");
    expect(after?.sources["anthropic"]?.cidrs).toEqual(stored);
    expect(asked.toSorted()).toEqual(RANGE_SOURCES.map((source) => source.url).toSorted());
  });
});
