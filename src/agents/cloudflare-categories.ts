/**
 * Cloudflare's words for what a verified bot is, mapped to our crawler categories, as data in
 * one table. Cloudflare sorts verified bots three ways; only the first reaches a Worker:
 *
 *   category   `request.cf.verifiedBotCategory`, one string per verified bot (the 17 values of
 *              the "Categories" list). Read by verification.ts as the trust rules allow: evidence
 *              only with no list loaded, only when it is the claimed crawler's own category,
 *              never for an exemption from `*`; `verifiedBot: false` takes it away.
 *   behavior   BotBase's classification by what a bot does (Search, Agent, Training, …); a bot
 *              may have several. Shown in the dashboard (Enterprise) and used by the AI bot
 *              presets; no `request.cf` field carries it, so the edge never reads it.
 *   label      Direct (one narrow operator, its own infrastructure) or Intermediary (an agentic
 *              service many end users drive: the former "signed agents"). No `request.cf` field
 *              carries it either; the Ruleset Engine's `cf.bot_management.signed_agent` is not
 *              among the Workers variables.
 *
 * A row maps to one of our categories only where Cloudflare's definition says the same thing
 * as ours; otherwise `ours` is null and `reason` says why. Our "other" is never a target: it
 * means "no category", and mapping to it would let a Cloudflare string confirm a claimed
 * crawler whose category is "other" (Mediapartners-Google, APIs-Google …).
 *
 * An intermediary acts for whichever end user drives it, so no row lets it stand for a crawler
 * that fetches for itself: its only possible category is one that acts for a person.
 *
 * Sources, read 2026-11-24 (the search tool's stored copies):
 *   - https://developers.cloudflare.com/bots/concepts/bot/verified-bots/ ("Last updated Jul 1,
 *     2026"; source cloudflare/cloudflare-docs src/content/docs/bots/concepts/bot/verified-bots/
 *     index.mdx): the Direct / Intermediary table and the 17 category string values.
 *   - https://developers.cloudflare.com/bots/botbase/ (cloudflare-docs src/content/docs/bots/
 *     botbase.mdx): "Classification by behavior", 11 behaviors.
 *   - https://developers.cloudflare.com/bots/reference/bot-management-variables/ (cloudflare-docs
 *     src/content/docs/bots/reference/bot-management-variables.mdx): the Workers variables, of
 *     which `request.cf.verifiedBotCategory` is the only one naming a kind of bot.
 */

import type { CrawlerCategory } from "../vocabulary.ts";

/** Which of Cloudflare's three vocabularies a row belongs to. */
export type CloudflareVocabulary = "category" | "behavior" | "label";

/** One of Cloudflare's words and what it is in ours. */
export interface CloudflareTerm {
  readonly vocabulary: CloudflareVocabulary;
  /** Cloudflare's string, exactly as documented. */
  readonly cloudflare: string;
  /** Cloudflare's definition, in brief. */
  readonly means: string;
  /** Our category when Cloudflare's says the same; null when none does. */
  readonly ours: CrawlerCategory | null;
  /** Why this mapping, or why none. */
  readonly reason: string;
}

/** The category that acts for a person: the only one an intermediary may be. */
export const ACTS_FOR_A_PERSON: CrawlerCategory = "ai-assistant";

