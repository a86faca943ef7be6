// The site's terms in the one decision (src/policy/terms.ts, step 13 of edge-decision.ts): the
// RSL licence link, a route requiring a licence (401 / confirmed / 503), and TDMRep's
// reservation, as a table of terms × crawler kinds × requests. Expectations are literal.
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "../../src/agents/classify.ts";
import { compileRobots, parseRobotsTxt } from "../../src/core/index.ts";
import { decideEdge, type EdgeAnswer } from "../../src/policy/edge-decision.ts";
import type { EdgeFacts } from "../../src/policy/edge-facts.ts";
import { parsePolicy } from "../../src/policy/operator-policy.ts";
import { licenceTokenOf, MAX_AUTHORIZATION_LENGTH, type LicenceFact } from "../../src/policy/terms.ts";
import { gatheredFacts, REFUTED, UNVERIFIABLE, VERIFIED } from "./gathered-facts.ts";

const UA = {
  person: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  gptbot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  chatgptUser:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
};

/** Who asks: a User-Agent and how its claim stood. */
const KINDS = {
  person: { agent: classifyUserAgent(UA.person) },
  "verified AI crawler": { agent: classifyUserAgent(UA.gptbot), needsVerification: true, verification: VERIFIED },
  "unverified AI crawler": {
    agent: classifyUserAgent(UA.gptbot),
    needsVerification: true,
    verification: UNVERIFIABLE,
  },
  "search crawler": { agent: classifyUserAgent(UA.googlebot), needsVerification: true, verification: VERIFIED },
  "unverified search crawler": {
    agent: classifyUserAgent(UA.googlebot),
    needsVerification: true,
    verification: UNVERIFIABLE,
  },
  "user-triggered fetcher": {
    agent: classifyUserAgent(UA.chatgptUser),
    needsVerification: true,
    verification: VERIFIED,
  },
  impostor: { agent: classifyUserAgent(UA.googlebot), needsVerification: true, verification: REFUTED },
} satisfies Record<string, Partial<EdgeFacts>>;
type Kind = keyof typeof KINDS;

const TERMS = {
  licence: { url: "https://www.example.com/license.xml", server: "https://olp.example.com" },
  tdmPolicy: "https://www.example.com/tdm-policy.json",
  purposes: [{ path: "/members/", "ai-training": "block" }],
  routes: [
    { pattern: "/premium/", licence: { required: true, url: "https://www.example.com/premium.xml" } },
    { pattern: "/preview/", mode: "report", licence: { required: true } },
    { pattern: "/gpt-only/", licence: { required: true, crawlers: ["GPTBot"] } },
  ],
};
const compiled = parsePolicy(JSON.stringify(TERMS));
if (!compiled.ok) throw new TypeError(compiled.problems.join("; "));
const policy = compiled.value;
const matcher = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /private/\n"));
const CLOSED_PREMIUM = compileRobots(parseRobotsTxt("User-agent: *\nDisallow: /premium/\n"));

const CONFIRMED: LicenceFact = { status: "confirmed" };
const REFUSED: LicenceFact = { status: "refused", why: "the token has expired" };
const SERVER_DOWN: LicenceFact = { status: "unavailable", why: "licence server answered 500", retryAfter: 120 };

function decide(kind: Kind, path: string, extra: Partial<EdgeFacts> = {}): EdgeAnswer {
  return decideEdge(
    gatheredFacts({
      pathAndQuery: path,
      robots: { state: "ok", matcher, retryAfter: 300 },
      now: Date.UTC(2026, 10, 27, 12),
      policy,
      ...KINDS[kind],
      ...extra,
    }),
  );
}

/** The record in words: action, status, layer, Retry-After, and the terms it carries. */
function summary(answer: EdgeAnswer): string {
  if ("gather" in answer) return `gather ${answer.gather} ${answer.licence?.server} ${answer.licence?.resource}`;
  const status = answer.status === null ? "" : ` ${answer.status}`;
  const retry = answer.retryAfter === null ? "" : ` retry ${answer.retryAfter}`;
  const terms = answer.terms;
  const said = terms
    ? ` | link ${terms.licence ?? "-"} | ${terms.licenceCheck} | tdm ${terms.tdmReservation ? 1 : 0}${terms.tdmPolicy ? ` ${terms.tdmPolicy}` : ""}`
    : " | no terms";
  return `${answer.action}${status} ${answer.layer}${retry}${said}`;
}

const TOKEN = { licenceToken: { kind: "token", token: "rsl_abc.123" } } as const;
const LINK = "https://www.example.com/license.xml";
const PREMIUM = "https://www.example.com/premium.xml";

