/**
 * The schema check of every record the edge keeps in KV (store.ts reads each through one of
 * these): the stored text in, the value this release uses or the cause it cannot. Pure, no KV.
 *
 * A record may be anything by the time it is read: edited by hand (`wrangler kv key put`),
 * cut short, written by an older release or, after a rollback, by a newer one. Whatever it is,
 * the check answers, never throws, and builds the value from the fields it checked (unknown
 * fields are dropped), so nothing downstream meets a shape it was not written for.
 *
 * Hand-written rather than a schema library (valibot, zod): five small shapes whose checks are
 * mostly the edge's own rules (a CIDR as ipaddr.js parses it, base64 bytes, the robots entry's
 * version, the authority in the key), which a library would only wrap in callbacks; the idiom
 * matches the rest of the project's validation (policy/validated.ts); and it adds no bytes to
 * the Worker but these checks (docs/decisions.md "Stored records" has the measured alternative).
 *
 * Schema markers: the robots entry has carried `version` since its first release (ENTRY_VERSION).
 * The other records carry `schema` from this release on (RECORD_SCHEMA; a record without one was
 * written before the marker and is read as schema 1). A marker other than the one this release
 * writes is "written by an older/newer release": read as absent, never guessed at.
 */

import type { CatalogueEntry, CatalogueFormat } from "../agents/catalogue.ts";
import { isCidr } from "../agents/verification.ts";
import { isCrawlerCategory } from "../vocabulary.ts";
import type { EntryState } from "../policy/judge.ts";
import { ENTRY_VERSION, type RobotsEntry, type StoredCopy } from "./robots/entry.ts";

/** The `schema` this release writes into pause, policy, crawler-ranges and signature directories. */
export const RECORD_SCHEMA = 1;

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly cause: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (cause: string): Checked<never> => ({ ok: false, cause });

/** The stored text as JSON, then checked; "not JSON", "empty" and every shape problem named. */
export function checkStoredText<T>(text: string, check: (json: unknown) => Checked<T>): Checked<T> {
  if (text.trim() === "") return bad("the stored value is empty");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return bad(`the stored value is not JSON (${message}): cut short or edited by hand`);
  }
  return check(json);
}

type Fields = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isTime = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isOptionalString = (value: unknown): value is string | undefined =>
  value === undefined || typeof value === "string";

/** The record's `schema` marker: absent or RECORD_SCHEMA is this release's; anything else is not. */
function schemaProblem(fields: Fields): string | undefined {
  const schema = fields["schema"];
  if (schema === undefined || schema === RECORD_SCHEMA) return undefined;
  if (typeof schema === "number" && schema > RECORD_SCHEMA) {
    return `written by a newer release (schema ${schema}; this release reads ${RECORD_SCHEMA})`;
  }
  return `written by an older release (schema ${JSON.stringify(schema)}; this release reads ${RECORD_SCHEMA})`;
}

function wrongShape(what: string): Checked<never> {
  return bad(`not the shape this release writes (${what}): edited by hand, or another release's record`);
}

// ---- robots:<authority> ----

