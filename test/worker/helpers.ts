// Shared set-up for the Worker tests: a fake origin behind the global fetch, a call into the
// Worker in the real runtime, and a clean slate (KV and isolate memory) per test.
import { createExecutionContext, createScheduledController, reset, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import worker from "../../src/worker/index.ts";
import { clearPauseMemory } from "../../src/worker/pause.ts";
import { clearRobotsMemory } from "../../src/worker/robots/cache.ts";
import { clearRangesMemory } from "../../src/worker/identity/crawler-ranges.ts";
import { clearCataloguesMemory } from "../../src/worker/identity/catalogues.ts";
import { clearSignatureDirectoryMemory } from "../../src/worker/identity/signature-directory.ts";
import { clearSignatureReuseMemory } from "../../src/worker/identity/verify-signature.ts";
import { clearReverseDnsMemory } from "../../src/worker/identity/reverse-dns.ts";
import { clearIdentityHealth } from "../../src/worker/identity/verify-crawler.ts";
import { clearPolicyMemory } from "../../src/worker/live-policy.ts";
import { clearActivityMemory, flushSettings } from "../../src/worker/activity/recorder.ts";
import { clearLedgerMemory } from "../../src/worker/activity/ledger-memory.ts";
import { clearObjectProblems } from "../../src/worker/object-problems.ts";
import { clearStoreMemory } from "../../src/worker/store.ts";
import { clearOwnFaults } from "../../src/worker/own-faults.ts";
import { clearChargeMemory } from "../../src/worker/charges/recorder.ts";

export const ORIGIN = "https://origin.test";
export const SITE = "https://www.example.com";
export const TOKEN = "test-admin-token";

export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
export const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
export const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
export const ADSBOT = "AdsBot-Google (+http://www.google.com/adsbot.html)";
export const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** How the fake origin answers robots.txt: a body, a status, a hang, a network error. */
export type RobotsBehaviour =
  | { body: string | Uint8Array; status?: number; headers?: Record<string, string> }
  | { status: number; location?: string; body?: string }
  | { hang: true }
  | { networkError: true };

export interface FakeOrigin {
  robots: RobotsBehaviour | ((url: URL) => RobotsBehaviour);
  /** Every URL the fake origin was asked for, in order. */
  readonly requests: string[];
  /** The User-Agent header of each robots.txt request, in order. */
  readonly robotsUserAgents: (string | null)[];
}

/** Replace the global fetch (the origin and every robots.txt fetch) with a fake origin. */
export function fakeOrigin(robots: FakeOrigin["robots"]): FakeOrigin {
  const origin: FakeOrigin = { robots, requests: [], robotsUserAgents: [] };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    origin.requests.push(request.url);
    if (url.pathname.endsWith("robots.txt") || url.pathname.startsWith("/hop")) {
      origin.robotsUserAgents.push(request.headers.get("user-agent"));
      const behaviour = typeof origin.robots === "function" ? origin.robots(url) : origin.robots;
      return robotsAnswer(behaviour, request.signal);
    }
    return new Response(`origin page ${url.pathname}${url.search}`, { status: 200, headers: { "x-origin": "yes" } });
  });
  return origin;
}

function robotsAnswer(behaviour: RobotsBehaviour, signal: AbortSignal): Promise<Response> {
  if ("hang" in behaviour) {
    return new Promise((_, fail) => signal.addEventListener("abort", () => fail(signal.reason)));
  }
  if ("networkError" in behaviour) return Promise.reject(new TypeError("Network connection lost."));
  const headers = new Headers("headers" in behaviour ? behaviour.headers : {});
  if ("location" in behaviour && behaviour.location) headers.set("location", behaviour.location);
  return Promise.resolve(new Response(behaviour.body ?? "", { status: behaviour.status ?? 200, headers }));
}

/** A clean slate: KV emptied, isolate memory forgotten, mocks and clocks restored. */
export async function freshState(): Promise<void> {
  vi.restoreAllMocks();
  // Decision logs are asserted where they matter; elsewhere they would drown the output.
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  vi.useRealTimers();
  await reset();
  clearRobotsMemory();
  clearPauseMemory();
  clearRangesMemory();
  clearCataloguesMemory();
  clearSignatureDirectoryMemory();
  clearSignatureReuseMemory();
  clearReverseDnsMemory();
  clearIdentityHealth();
  clearPolicyMemory();
  clearActivityMemory();
  clearLedgerMemory();
  clearObjectProblems();
  clearStoreMemory();
  clearOwnFaults();
  clearChargeMemory();
  // Activity is flushed within each call's waitUntil work, so a test reads it right after.
  flushSettings.delayMs = 0;
}

