/**
 * The robots.txt in force when the live policy has purposes: the origin's copy compiled with
 * them (policy/purposes-robots.ts) into one file that /robots.txt serves AND the decision's
 * matcher reads, so what a compliant crawler is told and what the edge enforces cannot differ.
 *
 * Cost: the compilation is kept per (stored robots.txt, policy version): both are objects this
 * isolate keeps while they are current (robots/cache.ts, live-policy.ts), so a WeakMap keyed
 * on them compiles once per new copy or new version and costs a lookup per request after.
 */

import { parseRobotsTxt, serializeRobots, type RobotsTxt } from "../../core/index.ts";
import { enforcementMatcher } from "../../policy/path-spellings.ts";
import type { CompiledPolicy } from "../../policy/operator-policy.ts";
import { compilePurposes } from "../../policy/purposes-robots.ts";
import { generatedLineCount, withCitedLines } from "../../policy/served-lines.ts";
import type { LoadedRobots } from "./cache.ts";
import { ROBOTS_ENTRY_MAX_BYTES } from "../memory-budget.ts";
import { cappedMatcher, type CappedMatcher } from "./capped-matcher.ts";
import { compiledMatcherBytes } from "./compiled-weight.ts";
import { fromBase64, toBase64, type RobotsEntry } from "./entry.ts";

const compiled = new WeakMap<LoadedRobots, { readonly policy: CompiledPolicy; readonly served: LoadedRobots }>();

/** The robots.txt to serve and enforce: `robots` itself unless the policy has purposes. */
export function servedRobots(robots: LoadedRobots, policy: CompiledPolicy | undefined): LoadedRobots {
  if (!policy || !addsLines(policy)) return robots;
  const kept = compiled.get(robots);
  if (kept?.policy === policy) return kept.served;
  const served = compileServed(robots, policy, { capped: true });
  compiled.set(robots, { policy, served });
  return served;
}

/**
 * The served file when the purposes add lines to the origin's: its bytes, how many lines the
 * generated part takes, and its model numbered as every report cites it (policy/served-lines.ts:
 * origin lines by their origin number, generated line n as -n). Undefined: the origin's file is
 * served as it is.
 */
export function servedFile(
  entry: RobotsEntry,
  policy: CompiledPolicy | undefined,
): { readonly body: Uint8Array; readonly generatedLines: number; readonly model: RobotsTxt } | undefined {
  if (!policy || !addsLines(policy)) return undefined;
  const origin = originBytes(entry);
  if (origin === null) return undefined; // unavailable: 503 as before, nothing to add to
  const result = compilePurposes(origin, policy.policy.purposes ?? []);
  const licence = licenceLine(policy);
  if (!result.applied || result.generated + licence === "") return undefined;
  // The License line is generated line 1, before the purposes' lines: one numbering (served-lines.ts).
  const body = licence === "" ? result.body : concat(new TextEncoder().encode(licence), result.body);
  const generatedLines = generatedLineCount(licence + result.generated);
  return { body, generatedLines, model: withCitedLines(parseRobotsTxt(body), generatedLines) };
}

/** Whether the policy adds lines to the served robots.txt: purposes, or the opt-in RSL `License:` line. */
function addsLines(policy: CompiledPolicy): boolean {
  return policy.addsRobotsLines;
}

/**
 * RSL's `License:` line (policy/terms-licence.ts), only when the operator opts in
 * (`licence.robotsTxt`): Lighthouse counts it an unknown directive, so the default is the Link header.
 */
function licenceLine(policy: CompiledPolicy): string {
  const licence = policy.policy.licence;
  return licence?.robotsTxt ? `License: ${licence.url}\n` : "";
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(first.byteLength + second.byteLength);
  bytes.set(first);
  bytes.set(second, first.byteLength);
  return bytes;
}

