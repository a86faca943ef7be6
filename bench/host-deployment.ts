// A deployment of many hosts, each with a policy of its own stored as the admin API stores it, on
// KV as a Map that counts its reads: shared by bench/hosts.bench.ts (the policy lookup and the
// decision) and bench/whole-request.bench.ts (the Worker's whole request path).

// The same robots.txt for every host (its cost is not what differs here): a few groups and rules.
export const ROBOTS = [
  "User-agent: *",
  "Disallow: /private/",
  "Disallow: /*?sessionid=",
  "Allow: /private/press/",
  "",
  "User-agent: GPTBot",
  "Disallow: /members/",
  "",
  "User-agent: Googlebot",
  "Allow: /",
].join("\n");

/** The requests both whole-request benches send (Node: whole-request.bench.ts; workerd: hosts-workerd.bench.ts). */
export const GPTBOT_UA =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
export const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** An address in the GPTBot list each bench stores, so the claim is verified as it would be for the real crawler. */
export const GPTBOT_ADDRESS = "20.171.206.7";
export const PERSON_ADDRESS = "198.51.100.23";
// GPTBot may fetch these (robots.txt's GPTBot group, no route of the host's policy refusing them)…
export const ALLOWED = ["/", "/search?q=shoes", "/products/123?color=red", "/caf%C3%A9/menu", "/private/a/b"];
// …and not these: robots.txt's `Disallow: /members/` (403), the policy's `/x/` route (451).
export const DISALLOWED = ["/members/", "/x/a/b", "/members/list?page=2", "/x/"];

/** A host's policy: a few routes, as an agency writes one per client site. */
export const policyOf = (n: number) =>
  JSON.stringify({
    routes: [
      { pattern: `/x/`, blockStatus: 451, rules: [{ crawlers: ["GPTBot"], action: "block" }] },
      { pattern: `/site-${n}/private/`, rules: [{ crawlers: ["category:ai-training"], action: "block" }] },
      { pattern: "/*.pdf$", mode: "report" },
    ],
  });

/** What of a KV namespace the Worker's request path and the admin API's saves use (typed here without the Workers types). */
export interface MapKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(): Promise<{ keys: never[]; list_complete: true; cacheStatus: null }>;
}

/** KV as a Map, counting reads. */
export function mapKv(): { kv: MapKv; reads: () => number } {
  const values = new Map<string, string>();
  let reads = 0;
  const kv: MapKv = {
    get: async (key: string) => {
      reads++;
      return values.get(key) ?? null;
    },
    put: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
    list: async () => ({ keys: [], list_complete: true, cacheStatus: null }),
  };
  return { kv, reads: () => reads };
}

/** `count` hosts, each with its policy stored as the admin API stores it (the index and one record a host). */
export async function storedPolicies(count: number, name = (n: number) => `site${n}.example`, policy = policyOf) {
  const hosts = Array.from({ length: count }, (_, n) => name(n));
  const { kv, reads } = mapKv();
  const line = { version: 1, savedAt: 1, via: "put", own: true };
  await kv.put("policy-hosts", JSON.stringify({ schema: 1, hosts: Object.fromEntries(hosts.map((h) => [h, line])) }));
  for (const [n, host] of hosts.entries()) {
    const version = { version: 1, savedAt: 1, via: "put", saveId: String(n), text: policy(n) };
    await kv.put(`policy:host:${host}`, JSON.stringify({ schema: 1, versions: [version] }));
  }
  return { hosts, kv, reads };
}

/**
 * `length` requests' hosts as traffic spreads: a Zipf distribution (s = 1), the few large sites
 * getting most requests. Deterministic (an LCG).
 */
export function zipfHosts(hosts: readonly string[], length: number): string[] {
  let seed = 42;
  const zipfWeights = hosts.map((_, rank) => 1 / (rank + 1));
  const zipfTotal = zipfWeights.reduce((sum, weight) => sum + weight, 0);
  return Array.from({ length }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    let left = (seed / 2 ** 31) * zipfTotal;
    const rank = zipfWeights.findIndex((weight) => (left -= weight) <= 0);
    return hosts[rank === -1 ? 0 : rank] ?? "";
  });
}
