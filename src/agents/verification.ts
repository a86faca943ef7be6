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
import type { AgentInfo } from "./classify.ts";

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
  RANGE_SOURCES.flatMap((source) => source.tokens.map((token) => [token.toLowerCase(), source] as const)),
);

/** The range source covering a known crawler, if its operator publishes one. */
export function rangeSourceFor(agent: AgentInfo): RangeSource | undefined {
  return agent.known ? SOURCE_OF_TOKEN.get(agent.known.token.toLowerCase()) : undefined;
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

/** Whether the crawler a request claims to be is confirmed, refuted, or cannot be checked. */
export function verifyCrawler(input: VerificationInput): Verification {
  const source = rangeSourceFor(input.agent);
  if (!source) return "not-claimed";
  if (input.cfVerifiedBot !== undefined) return input.cfVerifiedBot ? "verified" : "impostor";
  const ranges = input.ranges.get(source.name);
  if (!ranges || !input.address) return "unverifiable";
  return ranges.contains(input.address) ? "verified" : "impostor";
}
