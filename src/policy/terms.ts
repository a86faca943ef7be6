/**
 * The terms step of the one decision (edge-decision.ts, after the path layers): what the site's
 * terms add to an answer to a crawler, and the licence a route requires. Pure.
 *
 *   - `Link: <licence>; rel="license"` on answers to crawlers where a licence file is set
 *     (RSL 1.0's HTTP binding), the route's own file before the site's;
 *   - `tdm-reservation: 1` (and `tdm-policy`) where the purposes block AI training (TDMRep,
 *     W3C TDM Reservation Protocol): the EU DSM Article 4 reservation, said where robots.txt
 *     already says no;
 *   - a route whose licence is `required`: a crawler it applies to must present
 *     `Authorization: License <token>` that the licence server confirms (RSL CAP): none, or a
 *     malformed one -> 401 with `WWW-Authenticate: License error="invalid_request"`; a token the
 *     server does not confirm -> 401 `error="invalid_token"`; the server failing or not
 *     answering -> 503 with Retry-After (our failure is never the visitor's: a crawler retries,
 *     nothing is refused for it). A licence never opens what robots.txt or the policy refuses:
 *     this step only runs on a pass.
 *
 * Who must hold a licence (rule 1, "a claim grants nothing it cannot prove"): the crawlers the
 * route's `crawlers` names; by default every crawler but a PROVEN search-engine crawler or a
 * proven fetcher documented to ignore `*` (user-triggered fetchers, AdsBot): nothing here can
 * drop a site from a search index. Such a claim we could not prove is answered 503 with
 * Retry-After (as `*` refusing an unproven claim is): a real one retries, an impostor gains
 * nothing. A search-engine claim no retry can prove — taken as made (VERIFY_CRAWLERS=off, no
 * way to verify it published) or a search engine Cloudflare verified — is exempt, as robots.txt
 * gives it its group; a catalogue's category never exempts (appliesTo). Every spelling of the path is judged (rule 2): a licence is required if any
 * spelling's route requires one, training reserved if any spelling's path is.
 */

import type { AgentInfo } from "../agents/classify.ts";
import { productToken } from "../core/index.ts";
import type { CrawlerCategory } from "../vocabulary.ts";
import type { ClaimStanding } from "./claim.ts";
import { UNPROVEN_RETRY_AFTER_SECONDS } from "./claim.ts";
import { NOT_GATHERED, type NotGathered } from "./edge-facts.ts";
import type { DecidingLine, EdgeOutcome } from "./edge-record.ts";
import type { CompiledPolicy, OperatorPolicy, PolicyRoute } from "./operator-policy.ts";
import { enforcementSpellings } from "./path-spellings.ts";
import { categoryBlockedAt } from "./purposes.ts";
import type { Mode } from "./mode.ts";

/** The longest `Authorization` header read: far above any real token; a longer one is not parsed. */
export const MAX_AUTHORIZATION_LENGTH = 4096;

/** What the request's `Authorization` says of a licence, read once when the request arrives. */
export type LicenceToken =
  { readonly kind: "none" } | { readonly kind: "malformed" } | { readonly kind: "token"; readonly token: string };

/** RFC 6750 b64token, the syntax the `License` scheme shares with Bearer (RSL CAP). */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * `Authorization: License <token>`, bounded before it is parsed: a header longer than
 * MAX_AUTHORIZATION_LENGTH is malformed unread. Another scheme (Basic, Bearer) is no licence.
 */
export function licenceTokenOf(header: string | null): LicenceToken {
  if (header === null) return { kind: "none" };
  if (header.length > MAX_AUTHORIZATION_LENGTH) return { kind: "malformed" };
  const match = /^license[ ]+(\S+)[ ]*$/i.exec(header);
  if (!match) return /^license\b/i.test(header) ? { kind: "malformed" } : { kind: "none" };
  const token = match[1] ?? "";
  return B64TOKEN.test(token) ? { kind: "token", token } : { kind: "malformed" };
}

/** The licence server's answer on a token, as the Worker gathered it (worker/licence). */
export type LicenceFact =
  | { readonly status: "confirmed" }
  /** Not active, expired, or issued for another site or resource: the crawler's to fix. */
  | { readonly status: "refused"; readonly why: string }
  /** The server failed, hung or answered nothing we can read: ours to fix, 503. */
  | { readonly status: "unavailable"; readonly why: string; readonly retryAfter: number };

