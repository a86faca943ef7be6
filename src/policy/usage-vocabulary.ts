/**
 * Which crawlers a usage preference refuses: preference keys mapped to crawler categories
 * (src/agents/crawlers.ts, CrawlerCategory), as data, in one place. The vocabularies are
 * still drafts; when they move, this table and USAGE_KEYS (src/core/usage.ts) move with them.
 *
 * Followed:
 *   - Content-Usage: draft-ietf-aipref-vocab-07 and draft-ietf-aipref-attach-05 (2026-08-19).
 *     vocab-07 defines two categories: `train-ai` (AI model training) and `search`.
 *   - Content-Signal: contentsignals.org, Cloudflare's Content Signals Policy (2025-09):
 *     `search`, `ai-input`, `ai-train`; `use=` is kept in the model, not interpreted.
 *
 * Only a preference of "no" refuses anyone, and only crawlers whose documented purpose is the
 * refused use: `train-ai=n` / `ai-train=no` refuse crawlers that fetch for AI training only,
 * never search engines or assistants acting for a user. A crawler of unknown category (not in
 * the table, or "other") is never refused by a usage preference.
 */

import type { CrawlerCategory } from "../agents/crawlers.ts";
import type { UsageFormat } from "../core/index.ts";

/** The drafts this table follows, named in explain output and docs/decisions.md. */
export const USAGE_VOCABULARY_SOURCES: Readonly<Record<UsageFormat, string>> = {
  "content-usage": "draft-ietf-aipref-vocab-07 / draft-ietf-aipref-attach-05",
  "content-signal": "contentsignals.org (Content Signals Policy)",
};

/** One row: a preference key of a format, and the categories a "no" for it refuses. */
export interface UsageRefusal {
  readonly format: UsageFormat;
  readonly key: string;
  readonly refuses: readonly CrawlerCategory[];
}

export const USAGE_REFUSALS: readonly UsageRefusal[] = [
  // vocab-07 §4.1 "AI Model Training": only crawlers that fetch to train.
  { format: "content-usage", key: "train-ai", refuses: ["ai-training"] },
  // vocab-07 §4.2 "Search": search-engine crawlers (AI search answers are not search, §4.2).
  { format: "content-usage", key: "search", refuses: ["search-engine"] },
  // contentsignals.org "ai-train: training or fine-tuning AI models".
  { format: "content-signal", key: "ai-train", refuses: ["ai-training"] },
  // contentsignals.org "search: building a search index and providing search results".
  { format: "content-signal", key: "search", refuses: ["search-engine"] },
  // contentsignals.org "ai-input: inputting content into one or more AI models (RAG,
  // grounding, real-time taking of content for generative AI search answers)".
  { format: "content-signal", key: "ai-input", refuses: ["ai-search", "ai-assistant"] },
];

/** The categories a "no" for this key refuses; empty for keys the table does not map. */
export function refusedCategories(format: UsageFormat, key: string): readonly CrawlerCategory[] {
  return USAGE_REFUSALS.find((row) => row.format === format && row.key === key)?.refuses ?? [];
}
