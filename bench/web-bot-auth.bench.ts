// `npm run bench`: the CPU Web Bot Auth verification adds to one request on a warm isolate,
// keys already cached (directory parsed, public key imported): what the edge pays per signed
// request once the cron has fetched the directory. And the cost for a request without
// signature headers (browsers, most crawlers), which must stay at about nothing. And the
// per-isolate reuse memory at its bound (10,000 uses): one more use costs the same as the first.
import { Bench } from "tinybench";
import { parseDirectory } from "../src/agents/web-bot-auth/directory.ts";
import { DEFAULT_REUSE_CAPACITY, ReuseMemory } from "../src/agents/web-bot-auth/reuse-memory.ts";
import {
  MAX_SIGNATURE_FIELD_CHARS,
  verifyWebBotAuth,
  type SignedRequest,
  type VerifyOptions,
} from "../src/agents/web-bot-auth/verify.ts";
import { newSigner, signRequest } from "../test/agents/web-bot-auth/signer.ts";

const AGENT = "https://agent.example";
const CHATGPT = "https://chatgpt.com";
const TARGET = "https://www.example.com/news/today?page=2";
const signer = await newSigner();
const rsa = await newSigner("rsa-pss-sha512");
const keys = (await parseDirectory({ keys: [signer.publicJwk, rsa.publicJwk] }))?.keys ?? new Map();
const now = Math.floor(Date.now() / 1000);
// Signer URLs: a bare origin stands for its well-known directory (signer-url.ts).
const DIRECTORY = "/.well-known/http-message-signatures-directory";
const trusted = new Set([AGENT + DIRECTORY, CHATGPT + DIRECTORY]);
const options = (): VerifyOptions => ({
  now: Date.now(),
  isTrusted: (signerUrl) => trusted.has(signerUrl),
  lookupKey: (signerUrl, keyid) => (trusted.has(signerUrl) ? keys.get(keyid) : undefined),
});

const request = (headers: Record<string, string>): SignedRequest => ({
  method: "GET",
  url: TARGET,
  headers: new Headers(headers),
});
const dictionaryForm = request(
  await signRequest(signer, {
    url: TARGET,
    agent: { form: "dictionary", key: "sig1", origin: AGENT },
    created: now,
    expires: now + 290,
  }),
);
const legacyForm = request(
  await signRequest(signer, {
    url: TARGET,
    agent: { form: "string", origin: CHATGPT },
    components: ["@authority", "@method", "@path"],
    created: now,
    expires: now + 290,
  }),
);
const rsaSigned = request(
  await signRequest(rsa, {
    url: TARGET,
    agent: { form: "dictionary", key: "sig1", origin: AGENT },
    created: now,
    expires: now + 290,
  }),
);
const unsigned = request({ "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
// Issue 31: a 110 KB Signature-Input (a valid member and padding) once cost ~65 ms to parse.
// It is over MAX_SIGNATURE_FIELD_CHARS, so it is never parsed: absent, at the cost of a length check.
const oversized = request({
  ...Object.fromEntries(dictionaryForm.headers as unknown as Iterable<[string, string]>),
  "signature-input": `${dictionaryForm.headers.get("signature-input")}, ${Array.from({ length: 12_000 }, (_, n) => `p${n}=?1`).join(", ")}`,
});
if ((oversized.headers.get("signature-input") ?? "").length < 110_000) throw new Error("bench setup: not 110 KB");
if ((await verifyWebBotAuth(oversized, options())).status !== "absent")
  throw new Error("bench setup: oversized parsed");

// Sanity: the benchmark measures successful verifications, not early failures.
for (const signed of [dictionaryForm, legacyForm, rsaSigned]) {
  const outcome = await verifyWebBotAuth(signed, options());
  if (outcome.status !== "verified") throw new Error(`bench setup: ${JSON.stringify(outcome)}`);
}

// The floor: Ed25519 verification alone over a signature base of the same size.
const publicKey = await crypto.subtle.importKey("jwk", signer.publicJwk, { name: "Ed25519" }, false, ["verify"]);
const data = new TextEncoder().encode(`"@authority": www.example.com\n"@signature-params": ${"x".repeat(200)}`);
const signature = new Uint8Array(64);

// The reuse memory filled to its bound with unexpired uses.
const reuse = new ReuseMemory();
for (let i = 0; i < DEFAULT_REUSE_CAPACITY; i++)
  reuse.used(`${AGENT}${DIRECTORY} sig:${i}`, Date.now() + 300_000, Date.now());
let fresh = 0;

const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add("signed, dictionary Signature-Agent (sig1=...), cached key", async () => {
    await verifyWebBotAuth(dictionaryForm, options());
  })
  .add("signed, legacy string Signature-Agent, 4 components, cached key", async () => {
    await verifyWebBotAuth(legacyForm, options());
  })
  .add("signed with RSA-PSS-SHA512 (2048-bit), cached key", async () => {
    await verifyWebBotAuth(rsaSigned, options());
  })
  .add("floor: crypto.subtle.verify (Ed25519) alone", async () => {
    await crypto.subtle.verify({ name: "Ed25519" }, publicKey, signature, data);
  })
  .add("no signature headers (absent)", async () => {
    await verifyWebBotAuth(unsigned, options());
  })
  .add(`a 110 KB Signature-Input (over ${MAX_SIGNATURE_FIELD_CHARS} chars: not parsed, absent)`, async () => {
    await verifyWebBotAuth(oversized, options());
  })
  .add(`reuse memory at its bound (${DEFAULT_REUSE_CAPACITY} uses): one more use`, () => {
    reuse.used(`${AGENT}${DIRECTORY} sig:fresh-${fresh++}`, Date.now() + 300_000, Date.now());
  });
await bench.run();
if (reuse.size > DEFAULT_REUSE_CAPACITY) throw new Error(`reuse memory grew past its bound: ${reuse.size}`);
console.log("Web Bot Auth verification per request on a warm isolate, tinybench");
for (const task of bench.tasks) {
  const result = task.result;
  const p50 = result && "latency" in result ? result.latency.p50 * 1000 : NaN;
  const p99 = result && "latency" in result ? (result.latency.p99 ?? NaN) * 1000 : NaN;
  console.log(`  ${task.name.padEnd(70)} p50 ${p50.toFixed(2)} us   p99 ${p99.toFixed(2)} us`);
}
