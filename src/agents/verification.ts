/**
 * Is a request that claims to be a major crawler really from it? Pure: IP ranges come in as
 * data (the Worker's cron fetches the operators' published lists into KV; tests use
 * fixtures). Evidence must name the identity it proves: the operator's published list for
 * that crawler decides once loaded; without a loaded list, a forward-confirmed host name of the
 * class the operator documents for that crawler. Cloudflare's `verifiedBot: false` vetoes any
 * claim; its verified-bot category names no crawler (a category is not a name), so it
 * never proves one: it only says that SOME verified crawler of that category asked.
 *
 * Which lists and host names prove which crawler is data, in each operator's file
 * (src/agents/operators/, flattened by tables.ts); this file is the logic.
 *
 * Runtime dependency: ipaddr.js — CIDR parsing and matching for IPv4 and IPv6, including
 * compressed and IPv4-mapped forms, is easy to get subtly wrong by hand.
 */

import ipaddr from "ipaddr.js";
import { productToken } from "../core/product-token.ts";
import type { AgentInfo } from "./classify.ts";
import { categoryOfCloudflare } from "./cloudflare-categories.ts";
import type { EvidenceMethod, NotVerifiedWhy, VerificationMethod, VerificationStatus } from "../vocabulary.ts";
import {
  KNOWN_CRAWLERS,
  RANGE_SOURCES,
  REVERSE_DNS_RULES,
  type RangeSource,
  type ReverseDnsRule,
} from "./operators/tables.ts";

// The mapping lives with the rest of Cloudflare's vocabulary; callers of this module keep their import.
export { categoryOfCloudflare };

const SOURCE_OF_TOKEN = new Map(
  RANGE_SOURCES.flatMap((source) => source.tokens.map((token) => [productToken(token), source] as const)),
);
/** The published list a crawler's address is checked against (its RANGE_SOURCES name), if any. */
export function rangeSourceOf(token: string): string | undefined {
  return SOURCE_OF_TOKEN.get(productToken(token))?.name;
}

const FALLBACKS_OF_TOKEN = new Map(
  KNOWN_CRAWLERS.map((crawler) => [productToken(crawler.token), crawler.fallbacks.map(productToken)] as const),
);

/**
 * Every range source a request must be verified against: one per operator whose crawler's
 * group any of its tokens could select. Not only the exact known name: an unlisted variant
 * (`Googlebot-Foo`, `Googlebot-Image-X`) carries a verifiable crawler's token as a fallback,
 * and would otherwise get that crawler's group unchecked. A token that a verifiable crawler
 * earlier in the list documents as its own fallback (Applebot -> Googlebot) is vouched for by
 * that crawler's verification, so it adds no source of its own. Names that only resemble a
 * crawler's (`Googlebot2`) are other product tokens (core/product-token.ts) and select no
 * crawler's group, so they need no check. Best first, without repeats.
 */
function rangeSourcesFor(agent: AgentInfo): RangeSource[] {
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

export function isCidr(text: string): boolean {
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
  /** Not refreshed for long (the Worker decides how long): verifies what it holds, refutes nothing. */
  readonly stale: boolean;

  constructor(cidrs: readonly string[], options: { readonly stale?: boolean } = {}) {
    this.ranges = cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
    this.stale = options.stale ?? false;
  }

  contains(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address); // IPv4-mapped IPv6 -> IPv4
    return this.ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  }
}

export interface VerificationInput {
  readonly agent: AgentInfo;
  readonly address: string | null;
  /**
   * Cloudflare's verdict when the zone has one (cloudflareBotOf): `false` is a veto (an
   * impostor); `true` alone names no crawler, so it proves nothing.
   */
  readonly cfVerifiedBot: boolean | undefined;
  /**
   * Cloudflare's verified bot category. Never evidence for a named claim (it names no crawler);
   * kept in the input so the reason shown can say it was seen and why it proves nothing.
   */
  readonly cfCategory?: string | undefined;
  /** Ranges loaded per source name. */
  readonly ranges: ReadonlyMap<string, RangeSet>;
}

