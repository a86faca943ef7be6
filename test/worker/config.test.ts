// Config validation: every bad var is a problem naming its fix, replaced by its default (and
// only it: the rest of the configuration stands); parsing never throws; secrets never appear
// in messages.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/read-config.ts";
import { SETTING_NAMES, SETTINGS, type SettingDeclaration } from "../../src/policy/settings.ts";
import { loadConfig } from "../../src/worker/config.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const TOKEN = "0123456789abcdef";

/** Rows: vars given, the problem expected (a fragment), and the field that falls back. */
const badVars: { vars: Record<string, unknown>; problem: string; field: string; fallback: unknown }[] = [
  { vars: { MODE: "block" }, problem: "MODE must be one of enforce, report, off", field: "mode", fallback: "enforce" },
  {
    vars: { BLOCK_STATUS: "200" },
    problem: "BLOCK_STATUS must be a whole number from 400 to 599",
    field: "blockStatus",
    fallback: 403,
  },
  { vars: { BLOCK_STATUS: 403 }, problem: "BLOCK_STATUS must be a string", field: "blockStatus", fallback: 403 },
  {
    vars: { ADMIN_PREFIX: "admin" },
    problem: 'ADMIN_PREFIX must start and end with "/"',
    field: "adminPrefix",
    fallback: "/__robots/",
  },
  {
    vars: { ADMIN_TOKEN: "short-secret" },
    problem: "ADMIN_TOKEN must be at least 16 characters (it has 12)",
    field: "adminToken",
    fallback: undefined,
  },
  {
    vars: { ORIGIN_URL: "origin.example.com" },
    problem: "ORIGIN_URL must be an absolute http(s) URL",
    field: "originUrl",
    fallback: undefined,
  },
  {
    vars: { ORIGIN_URL: "ftp://origin.example.com" },
    problem: "ORIGIN_URL must be an absolute http(s) URL",
    field: "originUrl",
    fallback: undefined,
  },
  {
    vars: { ORIGIN_URL: "https://origin.example.com/app/" },
    problem:
      'ORIGIN_URL must be an origin only (scheme, host, port) such as https://origin.example.com; the request\'s path is appended, so remove "/app/"',
    field: "originUrl",
    fallback: undefined,
  },
  {
    vars: { ORIGIN_URL: "https://origin.example.com/?a=1" },
    problem: 'so remove "/?a=1"',
    field: "originUrl",
    fallback: undefined,
  },
  {
    vars: { ORIGIN_URL: "https://user:pw@origin.example.com" },
    problem: "ORIGIN_URL must not contain a user name or password",
    field: "originUrl",
    fallback: undefined,
  },
  {
    vars: { AUTHORITIES: "https://example.com" },
    problem:
      'AUTHORITIES must be a comma-separated list of hosts such as "example.com, www.example.com, *.example.org" (no scheme or path), got "https://example.com"',
    field: "authorities",
    fallback: undefined,
  },
  {
    vars: { AUTHORITIES: "example.com, example.com/blog" },
    problem: 'got "example.com/blog"',
    field: "authorities",
    fallback: undefined,
  },
  {
    vars: { AUTHORITIES: "a.example.com,,b.example.com" },
    problem: 'got ""',
    field: "authorities",
    fallback: undefined,
  },
  { vars: { AUTHORITIES: "ex*ample.com" }, problem: 'got "ex*ample.com"', field: "authorities", fallback: undefined },
  {
    vars: { AUTHORITIES: "user@example.com" },
    problem: 'got "user@example.com"',
    field: "authorities",
    fallback: undefined,
  },
  {
    vars: { ROBOTS_MAX_AGE: "30" },
    problem: "ROBOTS_MAX_AGE must be a whole number from 60 to 604800",
    field: "robotsMaxAgeSeconds",
    fallback: 86_400,
  },
  { vars: { FAIL_OPEN: "yes" }, problem: 'FAIL_OPEN must be "true" or "false"', field: "failOpen", fallback: false },
  {
    vars: { PAUSE_UNTIL: "tomorrow" },
    problem: "PAUSE_UNTIL must be an ISO 8601 time",
    field: "pauseUntil",
    fallback: undefined,
  },
  {
    vars: { PAUSE_UNTIL: "2026-11-23T12:00:01Z" },
    problem: "PAUSE_UNTIL 2026-11-23T12:00:01Z is more than MAX_PAUSE_MINUTES (2880) from now",
    field: "pauseUntil",
    fallback: undefined,
  },
  {
    vars: { PAUSE_UNTIL: "2026-11-20T13:00:01Z", MAX_PAUSE_MINUTES: "60" },
    problem: "more than MAX_PAUSE_MINUTES (60) from now",
    field: "pauseUntil",
    fallback: undefined,
  },
  { vars: { POLICY: "{" }, problem: "POLICY: not JSON", field: "policy", fallback: undefined },
  {
    vars: { VERIFY_CRAWLERS: "strict" },
    problem: "VERIFY_CRAWLERS must be one of off, unknown, block",
    field: "verifyCrawlers",
    fallback: "unknown",
  },
  { vars: { routes: "[]" }, problem: 'a var named "routes" exists', field: "mode", fallback: "enforce" },
  {
    vars: { DISGUISED_CRAWLERS: "block" },
    problem: "DISGUISED_CRAWLERS must be one of enforce, report, off",
    field: "disguisedCrawlers",
    fallback: "report",
  },
  {
    vars: { CRAWLER_RANGES: "gptbot=https://m.example/g.json" },
    problem: "CRAWLER_RANGES must be a JSON object",
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
  {
    vars: { CRAWLER_RANGES: '["https://m.example/g.json"]' },
    problem: "CRAWLER_RANGES must be a JSON object from list names to URLs",
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
  {
    vars: { CRAWLER_RANGES: '{"petalbot": "https://m.example/p.json"}' },
    problem: 'CRAWLER_RANGES: "petalbot" is no list the edge loads; the lists are googlebot, google-special',
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
  {
    vars: { CRAWLER_RANGES: '{"gptbot": "http://mirror.example/gptbot.json"}' },
    problem: "CRAWLER_RANGES: the URL of gptbot must be an https URL (http only for localhost, 127.0.0.0/8 or [::1])",
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
  {
    vars: { CRAWLER_RANGES: '{"gptbot": "https://user:pw@mirror.example/gptbot.json"}' },
    problem: "without user name or password",
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
  {
    vars: { CRAWLER_RANGES: '{"gptbot": 7}' },
    problem: "the URL of gptbot must be an https URL",
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
  {
    vars: { CRAWLER_RANGES: '{"gptbot": "http://127.0.0.1.example/g.json"}' },
    problem: "the URL of gptbot must be an https URL",
    field: "crawlerRangeUrls",
    fallback: new Map(),
  },
];

describe("parseConfig: a bad var is a problem with its fix, and the default stands in", () => {
  it.each(badVars)("$vars → $problem", ({ vars, problem, field, fallback }) => {
    const { config, problems } = parseConfig(vars, { now: NOW });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
    expect(config[field as keyof typeof config]).toEqual(fallback);
    const refused = Object.keys(vars).filter(
      (name) => name in SETTINGS && config.sources[name as keyof typeof SETTINGS] === "refused",
    );
    expect(refused).toHaveLength("routes" in vars ? 0 : 1);
  });

  it("a refused var degrades only itself: the other vars stand as set", () => {
    const { config, problems } = parseConfig(
      { MODE: "enforse", BLOCK_STATUS: "451", ADMIN_TOKEN: "short", VERIFY_CRAWLERS: "block", FAIL_OPEN: "true" },
      { now: NOW },
    );
    expect(problems).toHaveLength(2);
    expect(config).toMatchObject({
      mode: "enforce",
      blockStatus: 451,
      adminToken: undefined,
      adminTokenRefused: true,
      verifyCrawlers: "block",
      failOpen: true,
    });
    expect(config.sources).toMatchObject({
      MODE: "refused",
      ADMIN_TOKEN: "refused",
      BLOCK_STATUS: "var",
      VERIFY_CRAWLERS: "var",
      RETRY_AFTER: "default",
    });
  });

  it("an unset ADMIN_TOKEN is not refused: the admin prefix is an ordinary path then", () => {
    const { config } = parseConfig({}, { now: NOW });
    expect(config.adminToken).toBeUndefined();
    expect(config.adminTokenRefused).toBe(false);
  });

  it("never repeats the admin token in a problem", () => {
    const { problems } = parseConfig({ ADMIN_TOKEN: "hunter2" }, { now: NOW });
    expect(problems.join(" ")).not.toContain("hunter2");
  });

  it("lists every problem at once", () => {
    const { problems } = parseConfig({ MODE: "x", BLOCK_STATUS: "x", FAIL_OPEN: "x", ORIGIN_URL: "x" }, { now: NOW });
    expect(problems).toHaveLength(4);
  });
});

describe("parseConfig: ORIGIN_URL", () => {
  const rows: { value: unknown; originUrl: string | undefined; originUrlProblem: boolean }[] = [
    { value: undefined, originUrl: undefined, originUrlProblem: false },
    { value: "", originUrl: undefined, originUrlProblem: false },
    { value: "  ", originUrl: undefined, originUrlProblem: false },
    { value: "https://origin.example.com", originUrl: "https://origin.example.com/", originUrlProblem: false },
    { value: "https://origin.example.com/", originUrl: "https://origin.example.com/", originUrlProblem: false },
    { value: "http://127.0.0.1:8080", originUrl: "http://127.0.0.1:8080/", originUrlProblem: false },
    { value: "https://origin.example.com/app", originUrl: undefined, originUrlProblem: true },
    { value: "https://a@origin.example.com", originUrl: undefined, originUrlProblem: true },
    { value: "https://origin.example.com#x", originUrl: undefined, originUrlProblem: true },
    { value: "not a url", originUrl: undefined, originUrlProblem: true },
    { value: 42, originUrl: undefined, originUrlProblem: true },
  ];
  it.each(rows)("$value → $originUrl (unusable: $originUrlProblem)", ({ value, originUrl, originUrlProblem }) => {
    const { config } = parseConfig({ ORIGIN_URL: value }, { now: NOW });
    expect(config.originUrl?.href).toBe(originUrl);
    expect(config.originUrlProblem).toBe(originUrlProblem);
  });
});

describe("parseConfig: good values", () => {
  it("accepts a full, valid configuration without problems", () => {
    const { config, problems } = parseConfig(
      {
        MODE: "Report",
        ADMIN_TOKEN: TOKEN,
        AUTHORITIES: "Example.com, www.example.com:8443, *.example.org, example.com",
        PAUSE_UNTIL: "2026-11-22T12:00:00Z",
        MAX_PAUSE_MINUTES: "2880",
      },
      { now: NOW },
    );
    expect(problems).toEqual([]);
    expect(config.mode).toBe("report");
    expect(config.adminToken).toBe(TOKEN);
    expect(config.authorities).toEqual(["example.com", "www.example.com:8443", "*.example.org"]);
    expect(config.pauseUntil).toBe(Date.parse("2026-11-22T12:00:00Z"));
  });

  it.each([
    {
      given: '{"gptbot": "https://mirror.example/gptbot.json"}',
      urls: [["gptbot", "https://mirror.example/gptbot.json"]],
    },
    { given: '{"googlebot": "http://127.0.0.1:8123/g.json"}', urls: [["googlebot", "http://127.0.0.1:8123/g.json"]] },
    {
      given: '{"bingbot": "http://localhost:9/b.json", "ccbot": "http://[::1]:9/c.json"}',
      urls: [
        ["bingbot", "http://localhost:9/b.json"],
        ["ccbot", "http://[::1]:9/c.json"],
      ],
    },
    { given: "{}", urls: [] },
  ])("CRAWLER_RANGES $given", ({ given, urls }) => {
    const { config, problems } = parseConfig({ CRAWLER_RANGES: given }, { now: NOW });
    expect(problems).toEqual([]);
    expect([...config.crawlerRangeUrls]).toEqual(urls);
  });

  const warnings: { vars: Record<string, unknown>; warning: string | undefined }[] = [
    { vars: {}, warning: "route mode without AUTHORITIES" },
    { vars: { AUTHORITIES: "example.com" }, warning: undefined },
    { vars: { ORIGIN_URL: "https://o.example.com" }, warning: undefined },
    {
      vars: { ORIGIN_URL: "https://o.example.com", AUTHORITIES: "example.com" },
      warning: "AUTHORITIES is ignored in proxy mode",
    },
  ];
  it.each(warnings)("warnings for $vars: $warning", ({ vars, warning }) => {
    const result = parseConfig(vars, { now: NOW });
    expect(result.problems).toEqual([]);
    if (warning === undefined) expect(result.warnings).toEqual([]);
    else expect(result.warnings[0]).toContain(warning);
  });
});

describe("the declared settings (settings.ts)", () => {
  // Written out here: the Worker's defaults, as docs/operating.md lists them.
  const defaults: [string, unknown][] = [
    ["mode", "enforce"],
    ["blockStatus", 403],
    ["adminPrefix", "/__robots/"],
    ["robotsMaxAgeSeconds", 86_400],
    ["fetchTimeoutMs", 5_000],
    ["failOpen", false],
    ["retryAfterSeconds", 3_600],
    ["maxPauseMinutes", 2_880],
    ["logDecisions", "all"],
    ["enforceRates", "honoured"],
    ["logQuery", false],
    ["logFormat", "json"],
    ["recordActivity", true],
    ["verifyCrawlers", "unknown"],
    ["usageSignals", "enforce"],
    ["usageHeader", true],
    ["dohResolver", "https://cloudflare-dns.com/dns-query"],
    // Report until the lists have been watched (docs/decisions.md "Crawlers in disguise").
    ["disguisedCrawlers", "report"],
    ["crawlerRangeUrls", new Map()],
  ];
  it.each(defaults)("unset, %s is %j", (field, value) => {
    const { config, problems } = parseConfig({}, { now: NOW });
    expect(problems).toEqual([]);
    expect(config[field as keyof typeof config]).toEqual(value);
  });

  it("every value a list declares is accepted by the reader", () => {
    for (const name of SETTING_NAMES) {
      const declared: SettingDeclaration = SETTINGS[name];
      for (const value of declared.values ?? []) {
        expect(parseConfig({ [name]: value }, { now: NOW }).problems, `${name}=${value}`).toEqual([]);
      }
    }
  });
});

describe("loadConfig", () => {
  it("is memoised per env object", () => {
    const env = { MODE: "x" };
    expect(loadConfig(env)).toBe(loadConfig(env));
    expect(loadConfig({ MODE: "x" })).not.toBe(loadConfig(env));
  });
});
