/** The responses the edge makes itself: blocks, 503s, robots.txt, JSON, errors. */

import type { DisputedReading } from "../policy/edge-record.ts";
import type { Verdict } from "../policy/judge.ts";
import { lineLabel, lineWords } from "../policy/served-lines.ts";
import type { UsageRefusalReason } from "../policy/usage-signals.ts";

const TEXT = "text/plain; charset=utf-8";

/**
 * What X-Robots-Edge says of a block: `blocked; rule="disallow: /private"; line=7` for a
 * robots.txt rule (a line generated from the purposes: `line=g3`, policy/served-lines.ts), `blocked; policy="/articles/"; route=1; rule=1` for the operator's policy.
 */
export function ruleHeader(verb: "blocked" | "would-block", verdict: Verdict): string {
  const rule = verdict.decision?.rule;
  if (verdict.layer === "policy" && verdict.policy) {
    const { route, routeIndex, ruleIndex } = verdict.policy;
    return `${verb}; policy="${headerSafe(route.pattern)}"; route=${routeIndex + 1}; rule=${ruleIndex + 1}`;
  }
  if (!rule) return verb;
  return `${verb}; rule="${rule.kind}: ${headerSafe(rule.pattern)}"; line=${lineLabel(rule.line)}`;
}

/** X-Robots-Edge of a path the readings of robots.txt dispute: `would-block; reading=disputed; rule="…"; line=N`. */
export function readingHeader(reading: DisputedReading): string {
  return `would-block; reading=disputed; rule="${headerSafe(reading.line.text)}"; line=${reading.line.line ?? 0}`;
}

/** Header values are ASCII: non-ASCII as percent-encoded UTF-8; quotes, backslashes, controls dropped. */
function headerSafe(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || char === '"' || char === "\\") continue;
    if (code < 0x80) out += char;
    else out += code >= 0xd800 && code <= 0xdfff ? "%EF%BF%BD" : encodeURIComponent(char);
  }
  return out;
}

export function blockedResponse(verdict: Verdict, status: number): Response {
  return new Response(blockMessage(verdict), {
    status,
    headers: {
      "content-type": TEXT,
      "cache-control": "private, no-store",
      "x-robots-edge": ruleHeader("blocked", verdict),
    },
  });
}

function blockMessage(verdict: Verdict): string {
  if (verdict.layer === "policy" && verdict.policy) {
    const { route, routeIndex, ruleIndex } = verdict.policy;
    return `Blocked by this site's crawler policy for "${route.pattern}" (route ${routeIndex + 1}, rule ${ruleIndex + 1}).\n`;
  }
  const rule = verdict.decision?.rule;
  if (!rule) return "Blocked by robots.txt.\n";
  const group = verdict.decision?.group?.token ?? "*";
  return `Blocked by robots.txt: "${rule.kind}: ${rule.pattern}" (${lineWords(rule.line)}) in the group for "${group}".\n`;
}

/** 503 with Retry-After: robots.txt unavailable, or a crawl pause. */
export function unavailableResponse(retryAfterSeconds: number, why: string, marker: string): Response {
  return new Response(`${why}\n`, {
    status: 503,
    headers: {
      "content-type": TEXT,
      "retry-after": String(retryAfterSeconds),
      "cache-control": "no-store",
      "x-robots-edge": marker,
    },
  });
}

export function jsonResponse(value: unknown, status = 200): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Where errors become responses: a 500 that says what is wrong (never a stack trace). */
export function errorResponse(message: string, status = 500): Response {
  return new Response(`robots-edge: ${message}\n`, {
    status,
    headers: { "content-type": TEXT, "cache-control": "no-store" },
  });
}

/** A copy of a response with one more header (origin responses have immutable headers). */
export function withHeader(response: Response, name: string, value: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.set(name, value);
  return copy;
}

/** VERIFY_CRAWLERS=block: a request claiming a crawler it does not come from. */
export function impostorResponse(): Response {
  return new Response("Blocked: this request claims to be a crawler it does not come from.\n", {
    status: 403,
    headers: { "content-type": TEXT, "cache-control": "private, no-store", "x-robots-edge": "impostor" },
  });
}

/**
 * 429, naming what asked for it: a policy rule's `pace` (its route and rule), or the
 * robots.txt group whose Crawl-delay / Request-rate the crawler went faster than.
 */
