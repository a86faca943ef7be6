/**
 * Who is asking, apart from what to do about it. Pure. From the identity facts — what the
 * request states (its User-Agent), its Web Bot Auth signature, the address check, a browser's
 * address in a crawler-only list (a disguise) and the lists themselves — one value, Identity:
 * who claimed what, how the claim stands, whom it is judged as, the crawler a list names, the
 * category; or a request to gather the next of those facts. The decision (edge-decision.ts)
 * judges that value and nothing else of the request's identity.
 *
 * What lives here and what does not (the line drawn between identity and decision):
 *   here        which claim the request makes (stated: a trusted signer's agent, an anonymous
 *               bot for a failed signature, else the User-Agent's), whether a browser is a
 *               crawler in disguise, how the claim stands (proven, refuted, unproven, as made,
 *               disguised), whether a claim not proven comes from a crawler-only list, the
 *               category, the verification the record shows, and who is paced
 *   claim.ts    what each standing grants (rule 1, "a claim grants nothing it cannot prove",
 *               kept there: the judgement under the group and under `*`, the 503 of an unproven
 *               claim) and whom each standing is judged as
 *   disguise.ts what a list's judgement does beside the claim's own (the stricter stands) and
 *               what DISGUISED_CRAWLERS=report leaves of an answer
 *
 * The gathering order is the decision's precedence (edge-decision.ts, steps 4 to 6): the
 * signature first, then a browser's address, then — for a crawler only — the address check.
 * The list a crawler's claim not proven comes from is gathered later still, once the decision
 * reaches the path layers (after the pause and robots.txt): the value says NOT_GATHERED there
 * and the decision asks when it gets that far, so a paused site never looks an address up.
 *
 * The verification outcome is built only when it is shown (the record) or used (pacing): it
 * carries text, and the decision asks this step again after every fact it gathers.
 *
 * A new standing or source of identity (a crawler catalogue's "catalogued, unverified") is an
 * addition to ClaimStanding and JUDGED_AS_OF (claim.ts), a case in standingOf and its evidence
 * in verificationOf here: the Identity value keeps its shape.
 */

import type { CataloguedFact } from "../agents/catalogue.ts";
import type { AgentInfo } from "../agents/classify.ts";
import { rangeSourceOf, type VerificationOutcome } from "../agents/verification.ts";
import type { CrawlerCategory, JudgedAs } from "../vocabulary.ts";
import { ANONYMOUS_BOT, JUDGED_AS_OF, type ClaimStanding } from "./claim.ts";
import {
  NOT_GATHERED,
  type DisguiseFact,
  type EdgeFacts,
  type GatherRequest,
  type NotGathered,
  type PacedSubject,
  type SignatureFact,
} from "./edge-facts.ts";
import type { RecordedIdentity } from "./edge-record.ts";

/** The facts identity is made of (and nothing the decision alone reads). */
export type IdentityFacts = Pick<
  EdgeFacts,
  | "agent"
  | "signed"
  | "signature"
  | "isRobotsTxt"
  | "disguisedCrawlers"
  | "disguise"
  | "verifyCrawlers"
  | "needsVerification"
  | "verification"
  | "cloudflareCategory"
  | "catalogued"
>;

/** Who asked, as far as the decision needs it (see the file comment). */
export interface Identity {
  /** The signature as checked, when the request carried one and it was checked. */
  readonly signature: SignatureFact | undefined;
  /** What the request states it is: a trusted signer's agent, an anonymous bot (a failed signature), else the User-Agent's. */
  readonly stated: AgentInfo;
  /** The crawler-only list a browser's address is in: that crawler, in disguise. */
  readonly disguise: DisguiseFact | undefined;
  /** Whom the claim is about: the disguised crawler, else what the request states. */
  readonly claimant: AgentInfo;
  /** How the claim stands (claim.ts); a person's is "as-made", and nothing of it is judged. */
  readonly standing: ClaimStanding;
  /**
   * Whom the request is judged as: the standing's (JUDGED_AS_OF) for a crawler, "person" for a
   * person, "unjudged" for a request refused before any judgement (a reused signature).
   */
  readonly judgedAs: JudgedAs;
  /** The category its policies and usage rules use: our table's, else Cloudflare's for a crawler it does not know. */
  readonly category: CrawlerCategory | undefined;
  /**
   * The crawler-only list a claim not proven comes from, to be judged as that list's crawler too
   * ("none": no such list, or no need); NOT_GATHERED: the decision asks when it reaches the path layers.
   */
  readonly listed: DisguiseFact | "none" | NotGathered;
}