const ENTRY_STATES: ReadonlySet<string> = new Set<EntryState>(["ok", "none", "unavailable"]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function checkRobotsEntry(json: unknown, authority: string): Checked<RobotsEntry> {
  if (!isObject(json)) return wrongShape("not an object");
  const { version, state, lastFetchAt, lastStatus, lastError, expiresAt } = json;
  if (typeof version === "number" && version > ENTRY_VERSION) {
    return bad(`written by a newer release (entry version ${version}; this release reads ${ENTRY_VERSION})`);
  }
  if (version !== ENTRY_VERSION) {
    return bad(
      `written by an older release (entry version ${JSON.stringify(version)}; this release reads ${ENTRY_VERSION})`,
    );
  }
  if (json["authority"] !== authority) return wrongShape(`"authority" is not ${authority}`);
  if (typeof state !== "string" || !ENTRY_STATES.has(state))
    return wrongShape('"state" is not ok, none or unavailable');
  if (!isTime(lastFetchAt) || !isTime(expiresAt)) return wrongShape('"lastFetchAt" or "expiresAt" is not a time');
  if (lastStatus !== undefined && typeof lastStatus !== "number") return wrongShape('"lastStatus" is not a number');
  if (!isOptionalString(lastError)) return wrongShape('"lastError" is not a string');
  // Since when the origin has failed with no copy (RFC 9309 §2.3.1.4's 30 days, robots/entry.ts).
  const { unavailableSince } = json;
  if (unavailableSince !== undefined && !isTime(unavailableSince)) {
    return wrongShape('"unavailableSince" is not a time');
  }
  const copy = json["copy"] === undefined ? ok(undefined) : checkCopy(json["copy"]);
  if (!copy.ok) return copy;
  return ok({
    version,
    authority,
    state: state as EntryState,
    copy: copy.value,
    lastFetchAt,
    lastStatus,
    lastError,
    expiresAt,
    ...(unavailableSince !== undefined && { unavailableSince }),
  });
}

function checkCopy(json: unknown): Checked<StoredCopy> {
  if (!isObject(json)) return wrongShape('"copy" is not an object');
  const { bodyBase64, model, fetchedAt, status, etag, lastModified } = json;
  if (typeof bodyBase64 !== "string" || !BASE64.test(bodyBase64)) return wrongShape('"copy.bodyBase64" is not base64');
  // The model may be of another schema version: modelOf re-parses the bytes then. It must be a string.
  if (typeof model !== "string") return wrongShape('"copy.model" is not a string');
  if (!isTime(fetchedAt) || typeof status !== "number") return wrongShape('"copy.fetchedAt" or "copy.status" missing');
  if (!isOptionalString(etag) || !isOptionalString(lastModified)) return wrongShape('"copy.etag" is not a string');
  return ok({ bodyBase64, model, fetchedAt, status, etag, lastModified });
}

// ---- pause ----

export interface StoredPause {
  readonly until: number;
  readonly retryAfter: number;
  readonly reason: string | undefined;
  readonly startedAt: number;
}

export function checkPause(json: unknown): Checked<StoredPause> {
  if (!isObject(json)) return wrongShape("not an object");
  const schema = schemaProblem(json);
  if (schema) return bad(schema);
  const { until, retryAfter, reason, startedAt } = json;
  if (!isTime(until) || !isTime(startedAt)) return wrongShape('"until" or "startedAt" is not a time');
  if (typeof retryAfter !== "number" || !Number.isSafeInteger(retryAfter) || retryAfter < 1) {
    return wrongShape('"retryAfter" is not a whole number of seconds');
  }
  if (!isOptionalString(reason)) return wrongShape('"reason" is not a string');
  return ok({ until, retryAfter, reason, startedAt });
}

// ---- crawler-ranges ----

export interface StoredRangeList {
  readonly fetchedAt: number;
  readonly cidrs: readonly string[];
}

export interface StoredRangeAttempt {
  readonly at: number;
  readonly error: string | null;
  readonly url?: string;
}

export interface CheckedRanges {
  readonly sources: Readonly<Record<string, StoredRangeList>>;
  readonly attempts?: Readonly<Record<string, StoredRangeAttempt>>;
}

export function checkRanges(json: unknown): Checked<CheckedRanges> {
  if (!isObject(json)) return wrongShape("not an object");
  const schema = schemaProblem(json);
  if (schema) return bad(schema);
  if (!isObject(json["sources"])) return wrongShape('"sources" is not an object of lists');
  const sources: Record<string, StoredRangeList> = {};
  for (const [name, list] of Object.entries(json["sources"])) {
    if (!isObject(list) || !isTime(list["fetchedAt"]) || !Array.isArray(list["cidrs"])) {
      return wrongShape(`list ${JSON.stringify(name)} is not {fetchedAt, cidrs}`);
    }
    const cidrs: unknown[] = list["cidrs"];
    const refused = cidrs.find((cidr) => typeof cidr !== "string" || !isCidr(cidr));
    if (refused !== undefined)
      return wrongShape(`list ${JSON.stringify(name)} holds ${JSON.stringify(refused)}, not a CIDR`);
    sources[name] = { fetchedAt: list["fetchedAt"], cidrs: cidrs as string[] };
  }
  const attempts = json["attempts"];
  if (attempts === undefined) return ok({ sources });
  if (!isObject(attempts)) return wrongShape('"attempts" is not an object');
  const checkedAttempts: Record<string, StoredRangeAttempt> = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    if (!isObject(attempt) || !isTime(attempt["at"])) return wrongShape(`attempt ${JSON.stringify(name)} has no time`);
    const { error, url } = attempt;
    if (!(error === null || typeof error === "string") || !isOptionalString(url)) {
      return wrongShape(`attempt ${JSON.stringify(name)} is not {at, error, url}`);
    }
    checkedAttempts[name] = { at: attempt["at"], error, ...(url !== undefined && { url }) };
  }
  return ok({ sources, attempts: checkedAttempts });
}

// ---- crawler-catalogues ----

export interface StoredCatalogue {
  readonly fetchedAt: number;
  /** Where it was fetched from (the URL in force then). */
  readonly url: string;
  readonly format: CatalogueFormat;
  readonly entries: readonly CatalogueEntry[];
}

export interface CheckedCatalogues {
  readonly catalogues: Readonly<Record<string, StoredCatalogue>>;
  readonly attempts: Readonly<Record<string, StoredRangeAttempt>>;
}

