/**
 * Web Bot Auth request verification (draft-meunier-web-bot-auth-architecture, the WG's
 * httpsig protocol draft) over HTTP Message Signatures (RFC 9421), pure: the caller passes the
 * request's parts, the clock and a key lookup; nothing here fetches.
 *
 * A request is verified when one signature labelled `tag="web-bot-auth"`:
 * - states `created`, `expires` and `keyid` (RFC 9421 §2.3), and is within them (±MAX_SKEW_SECONDS);
 * - spans no more than the configured window (`maxWindowSeconds`, SIGNATURE_MAX_WINDOW, default
 *   300 s) and was created no longer ago than that: a signature is a bearer token until it
 *   expires (httpsig-protocol-01, "Static Signatures"), so a window of years would replay on any path for years;
 * - covers `@authority` or `@target-uri`, so it cannot be replayed against another site;
 * - covers Signature-Agent whenever the request carries one, in either form: the dictionary
 *   form of the drafts (`sig1="https://agent.example"`, covered as `"signature-agent";key="sig1"`)
 *   or the legacy string (`"https://chatgpt.com"`, covered as `"signature-agent"`);
 * - names a signer URL the trust table holds (signer-url.ts), whose key set has the key
 *   `keyid`: keys are looked up by the pair (URL, keyid), never by keyid alone (-01, "Validating Message Signature").
 *   A key we do not hold (the set could not be fetched, or lacks `keyid`: a rotation after we
 *   cached it) is `unverifiable`, never failed: our failure to get a key refutes nothing
 *   (the caller judges the request as if it were unsigned);
 * - and verifies with that key (Ed25519, or RSA-PSS-SHA512) over the signature base we rebuild.
 *
 * Choices where the drafts leave room:
 * - Only a parseable web-bot-auth signature is a claim: a Signature-Input that is no
 *   structured dictionary, has no member tagged web-bot-auth, or a Signature with no byte
 *   sequence under that label is `absent`, not failed. A client could as well have left the
 *   headers out, so treating it as absent grants nothing, while calling it a failed signer
 *   would turn a person whose browser sends junk headers into a refused bot.
 * - With several web-bot-auth labels, the first decides (the drafts send one).
 * - A signature made for another authority is indistinguishable from a tampered one: the
 *   authority is covered, not transmitted, so both fail as `bad-signature`.
 * - A request without Signature-Agent names no directory; we do not try every trusted
 *   directory for its keyid, so it fails as `malformed`.
 */

import { isInnerList, parseDictionary, parseItem, serializeInnerList, serializeItem } from "structured-headers";
import type { Dictionary, InnerList, Item, Parameters } from "structured-headers";
import type { DirectoryKey } from "./directory.ts";
import { signerUrlOf } from "./signer-url.ts";
import { parseUrl, type UrlParts } from "./url.ts";
import {
  base64,
  base64url,
  importPublicKey,
  sha256,
  verifySignatureBytes,
  type CryptoKeyHandle,
} from "./web-crypto.ts";

/** Clock difference tolerated on `created` and `expires`, in seconds. */
export const MAX_SKEW_SECONDS = 60;
/** The default longest signature window (expires - created), and oldest `created`, in seconds. */
const DEFAULT_MAX_WINDOW_SECONDS = 300;
const WEB_BOT_AUTH_TAG = "web-bot-auth";

/** Why a signature verified nothing. */
export type SignatureFailure =
  | "malformed"
  | "missing-component"
  | "expired"
  | "future"
  | "window-too-long"
  | "untrusted-signer"
  | "unknown-key"
  | "unsupported-algorithm"
  | "bad-signature";

export type SignatureOutcome =
  | { readonly status: "absent" }
  | {
      readonly status: "verified";
      readonly signer: string;
      readonly keyid: string;
      /** What makes this one use: signer and `nonce`, else signer, bytes and request target (bounded). */
      readonly reuseKey: string;
      /** Seconds since the epoch: the signature is worth remembering until then (plus the skew). */
      readonly expires: number;
      /** What the signer committed to: the covered components and the signature over them (a charge's proof, policy/terms-price.ts). */
      readonly commitment: SignedCommitment;
    }
  /** A trusted signer's key we do not hold (its set failed, or lacks `keyid`): nothing proven, nothing refuted. */
  | { readonly status: "unverifiable"; readonly signer: string; readonly keyid: string; readonly detail: string }
  | { readonly status: "failed"; readonly why: SignatureFailure; readonly detail: string; readonly signer?: string };

/**
 * A verified signature as evidence the signer can be held to: the component names it covered
 * (lowercase, `"crawler-max-price"`), the RFC 9421 signature base we rebuilt and verified, and
 * the signature (base64). Bounded: each field of the request was at most
 * MAX_SIGNATURE_FIELD_CHARS, and the base is what those fields and the covered header values make.
 */
