/**
 * The operator's policy, layered over the origin's robots.txt: per route (same `*`/`$`
 * pattern syntax as robots.txt), a mode, a block status, and extra rules for named crawlers
 * or crawler categories. Pure: parsed and validated once, then consulted per request.
 *
 *   {"routes": [{"pattern": "/articles/", "mode": "enforce", "blockStatus": 451,
 *                "rules": [{"crawlers": ["category:ai-training"], "action": "block"},
 *                          {"crawlers": ["PartnerBot"], "action": "allow"},
 *                          {"crawlers": ["category:ai-assistant"], "action": "allow", "signature": "required"}]}]}
 *
 * Choices (docs/decisions.md "Per-route policies"):
 *   - the most specific route wins, as in robots.txt: the longest matching pattern;
 *   - within a route, rules apply in the order written; the first naming the crawler
 *     (by product token, compared as robots.txt compares them, or by `category:NAME`)
 *     decides, and robots.txt is not consulted; no rule naming it -> robots.txt decides;
 *   - route mode and block status replace MODE and BLOCK_STATUS for the paths they cover;
 *   - a rule with `"signature": "required"` applies only to a request with a verified Web Bot
 *     Auth signature; one without is refused 403 asking for one (edge-decision.ts).
 */

import { canonicalizePath, indexPathPatterns, productToken, type PathPatternIndex } from "../core/index.ts";
import { MODES, type Mode } from "./mode.ts";
import { invalid, valid, type Validated } from "./validated.ts";
import { CRAWLER_CATEGORIES, isCrawlerCategory, type CrawlerCategory } from "../vocabulary.ts";
import { readPurposes, type Purposes } from "./purposes.ts";

export type PolicyAction = "block" | "allow";

export interface PolicyRule {
  /** Product tokens, or `category:NAME`. */
  readonly crawlers: readonly string[];
  readonly action: PolicyAction;
  /** The crawlers named must prove who they are with a Web Bot Auth signature. */
  readonly signature?: "required";
}

export interface PolicyRoute {
  readonly pattern: string;
  readonly mode?: Mode;
  readonly blockStatus?: number;
  readonly rules: readonly PolicyRule[];
}

export interface OperatorPolicy {
  readonly routes: readonly PolicyRoute[];
  /** Which crawler categories may use which paths, compiled into the served robots.txt (purposes.ts). */
  readonly purposes?: Purposes;
}

/** A request as the policy sees it. */
export interface PolicySubject {
  readonly tokens: readonly string[];
  readonly category: CrawlerCategory | undefined;
}

/** The route covering a path, and the rule that names the crawler there, if any. */
export interface PolicyMatch {
  readonly route: PolicyRoute;
  readonly routeIndex: number;
  readonly rule: PolicyRule | undefined;
  readonly ruleIndex: number;
}

/**
 * A policy ready to answer per request: its routes indexed once, when the version is parsed
 * (as a robots.txt is compiled once per fetch), so a decision costs one walk of the path
 * whatever the number of routes (core pattern-index.ts; bench/request.bench.ts shows a
 * 64 KiB policy against an 8 KB path).
 */
export class CompiledPolicy {
  /** The policy as validated (the admin API shows it; version 0 of the live policy is this). */
  readonly policy: OperatorPolicy;
  private readonly routes: PathPatternIndex;

  constructor(policy: OperatorPolicy) {
    this.policy = policy;
    this.routes = indexPathPatterns(policy.routes.map((route) => route.pattern));
  }

  /** The most specific route whose pattern matches the path, and its rule for the crawler. */
  match(pathAndQuery: string, subject: PolicySubject): PolicyMatch | undefined {
    return this.matchCanonical(canonicalizePath(pathAndQuery), subject);
  }

  /** `match` for a path already canonical (path-spellings.ts gives every spelling so). */
  matchCanonical(canonical: string, subject: PolicySubject): PolicyMatch | undefined {
    const routeIndex = this.routes.findCanonical(canonical);
    const route = this.policy.routes[routeIndex];
    if (!route) return undefined;
    const ruleIndex = route.rules.findIndex((rule) => names(rule, subject));
    return { route, routeIndex, rule: route.rules[ruleIndex], ruleIndex };
  }
}

function names(rule: PolicyRule, subject: PolicySubject): boolean {
  const tokens = subject.tokens.map(productToken);
  return rule.crawlers.some((name) =>
    name.startsWith("category:")
      ? name.slice("category:".length) === subject.category
      : tokens.includes(productToken(name)),
  );
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
  // `routes` may be left out of a policy that has only purposes.
  const routes = Array.isArray(fields["routes"])
    ? (fields["routes"] as unknown[])
    : hasPurposes && fields["routes"] === undefined
      ? []
      : undefined;
  if (!isObject(value) || !routes) return invalid(['must be an object with a "routes" list']);
  const parsed = routes.map((route, i) => readRoute(route, `routes[${i}]`, problems));
  const purposes = hasPurposes ? readPurposes(fields["purposes"], "purposes", problems) : undefined;
  if (problems.length > 0) return invalid(problems);
  return valid(new CompiledPolicy({ routes: parsed, ...(purposes && { purposes }) }));
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
  const { crawlers, action, signature } = fields;
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
  if (action !== "block" && action !== "allow")
    problems.push(`${where}.action must be "block" or "allow", got ${JSON.stringify(action)}`);
  if (signature !== undefined && signature !== "required") {
    problems.push(`${where}.signature must be "required" when present, got ${JSON.stringify(signature)}`);
  }
  return {
    crawlers: list ?? [],
    action: action === "allow" ? "allow" : "block",
    ...(signature === "required" && { signature: "required" as const }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
