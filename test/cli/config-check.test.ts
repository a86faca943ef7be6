// `robots-edge config check`: wrangler.toml snippets -> the findings an operator sees before deploy.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkWranglerToml, type ConfigFinding } from "../../src/cli/config-check.ts";

const BIN = resolve(import.meta.dirname, "../../bin/robots-edge.js");
const WORKERD_DATE = "2026-11-02";
const KV_ID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

const TOP = `name = "robots-edge"
main = "src/worker/index.ts"
compatibility_date = "2026-11-01"
`;
const BINDINGS = `[[kv_namespaces]]
binding = "ROBOTS"
id = "${KV_ID}"

[[durable_objects.bindings]]
name = "CRAWL_RATE"
class_name = "CrawlRate"

[[durable_objects.bindings]]
name = "ACTIVITY"
class_name = "ActivityLog"
`;
const ROUTES = `routes = [{ pattern = "www.example.com/*", zone_name = "example.com" }]\n`;
const VARS = `[vars]\nMODE = "enforce"\nAUTHORITIES = "www.example.com"\n`;
const GOOD = `${TOP}${ROUTES}${BINDINGS}${VARS}`;

const ADMIN_NOTE = "note: ADMIN_TOKEN is a secret this file cannot show";

function summary(findings: ConfigFinding[]): string[] {
  return findings.map((finding) => `${finding.severity}: ${finding.message}`);
}