const REVERSE_DNS_RULE_OF_TOKEN = new Map(
  REVERSE_DNS_RULES.flatMap((rule) => rule.tokens.map((token) => [productToken(token), rule] as const)),
);

/** The reverse DNS rules of the operators a request's tokens claim, as rangeSourcesFor picks sources. */
function reverseDnsRulesFor(agent: AgentInfo): ReverseDnsRule[] {
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
  | { readonly status: "error"; readonly message: string }
  // Not looked up, to bound what a client's addresses cost (worker/reverse-dns.ts): another
  // address of the same network was refuted within the hour. This address was not checked.
  | { readonly status: "skipped"; readonly reason: string };

/** Whether `host` matches one of the host patterns (ReverseDnsRule.domains), case-insensitively. */
export function hostInDomains(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return patterns.some((pattern) => hostMatches(name, pattern.toLowerCase()));
}

function hostMatches(name: string, pattern: string): boolean {
  const star = pattern.indexOf("*");
  if (star < 0) return name === pattern || name.endsWith(`.${pattern}`);
  // `prefix-*.parent`: exactly one label, starting with the prefix, right under the parent.
  const prefix = pattern.slice(0, star);
  const parent = pattern.slice(pattern.indexOf(".", star) + 1);
  if (!name.endsWith(`.${parent}`)) return false;
  const label = name.slice(0, name.length - parent.length - 1);
  return label.length > prefix.length && label.startsWith(prefix) && !label.includes(".");
}

/** How a crawler was verified, or why not: what explain, the tester and the log show. */
export interface VerificationResult {
  readonly status: VerificationStatus;
  /** The evidence that decided; undefined when nothing was claimed or nothing could be checked. */
  readonly method: VerificationMethod | undefined;
  /** The operators checked (range source or reverse DNS rule names). */
  readonly operators: readonly string[];
  /** One line in English, e.g. "address in the googlebot list" or "PTR crawl-1.example.net not under googlebot.com". */
  readonly reason: string;
  /** What verified it: the list names, the forward-confirmed host, Cloudflare's category. */
  readonly evidence?: string | undefined;
  /** Why it is not verified (refuted, or why it could not be checked). */
  readonly why?: NotVerifiedWhy | undefined;
}

export interface DetailedVerificationInput extends VerificationInput {
  /** The forward-confirmed reverse DNS result for the address, when the Worker looked it up. */
  readonly reverseDns?: ReverseDnsResult;
}

/**
 * One identity a request claims: a class of one operator's crawlers (a range source, else a
 * reverse DNS rule), with what it would be granted if proven.
 */
interface IdentityClaim {
  readonly source: RangeSource | undefined;
  readonly rule: ReverseDnsRule | undefined;
}

/** The identities a request's tokens claim, vouched as rangeSourcesFor does. */
function identityClaims(agent: AgentInfo): IdentityClaim[] {
  const claims = new Map<string, IdentityClaim>();
  const vouched = new Set<string>();
  for (const token of agent.tokens.map(productToken)) {
    const source = SOURCE_OF_TOKEN.get(token);
    const rule = REVERSE_DNS_RULE_OF_TOKEN.get(token);
    if ((source === undefined && rule === undefined) || vouched.has(token)) continue;
    claims.set(source?.name ?? rule?.name ?? token, { source, rule });
    for (const fallback of FALLBACKS_OF_TOKEN.get(token) ?? []) vouched.add(fallback);
  }
  return [...claims.values()];
}

/**
 * Whether the crawlers a request's tokens claim are proven, refuted, or cannot be checked,
 * with the method and the reason. Several claims must all hold: one refuted claim makes an
 * impostor, since no address is two operators' crawler. Per claimed identity:
 *   - Cloudflare's `verifiedBot: false` vetoes every claim;
 *   - a loaded list of the operator decides: in it is verified, outside it refuted — unless
 *     the list is stale (RangeSet.stale): then outside it is judged as with no list loaded;
 *   - with no list loaded (the operator publishes none, or ours is not fetched yet), a
 *     forward-confirmed host name of that crawler's class confirms. A name that does not
 *     confirm refutes only where the operator publishes no list; where it does, only the list
 *     may refute, so the claim stays unverifiable;
 *   - Cloudflare's verified category never confirms a named claim ("a category is not
 *     a name"): any verified "Search Engine Crawler" could send YandexBot's User-Agent, any "AI
 *     Crawler" GPTBot's. It proves at most that some crawler of that category asked, so the
 *     claim is judged on the evidence that names it (a list, a host name), or stays unverifiable
 *     and gets no exemption and no named group of its own (claim.ts). A category is still the
 *     category of a crawler our table does not know (request-path.ts, for category rules).
 */
export function verifyCrawlerDetailed(input: DetailedVerificationInput): VerificationResult {
  const plan = verificationPlan(input.agent, input.cfVerifiedBot);
  const operators = [...new Set([...plan.rangeSources, ...plan.reverseDns].map((claim) => claim.name))];
  const claims = identityClaims(input.agent);
  if (claims.length === 0) {
    return { ...unverifiable("claims no verifiable crawler", "not-claimed"), operators };
  }
  if (input.cfVerifiedBot === false) {
    return {
      status: "refuted",
      method: "cloudflare",
      operators,
      reason: "Cloudflare: not a verified bot",
      why: "refuted",
    };
  }
  const verdicts = claims.map((claim) => verifyIdentity(claim, input));
  const deciding =
    verdicts.find(({ status }) => status === "refuted") ??
    verdicts.find(({ status }) => status === "unverifiable") ??
    combined(verdicts);
  return { ...deciding, operators };
}

/** Several verified claims as one verdict: the lists named together, else every reason. */
function combined(verdicts: readonly Verdict[]): Verdict {
  const [first] = verdicts;
  if (verdicts.length === 1 && first) return first;
  if (verdicts.every(({ method }) => method === "ip-list")) {
    const lists = verdicts.map(({ evidence }) => evidence).join(", ");
    return { status: "verified", method: "ip-list", reason: `address in the ${lists} list`, evidence: lists };
  }
  return {
    status: "verified",
    method: first?.method,
    reason: verdicts.map(({ reason }) => reason).join("; "),
    evidence: verdicts.map(({ evidence }) => evidence).join(", "),
  };
}

function verifyIdentity(claim: IdentityClaim, input: DetailedVerificationInput): Verdict {
  const { address, source } = { address: input.address, source: claim.source };
  const list = source ? input.ranges.get(source.name) : undefined;
  if (source && list) {
    if (!address) return unverifiable("no client address", "no-address");
    if (list.contains(address)) {
      return {
        status: "verified",
        method: "ip-list",
        reason: `address in the ${source.name} list`,
        evidence: source.name,
      };
    }
    if (!list.stale) {
      return { status: "refuted", method: "ip-list", reason: `address not in the ${source.name} list`, why: "refuted" };
    }
    // A stale list may lack ranges the operator added since: judged as if none were loaded.
  }
  const noList = source ? (list ? `the ${source.name} list is stale` : `no ${source.name} list loaded`) : undefined;
  const because = [noList, categoryNamesNoOne(input.cfCategory)].filter(Boolean).join("; ") || undefined;
  if (!address) return unverifiable("no client address", "no-address");
  if (!claim.rule) return unverifiable(because ?? "no method", "no-list");
  return byReverseDns(claim.rule, input.reverseDns, noList, because);
}

/** Said beside an unverifiable claim when Cloudflare stated a category: seen, and why it proves nothing. */
function categoryNamesNoOne(cfCategory: string | undefined): string | undefined {
  return cfCategory === undefined ? undefined : `Cloudflare's category ${cfCategory} names no crawler`;
}

/** Whether the Worker should look the address up by reverse DNS before judging (see verifyCrawlerDetailed). */
export function needsReverseDns(input: VerificationInput): boolean {
  if (!input.address || input.cfVerifiedBot === false) return false;
  const verdicts = identityClaims(input.agent).map((claim) => verifyIdentity(claim, input));
  return !verdicts.some(({ status }) => status === "refuted") && verdicts.some(({ why }) => why === "not-looked-up");
}

type Verdict = Omit<VerificationResult, "operators">;

function unverifiable(text: string, why: NotVerifiedWhy): Verdict {
  const reason = why === "not-claimed" ? text : `cannot check: ${text}`;
  return { status: "unverifiable", method: undefined, reason, why };
}

/** A forward-confirmed name of the claimed class verifies; `listedAs` says the operator's list decides refusals. */
function byReverseDns(
  rule: ReverseDnsRule,
  result: ReverseDnsResult | undefined,
  listedAs: string | undefined,
  because: string | undefined = listedAs,
): Verdict {
  const patterns = rule.domains.join(", ");
  const method = "reverse-dns";
  const notConfirmed = (text: string): Verdict =>
    listedAs
      ? unverifiable(`${because ?? listedAs}, and reverse DNS does not confirm (${text})`, "no-list")
      : { status: "refuted", method, reason: text, why: "refuted" };
  switch (result?.status) {
    case undefined:
      return unverifiable(
        because ? `${because}; reverse DNS not looked up` : "reverse DNS not looked up",
        "not-looked-up",
      );
    case "confirmed":
      return hostInDomains(result.host, rule.domains)
        ? { status: "verified", method, reason: `forward-confirmed ${result.host}`, evidence: result.host }
        : notConfirmed(`${result.host} not under ${patterns}`);
    case "ptr-mismatch":
      return notConfirmed(`PTR ${result.hosts.join(", ") || "(none)"} not under ${patterns}`);
    case "forward-mismatch":
      return notConfirmed(`${result.host} does not resolve back to the address`);
    case "nxdomain":
      return notConfirmed("no PTR record for the address");
    case "timeout":
      return unverifiable("reverse DNS timed out", "lookup-failed");
    case "error":
      return unverifiable(`reverse DNS failed (${result.message})`, "lookup-failed");
    case "skipped":
      return unverifiable(`reverse DNS not looked up: ${result.reason}`, "not-looked-up");
  }
}

/**
 * How a crawler was verified, or why not: the one value the decision log, explain, the
 * operator page's tester, activity and the CLI show (docs/decisions.md, "Identity and verification").
 *   verified      method + evidence: the trusted signer, the list names, the host, Cloudflare's category
 *   refuted       method + reason: how the claim was found false
 *   unverifiable  why: VERIFY_CRAWLERS=off, no address, no list, not looked up (explain reads
 *                 caches only), lookup failed; "not-claimed" when there is no claim to check
 */
export interface VerificationOutcome {
  readonly status: VerificationStatus;
  readonly method: EvidenceMethod | null;
  readonly evidence: string | null;
  readonly why: NotVerifiedWhy | null;
  readonly reason: string;
}

/** The outcome of an address check (verifyCrawlerDetailed) as the one shown value. */
export function outcomeOfCheck(result: VerificationResult): VerificationOutcome {
  const { status, reason } = result;
  const method = result.method ?? null;
  switch (status) {
    case "verified":
      return { status, method, evidence: result.evidence ?? null, why: null, reason };
    case "refuted":
      return { status, method, evidence: null, why: "refuted", reason };
    case "unverifiable":
      return { status, method: null, evidence: null, why: result.why ?? "lookup-failed", reason };
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
  const stated = typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined;
  const verified = typeof verifiedBot === "boolean" ? verifiedBot : stated !== undefined ? true : undefined;
  // `verifiedBot: false` decides: a category beside it is no verified bot's, so it names no
  // category a policy rule or usage preference may grant by.
  const category = verified === false ? undefined : stated;
  return { verified, category };
}