export interface SignedCommitment {
  readonly keyid: string;
  readonly covered: readonly string[];
  readonly base: string;
  readonly signature: string;
}

/** The parts of the request a signature can cover. */
export interface SignedRequest {
  readonly method: string;
  /** The absolute request URL (its authority is `@authority`). */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

export interface VerifyOptions {
  /** Now, in milliseconds since the epoch. */
  readonly now: number;
  /** Longest accepted `expires - created`, and oldest accepted `created`, in seconds (default 300). */
  readonly maxWindowSeconds?: number;
  /** Is this signer URL in the trust table? Asked before any key lookup. */
  readonly isTrusted: (signerUrl: string) => boolean;
  /** The trusted signer's key with this thumbprint, from its (cached) key set: the pair (URL, keyid). */
  readonly lookupKey: (
    signerUrl: string,
    keyid: string,
  ) => Promise<DirectoryKey | undefined> | DirectoryKey | undefined;
}

class Failure extends Error {
  readonly why: SignatureFailure;
  readonly signer: string | undefined;
  constructor(why: SignatureFailure, message: string, signer?: string) {
    super(message);
    this.why = why;
    this.signer = signer;
  }
}

/**
 * The longest Signature-Input, Signature and Signature-Agent read, in characters. A real one is a
 * few hundred (an RSA-PSS signature ~700); a longer field is not parsed at all and makes no
 * claim (absent, as unparseable junk does): parsing a 110 KB field cost ~65 ms per request
 *. docs/operating.md "Limits"; bench/web-bot-auth.bench.ts.
 */
export const MAX_SIGNATURE_FIELD_CHARS = 4096;

/** Verify a request's Web Bot Auth signature. Never throws for anything the request carries. */
export async function verifyWebBotAuth(request: SignedRequest, options: VerifyOptions): Promise<SignatureOutcome> {
  const signatureField = request.headers.get("signature");
  const inputField = request.headers.get("signature-input");
  if (signatureField === null && inputField === null) return { status: "absent" };
  // Bounded before any parse: no client buys our CPU with a huge field.
  const agentField = request.headers.get("signature-agent");
  if ([signatureField, inputField, agentField].some((field) => (field?.length ?? 0) > MAX_SIGNATURE_FIELD_CHARS)) {
    return { status: "absent" };
  }
  try {
    return await verifyFields(request, signatureField ?? "", inputField ?? "", options);
  } catch (error) {
    if (error instanceof Failure) {
      return { status: "failed", why: error.why, detail: error.message, ...(error.signer && { signer: error.signer }) };
    }
    return { status: "failed", why: "malformed", detail: (error as Error).message };
  }
}

async function verifyFields(
  request: SignedRequest,
  signatureField: string,
  inputField: string,
  options: VerifyOptions,
): Promise<SignatureOutcome> {
  const claim = webBotAuthClaim(signatureField, inputField);
  if (claim === undefined) return { status: "absent" };
  const { input, signature } = claim;
  const params = signatureParams(input[1], options.now, options.maxWindowSeconds ?? DEFAULT_MAX_WINDOW_SECONDS);
  const components = input[0];
  const signer = signerUrl(request, components);
  if (!options.isTrusted(signer)) throw new Failure("untrusted-signer", `${signer} is not a trusted signer`, signer);
  const key = await options.lookupKey(signer, params.keyid);
  if (key === undefined) {
    return {
      status: "unverifiable",
      signer,
      keyid: params.keyid,
      detail: `no key ${params.keyid} of ${signer} at hand`,
    };
  }
  checkKey(key, params, options.now / 1000, signer);
  const base = signatureBase(request, components, serializeInnerList(input));
  const valid = await verifySignatureBytes(
    key.algorithm,
    await importedKey(key),
    new Uint8Array(signature),
    new TextEncoder().encode(base),
  );
  if (!valid) throw new Failure("bad-signature", "the signature does not match this request", signer);
  return {
    status: "verified",
    signer,
    keyid: params.keyid,
    reuseKey: await reuseKeyOf(signer, params, signature, request),
    expires: params.expires,
    commitment: {
      keyid: params.keyid,
      covered: components.map(([name]) => String(name).toLowerCase()),
      base,
      signature: base64(new Uint8Array(signature)),
    },
  };
}

/**
 * The web-bot-auth signature the request carries, or undefined when it carries none we can
 * read: Signature-Input a dictionary with a member tagged web-bot-auth (the first decides),
 * and Signature a dictionary holding a byte sequence under the same label.
 */
function webBotAuthClaim(
  signatureField: string,
  inputField: string,
): { readonly input: InnerList; readonly signature: ArrayBuffer } | undefined {
  const inputs = parseQuietly(inputField);
  const label = inputs && [...inputs.keys()].find((name) => tagOf(inputs.get(name)) === WEB_BOT_AUTH_TAG);
  if (inputs === undefined || label === undefined) return undefined;
  const bytes = parseQuietly(signatureField)?.get(label)?.[0];
  if (!(bytes instanceof ArrayBuffer)) return undefined;
  return { input: inputs.get(label) as InnerList, signature: bytes };
}

function parseQuietly(value: string): Dictionary | undefined {
  try {
    return parseDictionary(value);
  } catch {
    return undefined;
  }
}

function parseField(value: string, name: string): Dictionary {
  try {
    return parseDictionary(value);
  } catch (error) {
    throw new Failure("malformed", `${name} is not a structured-field dictionary: ${(error as Error).message}`);
  }
}

function tagOf(member: Item | InnerList | undefined): unknown {
  return member !== undefined && isInnerList(member) ? member[1].get("tag") : undefined;
}

interface SignatureParams {
  readonly keyid: string;
  readonly alg: unknown;
  readonly expires: number;
  readonly nonce: string | undefined;
}

/**
 * RFC 9421 §7.2.2: a nonce names one use. Without one, the signature bytes together with the
 * request they came on do: Ed25519 is deterministic, so an honest agent signing two requests
 * to one authority in the same second (covering `@authority` alone, as the drafts allow)
 * sends the same bytes twice, and only a replay of the same request is a reuse we can tell
 * from that. Prefixed by the signer URL: two signers may pick the same nonce. The whole nonce
 * (or bytes and target) is keyed, hashed (SHA-256): a cut prefix once made distinct signed
 * requests sharing 128 characters of nonce a "reuse", and a hash keeps each
 * remembered use at one short string whatever the client sends.
 */
async function reuseKeyOf(
  signer: string,
  params: SignatureParams,
  signature: ArrayBuffer,
  request: SignedRequest,
): Promise<string> {
  if (params.nonce !== undefined) return `${signer} nonce:${await hashed(params.nonce)}`;
  const url = parseUrl(request.url);
  const target = `${request.method} ${url ? url.pathname + url.search : request.url}`;
  return `${signer} sig:${await hashed(`${base64url(new Uint8Array(signature))} ${target}`)}`;
}

async function hashed(text: string): Promise<string> {
  return base64url(await sha256(new TextEncoder().encode(text)));
}

function signatureParams(params: Parameters, now: number, maxWindowSeconds: number): SignatureParams {
  const created = params.get("created");
  const expires = params.get("expires");
  const keyid = params.get("keyid");
  if (typeof created !== "number" || !Number.isInteger(created)) throw new Failure("malformed", "no integer created");
  if (typeof expires !== "number" || !Number.isInteger(expires)) throw new Failure("malformed", "no integer expires");
  if (typeof keyid !== "string" || keyid === "") throw new Failure("malformed", "no keyid");
  if (expires <= created) throw new Failure("malformed", "expires is not after created");
  if (expires - created > maxWindowSeconds) {
    throw new Failure("window-too-long", `window of ${expires - created} s exceeds ${maxWindowSeconds} s`);
  }
  const nowSeconds = now / 1000;
  if (created > nowSeconds + MAX_SKEW_SECONDS) throw new Failure("future", `created ${created} is in the future`);
  if (expires < nowSeconds - MAX_SKEW_SECONDS) throw new Failure("expired", `expired at ${expires}`);
  if (created < nowSeconds - maxWindowSeconds - MAX_SKEW_SECONDS) {
    throw new Failure("expired", `created ${created} is older than ${maxWindowSeconds} s`);
  }
  const nonce = params.get("nonce");
  return { keyid, alg: params.get("alg"), expires, nonce: typeof nonce === "string" ? nonce : undefined };
}

function checkKey(key: DirectoryKey, params: SignatureParams, nowSeconds: number, signer: string): void {
  const outside = (key.notBefore ?? -Infinity) > nowSeconds || (key.notAfter ?? Infinity) < nowSeconds;
  if (outside) throw new Failure("unknown-key", `key ${key.keyid} is outside its nbf/exp`, signer);
  if (params.alg !== undefined && params.alg !== key.algorithm) {
    throw new Failure("unsupported-algorithm", `alg ${String(params.alg)} does not fit key ${key.keyid}`, signer);
  }
}

/**
 * The signer URL the signature names, through the Signature-Agent member it covers
 * (signer-url.ts). httpsig-protocol-01 ("Signature-Agent"): members carry no parameters, and a verifier
 * ignores a member that does; `type=directory` on a bare origin is still accepted, since -00
 * signers send it and it names the same well-known directory. A member we ignore, or a value
 * that is no https URL, names no signer we can resolve: `untrusted-signer`, and no policy is
 * attached to it (the User-Agent decides, as without a signature).
 */
function signerUrl(request: SignedRequest, components: readonly Item[]): string {
  const names = components.map(([name]) => name);
  if (!names.includes("@authority") && !names.includes("@target-uri")) {
    throw new Failure("missing-component", "covers neither @authority nor @target-uri");
  }
  const field = request.headers.get("signature-agent");
  if (field === null) throw new Failure("malformed", "no Signature-Agent: no key set to take the key from");
  const covered = components.find(([name]) => name === "signature-agent");
  if (covered === undefined) throw new Failure("missing-component", "Signature-Agent is sent but not covered");
  const key = covered[1].get("key");
  const [value, memberParams] = key === undefined ? parseSignatureAgentItem(field) : dictionaryMember(field, key);
  if (typeof value !== "string") throw new Failure("malformed", "Signature-Agent is not a string URL");
  const signer = signerUrlOf(value);
  if ("problem" in signer) throw new Failure("untrusted-signer", `Signature-Agent ${signer.problem}`);
  if (!onlyLegacyDirectoryType(memberParams, value)) {
    throw new Failure(
      "untrusted-signer",
      "Signature-Agent member carries parameters: ignored (httpsig-protocol-01)",
      signer.url,
    );
  }
  return signer.url;
}

function onlyLegacyDirectoryType(params: Parameters, value: string): boolean {
  if (params.size === 0) return true;
  return params.size === 1 && String(params.get("type")) === "directory" && parseUrl(value)?.pathname === "/";
}

function parseSignatureAgentItem(field: string): Item {
  try {
    return parseItem(field);
  } catch {
    throw new Failure("malformed", "Signature-Agent is neither a string nor covered with key=");
  }
}

function dictionaryMember(field: string, key: unknown): Item {
  if (typeof key !== "string") throw new Failure("malformed", "signature-agent key= is not a string");
  const member = parseField(field, "Signature-Agent").get(key);
  if (member === undefined || isInnerList(member))
    throw new Failure("malformed", `Signature-Agent has no member ${key}`);
  return member;
}

/** RFC 9421 §2.5: one line per covered component, then `"@signature-params"`. */
function signatureBase(request: SignedRequest, components: readonly Item[], signatureParamsValue: string): string {
  const url = parseUrl(request.url);
  if (url === undefined) throw new TypeError(`verifyWebBotAuth: ${request.url} is not an absolute URL`);
  const seen = new Set<string>();
  const lines = components.map((component) => {
    const identifier = serializeItem(component);
    if (seen.has(identifier)) throw new Failure("malformed", `${identifier} is covered twice`);
    seen.add(identifier);
    return `${identifier}: ${componentValue(request, url, component)}`;
  });
  lines.push(`"@signature-params": ${signatureParamsValue}`);
  return lines.join("\n");
}

function componentValue(request: SignedRequest, url: UrlParts, [name, params]: Item): string {
  if (typeof name !== "string") throw new Failure("malformed", "a covered component is not a string");
  if (name.startsWith("@")) {
    if (params.size > 0) throw new Failure("malformed", `${name} has parameters we do not support`);
    return derivedComponent(request, url, name);
  }
  const value = request.headers.get(name);
  if (value === null) throw new Failure("missing-component", `covered field ${name} is absent`);
  const key = params.get("key");
  if (params.size === 0) return value.trim();
  if (params.size === 1 && key !== undefined) {
    return serializeItem(dictionaryMember(value, key));
  }
  throw new Failure("malformed", `${name} has parameters we do not support`);
}

// RFC 9421 §2.2. @request-target and @query-param are left out: no Web Bot Auth signer uses them.
function derivedComponent(request: SignedRequest, url: UrlParts, name: string): string {
  switch (name) {
    case "@method":
      return request.method;
    case "@authority":
      return url.host; // lowercase, default port dropped, as §2.2.3 asks
    case "@target-uri":
      return url.href;
    case "@scheme":
      return url.protocol.slice(0, -1);
    case "@path":
      return url.pathname || "/";
    case "@query":
      return url.search || "?";
    default:
      throw new Failure("malformed", `unsupported derived component ${name}`);
  }
}

// Imported keys are kept with the directory key they came from, so a cached directory costs
// one import per key per isolate, not one per request.
const imported = new WeakMap<DirectoryKey, Promise<CryptoKeyHandle>>();

function importedKey(key: DirectoryKey): Promise<CryptoKeyHandle> {
  let handle = imported.get(key);
  if (handle === undefined) {
    handle = importPublicKey(key.algorithm, key.jwk);
    imported.set(key, handle);
  }
  return handle;
}
