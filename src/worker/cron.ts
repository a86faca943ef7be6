/**
 * The Cron Trigger: refresh expired origins (capped and paged, robots/cron-refresh.ts), the
 * crawler ranges, the crawler catalogues, and the trusted Web Bot Auth signers' key directories;
 * repair the host policy index. One failing job never stops the others; every failure, a configuration
 * problem included, is logged.
 */

import { loadConfig } from "./config.ts";
import { repairPolicyIndex } from "./live-policy.ts";
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
    work.push(repairIndex(env.ROBOTS));
    ctx.waitUntil(Promise.allSettled(work));
    for (const result of await Promise.allSettled(work)) {
      if (result.status === "rejected") logError("cron", messageOf(result.reason));
    }
  } catch (error) {
    logError("cron", messageOf(error));
  }
}

/** The host index rebuilt toward the policy records (live-policy.ts says why); a repair is logged, it means a save was lost. */
async function repairIndex(kv: KVNamespace): Promise<void> {
  const repaired = (await repairPolicyIndex(kv)).map((key) => key ?? "the default");
  if (repaired.length === 0) return;
  const named = repaired.slice(0, 10).join(", ") + (repaired.length > 10 ? `, and ${repaired.length - 10} more` : "");
  logError("cron", `the policy index had lost ${repaired.length} save(s) to simultaneous saves; repaired: ${named}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
