/**
 * Which crawlers a usage preference refuses: preference keys mapped to crawler categories
 * (src/agents/operators/, CrawlerCategory), as data, in one place. The vocabularies are
 * still drafts; when they move, this table and USAGE_KEYS (src/core/usage.ts) move with them.
 *
 * Followed (docs/decisions.md, "Standards"):
 *   - Content-Usage: draft-ietf-aipref-vocab-08 (2026-09-13) and draft-ietf-aipref-attach-05
 *     (2026-08-18). vocab-08 has three categories: `train-ai`, `ai-use` (new) and `search`,
 *     and a `search` permission overrides the other two for the uses that meet its conditions.
 *     vocab-08's categories and override were read in the working group's editor's copy
 *     (its examples are rows of test/core/usage.test.ts); the datatracker gave only the -08
 *     front matter. vocab-07 files (`train-ai`,
 *     `search`) read as written: every row of vocab-07 is unchanged here.
 *   - Content-Signal: contentsignals.org, Cloudflare's Content Signals Policy (2025-09):
 *     `search`, `ai-input`, `ai-train`, and `use=immediate|reference|full` (enforced only for
 *     crawlers whose operator documents their use: DOCUMENTED_CONTENT_USES).
 *
 * Only a preference of "no" refuses anyone, and only crawlers whose documented purpose is the
 * refused use: `train-ai=n` / `ai-train=no` refuse crawlers that fetch for AI training only,
 * never search engines or assistants acting for a user. A crawler of unknown category (not in
 * the table, or "other") is never refused by a usage preference.
 */

import type { CrawlerCategory } from "../vocabulary.ts";
import type { ContentSignalUse, UsageFormat } from "../core/index.ts";
import { productToken } from "../core/index.ts";

/** The drafts this table follows, named in explain output and docs/decisions.md. */
export const USAGE_VOCABULARY_SOURCES: Readonly<Record<UsageFormat, string>> = {
  "content-usage": "draft-ietf-aipref-vocab-08 / draft-ietf-aipref-attach-05",
  "content-signal": "contentsignals.org (Content Signals Policy)",
};

/** One row: a preference key of a format, and the categories a "no" for it refuses. */
export interface UsageRefusal {
  readonly format: UsageFormat;
  readonly key: string;
  readonly refuses: readonly CrawlerCategory[];
  /** The draft (and version) that defines the key. */
  readonly since: string;
}

export const USAGE_REFUSALS: readonly UsageRefusal[] = [
  // vocab-07 §4.1 / vocab-08 "AI Training": only crawlers that fetch to train.
  { format: "content-usage", key: "train-ai", refuses: ["ai-training"], since: "draft-ietf-aipref-vocab-07" },
  // vocab-08 "AI Use": using an asset as input to an AI system when it runs, i.e. assistants
  // and agents acting on content at request time, and AI search feeding answers from it.
  {
    format: "content-usage",
    key: "ai-use",
    refuses: ["ai-assistant", "ai-search"],
    since: "draft-ietf-aipref-vocab-08",
  },
  // vocab-07 §4.2 "Search": search-engine crawlers (AI search answers are not search, §4.2).
  { format: "content-usage", key: "search", refuses: ["search-engine"], since: "draft-ietf-aipref-vocab-07" },
  // contentsignals.org "ai-train: training or fine-tuning AI models".
  { format: "content-signal", key: "ai-train", refuses: ["ai-training"], since: "contentsignals.org" },
  // contentsignals.org "search: building a search index and providing search results".
  { format: "content-signal", key: "search", refuses: ["search-engine"], since: "contentsignals.org" },
  // contentsignals.org "ai-input: inputting content into one or more AI models (RAG,
  // grounding, real-time taking of content for generative AI search answers)".
  { format: "content-signal", key: "ai-input", refuses: ["ai-search", "ai-assistant"], since: "contentsignals.org" },
];

/**
 * vocab-08: `search=y` overrides `train-ai` and `ai-use` for the uses that meet search's
 * conditions. Ours: crawlers whose category is a search use (a search engine's index, an AI
 * search index that links back to its sources) are not refused by those keys where the same
 * path says `search=y`. Assistants acting for a user are no search use, so ai-use=n still
 * binds them. Under vocab-07 no row above refuses a search category by train-ai, so a
 * vocab-07 file decides exactly as before.
 */
export const SEARCH_OVERRIDE = {
  format: "content-usage",
  key: "search",
  overrides: ["train-ai", "ai-use"],
  forCategories: ["search-engine", "ai-search"],
  since: "draft-ietf-aipref-vocab-08",
} as const satisfies {
  format: UsageFormat;
  key: string;
  overrides: readonly string[];
  forCategories: readonly CrawlerCategory[];
  since: string;
};

/** The categories a "no" for this key refuses; empty for keys the table does not map. */
export function refusedCategories(format: UsageFormat, key: string): readonly CrawlerCategory[] {
  return USAGE_REFUSALS.find((row) => row.format === format && row.key === key)?.refuses ?? [];
}

/** Whether a `search=y` on the same path lifts a refusal by this key for this category. */
export function searchOverrides(format: UsageFormat, key: string, category: CrawlerCategory): boolean {
  return (
    format === SEARCH_OVERRIDE.format &&
    (SEARCH_OVERRIDE.overrides as readonly string[]).includes(key) &&
    (SEARCH_OVERRIDE.forCategories as readonly CrawlerCategory[]).includes(category)
  );
}

/** A crawler whose operator documents, in Content-Signal terms, the use it makes of what it fetches. */
export interface DocumentedContentUse {
  readonly token: string;
  readonly use: ContentSignalUse;
  readonly source: string;
}

/**
 * Content-Signal `use=` binds only crawlers listed here, each with its operator's page. None is
 * listed: we found no operator documenting its crawler's use in these terms (the pages our
 * crawler table cites, searched offline when this table was written). So `use=` is read,
 * linted and explained, and refuses nobody until an operator documents a use with a source.
 */
export const DOCUMENTED_CONTENT_USES: readonly DocumentedContentUse[] = [];

/** The documented use of the first of these tokens that has one. */
export function documentedUseOf(
  tokens: readonly string[],
  table: readonly DocumentedContentUse[] = DOCUMENTED_CONTENT_USES,
): DocumentedContentUse | undefined {
  const wanted = new Set(tokens.map(productToken));
  return table.find((row) => wanted.has(productToken(row.token)));
}
