/**
 * The usage-signal layer: may this crawler fetch this path, given what robots.txt says the
 * content may be used for? Pure. Its input is the group's preferences for the path
 * (core resolveUsage) and the crawler's category; its table is usage-vocabulary.ts.
 *
 *   - A preference of "no" whose key maps to the crawler's category refuses it (`enforce`),
 *     or is only marked and logged (`report`); `off` never refuses. A crawler of unknown
 *     category is never refused.
 *   - Several refusing preferences: the first line in the file is named.
 *   - The `Content-Usage` response header a passed crawler response may carry is the path's
 *     Content-Usage preferences in AIPREF's HTTP form (draft-ietf-aipref-attach-05 §2), e.g.
 *     `train-ai=n`. Content-Signal lines are not translated into it: that vocabulary's terms
 *     are not AIPREF's (its `search` excludes what vocab-07's allows), and the header should say
 *     only what the site wrote. The header does not depend on the mode; the shell decides
 *     whether to send it (its own switch, and not when the origin sent one).
 */

import type { CrawlerCategory } from "../vocabulary.ts";
import type {
  AppliedGroup,
  Decision,
  EffectivePreference,
  RobotsMatcher,
  UsageFormat,
  UsageResolution,
} from "../core/index.ts";
import type { Mode } from "./mode.ts";
import { contentSignalUseOf, CONTENT_SIGNAL_USES } from "../core/index.ts";
import { documentedUseOf, refusedCategories, searchOverrides, type DocumentedContentUse } from "./usage-vocabulary.ts";
import { lineWords } from "./served-lines.ts";

/** The USAGE_SIGNALS var: `enforce` (default), `report`, `off`. Same words as MODE. */
export type UsageSignalsMode = Mode;

/** The preference that refuses the crawler, for the block page, the header and the log. */
export interface UsageRefusalReason {
  readonly format: UsageFormat;
  readonly key: string;
  /** The robots.txt line that states it (the first, when several lines agree). */
  readonly line: number;
  readonly category: CrawlerCategory;
  /** One sentence naming the line, for the block body and explain. */
  readonly message: string;
}

export interface UsageVerdict {
  /** refuse: block (enforce); report: pass, but mark and log; pass: nothing to do. */
  readonly action: "refuse" | "report" | "pass";
  readonly layer: "usage-signal";
  /** Set when action is refuse or report; also when mode is off, for explain to show. */
  readonly refusal: UsageRefusalReason | undefined;
  /** Value for a `Content-Usage` header on a passed response; undefined when none is declared. */
  readonly header: string | undefined;
}

export interface UsageVerdictOptions {
  /** The crawler's category from the known-crawler table; undefined when unknown. */
  readonly category: CrawlerCategory | undefined;
  readonly mode: UsageSignalsMode;
  /** The crawler's product tokens, for Content-Signal `use=` (DOCUMENTED_CONTENT_USES). */
  readonly tokens?: readonly string[];
  /** The documented-use table; the built-in one unless a test passes its own. */
  readonly documentedUses?: readonly DocumentedContentUse[];
}

const LABELS: Readonly<Record<UsageFormat, { field: string; no: string }>> = {
  "content-usage": { field: "Content-Usage", no: "n" },
  "content-signal": { field: "Content-Signal", no: "no" },
};

/** Refuse, report or pass a crawler on a path, given the path's usage preferences. */
/**
 * The group whose usage preferences bind a crawler: the group that decided its access, or,
 * for a fetcher exempt from `User-agent: *` (AdsBot, fetchers acting for a person, agents/operators/tables.ts)
 * that no group names, the `*` group all the same. The exemption lifts `*`'s access rules,
 * which such fetchers are documented to skip; a preference about how content may be USED,
 * stated for everyone, still covers them (ChatGPT-User under `Content-Usage: ai-input=n`).
 */
export function usageGroup(
  matcher: RobotsMatcher | undefined,
  decision: Decision | undefined,
  obeysGlobalGroup: boolean,
): AppliedGroup | undefined {
  if (decision?.group || obeysGlobalGroup) return decision?.group;
  return matcher?.groupFor([]);
}

export function usageVerdict(resolution: UsageResolution, options: UsageVerdictOptions): UsageVerdict {
  const header = contentUsageHeader(resolution.preferences);
  const refusal =
    (options.category === undefined ? undefined : firstRefusal(resolution.preferences, options.category)) ??
    useRefusal(resolution, options);
  if (!refusal || options.mode === "off") return { action: "pass", layer: "usage-signal", refusal, header };
  return { action: options.mode === "report" ? "report" : "refuse", layer: "usage-signal", refusal, header };
}

function firstRefusal(
  preferences: readonly EffectivePreference[],
  category: CrawlerCategory,
): UsageRefusalReason | undefined {
  let first: UsageRefusalReason | undefined;
  const searchAllowed = preferences.some((p) => p.format === "content-usage" && p.key === "search" && p.allow);
  for (const { format, key, allow, lines } of preferences) {
    if (allow || !refusedCategories(format, key).includes(category)) continue;
    if (searchAllowed && searchOverrides(format, key, category)) continue;
    // A loop, not Math.min(...lines): thousands of lines may state the key, past the call stack.
    const line = lines.reduce((least, at) => Math.min(least, at), Number.POSITIVE_INFINITY);
    if (first && first.line <= line) continue;
    const { field, no } = LABELS[format];
    const message = `robots.txt ${lineWords(line)}, ${field} ${key}=${no}, refuses ${category} crawlers on this path`;
    first = { format, key, line, category, message };
  }
  return first;
}

/**
 * Content-Signal `use=`: a crawler whose operator documents a use broader than the one the
 * path's Content-Signal line allows is refused, like a `no` (immediate < reference < full).
 * Crawlers with no documented use are never refused by it.
 */
function useRefusal(resolution: UsageResolution, options: UsageVerdictOptions): UsageRefusalReason | undefined {
  const line = resolution.lines.find((usage) => contentSignalUseOf(usage) !== undefined);
  const allowed = line && contentSignalUseOf(line);
  const documented = allowed && documentedUseOf(options.tokens ?? [], options.documentedUses);
  if (!line || !allowed || !documented) return undefined;
  if (CONTENT_SIGNAL_USES.indexOf(documented.use) <= CONTENT_SIGNAL_USES.indexOf(allowed)) return undefined;
  const message = `robots.txt ${lineWords(line.line)}, Content-Signal use=${allowed}, refuses ${documented.token}, whose operator documents use=${documented.use} (${documented.source})`;
  return { format: "content-signal", key: "use", line: line.line, category: options.category ?? "other", message };
}

/** AIPREF's HTTP form of the path's Content-Usage preferences: `train-ai=n, search=y`. */
function contentUsageHeader(preferences: readonly EffectivePreference[]): string | undefined {
  const items = preferences
    .filter((preference) => preference.format === "content-usage")
    .map(({ key, allow }) => `${key}=${allow ? "y" : "n"}`);
  return items.length === 0 ? undefined : items.join(", ");
}
