/**
 * What the request path keeps of one authority between requests, found with one Map read per
 * request: whether the edge serves it, its policy's host key, and the places where the live
 * policy (live-policy.ts PolicySlot) and the activity buffer (policy/activity-batch.ts
 * ActivitySlot) keep their last answer for it. Each of those modules reads its own Map only when
 * its place holds nothing it can still use, so its answers stay its own.
 *
 * Why one record: with 1,000 hosts in turn, each Map keyed by the host (the AUTHORITIES answer,
 * the policy's answer, the activity entry) was a few cache lines of that host's that the CPU no
 * longer held when the host came round again, and in `node --cpu-prof` each was among the
 * largest differences between 1,000 hosts and one (docs/operating.md "What it costs (per host)").
 *
 * Bounded: keyed by authority as the request names it (a `*.` entry or route mode without a list
 * lets clients invent them), so past MAX_HOST_MEMOS it starts again empty.
 */

import type { Config } from "../../config/read-config.ts";
import type { ActivitySlot } from "../../policy/activity-batch.ts";
import type { PolicySlot } from "../live-policy.ts";
import { hostOfAuthority, isServedAuthority } from "../robots/authorities.ts";

export interface HostMemo extends PolicySlot, ActivitySlot {
  /** The config it was judged under: a memo of another config is judged again. */
  readonly config: Config;
  /** Does the edge serve this authority (isServedAuthority)? */
  readonly served: boolean;
  /** Its policy's host key (hostOfAuthority): the same string each request. */
  readonly policyHost: string;
}

export const MAX_HOST_MEMOS = 4_096;
const memos = new Map<string, HostMemo>();

/** The memo of `authority` (as edgeContext wrote it) under `config`. */
export function hostMemo(config: Config, authority: string): HostMemo {
  const known = memos.get(authority);
  if (known !== undefined && known.config === config) return known;
  const memo: HostMemo = {
    config,
    served: isServedAuthority(config, authority),
    policyHost: hostOfAuthority(authority),
    policy: undefined,
    activity: undefined,
  };
  if (memos.size >= MAX_HOST_MEMOS) memos.clear();
  memos.set(authority, memo);
  return memo;
}

/** How many authorities are remembered (tests). */
export function hostMemoCount(): number {
  return memos.size;
}
