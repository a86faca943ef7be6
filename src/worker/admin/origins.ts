/** The origins the admin API acts on: which it accepts, their fetch state, refresh, view, forget. */

import { invalid, valid, type Validated } from "../../policy/validated.ts";
import { refreshCrawlerRanges } from "../identity/crawler-ranges.ts";
import { identitySources } from "../identity/sources.ts";
import { jsonResponse } from "../responses.ts";
import { authorityOf, hostOfAuthority, isExistingAuthority } from "../robots/authorities.ts";
import { forgetRobots, isUnsaved, refresh, type LoadedRobots } from "../robots/cache.ts";
import { fetchWarning, fromBase64, modelOf } from "../robots/entry.ts";
import { hasEntry, readEntry } from "../store.ts";
import { policyInForce } from "../live-policy.ts";
import { servedFile } from "../robots/purposes-served.ts";
import { adminError, problemResponse, type AdminContext } from "./context.ts";

export function originStatus(robots: LoadedRobots, now: number) {
  const { entry } = robots;
  const model = entry.copy ? storedModel(entry.copy.model) : undefined;
  const diagnostics = model?.robots?.diagnostics ?? [];
  const count = (severity: string) => diagnostics.filter((diagnostic) => diagnostic.severity === severity).length;
  return {
    authority: entry.authority,
    state: entry.state,
    lastFetchAt: new Date(entry.lastFetchAt).toISOString(),
    lastStatus: entry.lastStatus ?? null,
    lastError: entry.lastError ?? null,
    copyFetchedAt: entry.copy ? new Date(entry.copy.fetchedAt).toISOString() : null,
    ageSeconds: entry.copy ? Math.round((now - entry.copy.fetchedAt) / 1000) : null,
    expiresAt: new Date(entry.expiresAt).toISOString(),
    groups: model?.robots?.groups?.length ?? 0,
    diagnostics: { error: count("error"), warning: count("warning"), info: count("info") },
    warning: fetchWarning(entry) ?? null,
    // Where the readings of the file disagree (core/readings.ts): errors naming the crawlers, the line and the fix.
    readings: diagnostics
      .filter((diagnostic) => diagnostic.code === "reading-disputed")
      .map(({ line, message }) => ({ line: line ?? 0, message: message ?? "" })),
  };
}

/** The stored model's counts; one that is not JSON (another release's, a hand edit) counts nothing. */
function storedModel(text: string): {
  robots?: { groups?: unknown[]; diagnostics?: { severity: string; code?: string; line?: number; message?: string }[] };
} {
  try {
    const model: unknown = JSON.parse(text);
    const robots = typeof model === "object" && model !== null ? (model as { robots?: unknown }).robots : undefined;
    if (typeof robots !== "object" || robots === null) return {};
    const { groups, diagnostics } = robots as { groups?: unknown; diagnostics?: unknown };
    return {
      robots: {
        ...(Array.isArray(groups) && { groups }),
        ...(Array.isArray(diagnostics) && {
          diagnostics: diagnostics.filter(
            (item): item is { severity: string; code?: string; line?: number; message?: string } =>
              typeof item === "object" &&
              item !== null &&
              typeof (item as { severity?: unknown }).severity === "string",
          ),
        }),
      },
    };
  } catch {
    return {};
  }
}

/**
 * The `origin` parameter (or this request's own authority) as an origin the admin API may act
 * on: an absolute http(s) URL (400 otherwise) of an existing authority (404 otherwise).
 */
export async function existingOrigin(
  admin: AdminContext,
  given: string | null,
): Promise<Validated<string> & { status?: number }> {
  const origin = originOf(given ?? admin.authority);
  if (!origin.ok) return { ...origin, status: 400 };
  if (!(await isExistingAuthority(admin.config, admin.kv, origin.value))) {
    return {
      ...invalid([
        `${origin.value} is not an origin this edge serves: ${admin.config.originUrl ? `proxy mode serves only ${admin.config.originUrl.origin}` : "route mode serves the hosts in AUTHORITIES, or without it the hosts requests have already come for"}`,
      ]),
      status: 404,
    };
  }
  return origin;
}

