/**
 * One Durable Object per (origin, robots.txt group, crawler token): the only place that
 * knows when that crawler last came. One key per crawler keeps unrelated crawlers apart (no
 * global bottleneck), and a crawler's requests are serialised by its own object, which is
 * what a rate limit needs. State is kept in the object's storage, so an eviction between
 * two requests of a slow crawler (Crawl-delay: 60) forgets nothing. The Worker passes its
 * clock in, so tests control time.
 */

import { DurableObject } from "cloudflare:workers";
import { checkRate, type RateCheck, type RateLimits, type RateState } from "../policy/crawl-rate.ts";

const STATE_KEY = "state";

export class CrawlRate extends DurableObject {
  private state: RateState | undefined;

  /** Allow or refuse one request at `now` under `limits`; remembers allowed requests. */
  async check(limits: RateLimits, now: number): Promise<Pick<RateCheck, "allowed" | "retryAfter">> {
    this.state ??= (await this.ctx.storage.get<RateState>(STATE_KEY)) ?? { recent: [] };
    const result = checkRate(this.state, limits, now);
    if (result.allowed) {
      this.state = result.state;
      await this.ctx.storage.put(STATE_KEY, result.state);
    }
    return { allowed: result.allowed, retryAfter: result.retryAfter };
  }
}

/** The object's name: what one limiter is about. */
export function crawlRateKey(authority: string, groupToken: string, crawlerToken: string): string {
  return `${authority} ${groupToken} ${crawlerToken.toLowerCase()}`;
}
