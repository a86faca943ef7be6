/**
 * The operator's policy, layered over the origin's robots.txt: per route (same `*`/`$`
 * pattern syntax as robots.txt), a mode, a block status, and extra rules for named crawlers
 * or crawler categories. Pure: parsed and validated once, then consulted per request.
 *
 *   {"routes": [{"pattern": "/articles/", "mode": "enforce", "blockStatus": 451,
 *                "rules": [{"crawlers": ["category:ai-training"], "action": "block"},
 *                          {"crawlers": ["PartnerBot"], "action": "allow"},
 *                          {"crawlers": ["category:ai-assistant"], "action": "allow", "signature": "required"},
 *                          {"crawlers": ["category:ai-search"], "action": "pace", "retryAfter": 3600,
 *                           "when": {"crawlsPerReferral": {"above": 100, "days": 7}}}]}]}
 *
 * Choices (docs/decisions.md "Per-route policies"):
 *   - the most specific route wins, as in robots.txt: the longest matching pattern;
 *   - within a route, rules apply in the order written; the first naming the crawler
 *     (by product token, compared as robots.txt compares them, or by `category:NAME`)
 *     decides, and robots.txt is not consulted; no rule naming it -> robots.txt decides;
 *   - route mode and block status replace MODE and BLOCK_STATUS for the paths they cover;
 *   - a rule with `"signature": "required"` applies only to a request with a verified Web Bot
 *     Auth signature; one without is refused 403 asking for one (edge-decision.ts);
 *   - `"action": "pace"` answers 429 with `Retry-After: retryAfter` (default PACE_RETRY_AFTER);
 *   - `"action": "charge"` with `"price": "USD 0.01"` (terms-price.ts): 402 with the price,
 *     or the page for a verified crawler whose signature commits to paying it, charged;
 *   - a rule with `"when"` names a crawler only while its condition holds, else the next rule
 *     (or robots.txt) decides. One condition so far, `crawlsPerReferral` (referral-ledger.ts):
 *     the crawler's operator's verified crawls (by its crawlers of the crawler's category, answered
 *     with content: referral-ledger.ts) per referred visit over the last `days` days exceed `above`. Evaluated from the counts the isolate holds (refreshed at most every
 *     minute); with none loaded it does not hold (do no harm). Never on `allow`: a referral is
 *     a client-chosen header, and a header that cannot be proven grants nothing.
 */

import { canonicalizePath, productToken, type PathPatternIndex } from "../core/index.ts";
import { enforcementRoutes } from "./path-spellings.ts";
import { MODES, type Mode } from "./mode.ts";
import { invalid, valid, type Validated } from "./validated.ts";
import { CRAWLER_CATEGORIES, isCrawlerCategory, type CrawlerCategory } from "../vocabulary.ts";
import { readPurposes, type Purposes } from "./purposes.ts";
import { policyStatesTerms } from "./terms.ts";
import { MAX_PRICE_UNITS, parsePrice } from "./terms-price.ts";
import {
  readRouteLicence,
  readSiteLicence,
  readTdmPolicy,
  type RouteLicence,
  type SiteLicence,
} from "./terms-licence.ts";
import {
  crawlsPerReferralHolds,
  MAX_LEDGER_DAYS,
  type CrawlsPerReferral,
  type ReferralLedger,
} from "./referral-ledger.ts";

export type PolicyAction = "block" | "allow" | "pace" | "charge";

/** A pace rule's Retry-After when it names none (seconds): an hour, then the crawler tries again. */
export const PACE_RETRY_AFTER = 3_600;
/** The longest Retry-After a pace rule may ask for: a day. */
export const MAX_PACE_RETRY_AFTER = 86_400;
/** A crawlsPerReferral condition's window when it names none (days). */
export const DEFAULT_LEDGER_DAYS = 7;

/** When a rule applies: every condition given must hold. */
export interface RuleCondition {
  readonly crawlsPerReferral: CrawlsPerReferral;
}

export interface PolicyRule {
  /** Product tokens, or `category:NAME`. */
  readonly crawlers: readonly string[];
  readonly action: PolicyAction;
  /** The crawlers named must prove who they are with a Web Bot Auth signature. */
  readonly signature?: "required";
  /** For `pace`: the 429's Retry-After in seconds. */
  readonly retryAfter?: number;
  /** For `charge`: the price, as written (`USD 0.01`; terms-price.ts). */
  readonly price?: string;
  /** The rule names a crawler only while this holds. */
  readonly when?: RuleCondition;
}