export function rateLimitedResponse(retryAfterSeconds: number, verdict: Verdict | null): Response {
  const { text, marker } = paceOf(verdict);
  return new Response(`Too many requests: ${text}.\n`, {
    status: 429,
    headers: { "content-type": TEXT, "retry-after": String(retryAfterSeconds), "x-robots-edge": marker },
  });
}

function paceOf(verdict: Verdict | null): { readonly text: string; readonly marker: string } {
  if (verdict?.layer === "policy" && verdict.policy) {
    const { route, routeIndex, ruleIndex } = verdict.policy;
    return {
      text: `this site's crawler policy paces this crawler here ("${route.pattern}", route ${routeIndex + 1}, rule ${ruleIndex + 1})`,
      marker: `rate-limited; policy="${headerSafe(route.pattern)}"; route=${routeIndex + 1}; rule=${ruleIndex + 1}`,
    };
  }
  const group = verdict?.decision?.group?.token;
  if (group === undefined) {
    return {
      text: "this site's robots.txt asks for a slower crawl (Crawl-delay / Request-rate)",
      marker: "rate-limited",
    };
  }
  return {
    text: `this site's robots.txt asks for a slower crawl (Crawl-delay / Request-rate in the group for "${group}")`,
    marker: `rate-limited; group="${headerSafe(group)}"`,
  };
}

/**
 * A Web Bot Auth signature this isolate already saw (httpsig-protocol-01, "Requesting a Message Signature"): a new
 * signature is all it takes, so Retry-After is short.
 */
export function signatureReusedResponse(retryAfterSeconds: number): Response {
  return new Response("Too many requests: this signature was already used; sign this request anew.\n", {
    status: 429,
    headers: {
      "content-type": TEXT,
      "cache-control": "private, no-store",
      "retry-after": String(retryAfterSeconds),
      "x-robots-edge": "signature-reused",
    },
  });
}

/**
 * What we accept, as RFC 9421 §5.1 asks for it: the components and parameters a Web Bot Auth
 * signature must have (httpsig-protocol-01, "Generating HTTP Message Signature"), under the label the agent is to use.
 */
export const ACCEPT_SIGNATURE = 'sig1=("@authority" "signature-agent";key="sig1");created;expires;tag="web-bot-auth"';

/** A route that asks this crawler to sign (a policy rule with `"signature": "required"`). */
export function signatureRequiredResponse(verdict: Verdict): Response {
  const { route, routeIndex } = verdict.policy ?? { route: { pattern: "?" }, routeIndex: -1 };
  return new Response(
    `This site asks for a Web Bot Auth signature here ("${route.pattern}", route ${routeIndex + 1}); sign the request (Accept-Signature) and retry.\n`,
    {
      status: 403,
      headers: {
        "content-type": TEXT,
        "cache-control": "private, no-store",
        "accept-signature": ACCEPT_SIGNATURE,
        "x-robots-edge": `${ruleHeader("blocked", verdict)}; signature=required`,
      },
    },
  );
}

/** Route mode addressed to the Worker itself: say how to run it instead of looping. */
export function selfLoopResponse(): Response {
  return errorResponse(
    "route mode (no ORIGIN_URL) forwards each request to the address it came to, which here is this Worker itself. Locally, run `npm run dev -- --origin http://localhost:3000` (the edge in front of your own site, with the checks loopback cannot pass relaxed), or `npm run dev` (a demo site).",
    508,
  );
}

/** X-Robots-Edge for a usage-signal refusal: `blocked; usage="content-usage train-ai"; line=3`. */
export function usageHeader(verb: "blocked" | "would-block", refusal: UsageRefusalReason): string {
  return `${verb}; usage="${headerSafe(`${refusal.format} ${refusal.key}`)}"; line=${lineLabel(refusal.line)}`;
}

/** A crawler refused by the site's usage preferences (USAGE_SIGNALS=enforce). */
export function usageBlockedResponse(refusal: UsageRefusalReason, status: number): Response {
  return new Response(`Blocked by this site's usage preferences: ${refusal.message}.\n`, {
    status,
    headers: {
      "content-type": TEXT,
      "cache-control": "private, no-store",
      "x-robots-edge": usageHeader("blocked", refusal),
    },
  });
}
