/**
 * Is a request that claims to be a major crawler really from it? Pure: IP ranges come in as
 * data (the Worker's cron fetches the operators' published lists into KV; tests use
 * fixtures). Evidence, strongest first: Cloudflare's `request.cf.botManagement.verifiedBot`
 * or `request.cf.verifiedBotCategory` when the zone has them; else the operator's published IP
 * ranges; else forward-confirmed reverse DNS where the operator documents it.
 *
 * Runtime dependency: ipaddr.js — CIDR parsing and matching for IPv4 and IPv6, including
 * compressed and IPv4-mapped forms, is easy to get subtly wrong by hand.
 */

import ipaddr from "ipaddr.js";
import { productToken } from "../core/product-token.ts";
import type { AgentInfo } from "./classify.ts";
import { KNOWN_CRAWLERS, type CrawlerCategory } from "./crawlers.ts";

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
    // Google-Agent (agents acting for a user); listed beside the fetchers' lists in Google's
    // "List of Google user-triggered fetchers" page (developers.google.com/crawling/docs/crawlers-fetchers).
    name: "google-agent",
    url: "https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json",
    tokens: ["Google-Agent"],
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
  {
    // Named by Anthropic's crawler help page (privacy.claude.com, article 8896518).
    name: "anthropic",
    url: "https://claude.com/crawling/bots.json",
    tokens: ["ClaudeBot", "Claude-User", "Claude-SearchBot"],
  },
  // Common Crawl's CCBot page (commoncrawl.org/ccbot) links this list.
  { name: "ccbot", url: "https://index.commoncrawl.org/ccbot.json", tokens: ["CCBot"] },
  // DuckDuckGo's help pages (duckduckgo.com/duckduckgo-help-pages/results/duckduckbot and
  // .../duckassistbot) list each crawler's addresses; these JSON copies sit beside them on
  // duckduckgo.com (docs/decisions.md, "Verified crawlers": the archived help page source names no JSON).
  { name: "duckduckbot", url: "https://duckduckgo.com/duckduckbot.json", tokens: ["DuckDuckBot"] },
  { name: "duckassistbot", url: "https://duckduckgo.com/duckassistbot.json", tokens: ["DuckAssistBot"] },
  // Mistral's crawler page (docs.mistral.ai/robots) links one list per crawler under "All
  // published IP addresses"; MistralAI-Training has none.
  { name: "mistralai-user", url: "https://mistral.ai/mistralai-user-ips.json", tokens: ["MistralAI-User"] },
  { name: "mistralai-index", url: "https://mistral.ai/mistralai-index-ips.json", tokens: ["MistralAI-Index"] },
  // Qwant's bot page (help.qwant.com/bot) prefers reverse DNS and offers this list "alternatively".
  {
    name: "qwantbot",
    url: "https://help.qwant.com/wp-content/uploads/sites/2/2025/01/qwantbot.json",
    tokens: ["Qwantbot", "Qwantbot-news"],
  },
];

/**
 * Operators that document forward-confirmed reverse DNS: the address's PTR name must end in
 * one of `domains`, and that name must resolve back to the address. For operators that also
 * publish a list it is the fallback when the list does not confirm (Google documents both).
 */
export interface ReverseDnsRule {
  readonly name: string;
  /** Where the operator documents its host names. */
  readonly documentation: string;
  readonly domains: readonly string[];
  readonly tokens: readonly string[];
}

const GOOGLE_TOKENS = RANGE_SOURCES.filter((source) => source.name.startsWith("google")).flatMap(
  (source) => source.tokens,
);

