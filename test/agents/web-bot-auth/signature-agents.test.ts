// The trust table and the operator's SIGNATURE_AGENTS var, as data.
import { describe, expect, it } from "vitest";
import {
  KNOWN_SIGNATURE_AGENTS,
  parseSignatureAgents,
  signerIdentity,
  trustedSignatureAgents,
} from "../../../src/agents/web-bot-auth/signature-agents.ts";

describe("parseSignatureAgents", () => {
  it.each([
    { raw: undefined, value: [] },
    { raw: "  ", value: [] },
    { raw: "{}", value: [] },
    {
      raw: '{"https://agent.example": {"token": "ExampleAgent", "category": "ai-assistant"}}',
      value: [
        { origin: "https://agent.example", token: "ExampleAgent", category: "ai-assistant", docs: "SIGNATURE_AGENTS" },
      ],
    },
    {
      raw: '{"https://Agent.Example:443/": {}}',
      value: [{ origin: "https://agent.example", docs: "SIGNATURE_AGENTS" }],
    },
    {
      raw: '{"http://127.0.0.1:8788": {"token": "LocalAgent"}, "http://localhost:9000": {"token": "Other"}}',
      value: [
        { origin: "http://127.0.0.1:8788", token: "LocalAgent", docs: "SIGNATURE_AGENTS" },
        { origin: "http://localhost:9000", token: "Other", docs: "SIGNATURE_AGENTS" },
      ],
    },
  ])("accepts $raw", ({ raw, value }) => {
    expect(parseSignatureAgents(raw)).toEqual({ ok: true, value });
  });

  it.each([
    {
      raw: "{",
      problems: ["SIGNATURE_AGENTS is not JSON: Expected property name or '}' in JSON at position 1 (line 1 column 2)"],
    },
    { raw: "[]", problems: ['SIGNATURE_AGENTS must be a JSON object: {"https://agent.example": {"token": "…"}}'] },
    {
      raw: '{"http://agent.example": {"token": "A"}}',
      problems: [
        'SIGNATURE_AGENTS["http://agent.example"]: directories are fetched over https only (http only for a loopback origin)',
      ],
    },
    {
      raw: '{"https://agent.example/keys": {"token": "A"}}',
      problems: [
        'SIGNATURE_AGENTS["https://agent.example/keys"]: the key must be a bare origin (scheme://host[:port]), not a URL with a path',
      ],
    },
    {
      raw: '{"agent.example": {"token": "A"}}',
      problems: ['SIGNATURE_AGENTS["agent.example"]: the key must be an origin like "https://agent.example"'],
    },
    {
      raw: '{"https://a.example": {"token": "Bad Token", "category": "spam", "extra": 1}, "https://b.example": "B"}',
      problems: [
        'SIGNATURE_AGENTS["https://a.example"] has an unknown member "extra" (token, category)',
        'SIGNATURE_AGENTS["https://a.example"].token must be a robots.txt product token (letters, "_" and "-"), got "Bad Token"',
        'SIGNATURE_AGENTS["https://a.example"].category must be one of search-engine, ai-training, ai-assistant, ai-search, seo-tool, social-preview, monitoring, archiver, other, got "spam"',
        'SIGNATURE_AGENTS["https://b.example"] must be an object like {"token": "ExampleAgent", "category": "ai-assistant"}',
      ],
    },
    {
      raw: '{"ftp://agent.example": {"token": "A"}}',
      problems: [
        'SIGNATURE_AGENTS["ftp://agent.example"]: directories are fetched over https only (http only for a loopback origin)',
      ],
    },
  ])("refuses $raw with every problem", ({ raw, problems }) => {
    expect(parseSignatureAgents(raw)).toEqual({ ok: false, problems });
  });
});

describe("the trust table", () => {
  it("holds the signers we can cite, each with its source", () => {
    expect(KNOWN_SIGNATURE_AGENTS.map(({ origin, token, category }) => ({ origin, token, category }))).toEqual([
      { origin: "https://chatgpt.com", token: "ChatGPT-User", category: "ai-assistant" },
      { origin: "https://agent.bot.goog", token: "Google-Agent", category: "ai-assistant" },
    ]);
    for (const agent of KNOWN_SIGNATURE_AGENTS) expect(agent.docs).toMatch(/^https:\/\//);
  });

  it("lets the operator's row replace a built-in one", () => {
    const table = trustedSignatureAgents([
      { origin: "https://chatgpt.com", token: "GPTBot", docs: "SIGNATURE_AGENTS" },
    ]);
    expect(table.get("https://chatgpt.com")?.token).toBe("GPTBot");
    expect(table.get("https://agent.bot.goog")?.token).toBe("Google-Agent");
  });
});

// draft-meunier-webbotauth-registry: a trusted signer's card may fill what the table leaves out.
describe("signerIdentity", () => {
  const bare = { origin: "https://agent.example", docs: "SIGNATURE_AGENTS" };
  it.each([
    {
      why: "the table wins over the card",
      agent: { ...bare, token: "Mine", category: "ai-search" as const },
      card: { productToken: "Theirs", purpose: "tdm" },
      identity: { token: "Mine", category: "ai-search" },
    },
    {
      why: "the card fills token and category",
      agent: bare,
      card: { productToken: "ExampleBot", purpose: "tdm" },
      identity: { token: "ExampleBot", category: "ai-training" },
    },
    {
      why: "a purpose that is a category name",
      agent: bare,
      card: { productToken: "ExampleBot", purpose: "ai-assistant" },
      identity: { token: "ExampleBot", category: "ai-assistant" },
    },
    {
      why: "an unknown purpose",
      agent: bare,
      card: { productToken: "ExampleBot", purpose: "fun" },
      identity: { token: "ExampleBot", category: "other" },
    },
    {
      why: "a card token that is no product token",
      agent: bare,
      card: { productToken: "Example Bot/1.0" },
      identity: undefined,
    },
    { why: "no token anywhere", agent: bare, card: {}, identity: undefined },
    // A card may not name another operator's crawler: AdsBot-Google would skip `*`.
    { why: "a card naming AdsBot-Google", agent: bare, card: { productToken: "AdsBot-Google" }, identity: undefined },
    { why: "a card naming googlebot, any case", agent: bare, card: { productToken: "googlebot" }, identity: undefined },
    { why: "a card naming a fallback (Yandex)", agent: bare, card: { productToken: "Yandex" }, identity: undefined },
    {
      why: "the operator may map a signer to a table name",
      agent: { ...bare, token: "ChatGPT-User", category: "ai-assistant" as const },
      card: { productToken: "AdsBot-Google" },
      identity: { token: "ChatGPT-User", category: "ai-assistant" },
    },
  ])("$why", ({ agent, card, identity }) => {
    expect(signerIdentity(agent, card)).toEqual(identity);
  });
});
