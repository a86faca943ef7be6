// The Node.js version guard every entry point runs first. Plain JavaScript that any Node
// since 12 parses: it must run before a line of TypeScript is loaded, because an older Node
// fails on the `.ts` import itself with a stack trace ("Unknown file extension").

/** Type stripping without flags arrived in Node 22.18 (the CLI and scripts run .ts directly). */
export const NODE_MINIMUM = "22.18.0";

const GET_NODE =
  "run it through npm inside the clone (npm ci, then npm run … or npx robots-edge …: the project brings Node 24), " +
  "or install Node 24: npm install --prefix ~/.node24 node@24 && export PATH=~/.node24/node_modules/.bin:$PATH";

/** Why `version` (e.g. "20.20.2") cannot run this project, in one line; undefined when it can. */
export function nodeVersionProblem(version, what = "robots-edge") {
  const have = String(version).replace(/^v/, "").split(".").map(Number);
  const need = NODE_MINIMUM.split(".").map(Number);
  for (let i = 0; i < need.length; i++) {
    const part = Number.isInteger(have[i]) ? have[i] : -1;
    if (part > need[i]) return undefined;
    if (part < need[i]) return `${what} needs Node.js >= ${NODE_MINIMUM} (this is ${version}): ${GET_NODE}`;
  }
  return undefined;
}

/** Exit 2 (a usage error) with the one-line reason when this Node is too old. */
export function requireNode(what) {
  const problem = nodeVersionProblem(process.versions.node, what);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(2);
}