// [kind, path, extra facts, expected]
const cases: [Kind, string, Partial<EdgeFacts>, string][] = [
  // A person is never judged: nothing added, nothing required.
  ["person", "/premium/a", {}, "pass human | no terms"],
  ["person", "/members/x", {}, "pass human | no terms"],
  // Every crawler answer carries the licence link; the route's own file on its route.
  ["verified AI crawler", "/blog/", {}, `pass robots.txt | link ${LINK} | not-required | tdm 0`],
  ["search crawler", "/blog/", {}, `pass robots.txt | link ${LINK} | not-required | tdm 0`],
  ["verified AI crawler", "/private/x", {}, `block 403 robots.txt | link ${LINK} | not-required | tdm 0`],
  // TDMRep where the purposes block AI training, with the policy URL; any spelling of the path.
  [
    "verified AI crawler",
    "/members/x",
    {},
    `pass robots.txt | link ${LINK} | not-required | tdm 1 https://www.example.com/tdm-policy.json`,
  ],
  [
    "search crawler",
    "/members/x",
    {},
    `pass robots.txt | link ${LINK} | not-required | tdm 1 https://www.example.com/tdm-policy.json`,
  ],
  [
    "verified AI crawler",
    "/blog/..%2Fmembers/x",
    {},
    `pass robots.txt | link ${LINK} | not-required | tdm 1 https://www.example.com/tdm-policy.json`,
  ],
  // A route requiring a licence: no token -> 401, whoever the crawler claims to be unless exempt.
  ["verified AI crawler", "/premium/a", {}, `block 401 licence | link ${PREMIUM} | missing | tdm 0`],
  ["unverified AI crawler", "/premium/a", {}, `block 401 licence | link ${PREMIUM} | missing | tdm 0`],
  ["impostor", "/premium/a", {}, `block 401 licence | link ${PREMIUM} | missing | tdm 0`],
  // Exempt by default only when proven: a search crawler, a user-triggered fetcher.
  ["search crawler", "/premium/a", {}, `pass robots.txt | link ${PREMIUM} | exempt | tdm 0`],
  ["user-triggered fetcher", "/premium/a", {}, `pass robots.txt | link ${PREMIUM} | exempt | tdm 0`],
  [
    "unverified search crawler",
    "/premium/a",
    {},
    `unavailable 503 unproven-claim retry 300 | link ${PREMIUM} | unproven-exemption | tdm 0`,
  ],
  // Re-spelling the path out of the route does not shed the requirement.
  ["verified AI crawler", "/blog/..%2Fpremium/a", {}, `block 401 licence | link ${PREMIUM} | missing | tdm 0`],
  ["verified AI crawler", "//premium/a", {}, `block 401 licence | link ${PREMIUM} | missing | tdm 0`],
  // A token: asked of the policy's licence server, for the route; its answer decides.
  ["verified AI crawler", "/premium/a", TOKEN, "gather licence https://olp.example.com /premium/"],
  ["impostor", "/premium/a", TOKEN, "gather licence https://olp.example.com /premium/"],
  [
    "verified AI crawler",
    "/premium/a",
    { ...TOKEN, licence: CONFIRMED },
    `pass robots.txt | link ${PREMIUM} | confirmed | tdm 0`,
  ],
  ["impostor", "/premium/a", { ...TOKEN, licence: CONFIRMED }, `pass robots.txt | link ${PREMIUM} | confirmed | tdm 0`],
  [
    "verified AI crawler",
    "/premium/a",
    { ...TOKEN, licence: REFUSED },
    `block 401 licence | link ${PREMIUM} | refused | tdm 0`,
  ],
  // Our failure is never the crawler's: the server down -> 503 with its Retry-After.
  [
    "verified AI crawler",
    "/premium/a",
    { ...TOKEN, licence: SERVER_DOWN },
    `unavailable 503 licence retry 120 | link ${PREMIUM} | unavailable | tdm 0`,
  ],
  [
    "verified AI crawler",
    "/premium/a",
    { licenceToken: { kind: "malformed" } },
    `block 401 licence | link ${PREMIUM} | malformed | tdm 0`,
  ],
  // A licence never opens what robots.txt closes.
  [
    "verified AI crawler",
    "/premium/a",
    { ...TOKEN, licence: CONFIRMED, robots: { state: "ok", matcher: CLOSED_PREMIUM, retryAfter: 300 } },
    `block 403 robots.txt | link ${PREMIUM} | not-required | tdm 0`,
  ],
  // A route in report mode: only marked.
  ["verified AI crawler", "/preview/x", {}, `report licence | link ${LINK} | missing | tdm 0`],
  [
    "verified AI crawler",
    "/preview/x",
    { ...TOKEN, licence: SERVER_DOWN },
    `report licence | link ${LINK} | unavailable | tdm 0`,
  ],
  ["unverified search crawler", "/preview/x", {}, `report unproven-claim | link ${LINK} | unproven-exemption | tdm 0`],
  // A route naming whom: others pass.
  ["verified AI crawler", "/gpt-only/x", {}, `block 401 licence | link ${LINK} | missing | tdm 0`],
  ["impostor", "/gpt-only/x", {}, `pass robots.txt | link ${LINK} | exempt | tdm 0`],
  // MODE=off: nobody is judged.
  ["verified AI crawler", "/premium/a", { mode: "off" }, "pass mode-off | no terms"],
];

