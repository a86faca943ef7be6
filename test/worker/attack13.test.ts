// Attack 13 (outside review of 8d048ab..f607158: the matching budget at the edge). Each row
// FAILS on f607158; the expectations are the project's own rules, not the current behaviour.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, fakeOrigin, freshState, GOOGLEBOT } from "./helpers.ts";

const MID = `/${"a".repeat(99)}`;
const LONG = `/${"a".repeat(7_999)}`;

// One group for googlebot of ~12,800 distinct wildcard rules (200 KiB), as in
// matching-budget.test.ts: every path of 20 characters or more is past the decision's budget
// (MatchingTooCostly). It was 500 KiB (every path, even "/"), which is now over the per-file cap
// (A13-3: 21.3 MiB; it estimates at 47.7 MiB) and so never compiled: robots.txt unavailable.
let COSTLY = "user-agent:googlebot\n";
for (let n = 0; COSTLY.length < 200 * 1024 - 20; n++) COSTLY += `disallow:/*a${n.toString(36)}\n`;

beforeEach(async () => {
  await freshState();
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  fakeOrigin({ body: COSTLY });
});
afterEach(freshState);

describe("A13-1, as decided after attack 14: a decision too costly to match answers crawlers 503 whatever MODE and FAIL_OPEN say", () => {
  // Attack 13 (A13-1) had our faults follow MODE=report and FAIL_OPEN=true, so that an operator
  // watching in report mode would not have Googlebot answered 503 by a tenant's file. Attack 14
  // showed the cost of a too-costly decision is a client's choice: a 16,000-character URL whose
  // one refusing spelling comes last made an ordinary corpus file's decision too costly, and
  // under FAIL_OPEN or MODE=report (with a route set to enforce) the crawler got the page its
  // group disallows (A14-1, A14-2). So for this fault a crawler gets 503 + Retry-After, never
  // the page; what the operator reads says so.
  it.each([
    { path: MID, env: { MODE: "report" } },
    { path: LONG, env: { MODE: "report" } },
    { path: MID, env: { FAIL_OPEN: "true" } },
    { path: MID, env: {} },
  ])("GOOGLEBOT $path.length-character path under $env -> 503 + Retry-After, not the page", async ({ path, env }) => {
    const response = await call(path, { ua: GOOGLEBOT, env });
    expect([response.status, response.headers.get("retry-after")]).toEqual([503, "120"]);
  });

  it.each([{ env: { MODE: "report" } }, { env: { FAIL_OPEN: "true" } }, { env: {} }])(
    "GOOGLEBOT, a 100-character path, under $env: GET status names the fault and says 'crawlers were answered 503'",
    async ({ env }) => {
      const { admin } = await import("./helpers.ts");
      await call(MID, { ua: GOOGLEBOT, env });
      const status = (await (await admin("status")).json()) as { ownFaults: { key: string; cause: string }[] };
      expect(
        status.ownFaults.map(({ key, cause }) => [key, cause.endsWith("; crawlers were answered 503, people pass")]),
      ).toEqual([["robots.txt of https://origin.test", true]]);
    },
  );
});

describe("A13-1b a crawler in disguise whose decision is too costly is not forwarded unjudged", () => {
  // DISGUISED_CRAWLERS=enforce judges a browser User-Agent from a crawler-only range as that
  // crawler (here GPTBot, whose group is past the budget). The fail-safe asked the User-Agent
  // only ("a person") and forwarded it unjudged; the decision now tells it what it knew.
  let costly = "user-agent:gptbot\n";
  for (let n = 0; costly.length < 200 * 1024 - 20; n++) costly += `disallow:/*a${n.toString(36)}\n`;
  const GPTBOT_ADDRESS = "20.171.206.7";

  it.each([
    { who: "a browser UA from GPTBot's crawler-only range", address: GPTBOT_ADDRESS, status: 503 },
    { who: "a browser UA from a person's address", address: "203.0.113.9", status: 200 },
  ])("$who, a 100-character path -> $status", async ({ address, status }) => {
    const { admin } = await import("./helpers.ts");
    const { env } = await import("cloudflare:workers");
    await env.ROBOTS.put(
      "crawler-ranges",
      JSON.stringify({ sources: { gptbot: { fetchedAt: Date.now(), cidrs: ["20.171.206.0/24"] } } }),
    );
    fakeOrigin({ body: costly });
    const vars = { DISGUISED_CRAWLERS: "enforce" };
    expect((await admin("refresh", { method: "POST", env: vars })).status).toBe(200);
    const response = await call(MID, { headers: { "cf-connecting-ip": address }, env: vars });
    expect(response.status).toBe(status);
  });
});

