// What the README's "See it" tells a newcomer, held to what is true (issue #35): one `npm ci`
// before `npm run dev` and `npm test` (a second one would replace node_modules under a running
// dev server), and the EBADENGINE warnings npm prints on Node 20 named, from the lockfile.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const README = readFileSync(resolve(ROOT, "README.md"), "utf8");
const seeIt = README.slice(README.indexOf("## See it"), README.indexOf("\n## ", README.indexOf("## See it") + 1));
const firstBlock = /```sh\n([\s\S]*?)```/.exec(seeIt)?.[1] ?? "";

describe('README "See it"', () => {
  it("runs npm ci once, then npm run dev and npm test, each on its own line", () => {
    const commands = firstBlock.split("\n").map((line) => line.replace(/#.*$/, "").trim());
    expect(commands.filter(Boolean)).toEqual(["npm ci", "npm run dev", "npm test"]);
  });

  // The packages whose engines.node refuses Node 20.19.0 (npm's EBADENGINE), written out.
  const REFUSING_NODE_20 = ["@cloudflare/kv-asset-handler", "miniflare", "vitest", "wrangler"];

  it("names the packages whose engines refuse Node 20 (from 20.19 on), as the lockfile has them", () => {
    const lock = JSON.parse(readFileSync(resolve(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && !entry.optional && !Array.isArray(entry.engines))
      .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !admits((entry.engines as { node: string }).node, [20, 19, 0]))
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect([...new Set(refusing)].toSorted()).toEqual(REFUSING_NODE_20);
    const sentence = /`EBADENGINE`[\s\S]*?do not apply\./.exec(seeIt)?.[0] ?? "";
    expect([...sentence.matchAll(/`([@\w/.-]+)`/g)].map((match) => match[1]).slice(1)).toEqual(REFUSING_NODE_20);
  });
});

/**
 * Whether an engines range admits a version, for the forms the lockfile uses: alternatives of
 * `^X.Y.Z`, `>=X.Y.Z` (or `>= X`), `X.*`. Anything else fails the test rather than guess.
 */
function admits(range: string, version: readonly number[]): boolean {
  return range.split("||").some((part) => {
    const match = /^\s*(\^|>=)?\s*(\d+)(?:\.(\d+|\*))?(?:\.(\d+))?\s*$/.exec(part);
    if (!match) throw new Error(`engines range not understood: ${JSON.stringify(part)}`);
    const minor = match[3] === "*" ? 0 : Number(match[3] ?? 0);
    const floor = [Number(match[2]), minor, Number(match[4] ?? 0)];
    const atLeast = compare(version, floor) >= 0;
    return match[1] === ">=" ? atLeast : atLeast && version[0] === floor[0];
  });
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
