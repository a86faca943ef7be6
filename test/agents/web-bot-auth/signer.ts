// Our own Web Bot Auth signer, written from the drafts and RFC 9421 independently of the
// verifier (plain string building, no structured-fields library), so the two check each other.
// Runs in Node and in workerd (WebCrypto only).

// Spelled through crypto.subtle: the CryptoKey type is global in workerd's types, not in Node's.
type Key = Parameters<typeof crypto.subtle.sign>[1];

export interface TestSigner {
  readonly privateKey: Key;
  /** How crypto.subtle.sign is called for this key (RFC 9421 §3.3). */
  readonly signAlgorithm: { name: string; saltLength?: number };
  /** The public JWK as the directory publishes it. */
  readonly publicJwk: Record<string, string>;
  /** RFC 7638 thumbprint (RFC 8037 §2 for Ed25519). */
  readonly keyid: string;
}

/** An Ed25519 signer (the drafts' algorithm), or RSA-PSS-SHA512 (RFC 9421 §3.3.1). */
export async function newSigner(algorithm: "ed25519" | "rsa-pss-sha512" = "ed25519"): Promise<TestSigner> {
  const rsa = algorithm === "rsa-pss-sha512";
  const generate = rsa
    ? { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-512" }
    : { name: "Ed25519" };
  const pair = (await crypto.subtle.generateKey(generate, true, ["sign", "verify"])) as unknown as {
    privateKey: Key;
    publicKey: Key;
  };
  const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as unknown as Record<string, string>;
  // RFC 7638 §3.2: the required members only, in lexicographic order, no whitespace.
  const publicJwk: Record<string, string> = rsa
    ? { e: jwk["e"] ?? "", kty: "RSA", n: jwk["n"] ?? "" }
    : { crv: "Ed25519", kty: "OKP", x: jwk["x"] ?? "" };
  const canonical = rsa
    ? `{"e":"${publicJwk["e"]}","kty":"RSA","n":"${publicJwk["n"]}"}`
    : `{"crv":"Ed25519","kty":"OKP","x":"${publicJwk["x"]}"}`;
  const keyid = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical))));
  const signAlgorithm = rsa ? { name: "RSA-PSS", saltLength: 64 } : { name: "Ed25519" };
  return { privateKey: pair.privateKey, signAlgorithm, publicJwk, keyid };
}

/** How the request names its signer: the drafts' dictionary form, the legacy string, or not at all. */
export type AgentHeader =
  | { form: "dictionary"; key: string; origin: string; params?: string }
  | { form: "string"; origin: string }
  | { form: "none" };

export interface SignOptions {
  url: string;
  method?: string;
  agent: AgentHeader;
  /** Seconds since the epoch. */
  created: number;
  expires: number;
  label?: string;
  tag?: string;
  keyid?: string;
  alg?: string;
  /** RFC 9421 §2.3 `nonce`. */
  nonce?: string;
  /** Derived components to cover; Signature-Agent is added as its form requires unless `coverAgent` is false. */
  components?: string[];
  coverAgent?: boolean;
  /** Header fields to send and cover, in order, after the derived components (`crawler-max-price`). */
  fields?: Record<string, string>;
}

/** Sign a request; returns the headers to send (Signature, Signature-Input, Signature-Agent). */
export async function signRequest(signer: TestSigner, options: SignOptions): Promise<Record<string, string>> {
  const url = new URL(options.url);
  const label = options.label ?? "sig1";
  const headers: Record<string, string> = {};
  const lines: string[] = [];
  const identifiers: string[] = [];
  for (const name of options.components ?? ["@authority"]) {
    identifiers.push(`"${name}"`);
    lines.push(`"${name}": ${derived(name, url, options.method ?? "GET")}`);
  }
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    headers[name] = value;
    identifiers.push(`"${name}"`);
    lines.push(`"${name}": ${value.trim()}`);
  }
  const agent = options.agent;
  const member = agent.form === "dictionary" ? `"${agent.origin}"${agent.params ?? ""}` : "";
  if (agent.form === "dictionary") headers["signature-agent"] = `${agent.key}=${member}`;
  if (agent.form === "string") headers["signature-agent"] = `"${agent.origin}"`;
  if (agent.form !== "none" && options.coverAgent !== false) {
    const identifier = agent.form === "dictionary" ? `"signature-agent";key="${agent.key}"` : `"signature-agent"`;
    identifiers.push(identifier);
    lines.push(`${identifier}: ${agent.form === "dictionary" ? member : `"${agent.origin}"`}`);
  }
  const params =
    `(${identifiers.join(" ")});created=${options.created};expires=${options.expires}` +
    `;keyid="${options.keyid ?? signer.keyid}"` +
    (options.alg ? `;alg="${options.alg}"` : "") +
    (options.nonce ? `;nonce="${options.nonce}"` : "") +
    `;tag="${options.tag ?? "web-bot-auth"}"`;
  lines.push(`"@signature-params": ${params}`);
  const signature = await crypto.subtle.sign(
    signer.signAlgorithm,
    signer.privateKey,
    new TextEncoder().encode(lines.join("\n")),
  );
  headers["signature-input"] = `${label}=${params}`;
  headers["signature"] = `${label}=:${b64(new Uint8Array(signature))}:`;
  return headers;
}

function derived(name: string, url: URL, method: string): string {
  if (name === "@authority") return url.host;
  if (name === "@method") return method;
  if (name === "@path") return url.pathname;
  if (name === "@target-uri") return url.href;
  if (name === "@query") return url.search || "?";
  throw new Error(`test signer: ${name} not supported`);
}

function b64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function b64url(bytes: Uint8Array): string {
  return b64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
