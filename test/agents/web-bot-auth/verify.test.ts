// Web Bot Auth verification as tables: our own signer (signer.ts, built from the drafts)
// signs; the verifier must accept exactly what the drafts and RFC 9421 allow.
import { beforeAll, describe, expect, it } from "vitest";
import { parseDirectory, type DirectoryKey } from "../../../src/agents/web-bot-auth/directory.ts";
import { verifyWebBotAuth, type SignatureOutcome } from "../../../src/agents/web-bot-auth/verify.ts";
import { newSigner, signRequest, type SignOptions, type TestSigner } from "./signer.ts";

const NOW = 1_800_000_000; // seconds; the verifier's clock in every row
const TARGET = "https://www.example.com/news/today?x=1";
const AGENT = "https://agent.example";
const CHATGPT = "https://chatgpt.com";
const GOOGLE = "https://agent.bot.goog";
const DIRECTORY = "/.well-known/http-message-signatures-directory";
/** A signer's identifier: a bare origin stands for its well-known directory (signer-url.ts). */
const url = (origin: string) => `${origin}${DIRECTORY}`;
/** httpsig-protocol-01: a Signature-Agent naming a JWK Set directly. */
const JWKS = "https://keys.example/bots/agent.jwks";
/** A trusted JWK Set that publishes only the RSA key: (URL, key) pairs, never the key alone. */
const RSA_ONLY = "https://keys.example/bots/rsa.jwks";
const TRUSTED = new Set([url(AGENT), url(CHATGPT), url(GOOGLE), JWKS, RSA_ONLY]);

let signer: TestSigner;
let other: TestSigner; // a key no directory publishes
let rsa: TestSigner;
let keySets: ReadonlyMap<string, ReadonlyMap<string, DirectoryKey>>;

beforeAll(async () => {
  signer = await newSigner();
  other = await newSigner();
  rsa = await newSigner("rsa-pss-sha512");
  const both = (await parseDirectory({ keys: [signer.publicJwk, rsa.publicJwk] }))?.keys ?? new Map();
  const rsaOnly = (await parseDirectory({ keys: [rsa.publicJwk] }))?.keys ?? new Map();
  keySets = new Map([
    [url(AGENT), both],
    [url(CHATGPT), both],
    [url(GOOGLE), both],
    [JWKS, both],
    [RSA_ONLY, rsaOnly],
  ]);
});

const base: Omit<SignOptions, "agent"> = { url: TARGET, created: NOW - 10, expires: NOW + 290 };

interface Row {
  why: string;
  sign: Partial<SignOptions>;
  /** Changes made to the request after signing. */
  tamper?: { url?: string; method?: string; headers?: Record<string, string | null> };
  /** Sign with a key the directory does not publish, or with the RSA-PSS key it does. */
  key?: "other" | "rsa";
  /** Matched as a subset of the outcome (the failure detail is free text). */
  expected: { status: SignatureOutcome["status"]; why?: string; signer?: string };
}