const CATALOGUE_FORMATS: ReadonlySet<string> = new Set<CatalogueFormat>(["robots.json", "operators"]);

/** The record of the crawler catalogues (identity/catalogues.ts): each last good copy and each last attempt. */
export function checkCatalogues(json: unknown): Checked<CheckedCatalogues> {
  if (!isObject(json)) return wrongShape("not an object");
  const schema = schemaProblem(json);
  if (schema) return bad(schema);
  const { catalogues, attempts } = json;
  if (!isObject(catalogues) || !isObject(attempts)) return wrongShape('"catalogues" or "attempts" is not an object');
  const checked: Record<string, StoredCatalogue> = {};
  for (const [name, catalogue] of Object.entries(catalogues)) {
    if (!isObject(catalogue) || !isTime(catalogue["fetchedAt"]) || typeof catalogue["url"] !== "string") {
      return wrongShape(`catalogue ${JSON.stringify(name)} is not {fetchedAt, url, format, entries}`);
    }
    const { format, entries } = catalogue;
    if (typeof format !== "string" || !CATALOGUE_FORMATS.has(format) || !Array.isArray(entries)) {
      return wrongShape(`catalogue ${JSON.stringify(name)} has no format or entries`);
    }
    const list: unknown[] = entries;
    const refused = list.find((entry) => !isCatalogueEntry(entry));
    if (refused !== undefined) {
      return wrongShape(`catalogue ${JSON.stringify(name)} holds ${JSON.stringify(refused)}, not {token, category}`);
    }
    checked[name] = {
      fetchedAt: catalogue["fetchedAt"],
      url: catalogue["url"],
      format: format as CatalogueFormat,
      entries: list as CatalogueEntry[],
    };
  }
  const checkedAttempts: Record<string, StoredRangeAttempt> = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    if (!isObject(attempt) || !isTime(attempt["at"])) return wrongShape(`attempt ${JSON.stringify(name)} has no time`);
    const { error, url } = attempt;
    if (!(error === null || typeof error === "string") || !isOptionalString(url)) {
      return wrongShape(`attempt ${JSON.stringify(name)} is not {at, error, url}`);
    }
    checkedAttempts[name] = { at: attempt["at"], error, ...(url !== undefined && { url }) };
  }
  return ok({ catalogues: checked, attempts: checkedAttempts });
}

function isCatalogueEntry(entry: unknown): entry is CatalogueEntry {
  return (
    isObject(entry) &&
    typeof entry["token"] === "string" &&
    typeof entry["listedAs"] === "string" &&
    typeof entry["category"] === "string" &&
    isCrawlerCategory(entry["category"])
  );
}

// ---- signature-directory:<url> ----

export interface CheckedSignatureDirectory {
  readonly url: string;
  readonly json: unknown;
  readonly fetchedAt: number | undefined;
  readonly nextFetchAt: number;
  readonly lastError: string | undefined;
}

/** The directory's own JSON is checked where it is used (parseDirectory); here, the record around it. */
export function checkSignatureDirectory(json: unknown, url: string): Checked<CheckedSignatureDirectory> {
  if (!isObject(json)) return wrongShape("not an object");
  const schema = schemaProblem(json);
  if (schema) return bad(schema);
  const { fetchedAt, nextFetchAt, lastError } = json;
  if (json["url"] !== url) return wrongShape(`"url" is not ${url}`);
  if (!(fetchedAt === undefined || isTime(fetchedAt)) || !isTime(nextFetchAt)) {
    return wrongShape('"fetchedAt" or "nextFetchAt" is not a time');
  }
  if (!isOptionalString(lastError)) return wrongShape('"lastError" is not a string');
  return ok({ url, json: json["json"], fetchedAt, nextFetchAt, lastError });
}

// ---- policy ----

export interface CheckedPolicyVersion {
  readonly version: number;
  readonly savedAt: number;
  readonly text: string | null;
  /** `delete`: a host's policy removed (text null), only in a host's record. */
  readonly via: "put" | "rollback" | "delete";
  readonly from?: number;
  readonly saveId: string;
  /** Who saved it (the `X-Saved-By` header), when said. */
  readonly by?: string;
}

/** One kept version, or why it cannot be used; its number when it has one (for the listing). */
export type PolicyVersionRead =
  | { readonly ok: true; readonly value: CheckedPolicyVersion }
  | { readonly ok: false; readonly cause: string; readonly version: number | undefined };

export interface CheckedPolicy {
  /** Newest first, as stored; a version this release cannot read is kept with its cause. */
  readonly versions: readonly PolicyVersionRead[];
}

