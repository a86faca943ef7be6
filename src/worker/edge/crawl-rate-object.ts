/**
 * One Durable Object per limiter (crawlRateKey): the only place that knows when that crawler
 * last came. One key per crawler keeps unrelated crawlers apart (no global bottleneck), and a
 * crawler's requests are serialised by its own object, which is what a rate limit needs.
 * State is kept in the object's storage, so an eviction between two requests of a slow
 * crawler (Crawl-delay: 60) forgets nothing; once the longest window of the limits it last
 * saw has passed, an alarm deletes the state (deleteAll), so objects for crawlers that never
 * come back cost nothing. The Worker passes its clock in, so tests control time.
 *
 * Our failure is never the visitor's: the stored state is read through its validated
 * reader (storedRate: not the shape this version writes -> absent, logged, and a problem in the
 * answer, which the Worker notes for GET status); a storage write that fails leaves the
 * decision made in memory standing (the limiter still limits while the object lives) and is a
 * problem, never an exception in the crawler's request. A reset object starts from nothing:
 * at worst one request more than the rate, never a refusal of ours.
 */

import { DurableObject } from "cloudflare:workers";
import ipaddr from "ipaddr.js";
import { isUserTriggered } from "../../agents/user-triggered.ts";
import {
  checkRate,
  MAX_ENFORCED_RATES,
  MAX_STORED_TIMES,
  type RateBucket,
  type RateCheck,
  type RateLimits,
  type RateState,
} from "../../policy/crawl-rate.ts";
import { logError } from "../log.ts";

const STATE_KEY = "state";
/** Slack after the longest window before the state is dropped (clocks of Worker and object differ a little). */
const CLEANUP_SLACK_MS = 60_000;
// A stored state holds at most MAX_STORED_TIMES request times and MAX_ENFORCED_RATES buckets:
// checkRate never keeps more, whatever a robots.txt line asks (crawl-rate.ts bounds them), so
// a longer one is not a state this version writes.

interface StoredRate extends RateState {
  /** After this time (object clock) nothing in `recent` can matter: the state may go. */
  readonly keepUntil: number;
}

/** What `check` answers: the decision, and the object's problems with its storage (none: all well). */
export interface RateAnswer extends Pick<RateCheck, "allowed" | "retryAfter"> {
  readonly problems: string[];
}

export class CrawlRate extends DurableObject {
  private state: StoredRate | undefined;
  /** Problems with this object's storage, until a read or write works again. */
  private readProblem: string | undefined;
  private writeProblem: string | undefined;

  /** Allow or refuse one request at `now` under `limits`; remembers allowed requests. */
  async check(limits: RateLimits, now: number): Promise<RateAnswer> {
    this.state ??= await this.storedState();
    const result = checkRate(this.state, limits, now);
    if (result.allowed) {
      const keepUntil = Date.now() + longestWindowMs(limits) + CLEANUP_SLACK_MS;
      this.state = { ...result.state, keepUntil };
      try {
        await this.ctx.storage.put(STATE_KEY, this.state);
        await this.ctx.storage.setAlarm(keepUntil);
        this.writeProblem = undefined;
      } catch (error) {
        this.writeProblem = `storage refused the rate state (${String(error)}): kept in memory, written with the next request`;
        logError("rate", this.writeProblem);
      }
    }
    const problems = [this.readProblem, this.writeProblem].filter((problem) => problem !== undefined);
    return { allowed: result.allowed, retryAfter: result.retryAfter, problems };
  }

  /** The stored state through its validated reader; a state it cannot read is absent (and a problem). */
  private async storedState(): Promise<StoredRate> {
    const empty = { recent: [], keepUntil: 0 };
    let value: unknown;
    try {
      value = await this.ctx.storage.get(STATE_KEY);
    } catch (error) {
      this.readProblem = `storage could not read the rate state (${String(error)}): started afresh`;
      logError("rate", this.readProblem);
      return empty;
    }
    if (value === undefined) return empty;
    const stored = storedRate(value);
    if (stored) {
      this.readProblem = undefined;
      return stored;
    }
    this.readProblem = `the stored rate state ${JSON.stringify(STATE_KEY)} is not the shape this version writes: treated as absent, replaced by the next allowed request`;
    logError("rate", this.readProblem);
    return empty;
  }