describe("checkWranglerToml: each trap, its message and fix", () => {
  it.each([
    { name: "a good file: only the secret reminder", toml: GOOD, env: undefined, expected: [ADMIN_NOTE] },
    {
      name: "routes appended at the end land in [vars]",
      toml: `${TOP}${BINDINGS}${VARS}${ROUTES}`,
      env: undefined,
      expected: [
        'error: a var named "routes" exists',
        "warning: route mode (ORIGIN_URL empty) with no routes",
        ADMIN_NOTE,
      ],
    },
    {
      name: "the placeholder KV namespace id",
      toml: GOOD.replace(KV_ID, "00000000000000000000000000000000"),
      env: undefined,
      expected: [
        "error: the ROBOTS KV namespace id is the placeholder 00000000000000000000000000000000: remove the id line (`wrangler deploy` creates the namespace)",
        ADMIN_NOTE,
      ],
    },
    {
      name: "no KV namespace id: wrangler deploy creates the namespace",
      toml: GOOD.replace(`id = "${KV_ID}"\n`, ""),
      env: undefined,
      expected: [ADMIN_NOTE],
    },
    {
      name: "a KV namespace id that is no id",
      toml: GOOD.replace(KV_ID, "<your-kv-id>"),
      env: undefined,
      expected: ['error: the ROBOTS KV namespace id "<your-kv-id>" is not 32 hex digits', ADMIN_NOTE],
    },
    {
      name: "a misspelt var: MDOE",
      toml: GOOD.replace('MODE = "enforce"', 'MDOE = "report"'),
      env: undefined,
      expected: ['error: [vars] has "MDOE", a var the Worker never reads: did you mean "MODE"?', ADMIN_NOTE],
    },
    {
      name: "a misspelt var: VERIFY_CRAWLER",
      toml: `${GOOD}VERIFY_CRAWLER = "off"\n`,
      env: undefined,
      expected: [
        'error: [vars] has "VERIFY_CRAWLER", a var the Worker never reads: did you mean "VERIFY_CRAWLERS"?',
        ADMIN_NOTE,
      ],
    },
    {
      name: "a misspelt var in lower case: origin_url",
      toml: `${GOOD}origin_url = "https://origin.example.com"\n`,
      env: undefined,
      expected: [
        'error: [vars] has "origin_url", a var the Worker never reads: did you mean "ORIGIN_URL"?',
        ADMIN_NOTE,
      ],
    },
    {
      name: "routes under [triggers]",
      toml: `${TOP}${BINDINGS}${VARS}[triggers]\ncrons = ["*/30 * * * *"]\n${ROUTES}`,
      env: undefined,
      expected: [
        "error: `routes` is inside [triggers], where wrangler does not read it, so the Worker gets no route",
        "warning: route mode (ORIGIN_URL empty) with no routes",
        ADMIN_NOTE,
      ],
    },
    {
      name: "route (singular) under a [[durable_objects.bindings]] entry",
      toml: `${TOP}${ROUTES}${BINDINGS}route = "www.example.com/*"\n${VARS}`,
      env: undefined,
      expected: ["error: `route` is inside [[durable_objects.bindings]], where wrangler does not read it", ADMIN_NOTE],
    },
    {
      name: "routes under [observability]",
      toml: `${TOP}${BINDINGS}${VARS}[observability]\nenabled = true\n${ROUTES}`,
      env: undefined,
      expected: [
        "error: `routes` is inside [observability], where wrangler does not read it",
        "warning: route mode (ORIGIN_URL empty) with no routes",
        ADMIN_NOTE,
      ],
    },
    {
      name: "no KV binding",
      toml: GOOD.replace('binding = "ROBOTS"', 'binding = "OTHER"'),
      env: undefined,
      expected: ["error: no KV namespace bound as ROBOTS", ADMIN_NOTE],
    },
    {
      name: "a compatibility_date newer than the installed workerd",
      toml: GOOD.replace("2026-11-01", "2027-01-15"),
      env: undefined,
      expected: [
        "error: compatibility_date 2027-01-15 is newer than the installed workerd supports (2026-11-02)",
        ADMIN_NOTE,
      ],
    },
    {
      name: "an unquoted compatibility_date (a TOML date, not a string)",
      toml: GOOD.replace('"2026-11-01"', "2026-11-01"),
      env: undefined,
      expected: ['error: compatibility_date must be a quoted "YYYY-MM-DD" string', ADMIN_NOTE],
    },
    {
      name: "bad vars: every problem from the Worker's own validation",
      toml: GOOD.replace('MODE = "enforce"', 'MODE = "enforcing"\nBLOCK_STATUS = 403'),
      env: undefined,
      expected: ["error: MODE", "error: BLOCK_STATUS must be a string in wrangler.toml [vars] (quote it)", ADMIN_NOTE],
    },
    {
      name: "ADMIN_TOKEN written as a var",
      toml: `${GOOD}ADMIN_TOKEN = "a-long-enough-admin-token"\n`,
      env: undefined,
      expected: ["error: ADMIN_TOKEN is in [vars], readable by anyone who reads the repository", ADMIN_NOTE],
    },
    {
      name: "ADMIN_TOKEN of spaces: also named blank, not read as unset (issue 31)",
      toml: `${GOOD}ADMIN_TOKEN = "                        "\n`,
      env: undefined,
      expected: [
        "error: ADMIN_TOKEN is in [vars], readable by anyone who reads the repository",
        "error: ADMIN_TOKEN is set but blank (white space only); it stays off until it holds a value",
        ADMIN_NOTE,
      ],
    },
    {
      name: "the CrawlRate Durable Object missing",
      toml: GOOD.replace('name = "CRAWL_RATE"', 'name = "RATES"'),
      env: undefined,
      expected: ["error: no Durable Object bound as CRAWL_RATE", ADMIN_NOTE],
    },
    {
      name: "the ActivityLog Durable Object missing: a warning (enforcement works without it)",
      toml: GOOD.replace('name = "ACTIVITY"', 'name = "ACTIVITIES"'),
      env: undefined,
      expected: [
        "warning: no Durable Object bound as ACTIVITY: the activity view and replay record nothing",
        ADMIN_NOTE,
      ],
    },
    {
      name: "ACTIVITY bound to another class",
      toml: GOOD.replace('class_name = "ActivityLog"', 'class_name = "Activity"'),
      env: undefined,
      expected: ['error: ACTIVITY\'s class_name is "Activity": it must be "ActivityLog"', ADMIN_NOTE],
    },
    {
      name: "not TOML at all",
      toml: `${GOOD}[vars\n`,
      env: undefined,
      expected: ["error: not valid TOML"],
    },
    {
      name: "--env NAME that does not exist",
      toml: GOOD,
      env: "production",
      expected: ["error: no [env.production] table; add it or drop --env"],
    },
    {
      name: "--env NAME: vars and bindings are not inherited",
      toml: `${GOOD}\n[env.production]\nname = "robots-edge-production"\n`,
      env: "production",
      expected: [
        "error: no KV namespace bound as ROBOTS",
        "error: no Durable Object bound as CRAWL_RATE",
        "warning: route mode without AUTHORITIES",
        "warning: no Durable Object bound as ACTIVITY",
        `${ADMIN_NOTE}: \`npx wrangler secret list --env production\` says whether it is set; set it with \`npx wrangler secret put ADMIN_TOKEN --env production\``,
      ],
    },
    {
      name: "--env NAME: the env's own vars are checked, a typo there too",
      toml: `${GOOD}\n[env.production]\nname = "robots-edge-production"\n${ROUTES}${BINDINGS.replaceAll("[[", "[[env.production.")}[env.production.vars]\nAUTHORITIES = "www.example.com"\nVERIFY_CRAWLER = "off"\n`,
      env: "production",
      expected: [
        'error: [env.production.vars] has "VERIFY_CRAWLER", a var the Worker never reads: did you mean "VERIFY_CRAWLERS"?',
        `${ADMIN_NOTE}: \`npx wrangler secret list --env production\` says whether it is set`,
      ],
    },
    {
      name: "--env NAME: routes under [env.production.triggers]",
      toml: `${GOOD}\n[env.production]\nname = "robots-edge-production"\n${ROUTES}${BINDINGS.replaceAll("[[", "[[env.production.")}[env.production.vars]\nAUTHORITIES = "www.example.com"\n[env.production.triggers]\ncrons = []\n${ROUTES}`,
      env: "production",
      expected: ["error: `routes` is inside [env.production.triggers], where wrangler does not read it", ADMIN_NOTE],
    },
  ])("$name", ({ toml, env, expected }) => {
    const found = summary(checkWranglerToml(toml, { env, workerdDate: WORKERD_DATE }));
    expect(found).toHaveLength(expected.length);
    expected.forEach((start, i) => expect(found[i]).toContain(start));
  });
});