/**
 * The identity of a request the decision judges, or the next identity fact to gather (the
 * signature, a browser's address, a crawler's address check: in that order). A reused
 * signature stops here: it is refused as its signer's agent, before anything else is gathered.
 */
export function identify(facts: IdentityFacts): Identity | GatherRequest {
  if (facts.signed && facts.signature === NOT_GATHERED) return { gather: "signature" };
  const signature = signatureOf(facts);
  if (signature?.status === "reused") return identityAsGathered(facts, "unjudged");
  const stated = statedBy(facts, signature);
  const step = disguiseStep(facts, stated);
  if (step === "gather") return { gather: "disguise" };
  const disguise = typeof step === "object" ? step : undefined;
  const claimant = disguise?.agent ?? stated;
  const category = categoryOf(facts, signature, disguise);
  if (!claimant.crawler && !facts.isRobotsTxt) {
    return { signature, stated, disguise, claimant, standing: "as-made", judgedAs: "person", category, listed: "none" };
  }
  // A verified signature is the strongest evidence; a failed one a failed claim. Otherwise the
  // User-Agent's claim is checked against its operator's addresses (identity/verify-crawler.ts).
  const checksAddress = signature?.status !== "verified" && signature?.status !== "failed" && facts.needsVerification;
  if (checksAddress && facts.verification === NOT_GATHERED) return { gather: "verification" };
  const standing = disguise ? "disguised" : standingOf(facts);
  return {
    signature,
    stated,
    disguise,
    claimant,
    standing,
    judgedAs: claimant.crawler ? JUDGED_AS_OF[standing] : "person",
    category,
    listed: listedCrawlerStep(facts, standing, claimant),
  };
}

/**
 * The identity as far as its facts are gathered, asking for nothing: for a request nobody
 * judges (nowhere to send, MODE=off, a host not served, a reused signature), whose record
 * still says who asked.
 */
export function identityAsGathered(facts: IdentityFacts, judgedAs: JudgedAs): Identity {
  const signature = signatureOf(facts);
  const disguise = disguiseOf(facts);
  const stated = signature?.status === "reused" ? signature.agent : statedBy(facts, signature);
  return {
    signature,
    stated,
    disguise,
    claimant: disguise?.agent ?? stated,
    standing: signature?.status === "reused" ? "proven" : standingOf(facts),
    judgedAs,
    category: categoryOf(facts, signature, disguise),
    listed: "none",
  };
}

/** What the request states it is: a trusted signer's agent, an anonymous bot for a failed signature, else its User-Agent's. */
function statedBy(facts: Pick<IdentityFacts, "agent">, signature: SignatureFact | undefined): AgentInfo {
  if (signature?.status === "verified") return signature.agent;
  // A request that signs is an automated client even when its signature fails (a browser never
  // signs): the failed claim is judged, never passed as a person's.
  return signature?.status === "failed" ? ANONYMOUS_BOT : facts.agent;
}

function signatureOf(facts: Pick<EdgeFacts, "signature">): SignatureFact | undefined {
  return facts.signature === NOT_GATHERED ? undefined : facts.signature;
}

