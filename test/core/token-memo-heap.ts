// Run by token-memo.test.ts as `node --expose-gc test/core/token-memo-heap.ts`: whether a group
// the bound dropped is still held once every other token has been asked, when it was asked in
// other spellings than its product token (the token memo keeps each spelling). Prints one JSON
// line: { held: boolean[] }, one per row (the spellings it was asked in).
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";

/**
 * 20 groups of 200 rules of their own (`Disallow: /<g><n>`, base 36, fixed width) and a token
 * per pair: 190 tokens, each winning 400 decisions, fill the bound (about 51,000) well before
 * the token memo (256 spellings) is full and cleared, so the memo still has the first token's
 * spellings when its group is dropped.
 */
const GROUPS = 20;
const pathsOf = (g: number) =>
  Array.from({ length: 200 }, (_, n) => `/${g.toString(36)}${n.toString(36).padStart(2, "0")}`);
const pairs: { token: string; paths: string[] }[] = [];
for (let x = 0; x < GROUPS; x++) {
  for (let y = x + 1; y < GROUPS; y++) pairs.push({ token: `p${x}-${y}`, paths: [...pathsOf(x), ...pathsOf(y)] });
}
const text = Array.from({ length: GROUPS }, (_, g) => {
  const named = pairs.filter(({ token }) => token === `p${g}-${token.split("-")[1]}` || token.endsWith(`-${g}`));
  const agents = named.map(({ token }) => `User-agent: ${token}\n`).join("");
  return `${agents}${pathsOf(g)
    .map((path) => `Disallow: ${path}\n`)
    .join("")}\n`;
}).join("");

const gc = (globalThis as { gc?: () => void }).gc;
if (gc && process.argv[1]?.endsWith("token-memo-heap.ts")) {
  const rows = [["p0-1"], ["P0-1"], ["P0-1", "p0-1", "p0-1/2.0"]];
  const held: boolean[] = [];
  for (const spellings of rows) {
    const matcher = compileRobots(parseRobotsTxt(new TextEncoder().encode(text)));
    // Only a weak reference to the group first built: the matcher alone may hold it.
    const first = new WeakRef(spellings.map((spelling) => matcher.decide([spelling], "/000").group)[0] ?? {});
    for (const { token, paths } of pairs.slice(1)) for (const path of paths) matcher.decide([token], path);
    // A WeakRef's target is kept to the end of the job that made it: collect in a later one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    gc();
    const alive = first.deref() !== undefined;
    // The matcher is alive until here, and still answers for the dropped token.
    if (matcher.decide([spellings[0] ?? ""], "/000").rule?.pattern !== "/000") throw new Error("wrong answer");
    held.push(alive);
  }
  console.log(JSON.stringify({ held }));
}