/** One group of `disallow:/xxxxxxxxx<n>` rules (A13-3) filling `bytes`. */
function shaped(bytes: number): string {
  let text = "user-agent: *\n";
  for (let n = 0; text.length < bytes - 60; n++) text += `disallow:/${n.toString(36).padStart(11, "x")}\n`;
  return text;
}

describe("A13-3 quota/CPU: two tenants' files each under the cap but over half the budget, asked in turn", () => {
  // The per-file cap was 3/4 of the one 64 MiB budget (memory-budget.ts), so two files between
  // 32 and 48 MiB estimated could not be held together: a client asking `a.` and `b.` of one `*.`
  // AUTHORITIES pattern in turn made each load drop the other (the least recently used), and
  // every request read KV (500 KiB), parsed the model and compiled 23,270 rules again. Each
  // load also pushed every other tenant out of the isolate (36 MiB of 64). One group of
  // `disallow:/xxxxxxxxx<n>` (12 characters, 23,270 rules, 500 KiB): 36.4 MiB estimated
  // (/tmp/s11-attack13-cpu/weight.ts). Measured on f607158: a KV read on every one of the 12
  // loads below. Only two hosts are needed (no new-host budget spent after the first two).
  // Fixed: the cap is a third of the budget (21.3 MiB). The 36.4 MiB file is over it (robots.txt
  // unavailable, its verdict kept: no re-parse); the same shape cut to 250 KiB (11,000 rules,
  // ~18 MiB) is under it, and two of them are held together.
  const hosts = ["https://a.tenants.example", "https://b.tenants.example"];

  it.each([
    {
      size: "500 KiB (36.4 MiB estimated, over the cap)",
      text: shaped(500 * 1024),
      state: "unavailable",
      refused: undefined,
    },
    { size: "250 KiB (~18 MiB estimated, under the cap)", text: shaped(250 * 1024), state: "ok", refused: false },
  ])(
    "a and b asked in turn 6 times, $size: each read from KV once, not on every request",
    async ({ text, state, refused }) => {
      const { applyFetch } = await import("../../src/worker/robots/entry.ts");
      const { writeEntry } = await import("../../src/worker/store.ts");
      const { clearRobotsMemory, judgedRobots, storedRobots } = await import("../../src/worker/robots/cache.ts");
      const { env } = await import("cloudflare:workers");
      const { countingKv } = await import("./helpers.ts");
      for (const authority of hosts) {
        const entry = applyFetch(
          undefined,
          authority,
          {
            kind: "ok",
            status: 200,
            body: new TextEncoder().encode(text),
            etag: undefined,
            lastModified: undefined,
            maxAge: undefined,
          },
          { now: Date.now(), maxAgeSeconds: 86_400 },
        );
        await writeEntry(env.ROBOTS, entry);
      }
      clearRobotsMemory();
      const reads: string[] = [];
      const kv = countingKv(reads, "robots:");
      const states: string[] = [];
      for (let round = 0; round < 6; round++) {
        for (const authority of hosts) {
          const robots = await storedRobots(authority, kv);
          if (!robots) throw new Error(`planted entry of ${authority} not found`);
          const judged = judgedRobots(robots);
          states.push(judged.state);
          expect(judged.matcher?.decide(["googlebot"], "/xxxxxxxxxx0").allowed).toBe(refused);
        }
      }
      expect(states).toEqual(Array.from({ length: 12 }, () => state));
      expect(reads).toEqual(hosts.map((authority) => `robots:${authority}`));
    },
  );
});

describe("A13-4 replay's live side does not judge a file over the cap as the edge does", () => {
  // The edge judges a robots.txt whose matcher is estimated over the cap as "unavailable"
  // (cache.ts judgedRobots: a crawler 503 + Retry-After); request-path.ts, explain.ts and the
  // tester's live side go through judgedRobots. POST replay (admin/activity.ts replayDraft)
  // builds its live side from `robots.entry.state` ("ok") and `robots.matcher()` (undefined
  // over the cap), and judge.ts passes a request with no matcher: the live side reads "pass"
  // where the edge answered 503, so a draft that would end the 503s shows no change.
  // 500 KiB of one-rule groups (`user-agent:a<n>` / `disallow:/`): ~135-172 MiB estimated.
  let huge = "";
  for (let n = 0; huge.length < 500 * 1024 - 40; n++) huge += `user-agent:a${n.toString(36)}\ndisallow:/\n`;

  it("a crawler answered 503 (file over the cap), replayed under an open draft: one change, live 'unavailable'", async () => {
    const { admin } = await import("./helpers.ts");
    fakeOrigin({ body: huge });
    expect((await admin("refresh", { method: "POST" })).status).toBe(200);
    const OFF = { VERIFY_CRAWLERS: "off" };
    const answered = await call("/x", { ua: GOOGLEBOT, env: OFF });
    expect(answered.status).toBe(503);
    const response = await admin("replay", {
      method: "POST",
      body: { draft: "User-agent: *\nAllow: /\n" },
      env: OFF,
    });
    const answer = (await response.json()) as {
      requests: number;
      changedCount: number;
      changed: { live: { action: string } }[];
    };
    expect(answer.requests).toBe(1);
    expect([answer.changedCount, answer.changed[0]?.live.action]).toEqual([1, "unavailable"]);
  });
});

