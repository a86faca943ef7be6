/** The REP engine: parse robots.txt, match crawlers and URLs. No runtime APIs beyond ES2022. */
export { productToken, sameProductToken, userAgentToken } from "./product-token.ts";
export { BUILT_COST_FLOOR, builtCostBound, compileRobots, RobotsMatcher } from "./match.ts";
export {
  MATCH_STEP_BUDGET,
  MatchingTooCostly,
  newRequestAccount,
  REQUEST_STEP_BUDGET,
  withinOneRequestBudget,
  type RequestAccount,
} from "./match-budget.ts";
export type { AppliedGroup, Decision, DecisionReason, DecideOptions, MatcherOptions } from "./match.ts";
export type * from "./model.ts";
export { parseRobotsTxt, MAX_LINE_LENGTH } from "./parse.ts";
export { canonicalizePath, pathAndQuery } from "./path.ts";
export { compilePathPattern, type PathPattern } from "./pattern.ts";
export { indexPathPatterns, type PathPatternIndex } from "./pattern-index.ts";
export { reviveRobots, serializeRobots, ROBOTS_SCHEMA_VERSION } from "./serialize.ts";
export { MAX_ROBOTS_BYTES } from "./text.ts";
export { resolveUsage, type EffectivePreference, type UsageResolution } from "./usage-resolve.ts";
export { CONTENT_SIGNAL_USES, contentSignalUseOf, USAGE_KEYS, type ContentSignalUse } from "./usage.ts";