/** What the terms added to an answer, in the one record (edge-record.ts). */
export interface RecordedTerms {
  /** The licence file announced in `Link` (null: none set). */
  readonly licence: string | null;
  /** How the route's licence requirement came out. */
  readonly licenceCheck: LicenceCheck;
  /** `tdm-reservation: 1` was sent. */
  readonly tdmReservation: boolean;
  /** `tdm-policy`, when sent. */
  readonly tdmPolicy: string | null;
}

export type LicenceCheck =
  "not-required" | "exempt" | "missing" | "malformed" | "confirmed" | "refused" | "unavailable" | "unproven-exemption";

/** The facts the terms step reads. */
export interface TermsFacts {
  readonly pathAndQuery: string;
  readonly mode: Mode;
  readonly policy: CompiledPolicy | "none" | NotGathered;
  readonly licenceToken?: LicenceToken | undefined;
  readonly licence?: LicenceFact | NotGathered | undefined;
}

/** Who asked, as the claim stood (claim.ts). */
export interface TermsSubject {
  readonly standing: ClaimStanding;
  readonly agent: AgentInfo;
  readonly category: CrawlerCategory | undefined;
}

/** For the Worker: what to ask the licence server. */
export interface LicenceQuestion {
  readonly server: string;
  /** The resource the token must cover; a path is completed with the request's origin by the Worker. */
  readonly resource: string;
}

export type TermsAnswer = EdgeOutcome | { readonly gather: "licence"; readonly licence: LicenceQuestion };

/** A route that requires a licence, with its place in the policy. */
interface LicenceRoute {
  readonly route: PolicyRoute;
  readonly index: number;
}

/**
 * The terms on an answer the path layers made: unchanged but for the record's `terms` when the
 * policy states none (or the answer is no pass); a 401, a 503 or a gather when a licence is required.
 */
export function withTerms(facts: TermsFacts, answer: EdgeOutcome, who: TermsSubject): TermsAnswer {
  const policy = facts.policy === "none" || facts.policy === NOT_GATHERED ? undefined : facts.policy;
  if (!policy || !statesTerms(policy)) return answer;
  const spellings = enforcementSpellings(facts.pathAndQuery);
  const routes = spellings.map((spelling) => routeOf(policy, spelling));
  const licence = routes.find((found) => found?.route.licence?.url)?.route.licence?.url ?? policy.policy.licence?.url;
  const tdmReservation = spellings.some((spelling) => trainingReserved(policy, spelling));
  const terms: RecordedTerms = {
    licence: licence ?? null,
    licenceCheck: "not-required",
    tdmReservation,
    tdmPolicy: tdmReservation ? (policy.policy.tdmPolicy ?? null) : null,
  };
  const required = routes.find((found): found is LicenceRoute => found?.route.licence?.required === true);
  if (!required || (answer.action !== "pass" && answer.action !== "report")) return { ...answer, terms };
  return licensed(facts, answer, who, { ...terms, licence: required.route.licence?.url ?? terms.licence }, required);
}

function licensed(
  facts: TermsFacts,
  answer: EdgeOutcome,
  who: TermsSubject,
  terms: RecordedTerms,
  required: LicenceRoute,
): TermsAnswer {
  const licence = required.route.licence;
  const server =
    facts.policy !== "none" && facts.policy !== NOT_GATHERED ? facts.policy.policy.licence?.server : undefined;
  const applies = appliesTo(licence?.crawlers, who);
  if (applies === "exempt") return { ...answer, terms: { ...terms, licenceCheck: "exempt" } };
  const mode = required.route.mode ?? facts.mode;
  if (mode === "off") return { ...answer, terms };
  if (applies === "unproven") {
    return refused(answer, mode, terms, "unproven-exemption", required, 503, UNPROVEN_RETRY_AFTER_SECONDS);
  }
  const token = facts.licenceToken ?? { kind: "none" };
  if (token.kind === "none") return refused(answer, mode, terms, "missing", required, 401);
  if (token.kind === "malformed" || !server) return refused(answer, mode, terms, "malformed", required, 401);
  const fact = facts.licence ?? NOT_GATHERED;
  if (fact === NOT_GATHERED) {
    return { gather: "licence", licence: { server, resource: licence?.resource ?? required.route.pattern } };
  }
  switch (fact.status) {
    case "confirmed":
      return { ...answer, terms: { ...terms, licenceCheck: "confirmed" } };
    case "refused":
      return refused(answer, mode, terms, "refused", required, 401);
    case "unavailable":
      return refused(answer, mode, terms, "unavailable", required, 503, fact.retryAfter);
  }
}

/**
 * The licence refusal (401), or our 503, as the record says it; under MODE or the route's mode
 * `report`, forwarded marked would-block instead.
 */
