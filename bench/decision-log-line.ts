// The edge's decision log line for one allowed Googlebot request under eBay's robots.txt (the
// load benchmark's (a) case): the record decided by the policy layer, as the Worker decides it,
// and what the line costs to render and write on a warm isolate. Shared by bench/log-line.bench.ts
// and bench/load.ts, which prints it beside what wrangler dev's log plumbing costs the same line.
import { Console } from "node:console";
import { Writable } from "node:stream";
import { classifyUserAgent } from "../src/agents/classify.ts";
import type { RobotsMatcher } from "../src/core/index.ts";
import { decideEdge } from "../src/policy/edge-decision.ts";
import type { EdgeRecord } from "../src/policy/edge-record.ts";
import { NOT_GATHERED, type EdgeFacts } from "../src/policy/edge-facts.ts";
import { decisionJson, type LoggedRequest } from "../src/worker/log.ts";
import { gatheredFacts } from "../test/policy/gathered-facts.ts";

export interface LoggedDecision {
  readonly facts: EdgeFacts;
  readonly record: EdgeRecord;
  readonly request: LoggedRequest;
}

/** The facts, the record and the request around it, for `userAgent` asking for `path` (it must pass). */
export function loggedDecision(matcher: RobotsMatcher, userAgent: string, path: string): LoggedDecision {
  // No pause, no policy, no address check (VERIFY_CRAWLERS=off) and no rate limiter: the
  // shortest decision that passes, so the line's cost is not mixed with the decision's.
  const facts = gatheredFacts({
    pathAndQuery: path,
    agent: classifyUserAgent(userAgent),
    robots: { state: "ok", matcher, retryAfter: 0 },
    now: Date.now(),
    verifyCrawlers: "off",
    enforceRates: "off",
    rateLimiter: false,
    rate: NOT_GATHERED,
  });
  const record = decideEdge(facts);
  if ("gather" in record) throw new Error("the decision still wants a fact gathered");
  if (record.action !== "pass") throw new Error(`${path} should pass for ${userAgent}, got ${record.action}`);
  const request: LoggedRequest = {
    authority: "www.example.com",
    method: "GET",
    userAgent,
    mode: "enforce",
    logQuery: false,
    format: "json",
  };
  return { facts, record, request };
}

/** console.log into a stream that drops what it is given: the call and its formatting, no I/O. */
export const discardingConsole = new Console(new Writable({ write: (_chunk, _encoding, done) => done() }));

/** CPU (user + system) per line, µs, to render the JSON line and console.log it, over `lines` lines. */
export function lineCpuMicroseconds({ record, request }: LoggedDecision, lines = 20_000): number {
  for (let n = 0; n < 2_000; n++) discardingConsole.log(decisionJson(record, request));
  const before = process.cpuUsage();
  for (let n = 0; n < lines; n++) discardingConsole.log(decisionJson(record, request));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / lines;
}