export const REVERSE_DNS_RULES: readonly ReverseDnsRule[] = [
  {
    // crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com, rate-limited-proxy-*.google.com;
    // user-triggered fetchers: *.gae.googleusercontent.com or google-proxy-*.google.com. Not all of googleusercontent.com:
    // that is Google Cloud customers' hosts too.
    name: "google",
    documentation: "https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot",
    domains: ["googlebot.com", "google.com", "gae.googleusercontent.com"],
    tokens: GOOGLE_TOKENS,
  },
  {
    name: "bing",
    documentation: "https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26",
    domains: ["search.msn.com"],
    tokens: ["bingbot", "BingPreview", "adidxbot", "msnbot"],
  },
  {
    name: "applebot",
    documentation: "https://support.apple.com/en-us/119829",
    domains: ["applebot.apple.com"],
    tokens: ["Applebot"],
  },
  {
    name: "amazonbot",
    documentation: "https://developer.amazon.com/support/amazonbot",
    domains: ["crawl.amazonbot.amazon"],
    tokens: ["Amazonbot"],
  },
  {
    name: "yandex",
    documentation: "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html",
    domains: ["yandex.ru", "yandex.net", "yandex.com"],
    tokens: ["YandexBot", "YandexImages", "YandexMobileBot", "YandexNews", "YandexVideo"],
  },
  {
    name: "baidu",
    documentation: "https://www.baidu.com/search/spider.html",
    domains: ["baidu.com", "baidu.jp"],
    tokens: ["Baiduspider", "Baiduspider-image"],
  },
  {
    // "crawl-5-102-173-71.mojeek.com", forward-confirmed: the operator's only documented method.
    name: "mojeek",
    documentation: "https://www.mojeek.com/bot.html",
    domains: ["mojeek.com"],
    tokens: ["MojeekBot"],
  },
  {
    // "qwantbot-1-162-242-91.qwant.com"; Qwant calls this the preferred method (its list is above).
    name: "qwant",
    documentation: "https://help.qwant.com/bot",
    domains: ["qwant.com"],
    tokens: ["Qwantbot", "Qwantbot-news"],
  },
];

const SOURCE_OF_TOKEN = new Map(
  RANGE_SOURCES.flatMap((source) => source.tokens.map((token) => [productToken(token), source] as const)),
);
const FALLBACKS_OF_TOKEN = new Map(
  KNOWN_CRAWLERS.map((crawler) => [productToken(crawler.token), crawler.fallbacks.map(productToken)] as const),
);

/**
 * Every range source a request must be verified against: one per operator whose crawler's
 * group any of its tokens could select (an unchecked claim must never reach a group). Not only the exact known name: an unlisted
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

/** The JAFAR major version we read (draft-illyes-webbotauth-jafar-00, "Handling Format Versioning"). */
const JAFAR_MAJOR_VERSION = 1;

/**
 * CIDRs from a published list; a list with no valid prefix is refused (undefined). Reads the
 * common `{"prefixes": [{"ipv4Prefix"|"ipv6Prefix"}]}` shape and its codification, the JAFAR
 * draft: when `formatVersion` is present its major version must be one we know (the draft says
 * a consumer MUST NOT parse a newer major version; the caller keeps the last good list), and
 * unknown fields (`creationTime`, `service`, ...) are ignored, as the draft requires.
 */
export function parseRangeList(json: unknown): string[] | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const { prefixes, formatVersion } = json as { prefixes?: unknown; formatVersion?: unknown };
  if (formatVersion !== undefined && !isKnownJafarVersion(formatVersion)) return undefined;
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