/** An absolute http(s) URL's origin; anything else is a problem. */
export function originOf(text: string): Validated<string> {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return invalid([`expected an absolute http(s) URL such as https://example.com, got ${JSON.stringify(text)}`]);
  }
  return valid(authorityOf(url));
}

/** POST refresh: an origin's robots.txt, or with `sources=ranges` the published crawler lists. */
export async function refreshNow(admin: AdminContext): Promise<Response> {
  const sources = admin.url.searchParams.get("sources");
  if (sources !== null) {
    if (sources !== "ranges") return adminError(400, `sources must be "ranges", got ${JSON.stringify(sources)}`);
    return refreshRangesNow(admin);
  }
  const origin = await existingOrigin(admin, admin.url.searchParams.get("origin"));
  if (!origin.ok) return problemResponse(origin);
  const robots = await refresh(origin.value, admin.kv, admin.config, await readEntry(admin.kv, origin.value));
  const status = originStatus(robots, Date.now());
  if (isUnsaved(origin.value)) {
    // Fetched and in force on this isolate, but KV refused the write: said as a 503.
    return jsonResponse(
      {
        error: `the store refused to write robots:${origin.value}: the fetched robots.txt is in force on this isolate only, until it expires; try again shortly`,
        origin: { ...status, unsaved: true },
      },
      503,
    );
  }
  return jsonResponse(status);
}

/**
 * The published lists fetched now, from the addresses in force (CRAWLER_RANGES or the
 * operators'), never from one a request names; answers what GET status shows of them.
 */
async function refreshRangesNow(admin: AdminContext): Promise<Response> {
  const { config } = admin;
  await refreshCrawlerRanges(admin.kv, { timeoutMs: config.fetchTimeoutMs, urls: config.crawlerRangeUrls });
  return jsonResponse(await identitySources(admin.kv, config, Date.now()));
}

/**
 * The robots.txt in force for an origin as text, with its groups and diagnostics (for the page).
 * With purposes in force that is the served file (robots/purposes-served.ts): `text` is what
 * /robots.txt serves and the edge enforces, its first `generatedLines` lines generated, the
 * rest the origin's file (`originText`). Lines are as every report cites them
 * (policy/served-lines.ts): groups' lines from the served file so numbered, diagnostics the
 * origin file's own (by origin line).
 */
export async function robotsView(admin: AdminContext): Promise<Response> {
  const param = originOf(admin.url.searchParams.get("origin") ?? admin.authority);
  if (!param.ok) return problemResponse(param);
  const origin = param.value;
  const entry = await readEntry(admin.kv, origin);
  if (!entry) return adminError(404, `no robots.txt stored for ${origin} yet; POST refresh first`);
  const robots = entry.copy ? modelOf(entry.copy) : undefined;
  const originText = entry.copy ? new TextDecoder().decode(fromBase64(entry.copy.bodyBase64)) : null;
  const served = servedFile(entry, (await policyInForce(admin.kv, admin.config, hostOfAuthority(origin))).compiled);
  return jsonResponse({
    status: originStatus({ entry, matcher: () => undefined }, Date.now()),
    inForce: entry.state === "ok",
    text: served ? new TextDecoder().decode(served.body) : originText,
    originText,
    generatedLines: served?.generatedLines ?? 0,
    groups: ((served?.model ?? robots)?.groups ?? []).map((group) => ({
      agents: group.agents,
      lines: group.agentLines.map((agentLine) => agentLine.line),
      rules: group.rules.length,
    })),
    diagnostics: robots?.diagnostics ?? [],
    sitemaps: robots?.sitemaps ?? [],
  });
}

/** Forget an origin's stored robots.txt (an authority that should not be there, or a fresh start). */
export async function deleteOrigin(admin: AdminContext): Promise<Response> {
  const given = admin.url.searchParams.get("origin");
  if (given === null) return adminError(400, "DELETE origin needs ?origin=<absolute http(s) URL>");
  const origin = originOf(given);
  if (!origin.ok) return problemResponse(origin);
  // Whatever the key holds, readable or not, is deleted.
  const existed = await hasEntry(admin.kv, origin.value);
  await forgetRobots(origin.value, admin.kv);
  if (!existed) return adminError(404, `no robots.txt stored for ${origin.value}`);
  return jsonResponse({ deleted: origin.value });
}
