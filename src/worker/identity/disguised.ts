/**
 * Crawlers in disguise (policy/disguise.ts): the client's address looked up in the crawler-only
 * lists, compiled once per load of the lists (identity/crawler-ranges.ts crawlerOnlyIndex), so
 * a browser's request costs one binary search and no I/O on a warm isolate. No address, no
 * list loaded, or a stale list: not disguised (null), never an error.
 *
 * The address is Cloudflare's CF-Connecting-IP, which Cloudflare sets at its edge: a client
 * cannot choose it there (docs/security.md "Crawlers in disguise").
 */

import { classifyUserAgent, type AgentInfo } from "../../agents/classify.ts";
import { rangeUseOf } from "../../agents/operators/tables.ts";
import type { DisguiseFact } from "../../policy/edge-facts.ts";
import type { EdgeContext } from "../edge/context.ts";
import type { AddressIndex } from "../../agents/address-intervals.ts";
import { crawlerOnlyIndex, crawlerOnlyIndexInMemory } from "./crawler-ranges.ts";

/**
 * The crawler-only list holding the request's address, with the crawler it names; null for none.
 * Synchronous when the isolate holds the compiled lists (the common case), a promise otherwise.
 */
export function disguiseOf(
  edge: Pick<EdgeContext, "request" | "env">,
): DisguiseFact | null | Promise<DisguiseFact | null> {
  const address = edge.request.headers.get("cf-connecting-ip");
  const warm = crawlerOnlyIndexInMemory();
  if (warm) return disguiseIn(warm, address);
  return disguiseOfAddress(edge.env.ROBOTS, address);
}

/** The same for an address given (admin explain's `ip=`): the stored lists, no fetch. */
export async function disguiseOfAddress(kv: KVNamespace, address: string | null): Promise<DisguiseFact | null> {
  if (!address) return null;
  return disguiseIn(await crawlerOnlyIndex(kv), address);
}

function disguiseIn(index: AddressIndex, address: string | null): DisguiseFact | null {
  if (!address) return null;
  const source = index.lookup(address);
  const crawler = source === undefined ? undefined : rangeUseOf(source)?.crawler;
  return source === undefined || crawler === undefined ? null : { source, agent: agentOf(crawler) };
}

const AGENTS = new Map<string, AgentInfo>();

/** The crawler as its own User-Agent would classify it (a handful of tokens, kept once each). */
function agentOf(token: string): AgentInfo {
  let agent = AGENTS.get(token);
  if (!agent) {
    agent = classifyUserAgent(token);
    AGENTS.set(token, agent);
  }
  return agent;
}
