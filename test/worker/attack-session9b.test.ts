// Attack session 9b: the two request-path changes of bce4c22 (AUTHORITIES read once into Sets,
// answers kept per spelling) and 9c3a148 (robots.txt memory weighed by its stored copies).
// Holes are failing tests named "HOLE: …"; attacks that held pass.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseConfig, type Config } from "../../src/config/read-config.ts";
import { authorityOf, isServedAuthority, isServedByPatternOnly } from "../../src/worker/robots/authorities.ts";
import { IsolateMemory } from "../../src/worker/isolate-memory.ts";
import { clearRobotsMemory, robotsWeight, storedRobots } from "../../src/worker/robots/cache.ts";
import { MemoryBudget, ROBOTS_MEMORY_BUDGET_BYTES as MEMORY_MAX_BYTES } from "../../src/worker/memory-budget.ts";
import { applyFetch } from "../../src/worker/robots/entry.ts";
import { writeEntry } from "../../src/worker/store.ts";
import { countingKv } from "./helpers.ts";

// ---------------------------------------------------------------------------------------------
// REFERENCE ONLY (not product code): isServedAuthority / isServedByPatternOnly as they were
// before bce4c22 (`git show bce4c22^:src/worker/robots/authorities.ts`), copied verbatim.
function oldWithoutTrailingDots(host: string): string {
  const trimmed = host.replace(/\.+$/, "");
  return trimmed === "" ? host : trimmed;
}
function oldIsServedAuthority(config: Config, authority: string): boolean {
  if (config.originUrl) return authority === config.originUrl.origin;
  if (!config.authorities) return true;
  const host = URL.canParse(authority) ? new URL(authorityOf(new URL(authority))).host : undefined;
  if (host === undefined) return false;
  return config.authorities.some((listed) => {
    const pattern = oldWithoutTrailingDots(listed);
    return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
}
function oldIsServedByPatternOnly(config: Config, authority: string): boolean {
  if (config.originUrl || !config.authorities || !oldIsServedAuthority(config, authority)) return false;
  const host = new URL(authorityOf(new URL(authority))).host;
  return !config.authorities.some((listed) => oldWithoutTrailingDots(listed) === host);
}
// ---------------------------------------------------------------------------------------------

const outcome = (run: () => boolean): string => {
  try {
    return String(run());
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};

const AUTHORITIES = [
  "shop.example",
  "blog.example.",
  "*.tenants.example",
  "*.ports.example:8443",
  "www.x.example:8080",
  "127.0.0.1",
  "203.0.113.5:8443",
  "[::1]",
  "xn--bcher-kva.example",
  "*.xn--bcher-kva.example",
  "*.7.example",
  "tenants.example:8443",
].join(", ");

const hostBases = [
  "shop.example",
  "SHOP.EXAMPLE",
  "Shop.Example",
  "blog.example",
  "a.tenants.example",
  "a.b.tenants.example",
  "a..tenants.example",
  ".tenants.example",
  "..tenants.example",
  "tenants.example",
  "eviltenants.example",
  "a.tenants.example.evil.test",
  "a.ports.example",
  "ports.example",
  "www.x.example",
  "127.0.0.1",
  "0x7f.0.0.1",
  "0177.0.0.1",
  "2130706433",
  "127.1",
  "203.0.113.5",
  "0xcb.0.113.5",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "bücher.example",
  "xn--bcher-kva.example",
  "a.bücher.example",
  "a.xn--bcher-kva.example",
  "shop%2eexample",
  "a%2etenants.example",
  "shop.example%2e",
  "a.7.example",
  "a.0x7.example",
  "7.example",
  "x.7",
  "a.tenants.7",
  "shop.example.7",
  "a.tenants.0x7f",
  "",
];
const dots = ["", ".", "..", "..."];
const ports = ["", ":", ":80", ":443", ":0443", ":8443", ":08443", ":8080"];
const schemes = ["https://", "http://", "HTTPS://", "ws://", "ftp://", "foo://", "file://"];
const userinfos = ["", "user@", "user:pw@", "shop.example@"];

function* spellings(): Generator<string> {
  for (const scheme of schemes)
    for (const base of hostBases)
      for (const dot of dots)
        for (const port of ports)
          for (const userinfo of scheme === "https://" || scheme === "foo://" ? userinfos : [""])
            yield `${scheme}${userinfo}${base}${dot}${port}`;
  yield "not a url";
  yield "https://";
  yield "https:///";
  yield "https://shop.example/path?q";
  yield "https://shop.example#x";
}

describe("AUTHORITIES as Sets (bce4c22): old and new answer alike", () => {
  const { config, problems } = parseConfig({ AUTHORITIES });

  it("the differential config parses", () => {
    expect(problems).toEqual([]);
    expect(config.authorities?.length).toBe(12);
  });

  /** Every generated spelling (16,645) with the old and the new answers (asked twice: the kept answer too). */
  const compared = () =>
    [...spellings()].map((spelling) => {
      const before = `${outcome(() => oldIsServedAuthority(config, spelling))}/${outcome(() => oldIsServedByPatternOnly(config, spelling))}`;
      const now = `${outcome(() => isServedAuthority(config, spelling))}/${outcome(() => isServedByPatternOnly(config, spelling))}`;
      const again = `${outcome(() => isServedAuthority(config, spelling))}/${outcome(() => isServedByPatternOnly(config, spelling))}`;
      return { spelling, before, now, again };
    });

  it("held: the kept answer is the first answer; nothing old refused is now served; where old threw, new says false", () => {
    const rows = compared();
    expect(rows.length).toBeGreaterThan(16_000);
    expect(rows.filter((row) => row.now !== row.again)).toEqual([]);
    // Never newly served (the edge would fetch a host the operator did not list).
    expect(rows.filter((row) => row.now.startsWith("true") && !row.before.startsWith("true"))).toEqual([]);
    expect(rows.filter((row) => row.now.endsWith("/true") && !row.before.endsWith("/true"))).toEqual([]);
    // Old threw (a host whose last label is a number once its trailing dots go, e.g. `shop.example.7..`:
    // authorityOf's output no longer parses); new answers false. Not served both ways: an improvement.
    const threw = rows.filter((row) => row.before.startsWith("throws"));
    expect(threw.length).toBe(520);
    expect(threw.filter((row) => row.now !== "false/false")).toEqual([]);
  });

  it("a listed IP literal spelled non-canonically with 2+ trailing dots (Host 0x7f.0.0.1..) is served as the address it names", () => {
    // The old code re-parsed authorityOf's output, so `https://0x7f.0.0.1..` (which the URL parser
    // leaves as a domain because of the trailing dots) became 127.0.0.1 and was served; the new
    // code compares the trimmed spelling `0x7f.0.0.1` and answers false (edge-decision step 3:
    // not served -> forward, unjudged). 360 spellings: 0x7f.0.0.1.., 0177.0.0.1.., 2130706433..,
    // 127.1.., 0xcb.0.113.5..:8443 ... Severity low: needs an IP literal in AUTHORITIES and a Host
    // header Cloudflare routes to the Worker.
    const differ = compared().filter((row) => !row.before.startsWith("throws") && row.before !== row.now);
    expect(isServedAuthority(config, "https://0x7f.0.0.1..")).toBe(
      oldIsServedAuthority(config, "https://0x7f.0.0.1.."),
    );
    expect(differ.map((row) => `${row.spelling}: old ${row.before}, new ${row.now}`).slice(0, 12)).toEqual([]);
  });
});

describe("IsolateMemory weight (9c3a148): no drift", () => {
  it("held: 20,000 random set/replace/delete(absent)/get/clear steps: totalWeight is the sum of what is held, within the bound", () => {
    let seed = 9;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const memory = new IsolateMemory<string, string>({
      maxEntries: 7,
      maxAgeMs: 50,
      weigh: (text) => text.length,
      budget: new MemoryBudget(40),
    });
    const keys = Array.from({ length: 12 }, (_, n) => `k${n}`);
    for (let step = 0; step < 20_000; step++) {
      const key = keys[random(keys.length)] ?? "k0";
      const op = random(10);
      if (op < 5) memory.set(key, "x".repeat(random(45)), step);
      else if (op < 7) memory.delete(key);
      else if (op < 9) memory.get(key, step);
      else if (random(50) === 0) memory.clear();
      const held = keys.map((k) => memory.peek(k)).filter((v): v is string => v !== undefined);
      const sum = held.reduce((total, value) => total + value.length, 0);
      expect(memory.totalWeight).toBe(sum);
      expect(held.length).toBe(memory.size);
      expect(memory.size).toBeLessThanOrEqual(7);
      if (memory.size > 1) expect(sum).toBeLessThanOrEqual(40);
    }
  });
});

const entryOf = (authority: string, body: string) =>
  applyFetch(
    undefined,
    authority,
    {
      kind: "ok",
      status: 200,
      body: new TextEncoder().encode(body),
      etag: undefined,
      lastModified: undefined,
      maxAge: undefined,
    },
    { now: Date.now(), maxAgeSeconds: 86_400 },
  );
/** A robots.txt near RFC 9309's 500 KiB of one-line groups: what a tenant (or any origin) may serve. */
const manyGroups = () => {
  let text = "";
  for (let n = 0; text.length < 500 * 1024; n++) text += `User-agent: a${n.toString(36)}\nDisallow: /\n`;
  return text;
};

describe("robots.txt memory bound (9c3a148): what the 16 MiB holds, and who reads KV", () => {
  it("the bound weighs the text an entry holds, its copy and its parsed model: the entries MEMORY_MAX_BYTES admits hold no more text than it", () => {
    const entry = entryOf("https://big.example", manyGroups());
    const copy = entry.copy;
    if (!copy) throw new Error("no copy");
    const weighed = robotsWeight({ entry }); // robots/cache.ts
    const admitted = Math.floor(MEMORY_MAX_BYTES / weighed);
    const heldText = admitted * (copy.bodyBase64.length + copy.model.length);
    console.log({ weighed, model: copy.model.length, admitted, heldTextMB: heldText / 1e6 });
    // Measured in node (v20, --expose-gc) for this file: the compiled enforcementMatcher retains
    // ~30 MB; robotsWeight counts an estimate of it once built (robots-compiled-weight.test.ts).
    expect(heldText).toBeLessThanOrEqual(MEMORY_MAX_BYTES);
  });

  it("25 hosts whose robots.txt is near 500 KiB, asked in turn, stay warm: the second round reads less than every entry", async () => {
    const body = `User-agent: *\nDisallow: /private/\n# ${"x".repeat(500 * 1024 - 40)}\n`;
    const authorities = Array.from({ length: 25 }, (_, n) => `https://big${n}.example`);
    for (const authority of authorities) await writeEntry(env.ROBOTS, entryOf(authority, body));
    clearRobotsMemory();
    const reads: string[] = [];
    for (const authority of authorities) await storedRobots(authority, countingKv(reads, "robots:"));
    reads.length = 0;
    for (const authority of authorities) await storedRobots(authority, countingKv(reads, "robots:"));
    console.log(`second round: ${reads.length} KV reads for ${authorities.length} hosts`);
    // An LRU one entry short: each request evicts the host asked next (and its compiled matcher).
    expect(reads.length).toBeLessThan(authorities.length);
    clearRobotsMemory();
  }, 60_000);
});
