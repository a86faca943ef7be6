// Activity events as the edge records them, for the tests of the activity buffer and its flush.
import type { CrawlerEvent } from "../../src/policy/activity.ts";

/** GPTBot let through by robots.txt on `path` at `time` (GET, unchecked, no violation). */
export function gptbotPass(path: string, time = 0): CrawlerEvent {
  return {
    action: "pass",
    layer: "robots.txt",
    line: null,
    rule: null,
    time,
    token: "GPTBot",
    tokens: ["GPTBot"],
    category: null,
    verified: "unchecked",
    method: "GET",
    path,
    violation: false,
  };
}

/** The longest path the edge records (512 characters), distinct per origin and `n`. */
export const longestPath = (origin: string, n: number) => `/${origin}/${n}/`.padEnd(512, "a");