  /** The state's last window has passed: delete everything this object stored. */
  override async alarm(): Promise<void> {
    const stored = this.state ?? storedRate(await this.ctx.storage.get(STATE_KEY));
    if (stored && stored.keepUntil > Date.now()) {
      await this.ctx.storage.setAlarm(stored.keepUntil);
      return;
    }
    this.state = undefined;
    await this.ctx.storage.deleteAll();
  }
}

/** A stored rate state as this version writes it (request times and keepUntil), or undefined. */
export function storedRate(value: unknown): StoredRate | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { recent, buckets, keepUntil } = value as Record<string, unknown>;
  if (typeof keepUntil !== "number" || !Number.isFinite(keepUntil)) return undefined;
  if (!Array.isArray(recent) || recent.length > MAX_STORED_TIMES) return undefined;
  if (!recent.every((time) => typeof time === "number" && Number.isFinite(time))) return undefined;
  if (buckets === undefined) return { recent: recent as number[], keepUntil };
  const read = storedBuckets(buckets);
  return read && { recent: recent as number[], buckets: read, keepUntil };
}

/** The counted rates' buckets as checkRate writes them (at most MAX_ENFORCED_RATES), or undefined. */
function storedBuckets(value: unknown): Record<string, RateBucket> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ENFORCED_RATES) return undefined;
  const buckets: Record<string, RateBucket> = {};
  for (const [key, bucket] of entries) {
    if (bucket === null || typeof bucket !== "object") return undefined;
    const { tokens, at } = bucket as Record<string, unknown>;
    if (typeof tokens !== "number" || !Number.isFinite(tokens)) return undefined;
    if (typeof at !== "number" || !Number.isFinite(at)) return undefined;
    buckets[key] = { tokens, at };
  }
  return buckets;
}

function longestWindowMs(limits: RateLimits): number {
  return Math.max(limits.minIntervalMs, ...limits.rates.map((rate) => rate.ms));
}

/** Who a limiter is about, besides the origin and the robots.txt group. */
export interface RateSubject {
  /** The crawler table's token when the request names a known crawler (claimed or proven). */
  readonly knownToken: string | undefined;
  /** Whether the claim is proven (a verified address or a trusted signer's signature). */
  readonly proven: boolean;
  /** The client address (CF-Connecting-IP). */
  readonly address: string | null | undefined;
}

/**
 * The limiter's name: origin, group, and who.
 *   - A proven crawler: one limiter per group token (a group that names crawlers: the token
 *     comes from the site's robots.txt, so all of a crawler's variants share the pace the site
 *     asked of it), or per known token under `*` (crawler table: bounded).
 *   - A user-triggered fetcher (agents/user-triggered.ts: ChatGPT-User, Google's fetchers…),
 *     even proven, is paced per client network as below: its requests are many people's, and
 *     one limiter for the product would let one user's fetch 429 every other's.
 *   - An unproven claim is paced with its client network (IPv4 /24, IPv6 /48), never with the
 *     crawler it claims: else anyone sending SeznamBot's User-Agent once per Crawl-delay
 *     would keep the real SeznamBot on 429. Under a group naming crawlers: per group and
 *     network; under `*`: per known token and network, or per network alone for unknown
 *     tokens, no token and impostors (never per raw token, which is unbounded, and never one
 *     limiter shared by every anonymous client: one fast client would 429 all the others).
 */
export function crawlRateKey(authority: string, groupToken: string, subject: RateSubject): string {
  const group = groupToken.toLowerCase();
  const known = subject.knownToken?.toLowerCase();
  if (subject.proven && !isUserTriggered(subject.knownToken)) {
    if (group !== "*") return `${authority} ${group}`;
    if (known) return `${authority} * ${known}`;
  }
  const network = `net:${networkOf(subject.address)}`;
  if (group !== "*") return `${authority} ${group} ${network}`;
  return known ? `${authority} * ${known} ${network}` : `${authority} * ${network}`;
}

/** The /24 (IPv4) or /48 (IPv6) an address belongs to: one operator's neighbouring hosts. */
export function networkOf(address: string | null | undefined): string {
  if (!address || !ipaddr.isValid(address)) return "unknown";
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 reads as the IPv4 address
  if (parsed.kind() === "ipv4") return `${(parsed as ipaddr.IPv4).octets.slice(0, 3).join(".")}.0/24`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3).map((part) => part.toString(16));
  return `${parts.join(":")}::/48`;
}
