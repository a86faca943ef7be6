/**
 * The policy file of `robots-edge policy pull | plan | apply`: the default policy and the
 * per-host policies of one deployment, in the shape the POLICY var takes:
 *
 *   {"$schema": "…/policy-file.schema.json",
 *    "default": {"routes": […]},
 *    "hosts": {"shop.example": {"routes": […], "purposes": […]}, "*.blog.example": {…}}}
 *
 * Each policy is judged by the edge's own reader of this shape (parsePolicySet, the POLICY var's,
 * which runs parsePolicy, what PUT policy runs, on each), so a file that passes here is one the
 * edge accepts; schema/policy-file.schema.json says the same
 * for editors (test/cli/policy-schema.test.ts holds the two in agreement).
 *
 * Choices:
 *   - the file owns what it names: a host it leaves out, or a file without "default", is not
 *     touched by apply (plan lists it as not in the file). Removing a host's policy is not a
 *     file edit: it is a rollback in the admin API, on purpose (a typo cannot unset a tenant).
 *   - host names are written one way, as AUTHORITIES spells them (lower case, an IDN in its
 *     xn-- form, no port, no trailing dot): another spelling is refused with the one to write,
 *     never folded, so two keys can never name one host and a review reads what is applied.
 *   - bounds (docs/security.md, "The policy file"): the file is read up to MAX_POLICY_FILE_BYTES,
 *     at most MAX_FILE_HOSTS hosts, each policy at most MAX_POLICY_BYTES as apply sends it.
 */

import { canonicalHostName } from "../policy/host-names.ts";
import { MAX_POLICY_BYTES } from "../policy/operator-policy.ts";
import { parsePolicySet } from "../policy/policy-set.ts";
import { invalid, valid, type Validated } from "../policy/validated.ts";

/** Hosts one file may hold: the deployment size the edge is built and measured for. */
export const MAX_FILE_HOSTS = 1_000;
/** The largest file read: a thousand hosts of ordinary policies fit many times over. */
export const MAX_POLICY_FILE_BYTES = 8 * 1024 * 1024;
/** The schema's `$id`: a name, not an address (the project publishes no URL of its own). */
export const POLICY_FILE_SCHEMA_ID = "urn:robots-edge:schema:policy-file";
/**
 * The `$schema` pull writes: where editors find the schema from a file at the root of a clone
 * (npm ci links the package to itself as node_modules/robots-edge), or of any project that
 * installs robots-edge. Relative, so it works offline and names no host.
 */
export const POLICY_FILE_SCHEMA_PATH = "./node_modules/robots-edge/schema/policy-file.schema.json";

/** One policy of the file: the text apply sends (as PUT policy takes it) and the parsed document. */
export interface FilePolicy {
  readonly text: string;
  readonly document: unknown;
}

export interface PolicyFile {
  /** The default policy; undefined when the file does not name one (then it is not managed). */
  readonly default: FilePolicy | undefined;
  /** Per host, in the file's order. */
  readonly hosts: ReadonlyMap<string, FilePolicy>;
}

const TOP_LEVEL_KEYS = ["default", "hosts"];
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The file's text judged whole: the policies, or every problem, each naming where it is. The
 * edge's own reader of this shape (parsePolicySet, the POLICY var's) judges the policies; a file
 * is stricter than the var in three ways: a host entry with problems is an error, not dropped;
 * a host is written in its one spelling; a plain policy document is not a policy file.
 */
export function readPolicyFile(text: string): Validated<PolicyFile> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalid([`not JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  if (!isObject(value)) return invalid([SHAPE]);
  const { $schema: schema, ...rest } = value;
  const problems: string[] = [];
  for (const key of Object.keys(rest)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      problems.push(`${JSON.stringify(key)} is not a member of a policy file ($schema, ${TOP_LEVEL_KEYS.join(", ")})`);
    }
  }
  if (schema !== undefined && typeof schema !== "string") problems.push("$schema must be a string");
  if (problems.length > 0) return invalid(problems);
  if (Object.keys(rest).length === 0) return valid({ default: undefined, hosts: new Map() });
  const set = parsePolicySet(JSON.stringify(rest));
  if (!set.ok) return invalid(set.problems);
  // A host's policy problems, as the edge words them; its name is judged below, in the file's stricter way.
  problems.push(...set.value.hostProblems.filter((problem) => problem.startsWith("hosts.")));
  const hosts = readHosts(rest["hosts"], problems);
  const defaultPolicy = rest["default"] === undefined ? undefined : sized(rest["default"], "default", problems);
  if (problems.length > 0) return invalid(problems);
  return valid({ default: defaultPolicy, hosts });
}

const SHAPE = 'must be an object {"default": {…policy}, "hosts": {"<host>": {…policy}}}';

function readHosts(value: unknown, problems: string[]): Map<string, FilePolicy> {
  const hosts = new Map<string, FilePolicy>();
  if (!isObject(value)) return hosts;
  const names = Object.keys(value);
  if (names.length > MAX_FILE_HOSTS) {
    problems.push(`hosts names ${names.length} hosts; a policy file holds at most ${MAX_FILE_HOSTS}`);
    return hosts;
  }
  for (const name of names) {
    const where = `hosts.${name}`;
    const spelling = hostSpellingProblem(name);
    if (spelling) problems.push(`${where}: ${spelling}`);
    const policy = sized(value[name], where, problems);
    if (!spelling && policy) hosts.set(name, policy);
  }
  return hosts;
}

/** A policy (already judged by parsePolicySet) within PUT policy's size as apply will send it. */
function sized(document: unknown, where: string, problems: string[]): FilePolicy | undefined {
  const text = policyText(document);
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > MAX_POLICY_BYTES) {
    problems.push(`${where} is ${bytes} bytes as sent; a policy may be at most ${MAX_POLICY_BYTES} (PUT policy's cap)`);
    return undefined;
  }
  return { text, document };
}

/** The text a policy is sent and compared as: two-space JSON, so a diff reads line by line. */
export function policyText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Why a host key is not written as the edge keeps a host name, naming the spelling to use;
 * undefined when it is. The spelling is the edge's (canonicalHostName: lower case, an IDN as
 * xn--, no trailing dot, no :80 or :443; another port is part of the name); a file also holds
 * each label to what a site's name can be (letters, digits, inner "-"), so a typo such as
 * `shop..example` is caught here rather than as a host the edge does not serve.
 */
export function hostSpellingProblem(name: string): string | undefined {
  const canonical = canonicalHostName(name);
  const bare = canonical.ok ? canonical.value.replace(/^\*\./, "").replace(/:[1-9][0-9]*$/, "") : "";
  if (!canonical.ok || !bare.split(".").every((label) => LABEL.test(label))) {
    return 'not a host name (letters, digits and "-" in dot-separated labels, an optional "*." before them and ":port" after, no path)';
  }
  if (canonical.value !== name) {
    return `write it ${JSON.stringify(canonical.value)} (as the edge keeps host names: lower case, xn-- for an IDN, no trailing dot, no :80 or :443)`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
