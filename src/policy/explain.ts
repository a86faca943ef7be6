/**
 * "What would the edge do with this request, and why?" — one answer for the admin API, the
 * operator page and `robots-edge explain`. It asks the edge's own decision
 * (edge-decision.ts) with the facts it is given, so it cannot disagree with the edge. Pure.
 * Two facts it cannot know are said as such: the rate state ("limited if faster than N s"),
 * and, unless the caller passes it, the verification of the client's address: then the
 * answer names the methods the edge would use and judges the claim as unverifiable, as the
 * edge does when it cannot check (policy/claim.ts). A signature cannot be explained (there is
 * no signed request).
 */

import { classifyUserAgent, type AgentInfo } from "../agents/classify.ts";
import { verificationPlan, type VerificationOutcome } from "../agents/verification.ts";
import { contentSignalUseOf, pathAndQuery, resolveUsage, type RobotsMatcher, type Rule } from "../core/index.ts";
import { cataloguedOf, type CatalogueTable } from "../agents/catalogue.ts";
import type { Action, CrawlerCategory, JudgedAs, Layer } from "../vocabulary.ts";
import { decideEdge, isRobotsTxtPath } from "./edge-decision.ts";
import { NOT_GATHERED, type EdgeFacts, type EdgeSettings } from "./edge-facts.ts";
import type { DecidingLine, EdgeRecord } from "./edge-record.ts";
import { rateLimitFields } from "./rate-limit-headers.ts";
import type { EntryState, Verdict } from "./judge.ts";
import type { CompiledPolicy, PolicyRule } from "./operator-policy.ts";
import { documentedUseOf } from "./usage-vocabulary.ts";
import type { RecordedTerms } from "./terms.ts";

/** The record of what the edge would do (edge-record.ts), rendered for a person and for JSON. */
export interface Explanation {
  readonly path: string;
  /** Who asked, from the record: an automated client, its tokens, the known crawler and its category. */
  readonly crawler: boolean;
  readonly tokens: readonly string[];
  readonly known: { readonly token: string; readonly category: CrawlerCategory | null } | null;
  /** Whom the decision judged (src/vocabulary.ts JUDGED_AS). */
  readonly judgedAs: JudgedAs;
  /** The crawler catalogue whose category the claim was judged with (judgedAs "catalogued"): name, date, token. */
  readonly catalogue: {
    readonly name: string;
    readonly fetchedAt: string;
    readonly token: string;
    readonly category: CrawlerCategory | null;
  } | null;
  /** The stored robots.txt's state; null when none is stored (a decision that did not need it). */
  readonly robotsState: EntryState | null;
  readonly group: { readonly token: string; readonly lines: readonly number[] } | null;
  readonly rule: Rule | null;
  /**
   * Why, in one word: robots.txt's own ("rule", "no-matching-rule", "no-group", …) when it
   * decided; "policy-rule" or "policy-route-off" for the policy; the robots.txt state ("none",
   * "unavailable", "not-stored") when there was nothing to judge by; otherwise the layer.
   */
  readonly reason: string;
  /** The spelling of the path that decided (see policy/path-spellings.ts). */
  readonly judgedPath: string;
  readonly allowed: boolean;
  readonly action: {
    readonly action: Action;
    readonly status: number | null;
    readonly retryAfter: number | null;
    /** For a pass held to rate lines: "would be limited if faster than N s" (the limiter's state is not read). */
    readonly rateLimit: string | null;
  };
  /** What decided (src/vocabulary.ts LAYERS). */
  readonly layer: Layer;
  /** The line that decided: a robots.txt rule or usage line, or a policy route (edge-record.ts). */
  readonly line: DecidingLine | null;
  /** A refusal by the site's usage preferences (Content-Usage / Content-Signal), with its line. */
  readonly usage: { readonly key: string; readonly line: number; readonly message: string } | null;
  /** `Content-Usage` the edge adds to a passed response (unless the origin sends one). */
  readonly contentUsage: string | null;
  /**
   * The Content-Signal `use=` in force on the path for this crawler, and whether it binds it:
   * only a crawler whose operator documents its use (usage-vocabulary.ts; none does yet).
   */
  readonly contentSignalUse: { readonly use: string; readonly line: number; readonly binds: string } | null;
  /** The policy route covering the path and the rule naming the crawler, if any. */
  readonly policy: { readonly route: string; readonly routeIndex: number; readonly rule: PolicyRule | null } | null;
  /** How the crawler was verified, or why not, as the decision used it. */
  readonly verification: VerificationOutcome;
  /** The readings of robots.txt disagree on this path for this crawler: not refused, marked, and why (policy/readings.ts). */
  readonly reading: { readonly line: number | null; readonly text: string; readonly reason: string } | null;
  /** What the site's terms added: the licence link, the licence check, the TDM reservation (terms.ts). */
  readonly terms: RecordedTerms | null;
  /** A `charge` rule's price (terms-price.ts): charged, or refused with its crawler-error. Absent: no price. */
  readonly charge?: { readonly price: string; readonly charged: boolean; readonly error: string | null };
  /** The RateLimit fields the answer carries (rate-limit-headers.ts). Absent: no rate binds. */
  readonly rateLimitFields?: readonly string[];
}

