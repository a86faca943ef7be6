// Purposes end to end: the Worker under `wrangler dev` in front of the demo origin, the setting
// saved through the admin API, then real HTTP clients. VERIFY_CRAWLERS=off: every client is
// 127.0.0.1, so no claim can be proven; each is judged by the group it claims (test/worker
// covers verification).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ROBOTS, startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";
import { rawRequest } from "./clients.ts";

const TOKEN = "e2e-admin-token-purposes";
const PURPOSES = {
  purposes: [
    { path: "/", "search-engine": "allow", "ai-search": "allow", "ai-assistant": "allow", "ai-training": "block" },
    {
      path: "/members/",
      "search-engine": "block",
      "ai-search": "block",
      "ai-assistant": "block",
      "ai-training": "block",
    },
  ],
};
const AGENTS = {
  GPTBot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  CCBot: "CCBot/2.0 (https://commoncrawl.org/faq/)",
  Bytespider:
    "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
  Googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "OAI-SearchBot":
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
  "ChatGPT-User":
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  Chrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  Firefox: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
} as const;

let origin: DemoOrigin;
let edge: EdgeProcess;

beforeAll(async () => {
  origin = await startDemoOrigin();
  edge = await startEdge({
    vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: TOKEN, VERIFY_CRAWLERS: "off" },
  });
  const response = await fetch(`${edge.url}/__robots/policy`, {
    method: "PUT",
    headers: { authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(PURPOSES),
  });
  expect(response.status).toBe(200);
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe("purposes set through the admin API", () => {
  it("/robots.txt shows the generated groups, then the origin's file unchanged", async () => {
    const response = await rawRequest(edge.url, "/robots.txt", { ua: AGENTS.Chrome });
    expect(response.status).toBe(200);
    expect(response.body.startsWith("# robots-edge: lines generated from the site's purposes setting\n")).toBe(true);
    expect(response.body.endsWith(DEMO_ROBOTS)).toBe(true);
    const generated = response.body.slice(0, response.body.length - DEMO_ROBOTS.length);
    for (const line of [
      "User-agent: Bytespider",
      "User-agent: Google-Extended",
      "User-agent: Applebot-Extended",
      "User-agent: OAI-SearchBot",
      "User-agent: ChatGPT-User",
      "Disallow: /members/",
      "Content-Usage: / train-ai=n, search=y",
      "Content-Signal: /members/ search=no, ai-input=no, ai-train=no",
    ]) {
      expect(generated).toContain(`\n${line}\n`);
    }
    // The owner's file names GPTBot and CCBot itself: its groups win, nothing is generated for them.
    expect(generated).not.toContain("User-agent: GPTBot\n");
    expect(generated).not.toContain("User-agent: CCBot\n");
  });

  it.each([
    { agent: "GPTBot", path: "/blog/", status: 403 },
    { agent: "CCBot", path: "/", status: 403 },
    { agent: "Bytespider", path: "/", status: 403 },
    { agent: "Googlebot", path: "/blog/", status: 200 },
    { agent: "OAI-SearchBot", path: "/blog/", status: 200 },
    { agent: "ChatGPT-User", path: "/blog/", status: 200 },
    { agent: "bingbot", path: "/docs/", status: 200 },
    // /members/ is refused to every crawler of every category the entry blocks.
    ...(["GPTBot", "CCBot", "Bytespider", "Googlebot", "OAI-SearchBot", "ChatGPT-User", "bingbot"] as const).map(
      (agent) => ({ agent, path: "/members/area", status: 403 }),
    ),
    // People are untouched: the origin's own answer (it has no /members/ page: 404).
    { agent: "Chrome", path: "/members/area", status: 404 },
    { agent: "Firefox", path: "/members/area", status: 404 },
    { agent: "Chrome", path: "/blog/", status: 200 },
  ] as const)("$agent on $path -> $status", async ({ agent, path, status }) => {
    expect((await rawRequest(edge.url, path, { ua: AGENTS[agent] })).status).toBe(status);
  });
});
