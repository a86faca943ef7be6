/**
 * The slice of WebCrypto that Web Bot Auth needs, typed here rather than through a global
 * declaration: this folder type-checks without DOM, Node or Worker types (src/agents is pure),
 * yet runs unchanged in workerd and Node 24, which both ship `crypto.subtle` with Ed25519,
 * RSA-PSS and SHA-256.
 */

/** An imported public key, opaque to us. */
export type CryptoKeyHandle = object;

type Algorithm = { name: string; hash?: string; saltLength?: number };

interface Subtle {
  importKey(
    format: "jwk",
    key: object,
    algorithm: Algorithm,
    extractable: boolean,
    usages: readonly string[],
  ): Promise<CryptoKeyHandle>;
  verify(algorithm: Algorithm, key: CryptoKeyHandle, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

function subtle(): Subtle {
  return (globalThis as unknown as { crypto: { subtle: Subtle } }).crypto.subtle;
}

/** The algorithms we verify: the Web Bot Auth drafts require Ed25519; RSA-PSS-SHA512 is RFC 9421 §3.3.1. */
export type SignatureAlgorithm = "ed25519" | "rsa-pss-sha512";

const IMPORT: Record<SignatureAlgorithm, Algorithm> = {
  ed25519: { name: "Ed25519" },
  "rsa-pss-sha512": { name: "RSA-PSS", hash: "SHA-512" },
};
// RFC 9421 §3.3.1: RSASSA-PSS with SHA-512 and a 64-byte salt.
const VERIFY: Record<SignatureAlgorithm, Algorithm> = {
  ed25519: { name: "Ed25519" },
  "rsa-pss-sha512": { name: "RSA-PSS", saltLength: 64 },
};

export function importPublicKey(algorithm: SignatureAlgorithm, jwk: object): Promise<CryptoKeyHandle> {
  return subtle().importKey("jwk", jwk, IMPORT[algorithm], false, ["verify"]);
}

export function verifySignatureBytes(
  algorithm: SignatureAlgorithm,
  key: CryptoKeyHandle,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  return subtle().verify(VERIFY[algorithm], key, signature, data);
}

export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest("SHA-256", data));
}

/** base64url without padding (RFC 7515 §2), as JWK thumbprints and key members use. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** base64 with padding (RFC 4648 §4): how RFC 9421 carries a signature in its byte sequence. */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

declare function btoa(data: string): string;