/** How the request's claim stands, from the facts gathered about it (claim.ts says what each grants). */
export function standingOf(
  facts: Pick<EdgeFacts, "signature" | "verifyCrawlers" | "needsVerification" | "verification" | "catalogued">,
): ClaimStanding {
  const signature = signatureOf(facts);
  if (signature?.status === "verified") return "proven";
  if (signature?.status === "failed") return "refuted";
  // "unverifiable" (a key we could not get) and "untrusted" fall through: the User-Agent's claim stands.
  // A token only a crawler catalogue lists has nothing to check with: judged as made and with the catalogue's category.
  if (facts.verifyCrawlers === "off" || !facts.needsVerification) return facts.catalogued ? "catalogued" : "as-made";
  switch (facts.verification === NOT_GATHERED ? undefined : facts.verification.status) {
    case "verified":
      return "proven";
    case "refuted":
      return "refuted";
    default:
      return "unproven";
  }
}

/**
 * The claimed crawler's category: our table's first (per product token, cited); Cloudflare's
 * only for a crawler the table does not know, and never for a signer's agent; else a crawler
 * catalogue's (judged as "catalogued", claim.ts: it can only restrict).
 */
function categoryOf(
  facts: Pick<IdentityFacts, "agent" | "cloudflareCategory" | "catalogued">,
  signature: SignatureFact | undefined,
  disguise: DisguiseFact | undefined,
): CrawlerCategory | undefined {
  if (signature?.status === "verified") return signature.agent.known?.category;
  if (disguise) return disguise.agent.known?.category;
  return facts.agent.known?.category ?? facts.cloudflareCategory ?? facts.catalogued?.category;
}

/**
 * Whether a request whose claimant is `stated` is a crawler in disguise: "gather" while the
 * address is not looked up, "person" when it is not (or the check is off, or it is no browser,
 * or a signature stands for someone else), else the fact (disguise.ts).
 */
function disguiseStep(
  facts: Pick<IdentityFacts, "agent" | "isRobotsTxt" | "disguisedCrawlers" | "disguise">,
  stated: AgentInfo,
): "gather" | "person" | DisguiseFact {
  if (stated !== facts.agent || stated.crawler || facts.isRobotsTxt) return "person";
  if ((facts.disguisedCrawlers ?? "off") === "off") return "person";
  if (facts.disguise === NOT_GATHERED) return "gather";
  return facts.disguise === "none" ? "person" : facts.disguise;
}

/** The disguise the facts show, if any, asking for nothing: a browser from a crawler-only list, the check on. */
export function disguiseOf(
  facts: Pick<EdgeFacts, "agent" | "signature"> &
    Partial<Pick<EdgeFacts, "isRobotsTxt" | "disguisedCrawlers" | "disguise">>,
): DisguiseFact | undefined {
  const signature = signatureOf(facts);
  // A failed signature claims an anonymous bot, never a browser; a reused one its signer's agent.
  if (signature?.status === "failed") return undefined;
  const stated = signature?.status === "verified" ? signature.agent : facts.agent;
  const step = disguiseStep(
    {
      agent: facts.agent,
      isRobotsTxt: facts.isRobotsTxt ?? false,
      disguisedCrawlers: facts.disguisedCrawlers,
      disguise: facts.disguise ?? NOT_GATHERED,
    },
    stated,
  );
  return typeof step === "object" ? step : undefined;
}

/**
 * Whether a crawler claim that is not proven comes from a crawler-only list, and so must also be
 * judged as that list's crawler: NOT_GATHERED while the address is not looked up, "none" when it
 * need not be (robots.txt, the check off) or is in no such list, else the fact.
 *   - A refuted claim counts: under VERIFY_CRAWLERS=unknown it is judged under `*`, which may be
 *     laxer than the group of the crawler whose address it comes from.
 *   - A claim proven only by Cloudflare's verified-bot category counts too: the category says
 *     some verified bot of that kind asked, not which one (evidence must name the identity it
 *     proves); an address in a crawler-only list does name one.
 *   - One exception, for do no harm: under VERIFY_CRAWLERS=off (claims taken as made) a claim
 *     of a crawler the list itself is published for is judged as itself alone: a real
 *     Googlebot-Image comes from Google's common crawlers' list, which names Googlebot first,
 *     and must not be held to its sibling's group. With verification on, that list proves it.
 */
