/**
 * What changes between two JSON documents, member by member, as a reviewer reads a plan:
 *
 *   ~ routes[0].rules[0].action: "allow" -> "block"
 *   + routes[1]: {"pattern":"/x/","rules":[…]}
 *   - purposes
 *
 * Objects compare by member name, lists by position (a route inserted at the top shows every
 * later one changed: the order is the policy's, so that is a change too). Written here rather
 * than a text diff of the files: a policy is small, and a path names what changed.
 */

export interface DocumentChange {
  readonly kind: "added" | "removed" | "changed";
  /** Where, as `routes[0].rules[1].action`; "" for the document itself. */
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

export function diffDocuments(before: unknown, after: unknown, path = ""): DocumentChange[] {
  // null is "no policy": one with none gains a whole one, or loses it.
  if (path === "" && before === null && after !== null) return [{ kind: "added", path, after }];
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: DocumentChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      changes.push(
        ...diffMember(
          before as unknown[] as Record<number, unknown>,
          after as unknown[] as Record<number, unknown>,
          i,
          `${path}[${i}]`,
        ),
      );
    }
    return changes;
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return names.flatMap((name) => diffMember(before, after, name, memberPath(path, name)));
  }
  return sameJson(before, after) ? [] : [{ kind: "changed", path, before, after }];
}

function diffMember(
  before: Readonly<Record<string | number, unknown>>,
  after: Readonly<Record<string | number, unknown>>,
  key: string | number,
  path: string,
): DocumentChange[] {
  const had = Object.hasOwn(before, key);
  const has = Object.hasOwn(after, key);
  if (had && !has) return [{ kind: "removed", path, before: before[key] }];
  if (!had && has) return [{ kind: "added", path, after: after[key] }];
  return diffDocuments(before[key], after[key], path);
}

/** `a.b`, or `a["odd name"]` for a name that is not an identifier (a purposes entry's `search-engine`). */
function memberPath(path: string, name: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(name)) return path === "" ? name : `${path}.${name}`;
  return `${path}[${JSON.stringify(name)}]`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One change as a line: `~ path: before -> after`, `+ path: after`, `- path`. */
export function changeLine(change: DocumentChange): string {
  const where = change.path === "" ? "(the whole policy)" : change.path;
  switch (change.kind) {
    case "added":
      return `+ ${where}: ${JSON.stringify(change.after)}`;
    case "removed":
      return `- ${where}: ${JSON.stringify(change.before)}`;
    case "changed":
      return `~ ${where}: ${JSON.stringify(change.before)} -> ${JSON.stringify(change.after)}`;
  }
}
