/**
 * Which Web Bot Auth signers we trust, and what each stands for in robots.txt.
 *
 * A signer is named by the URL of its key set (signer-url.ts: a bare origin stands for its
 * well-known directory, any other https URL for that JWK Set itself). Trust is data: the
 * built-in table below, each row citing its operator's page, plus the operator's own in the
 * var SIGNATURE_AGENTS. Only a trusted signer's directory is ever fetched (no SSRF: a URL a
 * client puts in Signature-Agent is never fetched unless the table or the operator named it),
 * and only a trusted signer's Signature Agent Card is believed.
 *
 * SIGNATURE_AGENTS = '{"https://agent.example": {"token": "ExampleAgent", "category": "ai-assistant"},
 *                     "https://keys.example/bot/jwks.json": {"token": "KeyBot"}}'
 * A bare origin (the form every earlier draft used, kept for compatibility) trusts that
 * origin's well-known directory only, not any path on the host: on a shared host an arbitrary
 * path does not name the host's operator (httpsig-protocol-01, "Key Distribution and Discovery"). A full URL trusts exactly
 * that JWK Set. `token` may be left out when the signer's card states `rfc9309-product-token`.
 * http is accepted only for a loopback host listed there (local runs and tests).
 */

import { productToken } from "../../core/product-token.ts";
import { categoryOfFunction } from "../catalogue.ts";
import { CRAWLER_CATEGORIES, isCrawlerCategory, type CrawlerCategory } from "../../vocabulary.ts";
import { KNOWN_CRAWLERS } from "../operators/tables.ts";
import type { AgentCard } from "./directory.ts";
import { signerUrlOf } from "./signer-url.ts";
import { parseUrl } from "./url.ts";

/** One trusted signer. */
export interface SignatureAgent {
  /** The signer's identifier: the URL of its key set, as signerUrlOf spells it. */
  readonly url: string;
  /** The robots.txt product token it is judged by; from its card when absent. */
  readonly token?: string;
  readonly category?: CrawlerCategory;
  /** Where the operator documents it ("SIGNATURE_AGENTS" for the operator's own). */
  readonly docs: string;
}

/** The built-in table. AWS AgentCore signs with per-customer origins, so it has no row here. */
export const KNOWN_SIGNATURE_AGENTS: readonly SignatureAgent[] = [
  {
    // ChatGPT agent sends `Signature-Agent: "https://chatgpt.com"` (the legacy string form) and a
    // browser User-Agent. It acts for a user, as ChatGPT-User does; OpenAI lists no token of its own.
    url: "https://chatgpt.com/.well-known/http-message-signatures-directory",
    token: "ChatGPT-User",
    category: "ai-assistant",
    docs: "https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting",
  },
  {
    // Google-Agent (user-triggered fetcher) signs a subset of requests, `Signature-Agent: g="https://agent.bot.goog"`.
    url: "https://agent.bot.goog/.well-known/http-message-signatures-directory",
    token: "Google-Agent",
    category: "ai-assistant",
    docs: "https://developers.google.com/crawling/docs/crawlers-fetchers/web-bot-auth",
  },
];

// RFC 9309 §2.2.1: a product token is letters, "_" and "-".
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string[] };

/** Validate SIGNATURE_AGENTS; every problem at once. Empty or unset means none. */
export function parseSignatureAgents(raw: string | undefined): Parsed<readonly SignatureAgent[]> {
  if (raw === undefined || raw.trim() === "") return { ok: true, value: [] };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ok: false, problems: [`SIGNATURE_AGENTS is not JSON: ${(error as Error).message}`] };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return {
      ok: false,
      problems: ['SIGNATURE_AGENTS must be a JSON object: {"https://agent.example": {"token": "…"}}'],
    };
  }
  const problems: string[] = [];
  const agents: SignatureAgent[] = [];
  for (const [key, value] of Object.entries(json)) {
    const agent = parseEntry(key, value, problems);
    if (agent) agents.push(agent);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: agents };
}

