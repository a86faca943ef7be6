/**
 * The parsed model as JSON, for keeping in Workers KV and reviving without re-parsing.
 *
 * The envelope carries a schema version. A reader that meets another version refuses it
 * (TypeError), and the caller re-parses from the stored robots.txt bytes instead of
 * trusting a shape it does not know. Bump ROBOTS_SCHEMA_VERSION whenever model.ts changes
 * in a way an older reader would misread.
 */

import type { RobotsTxt } from "./model.ts";

/**
 * 2: groups carry typed usage lines (Content-Usage, Content-Signal).
 * 3: a group's agents include Google's reading of each user-agent line (`MJ12bot` -> `mj`).
 * 4: user-agent lines say where the record reading starts a new group (`recordAfter`), and
 *    rules the readings dispute carry an error (reading-disputed).
 * 5: a record break says how the record reading reads the record before it (`priorRecord`).
 */
export const ROBOTS_SCHEMA_VERSION = 5;

interface Envelope {
  readonly schema: number;
  readonly robots: RobotsTxt;
}

/** JSON text for a parsed file. */
export function serializeRobots(robots: RobotsTxt): string {
  const envelope: Envelope = { schema: ROBOTS_SCHEMA_VERSION, robots };
  return JSON.stringify(envelope);
}

/** The parsed file back from serializeRobots' JSON; throws TypeError on another schema. */
export function reviveRobots(json: string): RobotsTxt {
  const envelope: unknown = JSON.parse(json);
  if (!isObject(envelope) || envelope["schema"] !== ROBOTS_SCHEMA_VERSION) {
    const found = isObject(envelope) ? String(envelope["schema"]) : typeof envelope;
    throw new TypeError(`Cannot revive robots.txt model: expected schema ${ROBOTS_SCHEMA_VERSION}, got ${found}`);
  }
  const robots = envelope["robots"];
  if (!isObject(robots) || !Array.isArray(robots["groups"]) || !Array.isArray(robots["diagnostics"])) {
    throw new TypeError("Cannot revive robots.txt model: the envelope holds no groups and diagnostics");
  }
  return robots as unknown as RobotsTxt;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