describe("the shipped wrangler.toml", () => {
  it("passes with warnings at most: no placeholder, nothing to edit before a first deploy but the route", () => {
    const shipped = readFileSync(resolve(import.meta.dirname, "../../wrangler.toml"), "utf8");
    const findings = checkWranglerToml(shipped, { workerdDate: WORKERD_DATE });
    expect(findings.filter((finding) => finding.severity === "error")).toEqual([]);
  });
});

describe("robots-edge config check: exit status and output", () => {
  const dir = mkdtempSync(join(tmpdir(), "robots-edge-config-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    { name: "good.toml", toml: GOOD, code: 0, stdout: "good.toml: note: ADMIN_TOKEN" },
    { name: "routes-in-vars.toml", toml: `${TOP}${BINDINGS}${VARS}${ROUTES}`, code: 1, stdout: 'a var named "routes"' },
  ])("$name exits $code", async ({ name, toml, code, stdout }) => {
    writeFileSync(join(dir, name), toml);
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
      execFile(process.execPath, [BIN, "config", "check", name], { cwd: dir }, (error, out, err) =>
        done({ code: error ? Number(error.code) : 0, stdout: out, stderr: err }),
      ),
    );
    expect(result.code).toBe(code);
    expect(result.stdout).toContain(stdout);
    expect(result.stderr).toMatch(code === 0 ? /: 0 error\(s\)/ : /fix them before deploying/);
  });
});