export interface PolicyRoute {
  readonly pattern: string;
  readonly mode?: Mode;
  readonly blockStatus?: number;
  readonly rules: readonly PolicyRule[];
  /** The route's licence terms (terms-licence.ts). */
  readonly licence?: RouteLicence;
}

export interface OperatorPolicy {
  readonly routes: readonly PolicyRoute[];
  /** Which crawler categories may use which paths, compiled into the served robots.txt (purposes.ts). */
  readonly purposes?: Purposes;
  /** The site's RSL licence (terms-licence.ts). */
  readonly licence?: SiteLicence;
  /** The site's TDM policy URL, sent as `tdm-policy` where `tdm-reservation: 1` is (terms.ts). */
  readonly tdmPolicy?: string;
}

/** Whether any rule of the policy has a condition (the Worker then hands the decision its ledger). */
function anyCondition(policy: OperatorPolicy): boolean {
  return policy.routes.some((route) => route.rules.some((rule) => rule.when !== undefined));
}

/** A request as the policy sees it. */
export interface PolicySubject {
  readonly tokens: readonly string[];
  readonly category: CrawlerCategory | undefined;
  /** The crawler's operator (agents/operators/tables.ts KNOWN_CRAWLERS), for a rule's condition. */
  readonly operator?: string | undefined;
  /** The recorded counts in this isolate; undefined while none are loaded (no condition holds). */
  readonly ledger?: ReferralLedger | undefined;
}

/** The route covering a path, and the rule that names the crawler there, if any. */
export interface PolicyMatch {
  readonly route: PolicyRoute;
  readonly routeIndex: number;
  readonly rule: PolicyRule | undefined;
  readonly ruleIndex: number;
}

/** Largest policy body accepted: far above any hand-written policy, far below KV's value limit. */
export const MAX_POLICY_BYTES = 64 * 1024;

/**
 * A policy ready to answer per request: its routes indexed once, when the version is parsed
 * (as a robots.txt is compiled once per fetch), so a decision costs one walk of the path
 * whatever the number of routes (core pattern-index.ts; bench/request.bench.ts shows a
 * 64 KiB policy against an 8 KB path).
 */
export class CompiledPolicy {
  /** The policy as validated (the admin API shows it; version 0 of the live policy is this). */
  readonly policy: OperatorPolicy;
  /** A rule has a `when`: the Worker hands the decision its ledger (found once here, not per request). */
  readonly hasConditions: boolean;
  /** The policy states terms (terms.ts policyStatesTerms), found once here, not per request. */
  readonly statesTerms: boolean;
  /**
   * The policy adds lines to the robots.txt the edge serves and enforces: purposes, or the opt-in
   * RSL `License:` line (worker/robots/purposes-served.ts). Found once here: read per crawler
   * request, and the policy document's own objects would be cache lines more of this host's.
   */
  readonly addsRobotsLines: boolean;
  private readonly routes: PathPatternIndex;
  /** Each route's rules as a request asks them (NamedRoute), in the order of `policy.routes`. */
  private readonly named: readonly NamedRoute[];

  constructor(policy: OperatorPolicy) {
    this.named = policy.routes.map(namedRoute);
    // The routes as interned (namedRoute): the same objects for every policy that writes them alike.
    this.policy = { ...policy, routes: this.named.map((named) => named.route) };
    this.hasConditions = anyCondition(policy);
    this.statesTerms = policyStatesTerms(policy);
    this.addsRobotsLines = (policy.purposes?.length ?? 0) > 0 || Boolean(policy.licence?.robotsTxt);
    this.routes = enforcementRoutes(policy.routes.map((route) => route.pattern));
  }

  /** The most specific route whose pattern matches the path, and its rule for the crawler. */
  match(pathAndQuery: string, subject: PolicySubject): PolicyMatch | undefined {
    return this.matchCanonical(canonicalizePath(pathAndQuery), subject);
  }

  /** `match` for a path already canonical (path-spellings.ts gives every spelling so). */
  matchCanonical(canonical: string, subject: PolicySubject): PolicyMatch | undefined {
    return this.matchRoute(this.routes.findCanonical(canonical), subject);
  }

