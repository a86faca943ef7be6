/**
 * `robots-edge explain <robots.txt|-> "<User-Agent header>" <url> [--json]`: the same
 * explanation as the admin API and the operator page (policy/explain.ts), for a local file,
 * as an edge with every setting at its default would act (MODE=enforce, BLOCK_STATUS=403,
 * VERIFY_CRAWLERS=unknown: config/edge-settings.ts defaultSettings). Exit 1
 * when the edge would block. A file has no client address and no stored lists, so the answer
 * says which verification the edge would make and judges the claim as one it cannot check
 * (under its group and under `*`, policy/claim.ts); `GET explain?ip=` on a deployed edge
 * checks an address.
 */

import { defaultSettings } from "../config/edge-settings.ts";
import { parseRobotsTxt } from "../core/index.ts";
import { enforcementMatcher } from "../policy/path-spellings.ts";
import { explainRequest, type Explanation } from "../policy/explain.ts";
import { formatRule } from "./format.ts";
import { CliError, EXIT_NO, EXIT_OK, readRobotsFile, write, type Io } from "./io.ts";
import { requireUrlOrPath } from "./url-argument.ts";

export async function explain(
  operands: readonly string[],
  { json }: { readonly json: boolean },
  io: Io,
): Promise<number> {
  const [file, userAgent, url, extra] = operands;
  if (extra !== undefined) throw new CliError(`unexpected argument ${JSON.stringify(extra)} (one URL per call)`);
  if (file === undefined || userAgent === undefined || url === undefined) {
    throw new CliError(
      'explain needs a robots.txt file, a User-Agent header and a URL: robots-edge explain robots.txt "Googlebot/2.1" /path',
    );
  }
  requireUrlOrPath(url);
  const matcher = enforcementMatcher(parseRobotsTxt(await readRobotsFile(file, io)));
  const explanation = explainRequest({
    userAgent,
    url,
    settings: defaultSettings(),
    state: "ok",
    matcher,
    paused: false,
  });
  await write(io.stdout, json ? `${JSON.stringify(explanation, null, 2)}\n` : describe(explanation));
  return explanation.action.action === "block" ? EXIT_NO : EXIT_OK;
}

function verificationText({ status, method, why, reason }: Explanation["verification"]): string {
  if (status === "verified") return `yes, by ${method ?? "?"}: ${reason}`;
  if (why === "not-claimed") return `no: ${reason}`;
  return `${status}: ${reason}`;
}

function describe(explanation: Explanation): string {
  const { known, group, rule } = explanation;
  const who = explanation.crawler
    ? `crawler${known ? ` (known: ${known.token}, ${known.category})` : " (not in the table of known crawlers)"}`
    : "human (robots.txt does not apply)";
  const rows: [string, string][] = [
    ["agent", who],
    [
      "tokens",
      explanation.tokens.length > 0
        ? explanation.tokens.join(", ")
        : explanation.crawler
          ? "(none: only * applies)"
          : "(none)",
    ],
    ["verified", verificationText(explanation.verification)],
    ["group", group ? `${group.token} (user-agent line ${group.lines.join(", ")})` : "none"],
    ["rule", rule ? formatRule(rule) : explanation.reason],
    [
      "path",
      explanation.judgedPath === explanation.path
        ? explanation.path
        : `${explanation.path} (judged as ${explanation.judgedPath})`,
    ],
    [
      "decision",
      `${explanation.allowed ? "allowed" : "disallowed"}${explanation.crawler ? "" : " under * (not applied to humans)"}`,
    ],
    ["edge", `${explanation.action.action}${explanation.action.status ? ` (${explanation.action.status})` : ""}`],
  ];
  // The edge's decision gets the rate state as a fact; a file alone cannot know it (policy/explain.ts).
  if (explanation.action.rateLimit) rows.push(["rate", explanation.action.rateLimit]);
  // The readings of the file disagree for this crawler: what each says, and why it is not refused.
  if (explanation.reading)
    rows.push([
      "disputed",
      `${explanation.reading.text} (line ${explanation.reading.line ?? "?"}): ${explanation.reading.reason}`,
    ]);
  return rows.map(([name, value]) => `${`${name}:`.padEnd(10)}${value}\n`).join("");
}
