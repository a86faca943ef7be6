/**
 * Refuse only what the crawler itself reads. Where the mainstream readings of a robots.txt
 * disagree on which lines belong to a crawler's group or what a rule can match (RFC 9309's
 * and Google's, which the engine answers, against the record reading of urllib.robotparser,
 * robots-parser and the 1996 draft: core/readings.ts), the edge cannot know which one a crawler
 * other than Google's uses. It refuses it only what both refuse; a path one reading refuses
 * and the other allows is passed and marked would-block, with both readings in the reason.
 * Google's crawlers are judged by Google's reading alone: it is what they do.
 * Both readings match with RFC 9309's longest match; the record reading is asked only for a
 * file where it differs (RobotsMatcher.recordReading is undefined otherwise), so a request
 * costs one more lookup there and nothing elsewhere.
 */

import type { AgentInfo } from "../agents/classify.ts";
import type { Decision, RobotsMatcher } from "../core/index.ts";
import type { DisputedReading } from "./edge-record.ts";

/** The operator whose crawlers are judged by its own reading alone. */
const READS_AS_GOOGLE = "Google";

/**
 * The dispute over `ours` (the engine's decision on this spelling), or undefined when every
 * reading agrees, the crawler is Google's, or the file reads the same either way.
 */
export function disputedReading(
  matcher: RobotsMatcher | undefined,
  ours: Decision,
  agent: AgentInfo,
  spelling: string,
): DisputedReading | undefined {
  if (agent.known?.operator === READS_AS_GOOGLE) return undefined;
  const other = matcher?.recordReading();
  if (!other) return undefined;
  const theirs = other.decide(agent.tokens, spelling, { obeysGlobalGroup: agent.obeysGlobalGroup });
  if (theirs.allowed === ours.allowed) return undefined;
  const refusing = ours.allowed ? theirs : ours;
  const rule = refusing.rule;
  if (!rule) return undefined;
  return {
    line: { source: "robots.txt", line: rule.line, member: null, text: `${rule.kind}: ${rule.pattern}` },
    reason: `RFC 9309 and Google's parser: ${inWords(ours)}; urllib.robotparser, robots-parser and the 1996 draft: ${inWords(theirs)}. The edge refuses a crawler other than Google's only what every reading refuses (robots-edge lint names the fix)`,
  };
}

function inWords(decision: Decision): string {
  const { rule } = decision;
  if (!rule)
    return decision.group
      ? `allowed (no rule of its group, ${decision.group.token}, matches)`
      : "allowed (no group applies)";
  return `${decision.allowed ? "allowed" : "refused"} by "${rule.kind}: ${rule.pattern}" (line ${rule.line}, group ${decision.group?.token ?? "*"})`;
}
