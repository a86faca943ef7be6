/**
 * The Cron Trigger: refresh expired origins (capped and paged, robots/cron-refresh.ts), the
 * crawler ranges, the crawler catalogues, and the trusted Web Bot Auth signers' key directories. One failing job never stops the others; every failure, a configuration
 * problem included, is logged.
 */

import { loadConfig } from "./config.ts";
import { refreshCatalogues } from "./identity/catalogues.ts";
import { refreshCrawlerRanges } from "./identity/crawler-ranges.ts";
import { refreshDueOrigins } from "./robots/cron-refresh.ts";
import { logConfigProblems, logError } from "./log.ts";
import { refreshSignatureDirectories } from "./identity/signature-directory.ts";
import { directoryOptions } from "./identity/verify-signature.ts";

export async function handleScheduled(
  _controller: ScheduledController,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  try {
    const { config, problems } = loadConfig(env);
    logConfigProblems(problems, Date.now());
    const work: Promise<unknown>[] = [refreshDueOrigins(env, config)];
    // The published lists serve verification and crawlers in disguise alike.
    if (config.verifyCrawlers !== "off" || config.disguisedCrawlers !== "off") {
      work.push(refreshCrawlerRanges(env.ROBOTS, { timeoutMs: config.fetchTimeoutMs, urls: config.crawlerRangeUrls }));
    }
    if (config.verifyCrawlers !== "off") work.push(refreshSignatureDirectories(directoryOptions({ config, env })));
    // Crawler catalogues give categories whatever VERIFY_CRAWLERS says: a catalogued claim is never verified.
    work.push(refreshCatalogues(env.ROBOTS, { timeoutMs: config.fetchTimeoutMs, urls: config.crawlerCatalogues }));
    ctx.waitUntil(Promise.allSettled(work));
    for (const result of await Promise.allSettled(work)) {
      if (result.status === "rejected") logError("cron", messageOf(result.reason));
    }
  } catch (error) {
    logError("cron", messageOf(error));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
