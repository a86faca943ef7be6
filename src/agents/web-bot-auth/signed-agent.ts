/**
 * What a request with a verified Web Bot Auth signature from a trusted signer is: the crawler
 * its signer stands for (signature-agents.ts), whatever its User-Agent says — ChatGPT agent
 * sends a browser User-Agent. It is judged by that product token's group, then by the
 * fallbacks the crawler table documents for it, then `*`.
 */

import { productToken } from "../../core/product-token.ts";
import type { AgentInfo } from "../classify.ts";
import type { CrawlerCategory } from "../../vocabulary.ts";
import { KNOWN_CRAWLERS, type KnownCrawler } from "../operators/tables.ts";

const KNOWN_BY_TOKEN = new Map(KNOWN_CRAWLERS.map((crawler) => [productToken(crawler.token), crawler] as const));

/** The agent a verified signer stands for; the signer's category wins over the table's. */
export function agentOfSigner(
  identity: { readonly token: string; readonly category: CrawlerCategory },
  signer: string,
): AgentInfo {
  const listed = KNOWN_BY_TOKEN.get(productToken(identity.token));
  const known: KnownCrawler = listed
    ? { ...listed, category: identity.category }
    : {
        token: identity.token,
        fallbacks: [],
        obeysGlobalGroup: true,
        honoursRateLimits: false,
        rateLimitsSource: "a signed agent: no documentation of Crawl-delay support",
        operator: signer,
        category: identity.category,
        docs: signer,
      };
  return {
    crawler: true,
    tokens: [known.token, ...known.fallbacks],
    known,
    obeysGlobalGroup: known.obeysGlobalGroup,
    honoursRateLimits: known.honoursRateLimits,
  };
}