async function run(row: Row): Promise<SignatureOutcome> {
  const options: SignOptions = { ...base, agent: { form: "dictionary", key: "sig1", origin: AGENT }, ...row.sign };
  const headers = new Headers(
    await signRequest(row.key === "other" ? other : row.key === "rsa" ? rsa : signer, options),
  );
  for (const [name, value] of Object.entries(row.tamper?.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return verifyWebBotAuth(
    { method: row.tamper?.method ?? options.method ?? "GET", url: row.tamper?.url ?? options.url, headers },
    {
      now: NOW * 1000,
      isTrusted: (origin) => TRUSTED.has(origin),
      lookupKey: (signerUrl, keyid) => keySets.get(signerUrl)?.get(keyid),
    },
  );
}

const verified = (signerUrl: string) => ({ status: "verified", signer: signerUrl }) as const;
/** A key we do not hold (issue 30): unverifiable, never failed. */
const keyNotHeld = (signerUrl: string) => ({ status: "unverifiable", signer: signerUrl }) as const;
const failed = (why: string, origin?: string) =>
  ({ status: "failed", why, ...(origin && { signer: origin }) }) as const;

// draft-meunier-web-bot-auth-architecture §4: tag="web-bot-auth", created, expires, keyid, and
// @authority (or @target-uri) plus Signature-Agent covered whenever it is sent.
const accepted: Row[] = [
  {
    why: "dictionary form, key=sig1, a bare origin (its well-known directory)",
    sign: {},
    expected: verified(url(AGENT)),
  },
  // draft-ietf-webbotauth-httpsig-protocol-01 §4.3 and §5.3: every value is a direct JWK Set URL.
  {
    why: "-01: a full https URL of a JWK Set",
    sign: { agent: { form: "dictionary", key: "sig1", origin: JWKS } },
    expected: verified(JWKS),
  },
  {
    why: "-01: the query is not part of the identifier",
    sign: { agent: { form: "dictionary", key: "sig1", origin: `${JWKS}?v=2` } },
    expected: verified(JWKS),
  },
  {
    why: "-01: the well-known URL spelled out is the same signer as the bare origin",
    sign: { agent: { form: "dictionary", key: "sig1", origin: url(AGENT) } },
    expected: verified(url(AGENT)),
  },
  {
    why: '-01 example: agent2="https://signature-agent.test" style, another member key',
    sign: { label: "sig2", agent: { form: "dictionary", key: "agent2", origin: AGENT } },
    expected: verified(url(AGENT)),
  },
  {
    why: "-01 legacy sf-string carrying a JWK Set URL",
    sign: { agent: { form: "string", origin: JWKS } },
    expected: verified(JWKS),
  },
  {
    why: 'Google-Agent\'s form: g="https://agent.bot.goog"',
    sign: { label: "g", agent: { form: "dictionary", key: "g", origin: "https://agent.bot.goog" } },
    expected: verified(url(GOOGLE)),
  },
  {
    why: 'legacy quoted string, covered as "signature-agent" (ChatGPT agent)',
    sign: { agent: { form: "string", origin: CHATGPT }, components: ["@authority", "@method", "@path"] },
    expected: verified(url(CHATGPT)),
  },
  {
    why: "-00's explicit type=directory on a bare origin (still sent; the same directory)",
    sign: { agent: { form: "dictionary", key: "sig1", origin: AGENT, params: ";type=directory" } },
    expected: verified(url(AGENT)),
  },
  {
    why: "a trailing / on the origin is tolerated",
    sign: { agent: { form: "dictionary", key: "sig1", origin: `${AGENT}/` } },
    expected: verified(url(AGENT)),
  },
  { why: "@target-uri instead of @authority", sign: { components: ["@target-uri"] }, expected: verified(url(AGENT)) },
  { why: 'alg="ed25519" stated', sign: { alg: "ed25519" }, expected: verified(url(AGENT)) },
  { why: "RFC 9421 §3.3.1 RSA-PSS-SHA512 key", sign: {}, key: "rsa", expected: verified(url(AGENT)) },
  {
    why: 'RSA-PSS-SHA512 with alg="rsa-pss-sha512"',
    sign: { alg: "rsa-pss-sha512" },
    key: "rsa",
    expected: verified(url(AGENT)),
  },
  {
    why: "created 30 s ahead: within the skew",
    sign: { created: NOW + 30, expires: NOW + 300 },
    expected: verified(url(AGENT)),
  },
  {
    why: "expired 30 s ago: within the skew",
    sign: { created: NOW - 290, expires: NOW - 30 },
    expected: verified(url(AGENT)),
  },
  {
    why: "a window of exactly the maximum (300 s)",
    sign: { created: NOW - 10, expires: NOW + 290 },
    expected: verified(url(AGENT)),
  },
  {
    why: "other Signature-Agent members are ignored",
    sign: {},
    tamper: { headers: { "signature-agent": `sig1="${AGENT}", other="https://evil.example"` } },
    expected: verified(url(AGENT)),
  },
];

const refused: Row[] = [
  {
    why: "path changed after signing (@path covered)",
    sign: { components: ["@authority", "@path"] },
    tamper: { url: "https://www.example.com/admin" },
    expected: failed("bad-signature", url(AGENT)),
  },
  {
    why: "signed for another authority (replayed here)",
    sign: { url: "https://other.example/news/today" },
    tamper: { url: TARGET },
    expected: failed("bad-signature", url(AGENT)),
  },
  {
    why: "Signature-Agent swapped to another trusted signer",
    sign: {},
    tamper: { headers: { "signature-agent": `sig1="${CHATGPT}"` } },
    expected: failed("bad-signature", url(CHATGPT)),
  },
  {
    why: "signature bytes replaced",
    sign: {},
    tamper: { headers: { signature: `sig1=:${btoa("x".repeat(64))}:` } },
    expected: failed("bad-signature", url(AGENT)),
  },
  {
    why: "method changed (@method covered)",
    sign: { components: ["@authority", "@method"] },
    tamper: { method: "POST" },
    expected: failed("bad-signature", url(AGENT)),
  },
  { why: "expired beyond the skew", sign: { created: NOW - 200, expires: NOW - 61 }, expected: failed("expired") },
  {
    why: "expires 10 years ahead: a window longer than the maximum",
    sign: { created: NOW - 10, expires: NOW + 10 * 365 * 86_400 },
    expected: failed("window-too-long"),
  },
  {
    why: "a window of 301 s, one more than the maximum",
    sign: { created: NOW - 10, expires: NOW + 291 },
    expected: failed("window-too-long"),
  },
  {
    // With the window bounded, a `created` older than the window plus the skew is always past its expiry too.
    why: "created longer ago than the maximum window and the skew",
    sign: { created: NOW - 400, expires: NOW - 120 },
    expected: failed("expired"),
  },
  {
    why: "created in the future beyond the skew",
    sign: { created: NOW + 61, expires: NOW + 300 },
    expected: failed("future"),
  },
  {
    why: "a key the set we hold does not publish (a rotation): unverifiable, not failed",
    sign: {},
    key: "other",
    expected: keyNotHeld(url(AGENT)),
  },
  {
    why: "keyid names no key we hold: unverifiable, not failed",
    sign: { keyid: "nope" },
    expected: keyNotHeld(url(AGENT)),
  },
  {
    why: "-01: a member with parameters is ignored (type=jwks_uri), so no signer is resolved",
    sign: { agent: { form: "dictionary", key: "sig1", origin: JWKS, params: ";type=jwks_uri" } },
    expected: failed("untrusted-signer", JWKS),
  },
  {
    why: "-01: type=directory on a URL with a path is a parameter too: ignored",
    sign: { agent: { form: "dictionary", key: "sig1", origin: JWKS, params: ";type=directory" } },
    expected: failed("untrusted-signer", JWKS),
  },
  {
    why: "a JWK Set URL on a trusted origin, but not the trusted URL: an origin row trusts its well-known directory only",
    sign: { agent: { form: "dictionary", key: "sig1", origin: `${AGENT}/keys.json` } },
    expected: failed("untrusted-signer", `${AGENT}/keys.json`),
  },
  {
    why: "(URL, key) pairs: a key another trusted set publishes does not verify under this URL",
    sign: { agent: { form: "dictionary", key: "sig1", origin: RSA_ONLY } },
    expected: keyNotHeld(RSA_ONLY),
  },
  {
    why: "-01: http is no signer URL (https only)",
    sign: { agent: { form: "dictionary", key: "sig1", origin: "http://agent.example" } },
    expected: failed("untrusted-signer"),
  },
  {
    why: "a signer outside the trust table",
    sign: { agent: { form: "dictionary", key: "sig1", origin: "https://evil.example" } },
    expected: failed("untrusted-signer", url("https://evil.example")),
  },
  {
    why: "alg that does not fit the key",
    sign: { alg: "rsa-pss-sha512" },
    expected: failed("unsupported-algorithm", url(AGENT)),
  },
  {
    why: "covers neither @authority nor @target-uri",
    sign: { components: ["@method"] },
    expected: failed("missing-component"),
  },
  { why: "Signature-Agent sent but not covered", sign: { coverAgent: false }, expected: failed("missing-component") },
  { why: "no Signature-Agent: no directory named", sign: { agent: { form: "none" } }, expected: failed("malformed") },
  {
    why: "keyed member missing from Signature-Agent",
    sign: {},
    tamper: { headers: { "signature-agent": `other="${AGENT}"` } },
    expected: failed("malformed"),
  },
  {
    why: "Signature-Agent not a URL: nothing to resolve",
    sign: { agent: { form: "string", origin: "chatgpt" } },
    expected: failed("untrusted-signer"),
  },
  {
    why: "legacy string, but sent as a dictionary without key=",
    sign: { agent: { form: "string", origin: CHATGPT } },
    tamper: { headers: { "signature-agent": `sig1="${CHATGPT}"` } },
    expected: failed("malformed"),
  },
  {
    why: "no created/expires",
    sign: {},
    tamper: { headers: { "signature-input": `sig1=("@authority");keyid="k";tag="web-bot-auth"` } },
    expected: failed("malformed"),
  },
  { why: "expires before created", sign: { created: NOW, expires: NOW - 5 }, expected: failed("malformed") },
];

const absent: Row[] = [
  {
    why: "no signature headers at all",
    sign: {},
    tamper: { headers: { signature: null, "signature-input": null } },
    expected: { status: "absent" },
  },
  {
    why: "an RFC 9421 signature for another protocol (tag differs)",
    sign: { tag: "other-protocol" },
    expected: { status: "absent" },
  },
  // Only a parseable web-bot-auth signature is a claim: junk is as if the headers were not sent.
  {
    why: "Signature-Input unparsable",
    sign: {},
    tamper: { headers: { "signature-input": 'sig1=("@authority"' } },
    expected: { status: "absent" },
  },
  {
    why: "Signature-Input a lone token (a browser extension's junk)",
    sign: {},
    tamper: { headers: { "signature-input": "???" } },
    expected: { status: "absent" },
  },
  {
    why: "Signature missing while Signature-Input is sent",
    sign: {},
    tamper: { headers: { signature: null } },
    expected: { status: "absent" },
  },
  {
    why: "Signature is not a byte sequence",
    sign: {},
    tamper: { headers: { signature: 'sig1="abc"' } },
    expected: { status: "absent" },
  },
  {
    why: "Signature under another label only",
    sign: {},
    tamper: { headers: { signature: `sig9=:${btoa("x".repeat(64))}:` } },
    expected: { status: "absent" },
  },
];

describe("verifyWebBotAuth", () => {
  it.each([...accepted, ...refused, ...absent])("$why", async (row) => {
    const outcome = await run(row);
    expect(outcome).toMatchObject(row.expected);
    if (outcome.status === "verified") expect(outcome.keyid).toBe(row.key === "rsa" ? rsa.keyid : signer.keyid);
  });

  it("never reports a failed signature as verified, whatever else the request says", async () => {
    for (const row of refused) expect((await run(row)).status).not.toBe("verified");
  });
});

// RFC 8037 Appendix A.3: the thumbprint of the example Ed25519 key.
describe("parseDirectory", () => {
  it("names keys by their RFC 8037 thumbprint and ignores a stated kid", async () => {
    const directory = await parseDirectory({
      keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", kid: "liar" }],
    });
    expect([...(directory?.keys.keys() ?? [])]).toEqual(["kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"]);
  });

  it.each([
    {
      json: { keys: [{ kty: "EC", crv: "P-256", x: "a", y: "b" }] },
      problems: ['keys[0]: unsupported key type "EC" (P-256)'],
    },
    { json: { keys: [{ kty: "OKP", crv: "Ed25519", x: "short" }] }, problems: ["keys[0]: Ed25519 key with a bad x"] },
    { json: { keys: ["x"] }, problems: ["keys[0]: not a JSON object"] },
  ])("skips unusable keys and says why: $problems", async ({ json, problems }) => {
    const directory = await parseDirectory(json);
    expect(directory?.keys.size).toBe(0);
    expect(directory?.problems).toEqual(problems);
  });

  it("reads at most MAX_DIRECTORY_KEYS keys, and says so", async () => {
    const directory = await parseDirectory({ keys: Array.from({ length: 40 }, () => ({ kty: "EC" })) });
    expect(directory?.problems[0]).toBe("40 keys: only the first 32 are read");
    expect(directory?.problems).toHaveLength(1 + 32);
  });

  it.each([{ json: null }, { json: [] }, { json: { keys: "x" } }, { json: "keys" }])(
    "is not a directory: $json",
    async ({ json }) => {
      expect(await parseDirectory(json)).toBeUndefined();
    },
  );

  it.each([
    {
      json: { keys: [], "rfc9309-product-token": "ExampleBot", purpose: "tdm" },
      card: { productToken: "ExampleBot", purpose: "tdm" },
    },
    {
      json: { keys: [], web_bot_auth: { "rfc9309-product-token": "ExampleBot" } },
      card: { productToken: "ExampleBot" },
    },
    { json: { keys: [] }, card: {} },
  ])("reads the agent card: $card", async ({ json, card }) => {
    expect((await parseDirectory(json))?.card).toEqual(card);
  });
});

// Issue 31 (Low): the reuse key kept only 128 characters of the nonce, so distinct signed
// requests were refused 429 as reused; and Signature-Input was parsed whole, whatever its size.
describe("what a signature's size and nonce can cost", () => {
  it("two nonces that share their first 200 characters are two uses (the whole nonce is keyed, hashed)", async () => {
    const prefix = "n".repeat(200);
    const first = await run({ why: "nonce a", sign: { nonce: `${prefix}a` }, expected: verified(url(AGENT)) });
    const second = await run({ why: "nonce b", sign: { nonce: `${prefix}b` }, expected: verified(url(AGENT)) });
    if (first.status !== "verified" || second.status !== "verified") throw new Error("both must verify");
    expect(first.reuseKey).not.toBe(second.reuseKey);
    // Hashed: the key stays short however long the nonce.
    expect(first.reuseKey.length).toBeLessThan(url(AGENT).length + 64);
  });

  it("the same nonce is the same use", async () => {
    const a = await run({ why: "a", sign: { nonce: "once" }, expected: verified(url(AGENT)) });
    const b = await run({ why: "b", sign: { nonce: "once", created: NOW - 5 }, expected: verified(url(AGENT)) });
    if (a.status !== "verified" || b.status !== "verified") throw new Error("both must verify");
    expect(a.reuseKey).toBe(b.reuseKey);
  });

  it("a Signature-Input over 4,096 characters is not parsed: no claim (absent), even with a valid member in it", async () => {
    const padding = Array.from({ length: 12_000 }, (_, n) => `p${n}=?1`).join(", ");
    const row: Row = { why: "padded", sign: {}, expected: verified(url(AGENT)) };
    const valid = await run(row);
    expect(valid.status).toBe("verified");
    const headers = new Headers(
      await signRequest(signer, { ...base, agent: { form: "dictionary", key: "sig1", origin: AGENT } }),
    );
    headers.set("signature-input", `${headers.get("signature-input")}, ${padding}`);
    expect((headers.get("signature-input") ?? "").length).toBeGreaterThan(110_000);
    const outcome = await verifyWebBotAuth(
      { method: "GET", url: base.url, headers },
      { now: NOW * 1000, isTrusted: (origin) => TRUSTED.has(origin), lookupKey: (s, k) => keySets.get(s)?.get(k) },
    );
    expect(outcome).toEqual({ status: "absent" });
  });
});
