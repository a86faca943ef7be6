/** POST pause and DELETE pause: a crawl pause started and ended from the admin API (../pause.ts keeps it). */

import { readBodyJson } from "./body.ts";
import { readPauseRequest, rememberPause, WARN_PAUSE_MINUTES } from "../pause.ts";
import { jsonResponse } from "../responses.ts";
import { deletePause, hasPause, writePause } from "../store.ts";
import { adminError, type AdminContext } from "./context.ts";

/** A pause body is `{"minutes", "retryAfter", "reason"}`, the reason at most 500 characters (6 bytes each when JSON-escaped). */
const MAX_PAUSE_BODY = 16_384;

export async function startPause(admin: AdminContext): Promise<Response> {
  const json = await readBodyJson(admin.request, MAX_PAUSE_BODY);
  if (!json.ok) return adminError(json.status, json.error);
  const validated = readPauseRequest(json.value, admin.config);
  if (!validated.ok) return adminError(400, validated.problems.join("; "), validated.problems);
  const request = validated.value;
  const now = Date.now();
  const pause = {
    until: now + request.minutes * 60_000,
    retryAfter: request.retryAfter ?? Math.min(request.minutes * 60, admin.config.retryAfterSeconds),
    reason: request.reason,
    startedAt: now,
  };
  await writePause(admin.kv, pause);
  rememberPause(pause);
  const warning =
    request.minutes > WARN_PAUSE_MINUTES
      ? "pauses longer than a day risk pages being dropped from search indexes (Google: 5xx for more than a couple of days)"
      : undefined;
  return jsonResponse({
    pause: { ...pause, untilIso: new Date(pause.until).toISOString() },
    ...(warning && { warning }),
  });
}

/**
 * End the stored pause. A PAUSE_UNTIL pause lives in the config and cannot be ended here: the
 * answer says it remains (and until when) instead of "ended" while crawlers still get 503.
 */
export async function endPause(admin: AdminContext): Promise<Response> {
  // Whatever the key holds, readable or not, is deleted (never read first: a value that cannot be read must not block its own repair).
  const stored = (await hasPause(admin.kv)) ? true : undefined;
  await deletePause(admin.kv);
  rememberPause(undefined);
  const now = Date.now();
  const { pauseUntil } = admin.config;
  if (pauseUntil !== undefined && pauseUntil > now) {
    return jsonResponse({
      ended: false,
      deletedStoredPause: stored !== undefined,
      pause: { reason: "PAUSE_UNTIL", until: pauseUntil, untilIso: new Date(pauseUntil).toISOString() },
      warning:
        "crawlers still get 503: PAUSE_UNTIL is set in the Worker's vars (wrangler.toml [vars]); remove it and deploy to end that pause",
    });
  }
  return jsonResponse({ ended: true, deletedStoredPause: stored !== undefined, pause: null });
}