/**
 * servedRobots without the cache: for a draft (replay), which must not evict the live one. The
 * live file (`capped`) is compiled within the cap as the origin's is (capped-matcher.ts, which
 * names the origin in GET status); an operator's draft is held to the same cap but names nothing
 * (it is not in force): a draft over it is judged "unavailable", as the edge would judge it once
 * deployed (judgedRobots), and is never compiled (attack 13, A13-4).
 */
export function compileServed(
  robots: LoadedRobots,
  policy: CompiledPolicy | undefined,
  { capped = false }: { readonly capped?: boolean } = {},
): LoadedRobots {
  const { entry } = robots;
  const file = servedFile(entry, policy);
  if (!file) return robots;
  const { model } = file;
  const copy = {
    bodyBase64: toBase64(file.body),
    model: serializeRobots(model),
    fetchedAt: entry.copy?.fetchedAt ?? entry.lastFetchAt,
    status: entry.copy?.status ?? 200,
    // The origin's validators describe the origin's bytes, not these.
    etag: undefined,
    lastModified: undefined,
  };
  const served: RobotsEntry = { ...entry, state: "ok", copy };
  // Capped as the origin's file is (capped-matcher.ts): over the cap, robots.txt is unavailable.
  let built: CappedMatcher | undefined;
  return {
    entry: served,
    matcher() {
      built ??= capped ? cappedMatcher(entry.authority, copy, model) : draftMatcher(model, copy.model.length);
      return built.matcher;
    },
    tooLarge: () => (built && "tooLarge" in built ? built.tooLarge : undefined),
  };
}

/** A draft's matcher within the cap, as cappedMatcher judges a live file, without naming a fault. */
function draftMatcher(model: RobotsTxt, modelLength: number): CappedMatcher {
  const bytes = compiledMatcherBytes(model, modelLength);
  return bytes > ROBOTS_ENTRY_MAX_BYTES
    ? { matcher: undefined, tooLarge: bytes }
    : { matcher: enforcementMatcher(model), bytes };
}

/**
 * The purposes' warnings against an origin's stored file (where they do not apply: a token the
 * origin's file names and lets in, an allow that cannot re-open a block, a file too large);
 * none without purposes or without a usable copy.
 */
export function purposesWarnings(entry: RobotsEntry, policy: CompiledPolicy | undefined): string[] {
  const purposes = policy?.policy.purposes;
  const origin = originBytes(entry);
  if (!purposes || purposes.length === 0 || origin === null) return [];
  return compilePurposes(origin, purposes)
    .notes.filter((note) => note.severity === "warning")
    .map((note) => note.message);
}

/** The origin's bytes in force; empty when it has no robots.txt; null when nothing is known. */
function originBytes(entry: RobotsEntry): Uint8Array | null {
  if (entry.state === "none") return new Uint8Array();
  if (entry.state === "ok" && entry.copy) return fromBase64(entry.copy.bodyBase64);
  return null;
}

/** A draft robots.txt (the page's editor) as if it were the origin's stored copy, within the same cap. */
export function draftLoaded(like: LoadedRobots | undefined, text: string, now: number): LoadedRobots {
  const bytes = new TextEncoder().encode(text);
  const model = parseRobotsTxt(bytes);
  const entry: RobotsEntry = {
    version: like?.entry.version ?? 1,
    authority: like?.entry.authority ?? "",
    state: "ok",
    copy: {
      bodyBase64: toBase64(bytes),
      model: serializeRobots(model),
      fetchedAt: now,
      status: 200,
      etag: undefined,
      lastModified: undefined,
    },
    lastFetchAt: now,
    lastStatus: 200,
    lastError: undefined,
    expiresAt: like?.entry.expiresAt ?? now,
  };
  // Held to the cap as a live file is (draftMatcher): over it, judged "unavailable" (A13-4).
  let built: CappedMatcher | undefined;
  return {
    entry,
    matcher() {
      built ??= draftMatcher(model, entry.copy?.model.length ?? 0);
      return built.matcher;
    },
    tooLarge: () => (built && "tooLarge" in built ? built.tooLarge : undefined),
  };
}
