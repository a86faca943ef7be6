// Recording one request's activity as the request path does (recordActivity), against a test's
// own ActivityLog namespace: for the tests of the flush chain (activity-flush, attack-session10-flush).
import type { ActivityEvent } from "../../src/policy/activity.ts";
import { recordActivity } from "../../src/worker/activity/recorder.ts";
import type { EdgeContext } from "../../src/worker/edge/context.ts";

/** Record `event` for `origin`, its flush work running on its own (as waitUntil lets it). */
export function recordOn(namespace: unknown, origin: string, event: ActivityEvent): void {
  const edge = {
    authority: origin,
    config: { recordActivity: true },
    env: { ACTIVITY: namespace },
    ctx: { waitUntil: (work: Promise<unknown>) => void work.catch(() => undefined) },
  } as unknown as EdgeContext;
  recordActivity(edge, event);
}