export function checkPolicy(json: unknown): Checked<CheckedPolicy> {
  if (!isObject(json)) return wrongShape("not an object");
  const schema = schemaProblem(json);
  if (schema) return bad(schema);
  if (!Array.isArray(json["versions"])) return wrongShape('"versions" is not a list');
  const versions: unknown[] = json["versions"];
  return ok({ versions: versions.map(checkPolicyVersion) });
}

function checkPolicyVersion(json: unknown): PolicyVersionRead {
  const version = isObject(json) && Number.isSafeInteger(json["version"]) ? (json["version"] as number) : undefined;
  const fail = (cause: string): PolicyVersionRead => ({ ok: false, cause, version });
  if (!isObject(json)) return fail("not an object");
  if (version === undefined || version < 1) return fail('"version" is not a whole number from 1');
  const { savedAt, text, via, from, saveId, by } = json;
  if (!isTime(savedAt)) return fail('"savedAt" is not a time');
  if (!(text === null || typeof text === "string")) return fail('"text" is neither a policy text nor null');
  if (via !== "put" && via !== "rollback" && via !== "delete") return fail('"via" is not put, rollback or delete');
  if (from !== undefined && !Number.isSafeInteger(from)) return fail('"from" is not a version');
  if (!isOptionalString(by)) return fail('"by" is not a name');
  return {
    ok: true,
    value: {
      version,
      savedAt,
      text,
      via,
      ...(from !== undefined && { from: from as number }),
      saveId: typeof saveId === "string" ? saveId : "",
      ...(by !== undefined && { by }),
    },
  };
}

// ---- policy-hosts: which hosts have a policy, and the newest version of each ----

/** One host's line in the index: what GET policies lists and what the request path compares. */
export interface PolicyIndexEntry {
  /** The newest saved version of the host's record (the default's line: 0 when KV holds none). */
  readonly version: number;
  readonly savedAt: number;
  readonly via: "put" | "rollback" | "delete";
  readonly by?: string;
  /** Whether that version holds a policy of the host's own (false: removed, judged by the next pattern or the default). */
  readonly own: boolean;
  /** That version's policy text, in characters (absent: saved by a release before the bound on all hosts' text). */
  readonly textLength?: number;
}

export interface CheckedPolicyIndex {
  /** The default's newest version (absent: saved by a release before the index, or never). */
  readonly default: PolicyIndexEntry | undefined;
  readonly hosts: ReadonlyMap<string, PolicyIndexEntry>;
}

export function checkPolicyIndex(json: unknown): Checked<CheckedPolicyIndex> {
  if (!isObject(json)) return wrongShape("not an object");
  const schema = schemaProblem(json);
  if (schema) return bad(schema);
  const hostsField = json["hosts"];
  if (!isObject(hostsField)) return wrongShape('"hosts" is not an object');
  const hosts = new Map<string, PolicyIndexEntry>();
  for (const [host, value] of Object.entries(hostsField)) {
    const entry = checkPolicyIndexEntry(value);
    if (!entry) return wrongShape(`the entry of ${JSON.stringify(host)} is not a version line`);
    hosts.set(host, entry);
  }
  const defaultField = json["default"];
  const defaultEntry = defaultField === undefined ? undefined : checkPolicyIndexEntry(defaultField);
  if (defaultField !== undefined && !defaultEntry) return wrongShape('"default" is not a version line');
  return ok({ default: defaultEntry, hosts });
}

/** One line of the index (also a host record's KV metadata), or undefined when it is not one. */
export function checkPolicyIndexEntry(json: unknown): PolicyIndexEntry | undefined {
  if (!isObject(json)) return undefined;
  const { version, savedAt, via, by, own, textLength } = json;
  // Version 0 only for the default: "KV holds no default record".
  if (!Number.isSafeInteger(version) || (version as number) < 0 || !isTime(savedAt)) return undefined;
  if (via !== "put" && via !== "rollback" && via !== "delete") return undefined;
  if (!isOptionalString(by) || typeof own !== "boolean") return undefined;
  if (textLength !== undefined && (!Number.isSafeInteger(textLength) || (textLength as number) < 0)) return undefined;
  return {
    version: version as number,
    savedAt,
    via,
    ...(by !== undefined && { by }),
    own,
    ...(textLength !== undefined && { textLength: textLength as number }),
  };
}

// ---- robots: key metadata ----

/** The listing's metadata of an entry, or undefined (then the entry itself is read when due). */
export function checkEntryMetadata(
  metadata: unknown,
): { readonly state: EntryState; readonly expiresAt: number } | undefined {
  if (!isObject(metadata) || !isTime(metadata["expiresAt"])) return undefined;
  const state = metadata["state"];
  return typeof state === "string" && ENTRY_STATES.has(state)
    ? { state: state as EntryState, expiresAt: metadata["expiresAt"] }
    : undefined;
}