export interface ExplainInput {
  readonly userAgent: string;
  /** Absolute URL or path with query. */
  readonly url: string;
  /** The operator's settings, as the edge reads them (config/edge-settings.ts settingsOf): no defaults here. */
  readonly settings: EdgeSettings;
  readonly state: EntryState;
  readonly matcher: RobotsMatcher | undefined;
  /** A pause in force: true, or its Retry-After seconds. */
  readonly paused: boolean | { readonly retryAfter: number };
  readonly policy?: CompiledPolicy | undefined;
  /** The remaining facts the edge gathers; defaults: served, no verification, no disguise. */
  readonly facts?: Partial<Pick<EdgeFacts, "served" | "now" | "ledger" | "disguise">> & {
    /** The address check, when the caller could make one (admin explain's `ip=`, from stored lists). */
    readonly claimCheck?: VerificationOutcome;
    /** Cloudflare's category, as our category (edge-decision.ts cloudflareCategory). */
    readonly cloudflareCategory?: EdgeFacts["cloudflareCategory"];
    /** The crawler catalogues as the edge holds them (agents/catalogue.ts); absent: none. */
    readonly catalogues?: CatalogueTable;
    readonly robotsRetryAfter?: number;
    readonly method?: string;
  };
}

export function explainRequest(input: ExplainInput): Explanation {
  const explanation = explainWith(input, { state: input.state, matcher: input.matcher });
  if (!explanation) throw new TypeError("explain was given robots.txt yet the decision asks for it");
  return explanation;
}

/**
 * The same, when no copy of robots.txt may be stored (`robots` undefined): the answer for
 * every request the edge decides without one (MODE=off, a person, a host it does not
 * protect, a pause), or undefined when the decision needs the copy.
 */
export function explainIfDecidable(
  input: Omit<ExplainInput, "state" | "matcher">,
  robots: Pick<ExplainInput, "state" | "matcher"> | undefined,
): Explanation | undefined {
  return explainWith(input, robots);
}

function explainWith(
  input: Omit<ExplainInput, "state" | "matcher">,
  robots: Pick<ExplainInput, "state" | "matcher"> | undefined,
): Explanation | undefined {
  const record = decideEdge(factsOf(input, robots));
  if ("gather" in record) {
    if (record.gather === "robots") return undefined;
    throw new TypeError(`explain lacks the fact ${record.gather}`);
  }
  return explained(record, robots?.state ?? null);
}

/** The edge's facts for the request to explain: every fact given, the rate "not checked". */
function factsOf(
  input: Omit<ExplainInput, "state" | "matcher">,
  robots: Pick<ExplainInput, "state" | "matcher"> | undefined,
): EdgeFacts {
  const agent = classifyUserAgent(input.userAgent);
  const path = pathAndQuery(input.url);
  const facts = input.facts ?? {};
  const method = facts.method ?? "GET";
  const pause = input.paused === false ? "none" : { retryAfter: input.paused === true ? 0 : input.paused.retryAfter };
  const { settings } = input;
  return {
    ...settings,
    selfAddressed: false,
    served: facts.served ?? true,
    isRobotsTxt: (method === "GET" || method === "HEAD") && isRobotsTxtPath(path.split("?")[0] ?? path),
    pathAndQuery: path,
    agent,
    signed: false,
    signature: NOT_GATHERED,
    ...claimFacts(agent, settings.verifyCrawlers, facts),
    // A browser's address, when the caller looked it up (admin explain's `ip=`); else a person.
    disguise: facts.disguise ?? "none",
    cloudflareCategory: facts.cloudflareCategory,
    // Only for a claim neither the table nor Cloudflare names, as the request path looks it up.
    catalogued:
      facts.catalogues && facts.cloudflareCategory === undefined ? cataloguedOf(facts.catalogues, agent) : undefined,
    pause,
    robots: robots
      ? { state: robots.state, matcher: robots.matcher, retryAfter: facts.robotsRetryAfter ?? 0 }
      : NOT_GATHERED,
    policy: input.policy ?? "none",
    ledger: facts.ledger,
    rate: "not-checked",
    now: facts.now ?? Date.now(),
  };
}