function isKnownJafarVersion(version: unknown): boolean {
  if (typeof version !== "string") return false;
  const match = /^(\d{1,9})\.\d{1,9}$/.exec(version);
  return match !== null && Number(match[1]) === JAFAR_MAJOR_VERSION;
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
  /** Cloudflare's verdict when the zone has one (cloudflareBotOf). */
  readonly cfVerifiedBot: boolean | undefined;
  /** Cloudflare's verified bot category, when it gave one: named as the evidence. */
  readonly cfCategory?: string | undefined;
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

const REVERSE_DNS_RULE_OF_TOKEN = new Map(
  REVERSE_DNS_RULES.flatMap((rule) => rule.tokens.map((token) => [productToken(token), rule] as const)),
);

/** The reverse DNS rules of the operators a request's tokens claim, as rangeSourcesFor picks sources. */
export function reverseDnsRulesFor(agent: AgentInfo): ReverseDnsRule[] {
  const rules: ReverseDnsRule[] = [];
  const vouched = new Set<string>();
  for (const token of agent.tokens.map(productToken)) {
    const rule = REVERSE_DNS_RULE_OF_TOKEN.get(token);
    if (rule === undefined || vouched.has(token)) continue;
    if (!rules.includes(rule)) rules.push(rule);
    for (const fallback of FALLBACKS_OF_TOKEN.get(token) ?? []) vouched.add(fallback);
  }
  return rules;
}

/** How a claim can be checked: Cloudflare's verdict decides first when the zone has one. */
export type VerificationMethod = "cloudflare" | "ip-list" | "reverse-dns";

export interface VerificationPlan {
  /** Methods that apply, strongest first; empty when the request claims no verifiable crawler. */
  readonly methods: readonly VerificationMethod[];
  readonly rangeSources: readonly RangeSource[];
  readonly reverseDns: readonly ReverseDnsRule[];
}

/**
 * Which evidence applies to a request's claims. Pure and cheap, so the decision path calls it
 * on every request: a browser or an unknown bot gets an empty plan and costs no lookup.
 */
export function verificationPlan(agent: AgentInfo, cfVerifiedBot?: boolean): VerificationPlan {
  const rangeSources = rangeSourcesFor(agent);
  const reverseDns = reverseDnsRulesFor(agent);
  if (rangeSources.length === 0 && reverseDns.length === 0) return { methods: [], rangeSources, reverseDns };
  const methods: VerificationMethod[] = [];
  if (cfVerifiedBot !== undefined) methods.push("cloudflare");
  if (rangeSources.length > 0) methods.push("ip-list");
  if (reverseDns.length > 0) methods.push("reverse-dns");
  return { methods, rangeSources, reverseDns };
}

/**
 * What a forward-confirmed reverse DNS lookup found for one address: the PTR name that
 * resolved back to it, or why none did. Produced by the Worker (worker/reverse-dns.ts).
 */
export type ReverseDnsResult =
  | { readonly status: "confirmed"; readonly host: string }
  | { readonly status: "ptr-mismatch"; readonly hosts: readonly string[] }
  | { readonly status: "forward-mismatch"; readonly host: string }
  | { readonly status: "nxdomain" }
  | { readonly status: "timeout" }
  | { readonly status: "error"; readonly message: string };

/** Whether `host` is one of `domains` or a name under one (labels compared case-insensitively). */
export function hostInDomains(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** How a crawler was verified, or why not: what explain, the tester and the log show. */
export interface VerificationResult {
  readonly verification: Verification;
  /** The evidence that decided; undefined when nothing was claimed or nothing could be checked. */
  readonly method: VerificationMethod | undefined;
  /** The operators checked (range source or reverse DNS rule names). */
  readonly operators: readonly string[];
  /** One line in English, e.g. "address in the googlebot list" or "PTR crawl-1.example.net not under googlebot.com". */
  readonly reason: string;
  /** What verified it: the list names, the forward-confirmed host, Cloudflare's category. */
  readonly evidence?: string | undefined;
  /** Why it could not be checked (verification "unverifiable"). */
  readonly why?: NotVerifiedWhy | undefined;
}

export interface DetailedVerificationInput extends VerificationInput {
  /** The forward-confirmed reverse DNS result for the address, when the Worker looked it up. */
  readonly reverseDns?: ReverseDnsResult;
}

/**
 * verifyCrawler with the method and the reason. A published list decides when it confirms the
 * address; when it does not (or is missing), an operator documenting reverse DNS gets that
 * check: a confirmed name in its domains verifies, a name that resolves elsewhere or no name
 * refutes, a timeout or resolver error leaves the list's verdict (or "unverifiable").
 */
export function verifyCrawlerDetailed(input: DetailedVerificationInput): VerificationResult {
  const plan = verificationPlan(input.agent, input.cfVerifiedBot);
  const operators = [...new Set([...plan.rangeSources, ...plan.reverseDns].map((claim) => claim.name))];
  if (plan.methods.length === 0) {
    return { verification: "not-claimed", method: undefined, operators, reason: "claims no verifiable crawler" };
  }
  if (input.cfVerifiedBot !== undefined) {
    const evidence = input.cfCategory ? `Cloudflare category ${input.cfCategory}` : "Cloudflare verified bot";
    return input.cfVerifiedBot
      ? { verification: "verified", method: "cloudflare", operators, reason: "Cloudflare verified bot", evidence }
      : { verification: "impostor", method: "cloudflare", operators, reason: "Cloudflare: not a verified bot" };
  }
  const listed = verifyByLists(plan.rangeSources, input.ranges, input.address);
  if (listed?.verification === "verified" || plan.reverseDns.length === 0) {
    return { ...(listed ?? unverifiable("no list", "no-list")), operators };
  }
  const byName = verifyByReverseDns(plan.reverseDns, input.reverseDns);
  if (byName.verification === "unverifiable" && listed !== undefined) return { ...listed, operators };
  return { ...byName, operators };
}

/** Whether the Worker should look the address up by reverse DNS before judging (see verifyCrawlerDetailed). */
export function needsReverseDns(input: VerificationInput): boolean {
  const plan = verificationPlan(input.agent, input.cfVerifiedBot);
  if (plan.reverseDns.length === 0 || input.cfVerifiedBot !== undefined || !input.address) return false;
  return verifyByLists(plan.rangeSources, input.ranges, input.address)?.verification !== "verified";
}

type Verdict = Omit<VerificationResult, "operators">;

function unverifiable(text: string, why: NotVerifiedWhy): Verdict {
  return { verification: "unverifiable", method: undefined, reason: `cannot check: ${text}`, why };
}

function verifyByLists(
  sources: readonly RangeSource[],
  ranges: ReadonlyMap<string, RangeSet>,
  address: string | null,
): Verdict | undefined {
  if (sources.length === 0) return undefined;
  const verdicts = sources.map((source) => ({ source, verdict: verifyAgainst(ranges.get(source.name), address) }));
  const refuted = verdicts.find(({ verdict }) => verdict === "impostor");
  if (refuted) {
    return { verification: "impostor", method: "ip-list", reason: `address not in the ${refuted.source.name} list` };
  }
  const missing = verdicts.find(({ verdict }) => verdict === "unverifiable");
  if (missing) {
    return address
      ? unverifiable(`no ${missing.source.name} list loaded`, "no-list")
      : unverifiable("no client address", "no-address");
  }
  const lists = sources.map((s) => s.name).join(", ");
  return { verification: "verified", method: "ip-list", reason: `address in the ${lists} list`, evidence: lists };
}

function verifyByReverseDns(rules: readonly ReverseDnsRule[], result: ReverseDnsResult | undefined): Verdict {
  const domains = rules.flatMap((rule) => rule.domains);
  const method = "reverse-dns";
  switch (result?.status) {
    case undefined:
      return unverifiable("reverse DNS not looked up", "not-looked-up");
    case "confirmed":
      // Several claims must all hold, as with lists: the one name must be under every claimed operator.
      if (rules.every((rule) => hostInDomains(result.host, rule.domains))) {
        return { verification: "verified", method, reason: `forward-confirmed ${result.host}`, evidence: result.host };
      }
      return { verification: "impostor", method, reason: `${result.host} not under ${domains.join(", ")}` };
    case "ptr-mismatch":
      return {
        verification: "impostor",
        method,
        reason: `PTR ${result.hosts.join(", ") || "(none)"} not under ${domains.join(", ")}`,
      };
    case "forward-mismatch":
      return { verification: "impostor", method, reason: `${result.host} does not resolve back to the address` };
    case "nxdomain":
      return { verification: "impostor", method, reason: "no PTR record for the address" };
    case "timeout":
      return unverifiable("reverse DNS timed out", "lookup-failed");
    case "error":
      return unverifiable(`reverse DNS failed (${result.message})`, "lookup-failed");
  }
}

/** Why a crawler claim stands unverified: nothing to verify, switched off, or no way to check. */
export type NotVerifiedWhy =
  "not-claimed" | "verify-off" | "no-address" | "no-list" | "not-looked-up" | "lookup-failed" | "impostor";

/** The evidence that verified (or refuted) a crawler: a signature, or a check of its address. */
export type EvidenceMethod = "signature" | VerificationMethod;

/**
 * How a crawler was verified, or why not: the one value the decision log, explain, the
 * operator page's tester and the CLI show (docs/decisions.md, "Verified crawlers").
 *   verified   method + evidence: the trusted signer, the list names, the host, Cloudflare's category
 *   impostor   method + reason: how the claim was found false
 *   unverified why: not a verifiable crawler, VERIFY_CRAWLERS=off, no address, no list, not
 *              looked up (explain reads caches only), lookup failed — judged as claimed
 */
export interface VerificationOutcome {
  readonly status: "verified" | "impostor" | "unverified";
  readonly method: EvidenceMethod | null;
  readonly evidence: string | null;
  readonly why: NotVerifiedWhy | null;
  readonly reason: string;
}

/** The outcome of an address check (verifyCrawlerDetailed) as the one shown value. */
export function outcomeOfCheck(result: VerificationResult): VerificationOutcome {
  const { reason } = result;
  switch (result.verification) {
    case "verified":
      return {
        status: "verified",
        method: result.method ?? null,
        evidence: result.evidence ?? null,
        why: null,
        reason,
      };
    case "impostor":
      return { status: "impostor", method: result.method ?? null, evidence: null, why: "impostor", reason };
    case "unverifiable":
      return { status: "unverified", method: null, evidence: null, why: result.why ?? "lookup-failed", reason };
    case "not-claimed":
      return { status: "unverified", method: null, evidence: null, why: "not-claimed", reason };
  }
}

/**
 * Cloudflare's verdict on a request, when the zone has one: `botManagement.verifiedBot`
 * (Bot Management) decides; else a non-empty `verifiedBotCategory` means Cloudflare verified
 * the bot. An empty or missing category is no evidence either way: zones without a bot
 * product never set it, so reading it as "not verified" would make every crawler an impostor.
 */
export function cloudflareBotOf(cf: unknown): { verified: boolean | undefined; category: string | undefined } {
  const fields = typeof cf === "object" && cf !== null ? (cf as Record<string, unknown>) : {};
  const management = fields["botManagement"];
  const verifiedBot =
    typeof management === "object" && management !== null
      ? (management as Record<string, unknown>)["verifiedBot"]
      : undefined;
  const raw = fields["verifiedBotCategory"];
  const category = typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined;
  const verified = typeof verifiedBot === "boolean" ? verifiedBot : category !== undefined ? true : undefined;
  return { verified, category };
}

/**
 * Cloudflare's verified bot categories (developers.cloudflare.com/bots/concepts/bot/verified-bots/
 * categories) that say the same as one of ours. Only these map: "Advertising & Marketing",
 * "Aggregator", "Feed Fetcher", "Academic Research", "Security", "Accessibility", "Webhooks" and
 * "Other" say nothing a policy or usage preference could rely on.
 */
const CLOUDFLARE_CATEGORIES: ReadonlyMap<string, CrawlerCategory> = new Map([
  ["search engine crawler", "search-engine"],
  ["ai crawler", "ai-training"], // "crawls websites for content that is used for training AI models"
  ["ai assistant", "ai-assistant"], // "automated AI bot driven by user action"
  ["ai search", "ai-search"],
  ["search engine optimization", "seo-tool"],
  ["page preview", "social-preview"],
  ["monitoring & analytics", "monitoring"],
  ["archiver", "archiver"],
]);

/** Our category for a Cloudflare verified bot category, where one says the same. */
export function categoryOfCloudflare(category: string | undefined): CrawlerCategory | undefined {
  return category === undefined ? undefined : CLOUDFLARE_CATEGORIES.get(category.toLowerCase());
}