function refused(
  answer: EdgeOutcome,
  mode: "enforce" | "report",
  terms: RecordedTerms,
  licenceCheck: LicenceCheck,
  required: LicenceRoute,
  status: 401 | 503,
  retryAfter?: number,
): EdgeOutcome {
  const line: DecidingLine = {
    source: "policy",
    line: null,
    member: `routes[${required.index}].licence`,
    text: `policy ${required.route.pattern}: licence required`,
  };
  const recordedTerms = { ...terms, licenceCheck };
  const layer = licenceCheck === "unproven-exemption" ? "unproven-claim" : "licence";
  // `report` refuses nothing, our 503 included: the answer is forwarded, marked.
  if (mode === "report") return { ...answer, action: "report", layer, line, terms: recordedTerms };
  return {
    ...answer,
    action: status === 401 ? "block" : "unavailable",
    status,
    retryAfter: retryAfter ?? null,
    layer,
    line,
    contentUsage: null,
    terms: recordedTerms,
  };
}

/**
 * Whether the licence applies to who asked: yes, exempt, or an exemption claimed but not proven
 * (503: a retry may prove it). By standing (claim.ts):
 *   proven      exempt when a search-engine crawler or a fetcher documented to ignore `*`
 *   unproven    the same kinds get 503 + Retry-After: the check failed on our side, a retry proves it
 *   as-made     exempt when its category is search-engine, as robots.txt selects its group:
 *               VERIFY_CRAWLERS=off (the operator takes claims as made), a table crawler whose
 *               operator publishes no way to verify it, or a crawler Cloudflare itself verified
 *               as a search engine (cf.verifiedBotCategory names exactly that category). No
 *               retry proves these, so a 503 would be for ever, and a route answering 503 for
 *               ever is dropped from a search index. The exemption from `*` (a fetcher) still
 *               needs proof, as robots.txt holds such a claim to `*`: the licence applies.
 *   catalogued  applies: a catalogue can only restrict, and nothing ever proves its claim
 *   refuted, disguised  applies
 */
function appliesTo(crawlers: readonly string[] | undefined, who: TermsSubject): "applies" | "exempt" | "unproven" {
  if (crawlers) return names(crawlers, who) ? "applies" : "exempt";
  const known = who.agent.known;
  const exemptKind = who.category === "search-engine" || (known !== undefined && !who.agent.obeysGlobalGroup);
  switch (who.standing) {
    case "proven":
      return exemptKind ? "exempt" : "applies";
    case "unproven":
      return exemptKind ? "unproven" : "applies";
    case "as-made":
      return who.category === "search-engine" ? "exempt" : "applies";
    case "catalogued":
    case "refuted":
    case "disguised":
      return "applies";
  }
}

function names(crawlers: readonly string[], who: TermsSubject): boolean {
  const tokens = who.agent.tokens.map(productToken);
  return crawlers.some((name) =>
    name.startsWith("category:")
      ? name.slice("category:".length) === who.category
      : tokens.includes(productToken(name)),
  );
}

/**
 * Whether a policy states any terms: found once per policy version, not per request (a 64 KiB
 * policy has 1,000+ routes), and kept on the compiled policy (policyStatesTerms): with 1,000
 * hosts, a table of every policy's answer was one more thing a request read that the CPU's
 * caches no longer held (docs/operating.md "What it costs (per host)").
 */
function statesTerms(policy: CompiledPolicy): boolean {
  return policy.statesTerms;
}

/** Whether the policy states any terms (CompiledPolicy finds it once, when compiled). */
export function policyStatesTerms({ licence, purposes, routes }: OperatorPolicy): boolean {
  return licence !== undefined || (purposes?.length ?? 0) > 0 || routes.some((route) => route.licence !== undefined);
}

function routeOf(policy: CompiledPolicy, spelling: string): LicenceRoute | undefined {
  const match = policy.matchCanonical(spelling, NOBODY);
  return match ? { route: match.route, index: match.routeIndex } : undefined;
}

const NOBODY = { tokens: [], category: undefined } as const;

/** Whether the purposes block the ai-training category at this spelling's path. */
function trainingReserved(policy: CompiledPolicy, spelling: string): boolean {
  const purposes = policy.policy.purposes;
  if (!purposes || purposes.length === 0) return false;
  const queryAt = spelling.indexOf("?");
  return categoryBlockedAt(purposes, "ai-training", queryAt < 0 ? spelling : spelling.slice(0, queryAt)) === true;
}