describe("A13-4b the tester's draft side is held to the cap as the edge would hold it once deployed", () => {
  // A draft was compiled uncapped: a draft over the cap read "refused"/"pass" in the tester where,
  // once deployed, the edge would answer crawlers 503 (robots.txt unavailable).
  let huge = "";
  for (let n = 0; huge.length < 500 * 1024 - 40; n++) huge += `user-agent:a${n.toString(36)}\ndisallow:/\n`;

  it.each([
    { draft: "a draft over the cap", text: huge, action: "unavailable" },
    { draft: "a small draft", text: "User-agent: *\nDisallow: /x\n", action: "block" },
  ])("live allows all; $draft -> draft $action", async ({ text, action }) => {
    const { admin } = await import("./helpers.ts");
    fakeOrigin({ body: "User-agent: *\nAllow: /\n" });
    const OFF = { VERIFY_CRAWLERS: "off" };
    expect((await admin("refresh", { method: "POST", env: OFF })).status).toBe(200);
    const response = await admin("test", {
      method: "POST",
      body: { ua: GOOGLEBOT, urls: ["/x"], draft: text },
      env: OFF,
    });
    const answer = (await response.json()) as {
      results: { live: { action: { action: string } }; draft: { action: { action: string } } }[];
    };
    expect(answer.results.map(({ live, draft }) => [live.action.action, draft.action.action])).toEqual([
      ["pass", action],
    ]);
  });
});

describe("A13-6 GET status says crawlers were answered 503 when only the operator's explain was too costly", () => {
  // own-fault.ts notes every MatchingTooCostly as "a crawler's request was not decided ...;
  // crawlers were answered 503", keyed on the request's authority, also when the request was the
  // admin API's explain (which answers the operator a JSON 500). No crawler was answered: what
  // the operator is shown is not what the edge did.
  it("explain on a too-costly path, no crawler request: no fault claiming crawlers were answered 503", async () => {
    const { admin } = await import("./helpers.ts");
    expect((await admin("refresh", { method: "POST" })).status).toBe(200);
    const response = await admin(`explain?ua=${encodeURIComponent(GOOGLEBOT)}&url=${encodeURIComponent(MID)}`);
    expect(response.status).toBe(500);
    const status = (await (await admin("status")).json()) as { ownFaults: { cause: string }[] };
    expect(status.ownFaults.filter(({ cause }) => cause.includes("crawlers were answered 503"))).toEqual([]);
  });
});

describe("A13-7 the tester (POST test) loses every URL's answer to one too costly to match", () => {
  // `robots-edge check` answers the URLs it can and names the one it could not (cli/check.ts,
  // exit 2); the admin tester's explainRequest lets MatchingTooCostly reach the fail-safe, so
  // one such URL in the list turns the whole answer into a JSON 500 (and notes in GET status
  // that crawlers were answered 503: A13-6). Here every URL is past the budget for googlebot.
  it("googlebot, URLs / and a 100-character path: 200 with a result per URL (each naming why it was not decided), not 500", async () => {
    const { admin } = await import("./helpers.ts");
    expect((await admin("refresh", { method: "POST" })).status).toBe(200);
    const response = await admin("test", { method: "POST", body: { ua: GOOGLEBOT, urls: ["/", MID] } });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      results: { url: string; error?: string; live?: { action: { action: string } } }[];
    };
    expect(answer.results.map(({ url, error, live }) => [url, error?.slice(0, 13), live?.action.action])).toEqual([
      ["/", undefined, "pass"],
      [MID, "not decided: ", undefined],
    ]);
    // The operator's question: no fault claiming a crawler was answered.
    const status = (await (await admin("status")).json()) as { ownFaults: unknown[] };
    expect(status.ownFaults).toEqual([]);
  });
});
