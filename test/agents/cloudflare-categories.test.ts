// Cloudflare's words for kinds of verified bots and ours (src/agents/cloudflare-categories.ts).
// The documented strings are written out here by hand, from the pages the table cites (read
// 2026-11-24), so a row that goes missing, gains a typo, or maps where Cloudflare's definition
// does not say the same as ours fails here.
import { describe, expect, it } from "vitest";
import {
  ACTS_FOR_A_PERSON,
  CLOUDFLARE_TERMS,
  type CloudflareVocabulary,
} from "../../src/agents/cloudflare-categories.ts";
import { isCrawlerCategory } from "../../src/vocabulary.ts";

// developers.cloudflare.com/bots/concepts/bot/verified-bots/ "Categories": each "String value".
const VERIFIED_BOT_CATEGORIES = [
  "Academic Research",
  "Accessibility",
  "Advertising & Marketing",
  "Aggregator",
  "AI Assistant",
  "AI Crawler",
  "AI Search",
  "Archiver",
  "Feed Fetcher",
  "Monitoring & Analytics",
  "Page Preview",
  "Search Engine Crawler",
  "Search Engine Optimization",
  "Security",
  "Social Media Marketing",
  "Webhooks",
  "Other",
];
// developers.cloudflare.com/bots/botbase/ "Classification by behavior".
const BEHAVIORS = [
  "Search",
  "Agent",
  "Training",
  "Transact",
  "Data Collection",
  "Security Testing",
  "SEO",
  "Ads Verification",
  "Social / Link Preview",
  "Feed Fetching",
  "Monitoring & Operations",
];
// The verified bots page, "Direct and intermediary bots and agents".
const LABELS = ["Direct", "Intermediary"];

function termsOf(vocabulary: CloudflareVocabulary): string[] {
  return CLOUDFLARE_TERMS.filter((term) => term.vocabulary === vocabulary).map((term) => term.cloudflare);
}

describe("the table holds every documented term once", () => {
  it.each([
    { vocabulary: "category" as const, documented: VERIFIED_BOT_CATEGORIES },
    { vocabulary: "behavior" as const, documented: BEHAVIORS },
    { vocabulary: "label" as const, documented: LABELS },
  ])("$vocabulary", ({ vocabulary, documented }) => {
    expect(termsOf(vocabulary)).toEqual(documented);
  });
});

describe("every term maps to one of our categories, or to none with a reason", () => {
  it.each(CLOUDFLARE_TERMS)("$vocabulary $cloudflare -> $ours", ({ ours, reason, means }) => {
    expect(means.trim()).not.toBe("");
    expect(reason.trim()).not.toBe("");
    if (ours !== null) {
      expect(isCrawlerCategory(ours)).toBe(true);
      // "other" means no category: a Cloudflare string mapped to it would confirm every claimed
      // crawler we file under "other".
      expect(ours).not.toBe("other");
    }
  });
});

// What the table says, written down: the mapped terms and their categories.
describe("the mapping, term by term", () => {
  it("maps exactly these terms", () => {
    const mapped = Object.fromEntries(
      CLOUDFLARE_TERMS.filter((term) => term.ours !== null).map((term) => [
        `${term.vocabulary} ${term.cloudflare}`,
        term.ours,
      ]),
    );
    expect(mapped).toEqual({
      "category AI Assistant": "ai-assistant",
      "category AI Crawler": "ai-training",
      "category AI Search": "ai-search",
      "category Archiver": "archiver",
      "category Monitoring & Analytics": "monitoring",
      "category Page Preview": "social-preview",
      "category Search Engine Crawler": "search-engine",
      "category Search Engine Optimization": "seo-tool",
      "behavior Agent": "ai-assistant",
      "behavior Training": "ai-training",
      "behavior SEO": "seo-tool",
      "behavior Social / Link Preview": "social-preview",
      "behavior Monitoring & Operations": "monitoring",
    });
  });
});

// An intermediary (a former "signed agent") acts for whichever end user drives it: it is never
// a crawler fetching for itself. The labels name no category at all; an intermediary's category
// could only ever be the one that acts for a person.
describe("signed agents and intermediaries are never a crawler for itself", () => {
  it("the Intermediary label maps to no crawler category", () => {
    const intermediary = CLOUDFLARE_TERMS.find((term) => term.cloudflare === "Intermediary");
    expect(intermediary?.ours).toBeNull();
  });

  it("the only category a term for acting on a person's behalf maps to is ai-assistant", () => {
    expect(ACTS_FOR_A_PERSON).toBe("ai-assistant");
    const forAPerson = CLOUDFLARE_TERMS.filter((term) => /on behalf of|driven by user|user-directed/i.test(term.means));
    expect(forAPerson.map((term) => [term.cloudflare, term.ours])).toEqual([
      ["AI Assistant", "ai-assistant"],
      ["Agent", "ai-assistant"],
      ["Transact", null],
    ]);
  });
});