function parseEntry(key: string, value: unknown, problems: string[]): SignatureAgent | undefined {
  const where = `SIGNATURE_AGENTS[${JSON.stringify(key)}]`;
  const before = problems.length;
  const url = signerUrlIn(key, where, problems);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`${where} must be an object like {"token": "ExampleAgent", "category": "ai-assistant"}`);
    return undefined;
  }
  const { token, category, ...rest } = value as Record<string, unknown>;
  for (const name of Object.keys(rest)) problems.push(`${where} has an unknown member "${name}" (token, category)`);
  if (token !== undefined && (typeof token !== "string" || !PRODUCT_TOKEN.test(token))) {
    problems.push(
      `${where}.token must be a robots.txt product token (letters, "_" and "-"), got ${JSON.stringify(token)}`,
    );
  }
  const knownCategory = typeof category === "string" && isCrawlerCategory(category) ? category : undefined;
  if (category !== undefined && knownCategory === undefined) {
    problems.push(`${where}.category must be one of ${CRAWLER_CATEGORIES.join(", ")}, got ${JSON.stringify(category)}`);
  }
  if (problems.length > before || url === undefined) return undefined;
  return {
    url,
    ...(typeof token === "string" && { token }),
    ...(knownCategory !== undefined && { category: knownCategory }),
    docs: "SIGNATURE_AGENTS",
  };
}

function signerUrlIn(key: string, where: string, problems: string[]): string | undefined {
  const parsed = parseUrl(key);
  if (parsed && (parsed.search || parsed.hash)) {
    problems.push(`${where}: a signer URL has no query or fragment (they are not part of its identity)`);
    return undefined;
  }
  const signer = signerUrlOf(key);
  if ("url" in signer) return signer.url;
  problems.push(
    `${where}: the key must be an https origin ("https://agent.example", its well-known directory) or the https URL of a JWK Set; ${signer.problem}`,
  );
  return undefined;
}

/** The trust table in effect, by signer URL: the built-in rows, each replaced by the operator's row for its URL. */
export function trustedSignatureAgents(operator: readonly SignatureAgent[]): ReadonlyMap<string, SignatureAgent> {
  return new Map([...KNOWN_SIGNATURE_AGENTS, ...operator].map((agent) => [agent.url, agent]));
}

/** Product tokens of the crawler table: each belongs to the operator that documents it. */
const TABLE_TOKENS = new Set(
  KNOWN_CRAWLERS.flatMap((crawler) => [
    crawler.token,
    ...crawler.fallbacks,
    ...(crawler.pattern === undefined ? [] : typeof crawler.pattern === "string" ? [crawler.pattern] : crawler.pattern),
  ]).map(productToken),
);

/**
 * What a verified, trusted signer stands for; `undefined` when neither the table nor its card
 * names a token it may stand for. The operator's own row (SIGNATURE_AGENTS) may name any
 * token: the operator decides. A card is the signer speaking for itself, so it may not claim
 * a token of the crawler table (AdsBot-Google, Googlebot…) that belongs to another operator:
 * only a token the built-in trust table, citing that operator, gives this very signer.
 */
export function signerIdentity(
  agent: SignatureAgent,
  card: AgentCard,
): { readonly token: string; readonly category: CrawlerCategory } | undefined {
  const token = agent.token ?? cardToken(agent, card);
  if (token === undefined) return undefined;
  return { token, category: agent.category ?? categoryOfPurpose(card.purpose) };
}

function cardToken(agent: SignatureAgent, card: AgentCard): string | undefined {
  const claimed = card.productToken;
  if (claimed === undefined || !PRODUCT_TOKEN.test(claimed)) return undefined;
  if (!TABLE_TOKENS.has(productToken(claimed))) return claimed;
  const documented = KNOWN_SIGNATURE_AGENTS.some(
    (known) =>
      known.url === agent.url && known.token !== undefined && productToken(known.token) === productToken(claimed),
  );
  return documented ? claimed : undefined;
}

/**
 * A card's `purpose` in our categories. The registry draft's example uses "tdm" (text and data
 * mining, i.e. training); a purpose that already is one of our category names is taken as is;
 * any other text is read as the crawler catalogues read robots.json's `function`
 * (agents/catalogue.ts categoryOfFunction), so a card and a catalogue saying the same words
 * give the same category.
 */
function categoryOfPurpose(purpose: string | undefined): CrawlerCategory {
  if (purpose === undefined) return "other";
  const lower = purpose.toLowerCase();
  if (lower === "tdm" || lower === "training") return "ai-training";
  if (lower === "search") return "search-engine";
  return isCrawlerCategory(lower) ? lower : categoryOfFunction(purpose);
}
