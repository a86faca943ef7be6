// Policy as code end to end: `wrangler dev` in route mode with two AUTHORITIES, and
// `robots-edge policy pull | plan | apply` as a repository's CI runs them. The plan and apply
// commands are read from the CI example (examples/github-actions/robots-edge-policy.yml) and run
// as written, by bash, in a scratch "repository" holding the policy file and the URL list: what
// the example runs is what is tested. No origin is needed: policies, replay and the URL list are
// the admin API's (a host with no robots.txt stored judges every path allowed by robots.txt).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const TOKEN = "e2e-admin-token-policy-as-code";
const WORKFLOW = readFileSync(join(ROOT, "examples/github-actions/robots-edge-policy.yml"), "utf8");

/** The `run:` of the step with this name in the example workflow. */
function stepCommand(name: string): string {
  const step = new RegExp(`- name: ${name}\\n\\s+run: (.+)\\n`).exec(WORKFLOW);
  if (!step?.[1]) throw new Error(`the CI example has no step "${name}" with a run: line`);
  return step[1];
}

// Each command is a whole `npx` start (seconds on a loaded 2-core machine) and a few admin calls.
const COMMANDS_TIMEOUT = 180_000;
const PLAN = stepCommand("plan");
const APPLY = stepCommand("apply");

let edge: EdgeProcess;
let repo: string;

beforeAll(async () => {
  edge = await startEdge({ vars: { ORIGIN_URL: "", AUTHORITIES: "a.example, b.example", ADMIN_TOKEN: TOKEN } });
  repo = mkdtempSync(join(tmpdir(), "robots-edge-policy-as-code-"));
  // The repository is a clone of robots-edge: its node_modules give `npx robots-edge`.
  symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"));
  writeFileSync(join(repo, "robots-edge.urls.txt"), "# the pages that must stay reachable\n/x/\n/blog/\n");
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", command], {
      cwd: repo,
      env: { ...process.env, ROBOTS_EDGE_URL: edge.url, ROBOTS_EDGE_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += String(chunk)));
    child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

function writePolicyFile(hosts: Record<string, unknown>): void {
  writeFileSync(join(repo, "robots-edge.policy.json"), JSON.stringify({ hosts }, null, 2));
}

async function ownPolicy(host: string): Promise<{ version: number; policy: unknown }> {
  const response = await fetch(`${edge.url}/__robots/policy?host=${host}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { version: number; policy: unknown };
}

const BLOCK_GPTBOT_X = { routes: [{ pattern: "/x/", rules: [{ crawlers: ["GPTBot"], action: "block" }] }] };
const BLOCK_SEARCH_BLOG = {
  routes: [
    ...BLOCK_GPTBOT_X.routes,
    { pattern: "/blog/", rules: [{ crawlers: ["category:search-engine"], action: "block" }] },
  ],
};

describe("robots-edge policy pull | plan | apply against wrangler dev (route mode, two hosts)", () => {
  it("the CI example plans and applies with the commands this test runs", () => {
    expect(PLAN).toBe("npx robots-edge policy plan robots-edge.policy.json --urls robots-edge.urls.txt");
    expect(APPLY).toBe("npx robots-edge policy apply robots-edge.policy.json --urls robots-edge.urls.txt");
  });

  it(
    "pull writes what the edge has: no default policy, no host policy",
    async () => {
      const pulled = await sh("npx robots-edge policy pull robots-edge.policy.json");
      expect(pulled.stderr).toBe("");
      expect(pulled.code).toBe(0);
      expect(pulled.stdout).toBe("wrote robots-edge.policy.json: default (version 0)\n");
      expect(JSON.parse(readFileSync(join(repo, "robots-edge.policy.json"), "utf8"))).toEqual({
        $schema: "./node_modules/robots-edge/schema/policy-file.schema.json",
        hosts: {},
      });
    },
    COMMANDS_TIMEOUT,
  );

  it(
    "plan shows a.example's change and the URL list's flip for GPTBot, exit 0; apply saves it for a.example only",
    async () => {
      writePolicyFile({ "a.example": BLOCK_GPTBOT_X });
      const plan = await sh(PLAN);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout.split("\n")).toEqual([
        "plan for robots-edge.policy.json:",
        "a.example (version 0): 1 change(s)",
        '  + (the whole policy): {"routes":[{"pattern":"/x/","rules":[{"crawlers":["GPTBot"],"action":"block"}]}]}',
        "  recorded traffic: 0 requests judged, 0 would change",
        "  URL list: 50 requests judged, 1 would change",
        "    GPTBot: 1 (GET /x/ pass -> block)",
        "1 to change, 0 unchanged",
        "",
      ]);
      const apply = await sh(APPLY);
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stdout).toBe("a.example: version 1 saved (was 0)\n1 saved, 0 unchanged\n");
      expect(await ownPolicy("a.example")).toMatchObject({ version: 1, policy: BLOCK_GPTBOT_X });
      expect(await ownPolicy("b.example")).toMatchObject({ version: 0, policy: null });
      const again = await sh(PLAN);
      expect(again.stdout).toContain("a.example (version 1): no change");
    },
    COMMANDS_TIMEOUT,
  );

  it(
    "a change that would refuse Googlebot /blog/: plan exits 1 naming it, apply saves nothing",
    async () => {
      writePolicyFile({ "a.example": BLOCK_SEARCH_BLOG });
      const plan = await sh(PLAN);
      expect(plan.code).toBe(1);
      expect(plan.stdout).toContain(
        "  ! refuses search crawler Googlebot GET /blog/: pass -> block, policy /blog/: block (urls)",
      );
      expect(plan.stderr).toContain("--allow-search-changes");
      const apply = await sh(APPLY);
      expect(apply.code).toBe(1);
      expect(apply.stdout).toContain("nothing saved");
      expect(await ownPolicy("a.example")).toMatchObject({ version: 1, policy: BLOCK_GPTBOT_X });
    },
    COMMANDS_TIMEOUT,
  );

  it(
    "a file naming a host the edge does not serve changes nothing, exit 2",
    async () => {
      writePolicyFile({ "b.example": BLOCK_GPTBOT_X, "c.example": BLOCK_GPTBOT_X });
      const apply = await sh(APPLY);
      expect(apply.code).toBe(2);
      expect(apply.stderr).toContain('the file names "c.example", which this edge does not serve');
      expect(await ownPolicy("b.example")).toMatchObject({ version: 0, policy: null });
    },
    COMMANDS_TIMEOUT,
  );
});