function listedCrawlerStep(
  facts: Pick<
    EdgeFacts,
    "isRobotsTxt" | "disguisedCrawlers" | "disguise" | "verifyCrawlers" | "verification" | "signature"
  >,
  standing: ClaimStanding,
  claimant: AgentInfo,
): DisguiseFact | "none" | NotGathered {
  if (standing === "disguised" || facts.isRobotsTxt) return "none";
  if (standing === "proven" && !provenByCategoryAlone(facts)) return "none";
  if ((facts.disguisedCrawlers ?? "off") === "off") return "none";
  if (facts.disguise === NOT_GATHERED) return NOT_GATHERED;
  if (facts.disguise === "none") return "none";
  return facts.verifyCrawlers === "off" && listIsFor(facts.disguise.source, claimant) ? "none" : facts.disguise;
}

/** A claim proven by nothing but Cloudflare's category: no signature, no address check naming the crawler. */
function provenByCategoryAlone(facts: Pick<EdgeFacts, "verification" | "signature">): boolean {
  if (facts.signature !== NOT_GATHERED && facts.signature?.status === "verified") return false;
  return facts.verification !== NOT_GATHERED && facts.verification.method === "cloudflare";
}

/** Whether the list named `source` is the one the claimed crawler is verified against (it is published for it). */
function listIsFor(source: string, claimant: AgentInfo): boolean {
  const token = claimant.known?.token;
  return token !== undefined && rangeSourceOf(token) === source;
}

/** The facts the verification outcome reads. */
export type VerificationFacts = Pick<
  EdgeFacts,
  "agent" | "signature" | "verifyCrawlers" | "needsVerification" | "verification"
> &
  Partial<Pick<EdgeFacts, "isRobotsTxt" | "disguisedCrawlers" | "disguise" | "catalogued">>;

/**
 * How the request's crawler was verified, or why not: a trusted signer's signature, a failed
 * one, a crawler-only list (a disguise), the address check (Cloudflare, a list, reverse DNS),
 * or why nothing was checked. What the record's identity carries (the decision log, explain,
 * activity and the page's tester show it from there): what the decision used, so an
 * unverifiable claim is never shown as verified. `seen`: the signature and disguise the
 * identity step found (else read from the facts, asking for nothing).
 */
export function verificationOf(
  facts: VerificationFacts,
  seen: Pick<Identity, "signature" | "disguise"> = { signature: signatureOf(facts), disguise: disguiseOf(facts) },
): VerificationOutcome {
  const { signature, disguise } = seen;
  if (signature?.status === "verified") {
    const token = signature.agent.tokens[0] ?? "its agent";
    return {
      status: "verified",
      method: "signature",
      evidence: signature.signer,
      why: null,
      reason: `Web Bot Auth signature of ${signature.signer}, a trusted signer standing for ${token}`,
    };
  }
  if (signature?.status === "failed") {
    const of = signature.signer ? ` of ${signature.signer}` : "";
    return {
      status: "refuted",
      method: "signature",
      evidence: null,
      why: "refuted",
      reason: `signature${of} failed: ${signature.why}`,
    };
  }
  if (disguise) return disguiseOutcome(disguise);
  // Keys we could not get: judged as unsigned; the address check decided, if one was made.
  if (signature?.status === "unverifiable" && (!facts.needsVerification || facts.verification === NOT_GATHERED)) {
    return unverifiable(
      "lookup-failed",
      `cannot check the Web Bot Auth signature of ${signature.signer}: ${signature.why}`,
    );
  }
  if (facts.verifyCrawlers === "off" && facts.agent.crawler && facts.agent.known) return UNVERIFIABLE.verifyOff;
  if (!facts.needsVerification) return facts.agent.crawler ? UNVERIFIABLE.noClaim : UNVERIFIABLE.notACrawler;
  if (facts.verification === NOT_GATHERED) return UNVERIFIABLE.notLookedUp;
  return facts.verification;
}

/**
 * A crawler-only list as evidence, in the one vocabulary of identity (agents/verification.ts
 * VerificationOutcome). `asBrowser`: the request said it was a browser (a disguise); else it
 * claimed another bot.
 */