/** The record, rendered: every field from the record alone (and the stored copy's state it was given). */
function explained(record: EdgeRecord, state: EntryState | null): Explanation {
  const { identity, verdict } = record;
  const decision = verdict?.decision;
  const policy = verdict?.policy;
  const usage = record.usage;
  return {
    path: record.path,
    crawler: identity.crawler,
    tokens: identity.tokens,
    known: identity.known === null ? null : { token: identity.known, category: identity.category },
    judgedAs: identity.judgedAs,
    catalogue: identity.catalogue ? { ...identity.catalogue, category: identity.category } : null,
    robotsState: state,
    group: decision?.group ? { token: decision.group.token, lines: decision.group.agentLines } : null,
    rule: decision?.rule ?? null,
    reason: reasonOf(record, state ?? "not-stored"),
    judgedPath: record.judgedPath,
    allowed: allowedBy(record),
    action: {
      action: record.action,
      status: record.status,
      retryAfter: record.retryAfter,
      rateLimit: record.pacing ? rateLimitText(record.pacing.limits) : null,
    },
    layer: record.layer,
    line: record.line,
    usage: usage ? { key: usage.key, line: usage.line, message: usage.message } : null,
    contentUsage: record.contentUsage,
    contentSignalUse: contentSignalUseFor(verdict ?? undefined, identity.tokens),
    policy: policy ? { route: policy.route.pattern, routeIndex: policy.routeIndex, rule: policy.rule ?? null } : null,
    verification: identity.verification,
    reading: record.reading
      ? { line: record.reading.line.line, text: record.reading.line.text, reason: record.reading.reason }
      : null,
    terms: record.terms ?? null,
    ...(record.charge && {
      charge: { price: record.charge.price, charged: record.charge.charged !== null, error: record.charge.error },
    }),
    ...(record.rateLimit && {
      rateLimitFields: rateLimitFields(record.rateLimit).map(({ name, value }) => `${name}: ${value}`),
    }),
  };
}

/**
 * The verification facts explain can state: the caller's address check; else, for a claim the
 * edge would check, that no address was given: unverifiable, judged as the edge judges a claim
 * it cannot check (policy/claim.ts), naming the methods the edge would use.
 */
function claimFacts(
  agent: AgentInfo,
  verifyCrawlers: EdgeFacts["verifyCrawlers"],
  facts: NonNullable<ExplainInput["facts"]>,
): Pick<EdgeFacts, "needsVerification" | "verification"> {
  const { claimCheck } = facts;
  if (claimCheck) return { needsVerification: true, verification: claimCheck };
  const methods = verificationPlan(agent).methods;
  if (verifyCrawlers === "off" || !agent.crawler || methods.length === 0) {
    return { needsVerification: false, verification: NOT_GATHERED };
  }
  const reason = `no client address given; the edge would check by ${methods.join(", ")}`;
  return {
    needsVerification: true,
    verification: { status: "unverifiable", method: null, evidence: null, why: "no-address", reason },
  };
}

/** The `use=` of the Content-Signal line that applies to the judged path, with who it binds. */
function contentSignalUseFor(verdict: Verdict | undefined, tokens: readonly string[]): Explanation["contentSignalUse"] {
  const decision = verdict?.decision;
  if (!verdict || !decision?.group) return null;
  const resolution = resolveUsage(decision.group, verdict.judgedPath, { allowed: decision.allowed });
  const line = resolution.lines.find((usage) => contentSignalUseOf(usage) !== undefined);
  const use = line && contentSignalUseOf(line);
  if (!line || !use) return null;
  const documented = documentedUseOf(tokens);
  const binds = documented
    ? `binds ${documented.token}: its operator documents use=${documented.use} (${documented.source})`
    : "binds nobody here: this crawler's operator documents no use (usage-vocabulary.ts)";
  return { use, line: line.line, binds };
}

/** Whether the rules allow the path (a pause, a rate limit or a claim we could not check is not a disallow). */
function allowedBy(record: EdgeRecord): boolean {
  const { verdict } = record;
  if (!verdict) return record.action !== "block" && record.layer !== "robots-unavailable";
  if (verdict.layer === "policy") return verdict.action !== "block" && verdict.action !== "report";
  if (verdict.decision) return verdict.decision.allowed;
  return verdict.action !== "unavailable";
}

function reasonOf(record: EdgeRecord, state: EntryState | "not-stored"): string {
  const { verdict } = record;
  switch (record.layer) {
    case "policy":
      return verdict?.policy?.rule ? "policy-rule" : "policy-route-off";
    case "robots.txt":
      return verdict?.decision?.reason ?? state;
    case "none":
    case "robots-unavailable":
      return state;
    default:
      return record.layer;
  }
}

function rateLimitText(limits: { minIntervalMs: number; rates: readonly { requests: number; ms: number }[] }): string {
  const parts: string[] = [];
  if (limits.minIntervalMs > 0) parts.push(`faster than one request every ${limits.minIntervalMs / 1000} s`);
  for (const rate of limits.rates) parts.push(`more than ${rate.requests} requests in ${rate.ms / 1000} s`);
  return `would be limited (429) if ${parts.join(" or ")}`;
}
