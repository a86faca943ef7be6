/**
 * Fetchers that act for a person: each request is one user's ask (a link opened in an
 * assistant, a feed added, a page read aloud), so one product's requests are many people's,
 * not one crawler's schedule. Whoever paces such a fetcher must pace each user apart: one
 * limiter for the product would let one user's fetch 429 every other user's (issue 30). The
 * pacing shell (worker/edge/crawl-rate-object.ts crawlRateKey) keys them by client network,
 * even when proven.
 *
 * Data, each row as its operator describes the fetcher (crawlers.ts `docs` cites the page):
 * Google's user-triggered fetchers and agents (its "user-triggered fetchers" list and
 * user-triggered-agents.json), and the assistants' fetchers whose operators say they fetch when
 * a user asks. A token not here is paced as a crawler (its own limiter once proven).
 */

import { productToken } from "../core/product-token.ts";

export const USER_TRIGGERED_FETCHERS: readonly string[] = [
  // developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers
  "FeedFetcher-Google",
  "Google-Read-Aloud",
  "Google-Site-Verification",
  "Google-CWS",
  "GoogleProducer",
  "Google-Pinpoint",
  "Google-GeminiNotebook",
  "Google-Agent",
  // OpenAI: "ChatGPT-User ... for user actions in ChatGPT and Custom GPTs" (developers.openai.com/docs/bots)
  "ChatGPT-User",
  // Perplexity: "Perplexity-User supports user actions within Perplexity" (docs.perplexity.ai/guides/bots)
  "Perplexity-User",
  // Anthropic: "Claude-User ... when individuals ask questions to Claude" (support.claude.com, 8896518)
  "Claude-User",
  // Mistral: "MistralAI-User ... user actions in Le Chat" (docs.mistral.ai/robots)
  "MistralAI-User",
  // Amazon: Amzn-User "fetches live information for Alexa users" (developer.amazon.com/amazonbot)
  "Amzn-User",
  // Meta: meta-externalfetcher "performs user-initiated fetches of individual links" (developers.facebook.com/docs/sharing/webmasters/web-crawlers)
  "meta-externalfetcher",
];

const USER_TRIGGERED = new Set(USER_TRIGGERED_FETCHERS.map(productToken));

/** Whether a known crawler's token names a fetcher that acts for a person (see the file comment). */
export function isUserTriggered(token: string | undefined): boolean {
  return token !== undefined && USER_TRIGGERED.has(productToken(token));
}