export const CLOUDFLARE_TERMS: readonly CloudflareTerm[] = [
  // request.cf.verifiedBotCategory: the "Categories" list, each "String value".
  {
    vocabulary: "category",
    cloudflare: "Academic Research",
    means: "gathers data for scholarly research",
    ours: null,
    reason: "research is no category of ours; it says nothing a policy or usage preference relies on",
  },
  {
    vocabulary: "category",
    cloudflare: "Accessibility",
    means: "scans websites to identify their accessibility",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "category",
    cloudflare: "Advertising & Marketing",
    means: "ad placement and performance tracking",
    ours: null,
    reason: 'our ad crawlers are "other"; mapping there would let the string confirm any claimed "other" crawler',
  },
  {
    vocabulary: "category",
    cloudflare: "Aggregator",
    means: "collects content from various sources into one place",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "category",
    cloudflare: "AI Assistant",
    means: "automated AI bot driven by user action",
    ours: "ai-assistant",
    reason: "the same: fetching at a person's request",
  },
  {
    vocabulary: "category",
    cloudflare: "AI Crawler",
    means: "crawls websites for content used for training AI models",
    ours: "ai-training",
    reason: "the same: fetching to train",
  },
  {
    vocabulary: "category",
    cloudflare: "AI Search",
    means: "powers AI-driven search experiences (kept for existing rules; new search crawlers are Search)",
    ours: "ai-search",
    reason: "the same: an index behind AI answers",
  },
  {
    vocabulary: "category",
    cloudflare: "Archiver",
    means: "saves snapshots of websites for historical records",
    ours: "archiver",
    reason: "the same",
  },
  {
    vocabulary: "category",
    cloudflare: "Feed Fetcher",
    means: "retrieves feed updates for readers and other applications",
    ours: null,
    reason: 'no category of ours; our feed fetchers (FeedFetcher-Google) are "other"',
  },
  {
    vocabulary: "category",
    cloudflare: "Monitoring & Analytics",
    means: "tracks uptime, performance and traffic",
    ours: "monitoring",
    reason: "the same",
  },
  {
    vocabulary: "category",
    cloudflare: "Page Preview",
    means: "previews of links shared on social media or in messaging apps",
    ours: "social-preview",
    reason: "the same",
  },
  {
    vocabulary: "category",
    cloudflare: "Search Engine Crawler",
    means: "discovers and indexes web pages for search results",
    ours: "search-engine",
    reason: "the same",
  },
  {
    vocabulary: "category",
    cloudflare: "Search Engine Optimization",
    means: "analyzes websites to improve their standing in search results",
    ours: "seo-tool",
    reason: "the same",
  },
  {
    vocabulary: "category",
    cloudflare: "Security",
    means: "scans websites for vulnerabilities and threats",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "category",
    cloudflare: "Social Media Marketing",
    means: "manages and automates activities on social platforms",
    ours: null,
    reason: "no category of ours (not a link preview)",
  },
  {
    vocabulary: "category",
    cloudflare: "Webhooks",
    means: "sends data from one application to another on events",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "category",
    cloudflare: "Other",
    means: "bots that fit no other classification",
    ours: null,
    reason: 'says nothing; our "other" is not a category anyone is confirmed by',
  },

  // BotBase behaviors: documented, not delivered to a Worker.
  {
    vocabulary: "behavior",
    cloudflare: "Search",
    means: "crawling to build search indexes or RAG databases",
    ours: null,
    reason: "spans our search-engine and ai-search (Cloudflare stopped telling them apart on 2026-07-01)",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Agent",
    means: "user-directed agents visiting a page on behalf of a human",
    ours: "ai-assistant",
    reason: "the same: acting for a person",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Training",
    means: "crawling to train or fine-tune models",
    ours: "ai-training",
    reason: "the same",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Transact",
    means: "checkout or other transactions on behalf of users",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Data Collection",
    means: "price scraping, competitive intelligence, third-party analytics",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Security Testing",
    means: "vulnerability scanning and penetration testing",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "behavior",
    cloudflare: "SEO",
    means: "SEO crawling, site auditing, accessibility checks",
    ours: "seo-tool",
    reason: "the same",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Ads Verification",
    means: "ad placement verification and ad fraud detection",
    ours: null,
    reason: 'our ad crawlers are "other" (see Advertising & Marketing)',
  },
  {
    vocabulary: "behavior",
    cloudflare: "Social / Link Preview",
    means: "link previews for social platforms and messaging apps",
    ours: "social-preview",
    reason: "the same",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Feed Fetching",
    means: "RSS readers, podcast aggregators, news feed bots",
    ours: null,
    reason: "no category of ours",
  },
  {
    vocabulary: "behavior",
    cloudflare: "Monitoring & Operations",
    means: "uptime monitoring, webhooks, health checks",
    ours: "monitoring",
    reason: "the same",
  },

  // How it is operated: documented, not delivered to a Worker.
  {
    vocabulary: "label",
    cloudflare: "Direct",
    means: "one narrow operator, usually on its own infrastructure (formerly a verified bot)",
    ours: null,
    reason: "says who operates it, not what it fetches for; its category says that",
  },
  {
    vocabulary: "label",
    cloudflare: "Intermediary",
    means: "an agentic service a wide range of end users operate (formerly a signed agent)",
    ours: null,
    reason:
      "acts for whichever end user drives it: never a crawler fetching for itself, and its users are not its operator",
  },
];

// The value comes from Cloudflare, not the client, so its case is no attack surface; it is
// compared case-insensitively in case Cloudflare's casing drifts from its documentation.
const OURS_BY_CATEGORY = new Map(
  CLOUDFLARE_TERMS.filter((term) => term.vocabulary === "category").map((term) => [
    term.cloudflare.toLowerCase(),
    term.ours,
  ]),
);

/**
 * Our category for a `verifiedBotCategory` value, where Cloudflare's says the same; undefined
 * for every other value, an unknown one included.
 */
export function categoryOfCloudflare(value: string | undefined): CrawlerCategory | undefined {
  return value === undefined ? undefined : (OURS_BY_CATEGORY.get(value.trim().toLowerCase()) ?? undefined);
}