  /**
   * `matchCanonical`, and then the route the patterns as written choose when that is another
   * (a route's other spelling chose the first, path-spellings.ts ruleSpelling): the caller
   * keeps the stricter, so an other spelling never lifts what the written routes refuse.
   */
  matchEachReading(canonical: string, subject: PolicySubject): readonly (PolicyMatch | undefined)[] {
    const routeIndex = this.routes.findCanonical(canonical);
    const writtenIndex = this.routes.findCanonicalAsWritten(canonical);
    const chosen = this.matchRoute(routeIndex, subject);
    return writtenIndex === routeIndex ? [chosen] : [chosen, this.matchRoute(writtenIndex, subject)];
  }

  private matchRoute(routeIndex: number, subject: PolicySubject): PolicyMatch | undefined {
    // No route (most requests): the routes' list is not read, one object fewer per request.
    if (routeIndex < 0) return undefined;
    const named = this.named[routeIndex];
    if (!named) return undefined;
    const { route } = named;
    const ruleIndex = named.rules.findIndex((rule) => names(rule, subject));
    return { route, routeIndex, rule: route.rules[ruleIndex], ruleIndex };
  }
}

/**
 * A route with the names each rule gives found once: the product tokens (as robots.txt compares
 * them) and the categories it names. Interned (internedRoutes): the deployments this serves
 * write many hosts' policies from one template, and a request then reads the route, its rules
 * and their names from objects every such host shares, objects the CPU's caches keep, rather
 * than from its host's own copies (docs/operating.md "What it costs (per host)").
 */
interface NamedRoute {
  readonly route: PolicyRoute;
  readonly rules: readonly NamedRule[];
}

interface NamedRule {
  readonly rule: PolicyRule;
  /** productToken of each crawler named by token, in order. */
  readonly tokens: readonly string[];
  /** Each `category:NAME` named, NAME alone. */
  readonly categories: readonly string[];
}

/**
 * The routes every policy of this isolate shares, by their content (JSON of the validated route).
 * Bounded: past MAX_INTERNED_ROUTES routes or MAX_INTERNED_ROUTE_TEXT characters of that content
 * the table starts again empty (policies keep the routes they hold; only sharing with later
 * ones is lost), so policies that come and go cannot grow it. Routes are never changed once
 * validated (readonly), so sharing one between policies changes no answer.
 */
const internedRoutes = new Map<string, NamedRoute>();
let internedRouteText = 0;
const MAX_INTERNED_ROUTES = 4_096;
const MAX_INTERNED_ROUTE_TEXT = 1024 * 1024;

function namedRoute(route: PolicyRoute): NamedRoute {
  const key = JSON.stringify(route);
  const known = internedRoutes.get(key);
  if (known) return known;
  const named: NamedRoute = { route, rules: route.rules.map(namedRule) };
  if (internedRoutes.size >= MAX_INTERNED_ROUTES || internedRouteText + key.length > MAX_INTERNED_ROUTE_TEXT) {
    internedRoutes.clear();
    internedRouteText = 0;
  }
  internedRoutes.set(key, named);
  internedRouteText += key.length;
  return named;
}

const byCategory = (name: string) => name.startsWith("category:");

function namedRule(rule: PolicyRule): NamedRule {
  return {
    rule,
    tokens: rule.crawlers.filter((name) => !byCategory(name)).map(productToken),
    categories: rule.crawlers.filter(byCategory).map((name) => name.slice("category:".length)),
  };
}

/** Does the rule name the crawler (by a product token, or by its category), its condition holding? */
function names(named: NamedRule, subject: PolicySubject): boolean {
  const category = subject.category;
  const tokens = productTokensOf(subject.tokens);
  const byName =
    (category !== undefined && named.categories.includes(category)) ||
    named.tokens.some((token) => tokens.includes(token));
  return byName && holds(named.rule.when, subject);
}

/**
 * The product tokens of a request's User-Agent tokens; the last list's answer is kept, as one
 * decision asks for the same crawler's tokens on every route, rule and spelling it judges.
 */
function productTokensOf(tokens: readonly string[]): readonly string[] {
  if (tokens !== lastTokens) {
    lastTokens = tokens;
    lastProductTokens = tokens.map(productToken);
  }
  return lastProductTokens;
}

let lastTokens: readonly string[] | undefined;
let lastProductTokens: readonly string[] = [];

function holds(condition: RuleCondition | undefined, subject: PolicySubject): boolean {
  if (!condition) return true;
  return crawlsPerReferralHolds(condition.crawlsPerReferral, subject, subject.ledger);
}