/** Call the Worker as the runtime would, waiting for its waitUntil work. */
export async function call(
  path: string,
  options: {
    ua?: string | null;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    env?: Partial<Env>;
    /** request.cf, as Cloudflare would set it (e.g. botManagement). */
    cf?: Record<string, unknown>;
    /** Scheme and host the request is addressed to (route mode: the Host header); SITE by default. */
    site?: string;
  } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.ua !== null) headers.set("user-agent", options.ua ?? CHROME);
  const init: RequestInit = { method: options.method ?? "GET", headers, body: options.body ?? null };
  if (options.cf) init.cf = options.cf;
  const request = new Request(`${options.site ?? SITE}${path}`, init);
  const ctx = createExecutionContext();
  const testEnv = options.env ? ({ ...env, ...options.env } as Env) : (env as Env);
  const response = await worker.fetch(request, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** Admin API call with the right token unless told otherwise. */
export function admin(
  path: string,
  options: { method?: string; token?: string | null; body?: unknown; env?: Partial<Env> } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token !== null) headers["authorization"] = `Bearer ${options.token ?? TOKEN}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  return call(`/__robots/${path}`, {
    method: options.method ?? "GET",
    headers,
    ua: CHROME,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    ...(options.env && { env: options.env }),
  });
}

/** Run the Worker's Cron Trigger as the runtime would, waiting for its waitUntil work. */
export async function runCron(envOverride?: Partial<Env>): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: new Date(), cron: "*/30 * * * *" }),
    envOverride ? ({ ...env, ...envOverride } as Env) : (env as Env),
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** How many robots.txt fetches the fake origin has answered. */
export function robotsFetches(origin: FakeOrigin): number {
  return origin.requests.filter((url) => url.endsWith("/robots.txt")).length;
}

/**
 * Addresses inside the published lists the tests store (storeCrawlerLists): a request from one
 * of them is a verified claim, as a crawler's real request would be. Without a list or an address,
 * a claim is unverifiable and judged under its group and `*` (policy/claim.ts).
 */
export const CRAWLER_ADDRESSES = {
  googlebot: "66.249.64.7",
  "google-special": "66.249.90.7",
  bingbot: "157.55.39.7",
  gptbot: "20.171.206.7",
} as const;

/** Store a published list for each source in CRAWLER_ADDRESSES, as the cron would. */
export async function storeCrawlerLists(): Promise<void> {
  const sources = Object.fromEntries(
    Object.entries(CRAWLER_ADDRESSES).map(([name, address]) => [
      name,
      { fetchedAt: Date.now(), cidrs: [`${address.split(".").slice(0, 3).join(".")}.0/24`] },
    ]),
  );
  await env.ROBOTS.put("crawler-ranges", JSON.stringify({ sources }));
}

/** The headers of a request from the named source's crawler address. */
export function fromCrawler(source: keyof typeof CRAWLER_ADDRESSES): Record<string, string> {
  return { "cf-connecting-ip": CRAWLER_ADDRESSES[source] };
}

/** The Worker's KV, noting in `reads` each key it reads that starts with `prefix` ("policy", "robots:"). */
export function countingKv(reads: string[], prefix = "policy"): KVNamespace {
  return new Proxy(env.ROBOTS, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "get") return (value as (...args: unknown[]) => unknown).bind(target);
      return (key: string, ...rest: unknown[]) => {
        if (key.startsWith(prefix)) reads.push(key);
        return (value as (...args: unknown[]) => unknown).call(target, key, ...rest);
      };
    },
  });
}

/**
 * Host policies written straight into KV as the admin API stores them (each host's record with
 * one version of `text`, and the index naming them), around the API's own bounds: for tests of
 * what the isolate does with more than a save would allow.
 */
export async function storeHostPolicies(hosts: readonly string[], text: string): Promise<void> {
  const line = { version: 1, savedAt: 1, via: "put", own: true };
  await env.ROBOTS.put(
    "policy-hosts",
    JSON.stringify({ schema: 1, hosts: Object.fromEntries(hosts.map((h) => [h, line])) }),
  );
  const version = { version: 1, savedAt: 1, via: "put", saveId: "x", text };
  await Promise.all(
    hosts.map((host) => env.ROBOTS.put(`policy:host:${host}`, JSON.stringify({ schema: 1, versions: [version] }))),
  );
}
