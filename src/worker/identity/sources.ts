/**
 * Every source of identity evidence, as GET status shows it: each published list (its age and
 * last fetch error), reverse DNS (the resolver and what this isolate last saw of it), and
 * Cloudflare's bot fields (whether this isolate has seen them on a crawler's request). A
 * missing or stale list is a warning that says what it does under the settings in force:
 * with VERIFY_CRAWLERS on, its crawlers' claims are unverifiable and refused wherever `*`
 * refuses (503, policy/claim.ts); with DISGUISED_CRAWLERS on, a crawler-only list's browsers
 * are not recognised as its crawler (they pass as people, disguise.ts). A list no setting in
 * force uses (a mixed list with VERIFY_CRAWLERS=off) warns nothing.
 */

import { rangeUseOf, type RangeUse } from "../../agents/operators/tables.ts";
import { RANGE_SOURCES, REVERSE_DNS_RULES } from "../../agents/operators/tables.ts";
import type { Config } from "../../config/read-config.ts";
import { rangeListUrl, STALE_LIST_MS } from "./crawler-ranges.ts";
import { readRanges } from "../store.ts";
import { identityHealth } from "./verify-crawler.ts";

export interface IdentitySources {
  readonly lists: readonly {
    readonly name: string;
    /** Where the list is fetched from now: CRAWLER_RANGES's URL for it, else the operator's. */
    readonly url: string;
    /** CRAWLER_RANGES replaces the operator's address. */
    readonly configured: boolean;
    /** Where the last fetch went (the URL in force then), when one was tried. */
    readonly lastAttemptUrl: string | null;
    readonly tokens: readonly string[];
    /** crawler-only: a browser from it is that crawler in disguise (DISGUISED_CRAWLERS); mixed: never. */
    readonly use: RangeUse;
    readonly fetchedAt: string | null;
    readonly ageSeconds: number | null;
    readonly lastAttemptAt: string | null;
    readonly lastError: string | null;
  }[];
  readonly reverseDns: {
    readonly resolver: string;
    readonly operators: readonly string[];
    readonly lastLookupAt: string | null;
    readonly lastErrorAt: string | null;
    readonly lastError: string | null;
    readonly scope: "this isolate";
  };
  readonly cloudflare: {
    readonly fields: readonly string[];
    readonly lastSeenAt: string | null;
    readonly lastCheckedAt: string | null;
    readonly scope: "this isolate";
  };
  readonly warnings: readonly string[];
}

export async function identitySources(kv: KVNamespace, config: Config, now: number): Promise<IdentitySources> {
  const stored = await readRanges(kv).catch(() => undefined);
  const lists = RANGE_SOURCES.map((source) => {
    const list = stored?.sources[source.name];
    const attempt = stored?.attempts?.[source.name];
    return {
      name: source.name,
      url: rangeListUrl(source, config.crawlerRangeUrls),
      configured: config.crawlerRangeUrls.has(source.name),
      lastAttemptUrl: attempt?.url ?? null,
      tokens: source.tokens,
      use: rangeUseOf(source.name)?.use ?? "mixed",
      fetchedAt: iso(list?.fetchedAt),
      ageSeconds: list ? Math.max(0, Math.round((now - list.fetchedAt) / 1000)) : null,
      lastAttemptAt: iso(attempt?.at),
      lastError: attempt?.error ?? null,
    };
  });
  const health = identityHealth();
  return {
    lists,
    reverseDns: {
      resolver: config.dohResolver,
      operators: REVERSE_DNS_RULES.map((rule) => rule.name),
      lastLookupAt: iso(health.reverseDns.lastAt),
      lastErrorAt: iso(health.reverseDns.lastErrorAt),
      lastError: health.reverseDns.lastError,
      scope: "this isolate",
    },
    cloudflare: {
      fields: ["botManagement.verifiedBot", "verifiedBotCategory"],
      lastSeenAt: iso(health.cloudflare.lastSeenAt),
      lastCheckedAt: iso(health.cloudflare.lastCheckedAt),
      scope: "this isolate",
    },
    warnings: lists.flatMap((list) => listWarning(list, effectsOfMissing(list, config))),
  };
}

/**
 * What a list not loaded (or out of date) does under the settings in force, one clause each;
 * none when no setting uses the list (with VERIFY_CRAWLERS and DISGUISED_CRAWLERS off, none is).
 */
function effectsOfMissing(
  list: IdentitySources["lists"][number],
  config: Pick<Config, "verifyCrawlers" | "disguisedCrawlers">,
): string[] {
  const tokens = list.tokens.join(", ");
  const effects: string[] = [];
  if (config.verifyCrawlers !== "off") {
    effects.push(`claims of ${tokens} are unverifiable, refused (503) wherever * refuses`);
  }
  if (config.disguisedCrawlers !== "off" && list.use === "crawler-only") {
    effects.push(`browsers from its addresses are not recognised as ${tokens} (they pass as people)`);
  }
  return effects;
}

function listWarning(list: IdentitySources["lists"][number], effects: readonly string[]): string[] {
  if (effects.length === 0) return [];
  const error = list.lastError ? ` (last error: ${list.lastError})` : "";
  if (list.fetchedAt === null) return [`no ${list.name} list loaded yet${error}: ${effects.join("; ")}`];
  if (list.ageSeconds !== null && list.ageSeconds * 1000 > STALE_LIST_MS) {
    return [`the ${list.name} list is ${Math.round(list.ageSeconds / 3600)} h old${error}`];
  }
  return [];
}

function iso(time: number | undefined | null): string | null {
  return typeof time === "number" ? new Date(time).toISOString() : null;
}