/** Parse and validate policy JSON: the compiled policy, or every problem at once (validated.ts). */
export function parsePolicy(json: string): Validated<CompiledPolicy> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return invalid([`not JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const problems: string[] = [];
  const fields = isObject(value) ? value : {};
  const hasPurposes = fields["purposes"] !== undefined;
  const hasTerms = fields["licence"] !== undefined || fields["tdmPolicy"] !== undefined;
  // `routes` may be left out of a policy that has only purposes or site-wide terms.
  const routes = Array.isArray(fields["routes"])
    ? (fields["routes"] as unknown[])
    : (hasPurposes || hasTerms) && fields["routes"] === undefined
      ? []
      : undefined;
  if (!isObject(value) || !routes) return invalid(['must be an object with a "routes" list']);
  const licence = fields["licence"] === undefined ? undefined : readSiteLicence(fields["licence"], "licence", problems);
  const tdmPolicy =
    fields["tdmPolicy"] === undefined ? undefined : readTdmPolicy(fields["tdmPolicy"], "tdmPolicy", problems);
  const parsed = routes.map((route, i) =>
    withLicence(readRoute(route, `routes[${i}]`, problems), route, i, licence, problems),
  );
  const purposes = hasPurposes ? readPurposes(fields["purposes"], "purposes", problems) : undefined;
  if (problems.length > 0) return invalid(problems);
  return valid(
    new CompiledPolicy({
      routes: parsed,
      ...(purposes && { purposes }),
      ...(licence && { licence }),
      ...(tdmPolicy !== undefined && { tdmPolicy }),
    }),
  );
}

/** A route with its `licence` terms, when it has some (terms-licence.ts). */
function withLicence(
  route: PolicyRoute,
  value: unknown,
  i: number,
  site: SiteLicence | undefined,
  problems: string[],
): PolicyRoute {
  const raw = isObject(value) ? value["licence"] : undefined;
  const licence = readRouteLicence(raw, `routes[${i}].licence`, site, problems);
  return licence ? { ...route, licence } : route;
}

function readRoute(value: unknown, where: string, problems: string[]): PolicyRoute {
  if (!isObject(value)) {
    problems.push(`${where} must be an object`);
    return { pattern: "/", rules: [] };
  }
  const { pattern, mode, blockStatus, rules } = value;
  if (typeof pattern !== "string" || !(pattern.startsWith("/") || pattern.startsWith("*"))) {
    problems.push(`${where}.pattern must be a path pattern starting with "/" or "*", got ${JSON.stringify(pattern)}`);
  }
  if (mode !== undefined && !(MODES as readonly unknown[]).includes(mode)) {
    problems.push(`${where}.mode must be one of ${MODES.join(", ")}, got ${JSON.stringify(mode)}`);
  }
  if (
    blockStatus !== undefined &&
    !(Number.isInteger(blockStatus) && Number(blockStatus) >= 400 && Number(blockStatus) <= 599)
  ) {
    problems.push(`${where}.blockStatus must be a whole number from 400 to 599, got ${JSON.stringify(blockStatus)}`);
  }
  if (rules !== undefined && !Array.isArray(rules)) problems.push(`${where}.rules must be a list`);
  const ruleList = Array.isArray(rules) ? rules.map((rule, i) => readRule(rule, `${where}.rules[${i}]`, problems)) : [];
  return {
    pattern: typeof pattern === "string" ? pattern : "/",
    ...(mode !== undefined && { mode: mode as Mode }),
    ...(typeof blockStatus === "number" && { blockStatus }),
    rules: ruleList,
  };
}

function readRule(value: unknown, where: string, problems: string[]): PolicyRule {
  const fields = isObject(value) ? value : {};
  const { crawlers, action, signature, retryAfter, when, price } = fields;
  const list =
    Array.isArray(crawlers) && crawlers.length > 0 && crawlers.every((name) => typeof name === "string")
      ? (crawlers as string[])
      : undefined;
  if (!list) problems.push(`${where}.crawlers must be a non-empty list of product tokens or "category:NAME"`);
  for (const name of list ?? []) {
    if (name.startsWith("category:") && !isCrawlerCategory(name.slice("category:".length))) {
      problems.push(
        `${where}.crawlers: unknown ${JSON.stringify(name)}; categories are ${CRAWLER_CATEGORIES.join(", ")}`,
      );
    } else if (!name.startsWith("category:") && productToken(name) === "") {
      problems.push(`${where}.crawlers: ${JSON.stringify(name)} has no product token (letters, digits, "-", "_", ".")`);
    }
  }
  if (action !== "block" && action !== "allow" && action !== "pace" && action !== "charge")
    problems.push(`${where}.action must be "block", "allow", "pace" or "charge", got ${JSON.stringify(action)}`);
  const chargePrice = readPrice(price, action, `${where}.price`, problems);
  const paceRetryAfter = readRetryAfter(retryAfter, action, `${where}.retryAfter`, problems);
  const condition = when === undefined ? undefined : readCondition(when, `${where}.when`, problems);
  if (when !== undefined && action === "allow") {
    problems.push(
      `${where}.when cannot make an "allow": a condition counts referrals, which any client can claim, and a claim grants nothing`,
    );
  }
  if (signature !== undefined && signature !== "required") {
    problems.push(`${where}.signature must be "required" when present, got ${JSON.stringify(signature)}`);
  }
  return {
    crawlers: list ?? [],
    action: action === "allow" || action === "pace" || action === "charge" ? action : "block",
    ...(signature === "required" && { signature: "required" as const }),
    ...(paceRetryAfter !== undefined && { retryAfter: paceRetryAfter }),
    ...(chargePrice !== undefined && { price: chargePrice }),
    ...(condition && { when: condition }),
  };
}

/** A pace rule's Retry-After (its default when absent); a problem on any other rule. */
function readRetryAfter(value: unknown, action: unknown, where: string, problems: string[]): number | undefined {
  if (action !== "pace") {
    if (value !== undefined) problems.push(`${where} belongs to a "pace" rule only`);
    return undefined;
  }
  if (value === undefined) return PACE_RETRY_AFTER;
  if (!(Number.isInteger(value) && Number(value) >= 1 && Number(value) <= MAX_PACE_RETRY_AFTER)) {
    problems.push(
      `${where} must be a whole number of seconds from 1 to ${MAX_PACE_RETRY_AFTER}, got ${JSON.stringify(value)}`,
    );
    return PACE_RETRY_AFTER;
  }
  return Number(value);
}

/** A charge rule's price (`USD 0.01`: terms-price.ts), required there; a problem on any other rule. */
function readPrice(value: unknown, action: unknown, where: string, problems: string[]): string | undefined {
  if (action !== "charge") {
    if (value !== undefined) problems.push(`${where} belongs to a "charge" rule only`);
    return undefined;
  }
  const parsed = typeof value === "string" ? parsePrice(value) : undefined;
  if (!parsed || parsed.micros <= 0 || parsed.micros > MAX_PRICE_UNITS * 1_000_000) {
    problems.push(
      `${where} must be a currency code and an amount above 0 and at most ${MAX_PRICE_UNITS}, such as "USD 0.01", got ${JSON.stringify(value)}`,
    );
    return "USD 0.01";
  }
  return (value as string).trim();
}

/** `{"crawlsPerReferral": {"above": N, "days": D}}`, every problem named on its member. */
function readCondition(value: unknown, where: string, problems: string[]): RuleCondition | undefined {
  if (!isObject(value)) {
    problems.push(`${where} must be an object such as {"crawlsPerReferral": {"above": 100, "days": 7}}`);
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (key !== "crawlsPerReferral")
      problems.push(`${where}.${key} is not a condition this version knows (crawlsPerReferral)`);
  }
  const ratio = value["crawlsPerReferral"];
  if (!isObject(ratio)) {
    problems.push(`${where}.crawlsPerReferral must be an object {"above": N, "days": D}`);
    return undefined;
  }
  const { above, days = DEFAULT_LEDGER_DAYS, ...rest } = ratio;
  for (const key of Object.keys(rest)) problems.push(`${where}.crawlsPerReferral.${key} is not known (above, days)`);
  const aboveOk = typeof above === "number" && Number.isFinite(above) && above > 0 && above <= 1e9;
  if (!aboveOk) {
    problems.push(
      `${where}.crawlsPerReferral.above must be a number of crawls per referral greater than 0, got ${JSON.stringify(above)}`,
    );
  }
  const daysOk = Number.isInteger(days) && Number(days) >= 1 && Number(days) <= MAX_LEDGER_DAYS;
  if (!daysOk) {
    problems.push(
      `${where}.crawlsPerReferral.days must be a whole number from 1 to ${MAX_LEDGER_DAYS}, got ${JSON.stringify(days)}`,
    );
  }
  if (!aboveOk || !daysOk) return undefined;
  return { crawlsPerReferral: { above: Number(above), days: Number(days) } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
