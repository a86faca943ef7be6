/**
 * One Durable Object per limiter (crawlRateKey): the only place that knows when that crawler
 * last came. One key per crawler keeps unrelated crawlers apart (no global bottleneck), and a
 * crawler's requests are serialised by its own object, which is what a rate limit needs.
 * State is kept in the object's storage, so an eviction between two requests of a slow
 * crawler (Crawl-delay: 60) forgets nothing; once the longest window of the limits it last
 * saw has passed, an alarm deletes the state (deleteAll), so objects for crawlers that never
 * come back cost nothing. The Worker passes its clock in, so tests control time.
 */

import { DurableObject } from "cloudflare:workers";
import ipaddr from "ipaddr.js";
import { isUserTriggered } from "../../agents/user-triggered.ts";
import { checkRate, type RateCheck, type RateLimits, type RateState } from "../../policy/crawl-rate.ts";

const STATE_KEY = "state";
/** Slack after the longest window before the state is dropped (clocks of Worker and object differ a little). */
const CLEANUP_SLACK_MS = 60_000;

interface StoredRate extends RateState {
  /** After this time (object clock) nothing in `recent` can matter: the state may go. */
  readonly keepUntil: number;
}

export class CrawlRate extends DurableObject {
  private state: StoredRate | undefined;

  /** Allow or refuse one request at `now` under `limits`; remembers allowed requests. */
  async check(limits: RateLimits, now: number): Promise<Pick<RateCheck, "allowed" | "retryAfter">> {
    this.state ??= (await this.ctx.storage.get<StoredRate>(STATE_KEY)) ?? { recent: [], keepUntil: 0 };
    const result = checkRate(this.state, limits, now);
    if (result.allowed) {
      const keepUntil = Date.now() + longestWindowMs(limits) + CLEANUP_SLACK_MS;
      this.state = { ...result.state, keepUntil };
      await this.ctx.storage.put(STATE_KEY, this.state);
      await this.ctx.storage.setAlarm(keepUntil);
    }
    return { allowed: result.allowed, retryAfter: result.retryAfter };
  }

  /** The state's last window has passed: delete everything this object stored. */
  override async alarm(): Promise<void> {
    const stored = this.state ?? (await this.ctx.storage.get<StoredRate>(STATE_KEY));
    if (stored && stored.keepUntil > Date.now()) {
      await this.ctx.storage.setAlarm(stored.keepUntil);
      return;
    }
    this.state = undefined;
    await this.ctx.storage.deleteAll();
  }
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
 *     one limiter for the product would let one user's fetch 429 every other's (issue 30).
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