export function disguiseOutcome(disguise: DisguiseFact, asBrowser = true): VerificationOutcome {
  const token = disguise.agent.tokens[0] ?? disguise.source;
  const list = `the ${disguise.source} list, which its operator publishes for its crawlers only`;
  return {
    status: "verified",
    method: "ip-list",
    evidence: disguise.source,
    why: null,
    reason: asBrowser
      ? `a browser User-Agent from ${list}: ${token} in disguise`
      : `an address in ${list}: ${token}, whatever its User-Agent claims`,
  };
}

function unverifiable(why: NonNullable<VerificationOutcome["why"]>, reason: string): VerificationOutcome {
  return Object.freeze({ status: "unverifiable", method: null, evidence: null, why, reason });
}

/** The outcomes that name no evidence, made once: most requests' record carries one of them. */
const UNVERIFIABLE = {
  verifyOff: unverifiable("verify-off", "VERIFY_CRAWLERS=off: its group is used as claimed, never an exemption from *"),
  noClaim: unverifiable("not-claimed", "claims no crawler that can be verified"),
  notACrawler: unverifiable("not-claimed", "not a crawler"),
  notLookedUp: unverifiable("not-looked-up", "the address was not checked"),
} as const;

/**
 * Who asked, as the record says it: what was claimed (a trusted signer's agent, a disguise's
 * crawler, else the User-Agent's), judged as what, and how it stood.
 */
export function recordedIdentity(identity: Identity, facts: VerificationFacts): RecordedIdentity {
  const { signature } = identity;
  // A verified or reused signature stands for its signer's agent (a reuse is refused as that agent's).
  const signedAs = signature?.status === "verified" || signature?.status === "reused" ? signature.agent : undefined;
  const claimed = signedAs ?? identity.disguise?.agent ?? facts.agent;
  return {
    // A request that signs is an automated client, whatever its User-Agent.
    crawler: claimed.crawler || signature?.status === "failed" || signature?.status === "reused",
    tokens: claimed.tokens,
    known: claimed.known?.token ?? null,
    // The trusted signer the signature names, whatever became of it (verified, reused, failed, keys unavailable).
    signer: signature?.status === "untrusted" ? null : (signature?.signer ?? null),
    judgedAs: identity.judgedAs,
    category: identity.category ?? null,
    verification: verificationOf(facts, identity),
    ...(identity.judgedAs === "catalogued" && facts.catalogued && { catalogue: catalogueOf(facts.catalogued) }),
  };
}

/** The catalogue a claim was judged with, for explain and the log: its name, date and the token it listed. */
function catalogueOf(catalogued: CataloguedFact): NonNullable<RecordedIdentity["catalogue"]> {
  return {
    name: catalogued.catalogue,
    fetchedAt: new Date(catalogued.fetchedAt).toISOString(),
    token: catalogued.token,
  };
}

/**
 * A bot judged as the crawler of the list its address is in, that judgement deciding: shown as
 * that crawler, the list the evidence (what it claimed decided nothing).
 */
export function listedIdentity(listed: DisguiseFact, facts: Pick<EdgeFacts, "agent">): RecordedIdentity {
  return {
    crawler: true,
    tokens: listed.agent.tokens,
    known: listed.agent.known?.token ?? null,
    signer: null,
    judgedAs: JUDGED_AS_OF.disguised,
    category: listed.agent.known?.category ?? null,
    verification: disguiseOutcome(listed, !facts.agent.crawler),
  };
}

/**
 * Who a crawl-rate limiter is about (worker/edge/crawl-rate-object.ts crawlRateKey): the known
 * crawler its User-Agent names, or its disguise's, and whether that is proven. A refuted claim
 * names no crawler: it is paced with the anonymous clients of its network, never as the crawler
 * it claims.
 */
export function pacedSubject(identity: Identity, facts: VerificationFacts): PacedSubject {
  const verification = verificationOf(facts, identity);
  const agent = identity.disguise?.agent ?? facts.agent;
  return {
    knownToken: verification.status === "refuted" ? undefined : agent.known?.token,
    proven: verification.status === "verified",
  };
}
