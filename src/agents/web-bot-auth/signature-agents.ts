/**
 * Which Web Bot Auth signers we trust, and what each stands for in robots.txt.
 *
 * A signer is named by its directory origin (the Signature-Agent value). Trust is data: the
 * built-in table below, each row citing its operator's page, plus the operator's own in the
 * var SIGNATURE_AGENTS. Only a trusted signer's directory is ever fetched (no SSRF: a URL a
 * client puts in Signature-Agent is never fetched unless the table or the operator named it),
 * and only a trusted signer's Signature Agent Card is believed.
 *
 * SIGNATURE_AGENTS = '{"https://agent.example": {"token": "ExampleAgent", "category": "ai-assistant"}}'
 * `token` may be left out when the signer's card states `rfc9309-product-token`.
 * http is accepted only for a loopback origin listed there (local runs and tests).
 */

import { productToken } from "../../core/product-token.ts";
import { CRAWLER_CATEGORIES, isCrawlerCategory, KNOWN_CRAWLERS, type CrawlerCategory } from "../crawlers.ts";
import type { AgentCard } from "./directory.ts";
import { parseUrl } from "./url.ts";

/** One trusted signer. */
export interface SignatureAgent {
  /** The directory origin, as `new URL(...).origin` spells it. */
  readonly origin: string;
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
    origin: "https://chatgpt.com",
    token: "ChatGPT-User",
    category: "ai-assistant",
    docs: "https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting",
  },
  {
    // Google-Agent (user-triggered fetcher) signs a subset of requests, `Signature-Agent: g="https://agent.bot.goog"`.
    origin: "https://agent.bot.goog",
    token: "Google-Agent",
    category: "ai-assistant",
    docs: "https://developers.google.com/crawling/docs/crawlers-fetchers/web-bot-auth",
  },
];

// RFC 9309 §2.2.1: a product token is letters, "_" and "-".
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

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
  const origin = directoryOrigin(key, where, problems);
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
  if (category !== undefined && (typeof category !== "string" || !isCrawlerCategory(category))) {
    problems.push(`${where}.category must be one of ${CRAWLER_CATEGORIES.join(", ")}, got ${JSON.stringify(category)}`);
  }
  if (problems.length > before || origin === undefined) return undefined;
  return {
    origin,
    ...(typeof token === "string" && { token }),
    ...(typeof category === "string" && { category: category as CrawlerCategory }),
    docs: "SIGNATURE_AGENTS",
  };
}

function directoryOrigin(key: string, where: string, problems: string[]): string | undefined {
  const url = parseUrl(key);
  if (url === undefined) {
    problems.push(`${where}: the key must be an origin like "https://agent.example"`);
    return undefined;
  }
  const bare = url.username === "" && url.password === "" && url.pathname === "/" && !url.search && !url.hash;
  if (!bare) {
    problems.push(`${where}: the key must be a bare origin (scheme://host[:port]), not a URL with a path`);
    return undefined;
  }
  if (url.protocol === "https:") return url.origin;
  if (url.protocol === "http:" && isLoopbackOrigin(url.origin)) return url.origin;
  problems.push(`${where}: directories are fetched over https only (http only for a loopback origin)`);
  return undefined;
}

/** True for http(s) origins on localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_HOSTS.test(parseUrl(origin)?.hostname ?? "");
}

/** The trust table in effect: the built-in rows, each replaced by the operator's row for its origin. */
export function trustedSignatureAgents(operator: readonly SignatureAgent[]): ReadonlyMap<string, SignatureAgent> {
  return new Map([...KNOWN_SIGNATURE_AGENTS, ...operator].map((agent) => [agent.origin, agent]));
}

/** What a verified, trusted signer stands for; `undefined` when neither the table nor its card names a token. */
export function signerIdentity(
  agent: SignatureAgent,
  card: AgentCard,
): { readonly token: string; readonly category: CrawlerCategory } | undefined {
  const cardToken =
    card.productToken !== undefined && PRODUCT_TOKEN.test(card.productToken) && !isTableName(card.productToken)
      ? card.productToken
      : undefined;
  const token = agent.token ?? cardToken;
  if (token === undefined) return undefined;
  return { token, category: agent.category ?? categoryOfPurpose(card.purpose) };
}

/**
 * Every name the crawler table gives another operator's crawler (tokens, fallbacks, User-Agent
 * names). A signer's own card may not take one: it would get that crawler's group, its policy
 * rules and, for AdsBot-Google or a user-triggered fetcher, its exemption from `*`. Only the
 * operator (SIGNATURE_AGENTS `token`) or the built-in table may map a signer to such a name.
 */
const TABLE_NAMES = new Set(
  KNOWN_CRAWLERS.flatMap((crawler) => [
    crawler.token,
    ...crawler.fallbacks,
    ...(crawler.pattern === undefined ? [] : typeof crawler.pattern === "string" ? [crawler.pattern] : crawler.pattern),
  ]).map(productToken),
);

function isTableName(token: string): boolean {
  return TABLE_NAMES.has(productToken(token));
}

/**
 * A card's `purpose` in our categories. The registry draft's example uses "tdm" (text and data
 * mining, i.e. training); a purpose that already is one of our category names is taken as is.
 */
function categoryOfPurpose(purpose: string | undefined): CrawlerCategory {
  if (purpose === undefined) return "other";
  const lower = purpose.toLowerCase();
  if (lower === "tdm" || lower === "training") return "ai-training";
  if (lower === "search") return "search-engine";
  return isCrawlerCategory(lower) ? lower : "other";
}
