// The trust table and the operator's SIGNATURE_AGENTS var, as data.
import { describe, expect, it } from "vitest";
import {
  KNOWN_SIGNATURE_AGENTS,
  parseSignatureAgents,
  signerIdentity,
  trustedSignatureAgents,
} from "../../../src/agents/web-bot-auth/signature-agents.ts";

const DIRECTORY = "/.well-known/http-message-signatures-directory";

describe("parseSignatureAgents", () => {
  it.each([
    { raw: undefined, value: [] },
    { raw: "  ", value: [] },
    { raw: "{}", value: [] },
    {
      raw: '{"https://agent.example": {"token": "ExampleAgent", "category": "ai-assistant"}}',
      value: [
        {
          url: `https://agent.example${DIRECTORY}`,
          token: "ExampleAgent",
          category: "ai-assistant",
          docs: "SIGNATURE_AGENTS",
        },
      ],
    },
    {
      raw: '{"https://Agent.Example:443/": {}}',
      value: [{ url: `https://agent.example${DIRECTORY}`, docs: "SIGNATURE_AGENTS" }],
    },
    {
      raw: '{"http://127.0.0.1:8788": {"token": "LocalAgent"}, "http://localhost:9000": {"token": "Other"}}',
      value: [
        { url: `http://127.0.0.1:8788${DIRECTORY}`, token: "LocalAgent", docs: "SIGNATURE_AGENTS" },
        { url: `http://localhost:9000${DIRECTORY}`, token: "Other", docs: "SIGNATURE_AGENTS" },
      ],
    },
    // httpsig-protocol-01: a signer is the URL of its JWK Set, wherever it is.
    {
      raw: '{"https://agent.example/keys": {"token": "A"}}',
      value: [{ url: "https://agent.example/keys", token: "A", docs: "SIGNATURE_AGENTS" }],
    },
    {
      raw: '{"https://Agent.Example:443/a/./b/../%7Ekeys%2f.json": {"token": "A"}}',
      value: [{ url: "https://agent.example/a/~keys%2F.json", token: "A", docs: "SIGNATURE_AGENTS" }],
    },
    {
      raw: `{"https://agent.example${DIRECTORY}": {"token": "A"}}`,
      value: [{ url: `https://agent.example${DIRECTORY}`, token: "A", docs: "SIGNATURE_AGENTS" }],
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
        'SIGNATURE_AGENTS["http://agent.example"]: the key must be an https origin ("https://agent.example", its well-known directory) or the https URL of a JWK Set; not https (http only for a loopback host)',
      ],
    },
    {
      raw: '{"https://agent.example/keys?v=1": {"token": "A"}}',
      problems: [
        'SIGNATURE_AGENTS["https://agent.example/keys?v=1"]: a signer URL has no query or fragment (they are not part of its identity)',
      ],
    },
    {
      raw: '{"agent.example": {"token": "A"}}',
      problems: [
        'SIGNATURE_AGENTS["agent.example"]: the key must be an https origin ("https://agent.example", its well-known directory) or the https URL of a JWK Set; "agent.example" is not an absolute URL',
      ],
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
        'SIGNATURE_AGENTS["ftp://agent.example"]: the key must be an https origin ("https://agent.example", its well-known directory) or the https URL of a JWK Set; not https (http only for a loopback host)',
      ],
    },
  ])("refuses $raw with every problem", ({ raw, problems }) => {
    expect(parseSignatureAgents(raw)).toEqual({ ok: false, problems });
  });
});

describe("the trust table", () => {
  it("holds the signers we can cite, each with its source", () => {
    expect(KNOWN_SIGNATURE_AGENTS.map(({ url, token, category }) => ({ url, token, category }))).toEqual([
      { url: `https://chatgpt.com${DIRECTORY}`, token: "ChatGPT-User", category: "ai-assistant" },
      { url: `https://agent.bot.goog${DIRECTORY}`, token: "Google-Agent", category: "ai-assistant" },
    ]);
    for (const agent of KNOWN_SIGNATURE_AGENTS) expect(agent.docs).toMatch(/^https:\/\//);
  });

  it("lets the operator's row replace a built-in one", () => {
    const table = trustedSignatureAgents([
      { url: `https://chatgpt.com${DIRECTORY}`, token: "GPTBot", docs: "SIGNATURE_AGENTS" },
    ]);
    expect(table.get(`https://chatgpt.com${DIRECTORY}`)?.token).toBe("GPTBot");
    expect(table.get(`https://agent.bot.goog${DIRECTORY}`)?.token).toBe("Google-Agent");
  });
});

// draft-meunier-webbotauth-registry: a trusted signer's card may fill what the table leaves out.
describe("signerIdentity", () => {
  const bare = { url: `https://agent.example${DIRECTORY}`, docs: "SIGNATURE_AGENTS" };
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
    // The catalogues' reading of free text (agents/catalogue.ts categoryOfFunction): one table for both.
    {
      why: "a purpose in a catalogue's words (AI Data Scrapers)",
      agent: bare,
      card: { productToken: "ExampleBot", purpose: "AI Data Scrapers" },
      identity: { token: "ExampleBot", category: "ai-training" },
    },
    {
      why: "a purpose in a catalogue's words (AI Assistants)",
      agent: bare,
      card: { productToken: "ExampleBot", purpose: "AI Assistants" },
      identity: { token: "ExampleBot", category: "ai-assistant" },
    },
    {
      why: "a card token that is no product token",
      agent: bare,
      card: { productToken: "Example Bot/1.0" },
      identity: undefined,
    },
    { why: "no token anywhere", agent: bare, card: {}, identity: undefined },
    // A card may not claim a token of the crawler table that belongs to another operator.
    {
      why: "a card naming itself AdsBot-Google (Google's, exempt from *)",
      agent: bare,
      card: { productToken: "AdsBot-Google" },
      identity: undefined,
    },
    {
      why: "a card naming itself googlebot, any case",
      agent: bare,
      card: { productToken: "googlebot" },
      identity: undefined,
    },
    {
      why: "a card naming ChatGPT-User from a signer that is not chatgpt.com",
      agent: bare,
      card: { productToken: "ChatGPT-User", purpose: "ai-assistant" },
      identity: undefined,
    },
    {
      why: "chatgpt.com's own card may name the token its operator documents for it",
      agent: { url: `https://chatgpt.com${DIRECTORY}`, docs: "SIGNATURE_AGENTS" },
      card: { productToken: "ChatGPT-User" },
      identity: { token: "ChatGPT-User", category: "other" },
    },
    {
      why: "the operator's own row may name a table token: the operator decides",
      agent: { ...bare, token: "AdsBot-Google" },
      card: {},
      identity: { token: "AdsBot-Google", category: "other" },
    },
    { why: "a card naming a fallback (Yandex)", agent: bare, card: { productToken: "Yandex" }, identity: undefined },
  ])("$why", ({ agent, card, identity }) => {
    expect(signerIdentity(agent, card)).toEqual(identity);
  });
});
