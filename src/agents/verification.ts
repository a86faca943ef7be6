/**
 * Is a request that claims to be a major crawler really from it? Pure: IP ranges come in as
 * data (the Worker's cron fetches the operators' published lists into KV; tests use
 * fixtures). Evidence, strongest first: Cloudflare's `request.cf.botManagement.verifiedBot`
 * when the zone has Bot Management; else the operator's published IP ranges.
 *
 * Runtime dependency: ipaddr.js — CIDR parsing and matching for IPv4 and IPv6, including
 * compressed and IPv4-mapped forms, is easy to get subtly wrong by hand.
 */

import ipaddr from "ipaddr.js";
import { productToken } from "../core/product-token.ts";
import type { AgentInfo } from "./classify.ts";
import { KNOWN_CRAWLERS } from "./crawlers.ts";

/** Where an operator publishes its crawlers' IP ranges, and which tokens they cover. */
export interface RangeSource {
  readonly name: string;
  readonly url: string;
  readonly tokens: readonly string[];
}

/** Operators publishing machine-readable ranges in the `{"prefixes": [{"ipv4Prefix"|"ipv6Prefix"}]}` shape. */
export const RANGE_SOURCES: readonly RangeSource[] = [
  {
    name: "googlebot",
    url: "https://developers.google.com/static/search/apis/ipranges/googlebot.json",
    tokens: [
      "Googlebot",
      "Googlebot-Image",
      "Googlebot-News",
      "Googlebot-Video",
      "Storebot-Google",
      "Google-InspectionTool",
      "GoogleOther",
      "GoogleOther-Image",
      "GoogleOther-Video",
    ],
  },
  {
    name: "google-special",
    url: "https://developers.google.com/static/search/apis/ipranges/special-crawlers.json",
    tokens: ["AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google"],
  },
  {
    // Google-owned user-triggered fetchers; they skip `User-agent: *` (crawlers.ts), so a claim must hold.
    name: "google-user-triggered",
    url: "https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json",
    tokens: [
      "FeedFetcher-Google",
      "Google-Read-Aloud",
      "Google-Site-Verification",
      "Google-CWS",
      "GoogleProducer",
      "Google-Pinpoint",
      "Google-GeminiNotebook",
    ],
  },
  {
    name: "bingbot",
    url: "https://www.bing.com/toolbox/bingbot.json",
    tokens: ["bingbot", "BingPreview", "adidxbot", "msnbot"],
  },
  { name: "gptbot", url: "https://openai.com/gptbot.json", tokens: ["GPTBot"] },
  { name: "oai-searchbot", url: "https://openai.com/searchbot.json", tokens: ["OAI-SearchBot"] },
  { name: "chatgpt-user", url: "https://openai.com/chatgpt-user.json", tokens: ["ChatGPT-User"] },
  { name: "perplexitybot", url: "https://www.perplexity.ai/perplexitybot.json", tokens: ["PerplexityBot"] },
  { name: "perplexity-user", url: "https://www.perplexity.ai/perplexity-user.json", tokens: ["Perplexity-User"] },
  { name: "applebot", url: "https://search.developer.apple.com/applebot.json", tokens: ["Applebot"] },
];

const SOURCE_OF_TOKEN = new Map(
  RANGE_SOURCES.flatMap((source) => source.tokens.map((token) => [productToken(token), source] as const)),
);
const FALLBACKS_OF_TOKEN = new Map(
  KNOWN_CRAWLERS.map((crawler) => [productToken(crawler.token), crawler.fallbacks.map(productToken)] as const),
);

/**
 * Every range source a request must be verified against: one per operator whose crawler's
 * group any of its tokens could select (issue #9). Not only the exact known name: an unlisted
 * variant (`Googlebot-Foo`, `Googlebot-Image-X`) carries a verifiable crawler's token as a
 * fallback, and would otherwise get that crawler's group unchecked. A token that a
 * verifiable crawler earlier in the list documents as its own fallback (Applebot -> Googlebot)
 * is vouched for by that crawler's verification, so it adds no source of its own. Names that
 * only resemble a crawler's (`Googlebot2`) are other product tokens (core/product-token.ts)
 * and select no crawler's group, so they need no check. Best first, without repeats.
 */
export function rangeSourcesFor(agent: AgentInfo): RangeSource[] {
  const sources: RangeSource[] = [];
  const vouched = new Set<string>();
  for (const token of agent.tokens.map(productToken)) {
    const source = SOURCE_OF_TOKEN.get(token);
    if (source === undefined || vouched.has(token)) continue;
    if (!sources.includes(source)) sources.push(source);
    for (const fallback of FALLBACKS_OF_TOKEN.get(token) ?? []) vouched.add(fallback);
  }
  return sources;
}

/** The first range source a request must be verified against (see rangeSourcesFor), if any. */
export function rangeSourceFor(agent: AgentInfo): RangeSource | undefined {
  return rangeSourcesFor(agent)[0];
}

/** CIDRs from a published list; a list with no valid prefix is refused (undefined). */
export function parseRangeList(json: unknown): string[] | undefined {
  const prefixes = typeof json === "object" && json !== null ? (json as { prefixes?: unknown }).prefixes : undefined;
  if (!Array.isArray(prefixes)) return undefined;
  const cidrs = prefixes
    .map((prefix: unknown) =>
      typeof prefix === "object" && prefix !== null
        ? ((prefix as Record<string, unknown>)["ipv4Prefix"] ?? (prefix as Record<string, unknown>)["ipv6Prefix"])
        : undefined,
    )
    .filter((cidr): cidr is string => typeof cidr === "string" && isCidr(cidr));
  return cidrs.length > 0 ? cidrs : undefined;
}

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}

/** A set of CIDR ranges answering "is this address inside?". */
export class RangeSet {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(cidrs: readonly string[]) {
    this.ranges = cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  contains(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address); // IPv4-mapped IPv6 -> IPv4
    return this.ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  }
}

export type Verification = "verified" | "impostor" | "unverifiable" | "not-claimed";

export interface VerificationInput {
  readonly agent: AgentInfo;
  readonly address: string | null;
  /** request.cf.botManagement.verifiedBot, when the zone has Bot Management. */
  readonly cfVerifiedBot: boolean | undefined;
  /** Ranges loaded per source name. */
  readonly ranges: ReadonlyMap<string, RangeSet>;
}

/**
 * Whether the crawlers a request's tokens claim (rangeSourcesFor) are confirmed, refuted, or
 * cannot be checked. Several claims must all hold: one refuted claim makes an impostor, since
 * no address is two operators' crawler.
 */
export function verifyCrawler(input: VerificationInput): Verification {
  const sources = rangeSourcesFor(input.agent);
  if (sources.length === 0) return "not-claimed";
  if (input.cfVerifiedBot !== undefined) return input.cfVerifiedBot ? "verified" : "impostor";
  const verdicts = sources.map((source) => verifyAgainst(input.ranges.get(source.name), input.address));
  if (verdicts.includes("impostor")) return "impostor";
  return verdicts.includes("unverifiable") ? "unverifiable" : "verified";
}

function verifyAgainst(ranges: RangeSet | undefined, address: string | null): Verification {
  if (!ranges || !address) return "unverifiable";
  return ranges.contains(address) ? "verified" : "impostor";
}