describe("terms × crawler kinds × requests", () => {
  it.each(
    cases.map(([kind, path, extra, expected]) => [kind, path, Object.keys(extra).join("+"), extra, expected] as const),
  )("%s asks %s with %s -> %s", (kind, path, _facts, extra, expected) => {
    expect(summary(decide(kind, path, extra))).toBe(expected);
  });
});

describe("Authorization: License, read bounded before parsing", () => {
  const rows: [string | null, string][] = [
    [null, "none"],
    ["Bearer abc", "none"],
    ["Basic dXNlcjpwYXNz", "none"],
    ["License rsl_abc.123", "token rsl_abc.123"],
    ["license rsl_abc.123", "token rsl_abc.123"],
    ["License  abc==", "token abc=="],
    ["License", "malformed"],
    ["License a b", "malformed"],
    ['License a"b', "malformed"],
    ["License =abc", "malformed"],
    [`License ${"a".repeat(MAX_AUTHORIZATION_LENGTH)}`, "malformed"],
    [`License ${"a".repeat(MAX_AUTHORIZATION_LENGTH - 8)}`, "token"],
  ];
  it.each(rows.map(([header, expected]) => [header?.slice(0, 40) ?? null, header, expected] as const))(
    "%j -> %s",
    (_shown, header, expected) => {
      const token = licenceTokenOf(header);
      const said = token.kind === "token" ? `token ${token.token}` : token.kind;
      expect(said.startsWith(expected)).toBe(true);
      if (expected !== "token") expect(said).toBe(expected);
    },
  );
});

describe("the licence settings, validated", () => {
  const rows: [unknown, string[]][] = [
    [{ licence: { url: "https://a.example/l.xml" } }, []],
    [{ licence: { url: "/license.xml" } }, ['licence.url must be an absolute URL, got "/license.xml"']],
    [
      { licence: { url: "https://a.example/l.xml>; rel=x" } },
      [
        'licence.url must be an absolute URL of at most 2048 printable characters (no spaces, <, >, " or ,), got "https://a.example/l.xml>; rel=x"',
      ],
    ],
    [
      { licence: { url: "https://a.example/l.xml", server: "http://olp.example.com" } },
      ['licence.server must be an https URL (tokens travel to it), got "http://olp.example.com"'],
    ],
    [{ licence: { url: "https://a.example/l.xml", server: "http://127.0.0.1:8999" } }, []],
    [
      { licence: { url: "https://a.example/l.xml", server: "https://user:pw@olp.example.com" } },
      ['licence.server must be an absolute URL, got "https://user:pw@olp.example.com"'],
    ],
    [
      { licence: { url: "https://a.example/l.xml", server: "https://olp.example.com/api?x=1" } },
      [
        'licence.server must be a base URL without credentials, query or fragment (the credentials are the LICENCE_SERVER_CREDENTIALS secret), got "https://olp.example.com/api?x=1"',
      ],
    ],
    [
      { licence: { url: "https://a.example/l.xml" }, routes: [{ pattern: "/p/", licence: { required: true } }] },
      [
        'routes[0].licence.required needs a licence server to confirm tokens: set "licence": {"url": …, "server": …} at the top of the policy',
      ],
    ],
    [
      { routes: [{ pattern: "/p/", licence: { required: "yes" } }] },
      [
        'routes[0].licence.required must be true or false, got "yes"',
        'routes[0].licence needs a licence file: its own "url", or "licence": {"url": …} at the top of the policy',
      ],
    ],
    [{ tdmPolicy: "ftp://a.example/p" }, ['tdmPolicy must be an http(s) URL, got "ftp://a.example/p"']],
    [
      { licence: { url: "https://a.example/l.xml", robotsTxt: "yes" } },
      ['licence.robotsTxt must be true or false, got "yes"'],
    ],
  ];
  it.each(rows)("%j", (policyValue, problems) => {
    const result = parsePolicy(JSON.stringify(policyValue));
    expect(result.ok ? [] : result.problems).toEqual(problems);
  });
});
