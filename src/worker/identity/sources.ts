/**
 * Every source of identity evidence, as GET status shows it: each published list (its age and
 * last fetch error), reverse DNS (the resolver and what this isolate last saw of it), and
 * Cloudflare's bot fields (whether this isolate has seen them on a crawler's request). A
 * missing or stale list is a warning: until it loads, its crawlers' claims are unverifiable
 * and are refused wherever `*` refuses (503, policy/claim.ts).
 */

import { rangeUseOf, type RangeUse } from "../../agents/range-uses.ts";
import { RANGE_SOURCES, REVERSE_DNS_RULES } from "../../agents/verification.ts";
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
    // With VERIFY_CRAWLERS and DISGUISED_CRAWLERS off no list is fetched or used: nothing to warn about.
    warnings: config.verifyCrawlers === "off" && config.disguisedCrawlers === "off" ? [] : lists.flatMap(listWarning),
  };
}

function listWarning(list: IdentitySources["lists"][number]): string[] {
  const error = list.lastError ? ` (last error: ${list.lastError})` : "";
  if (list.fetchedAt === null) {
    return [
      `no ${list.name} list loaded yet${error}: claims of ${list.tokens.join(", ")} are unverifiable, refused (503) wherever * refuses`,
    ];
  }
  if (list.ageSeconds !== null && list.ageSeconds * 1000 > STALE_LIST_MS) {
    return [`the ${list.name} list is ${Math.round(list.ageSeconds / 3600)} h old${error}`];
  }
  return [];
}

function iso(time: number | undefined | null): string | null {
  return typeof time === "number" ? new Date(time).toISOString() : null;
}
