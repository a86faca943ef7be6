// The decision's settings, copied from the config in one place (src/config/edge-settings.ts):
// each var reaches the decision as the reader read it, and a setting nobody set has the one
// default of the settings table (VERIFY_CRAWLERS: unknown) for the Worker, explain, replay and
// the CLI alike. Expected settings are written out.
import { describe, expect, it } from "vitest";
import { defaultSettings, settingsOf } from "../../src/config/edge-settings.ts";
import { parseConfig } from "../../src/config/read-config.ts";
import type { EdgeSettings } from "../../src/policy/edge-facts.ts";

const rows: { name: string; vars: Record<string, string>; rateLimiter: boolean; expected: EdgeSettings }[] = [
  {
    name: "no vars: every setting at its documented default",
    vars: {},
    rateLimiter: true,
    expected: {
      originUnusable: false,
      mode: "enforce",
      verifyCrawlers: "unknown",
      failOpen: false,
      blockStatus: 403,
      enforceRates: "honoured",
      usageSignals: "enforce",
      usageHeader: true,
      rateLimiter: true,
      disguisedCrawlers: "report",
    },
  },
  {
    name: "every var set: each reaches the decision as read",
    vars: {
      ORIGIN_URL: "https://origin.example",
      MODE: "report",
      VERIFY_CRAWLERS: "block",
      FAIL_OPEN: "true",
      BLOCK_STATUS: "451",
      ENFORCE_RATES: "all",
      USAGE_SIGNALS: "off",
      USAGE_HEADER: "false",
      DISGUISED_CRAWLERS: "off",
    },
    rateLimiter: false,
    expected: {
      originUnusable: false,
      mode: "report",
      verifyCrawlers: "block",
      failOpen: true,
      blockStatus: 451,
      enforceRates: "all",
      usageSignals: "off",
      usageHeader: false,
      rateLimiter: false,
      disguisedCrawlers: "off",
    },
  },
  {
    name: "bad values: each setting's default stands in, an unusable origin is said",
    vars: { ORIGIN_URL: "ftp://origin.example", VERIFY_CRAWLERS: "maybe", ENFORCE_RATES: "false", MODE: "block" },
    rateLimiter: true,
    expected: {
      originUnusable: true,
      mode: "enforce",
      verifyCrawlers: "unknown",
      failOpen: false,
      blockStatus: 403,
      enforceRates: "off",
      usageSignals: "enforce",
      usageHeader: true,
      rateLimiter: true,
      disguisedCrawlers: "report",
    },
  },
];

describe("settingsOf: the decision's settings from the config", () => {
  it.each(rows)("$name", ({ vars, rateLimiter, expected }) => {
    expect(settingsOf(parseConfig(vars).config, { rateLimiter })).toEqual(expected);
  });

  it("defaultSettings: the CLI's settings are a Worker's without vars", () => {
    expect(defaultSettings()).toEqual(rows[0]?.expected);
  });
});
