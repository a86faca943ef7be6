/**
 * A signer's key set (draft-ietf-webbotauth-httpsig-protocol-01, "Directory Format"): a JWK Set, at the URL
 * its Signature-Agent names, or at `/.well-known/http-message-signatures-directory` on its
 * origin (media type `application/http-message-signatures-directory+json`). At most
 * MAX_DIRECTORY_KEYS keys are read (its SSRF considerations, "Key count"). Each key is named by its
 * JWK SHA-256 thumbprint (RFC 7638; for OKP keys RFC 8037 §2), which is what `keyid` carries
 * in Signature-Input. We compute the thumbprint ourselves and ignore any `kid` a key states:
 * a directory cannot make one key answer to another key's id.
 *
 * The directory may also carry the signer's Signature Agent Card (draft-meunier-webbotauth-
 * registry): flat members in its early revisions, a `web_bot_auth` object since -03. Only
 * `rfc9309-product-token` and `purpose` are read, and only ever believed for a trusted signer
 * (signature-agents.ts decides that, not this file).
 */

import { base64url, sha256, type SignatureAlgorithm } from "./web-crypto.ts";

/** One verification key from a directory, named by its thumbprint. */
export interface DirectoryKey {
  readonly keyid: string;
  readonly algorithm: SignatureAlgorithm;
  /** The public members only (the thumbprint's members), as imported into WebCrypto. */
  readonly jwk: Readonly<Record<string, string>>;
  /** Seconds since the epoch; the key is not used outside [notBefore, notAfter] (draft §4 `nbf`/`exp`). */
  readonly notBefore?: number;
  readonly notAfter?: number;
}

/** What a Signature Agent Card says about its signer, when it says it. */
export interface AgentCard {
  readonly productToken?: string;
  readonly purpose?: string;
}

export interface ParsedDirectory {
  readonly keys: ReadonlyMap<string, DirectoryKey>;
  readonly card: AgentCard;
  /** Keys skipped and why (unsupported types, bad members); the rest are still usable. */
  readonly problems: readonly string[];
}

/** Keys read per key set; the rest are skipped (a problem says so). A signer rotates with two or three. */
export const MAX_DIRECTORY_KEYS = 32;

const ED25519_X = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Parse a directory's JSON (already decoded); `undefined` when it is not a JWKS at all. */
export async function parseDirectory(json: unknown): Promise<ParsedDirectory | undefined> {
  if (!isObject(json) || !Array.isArray(json["keys"])) return undefined;
  const keys = new Map<string, DirectoryKey>();
  const problems: string[] = [];
  if (json["keys"].length > MAX_DIRECTORY_KEYS) {
    problems.push(`${json["keys"].length} keys: only the first ${MAX_DIRECTORY_KEYS} are read`);
  }
  for (const [index, candidate] of json["keys"].slice(0, MAX_DIRECTORY_KEYS).entries()) {
    const key = await directoryKey(candidate);
    if (typeof key === "string") problems.push(`keys[${index}]: ${key}`);
    else keys.set(key.keyid, key);
  }
  return { keys, card: agentCard(json), problems };
}

/** RFC 7638 §3: the required members in lexicographic order, no whitespace, SHA-256, base64url. */
async function jwkThumbprint(jwk: Readonly<Record<string, string>>): Promise<string> {
  const members = Object.keys(jwk).toSorted();
  const canonical = JSON.stringify(Object.fromEntries(members.map((name) => [name, jwk[name]])));
  return base64url(await sha256(new TextEncoder().encode(canonical)));
}

async function directoryKey(candidate: unknown): Promise<DirectoryKey | string> {
  if (!isObject(candidate)) return "not a JSON object";
  const shape = publicMembers(candidate);
  if (typeof shape === "string") return shape;
  const keyid = await jwkThumbprint(shape.jwk);
  const validity = {
    ...(typeof candidate["nbf"] === "number" && { notBefore: candidate["nbf"] }),
    ...(typeof candidate["exp"] === "number" && { notAfter: candidate["exp"] }),
  };
  return { keyid, ...shape, ...validity };
}

function publicMembers(jwk: Record<string, unknown>): Pick<DirectoryKey, "algorithm" | "jwk"> | string {
  const { kty, crv, x, n, e } = jwk;
  if (kty === "OKP" && crv === "Ed25519") {
    if (typeof x !== "string" || !ED25519_X.test(x)) return "Ed25519 key with a bad x";
    return { algorithm: "ed25519", jwk: { crv, kty, x } }; // RFC 8037 §2 thumbprint members
  }
  if (kty === "RSA") {
    if (typeof n !== "string" || typeof e !== "string" || !BASE64URL.test(n) || !BASE64URL.test(e)) {
      return "RSA key with a bad n or e";
    }
    return { algorithm: "rsa-pss-sha512", jwk: { e, kty, n } }; // RFC 7638 §3.2
  }
  return `unsupported key type ${JSON.stringify(kty)}${typeof crv === "string" ? ` (${crv})` : ""}`;
}

function agentCard(directory: Record<string, unknown>): AgentCard {
  const source = isObject(directory["web_bot_auth"]) ? directory["web_bot_auth"] : directory;
  const token = source["rfc9309-product-token"];
  const purpose = source["purpose"];
  return {
    ...(typeof token === "string" && token !== "" && { productToken: token }),
    ...(typeof purpose === "string" && purpose !== "" && { purpose }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
