/**
 * The operator page at ADMIN_PREFIX: what the edge enforces, a tester, and a draft mode.
 * One self-contained HTML document — no framework, no external network (no CDN scripts or
 * fonts); the Content-Security-Policy forbids any. The page itself holds no site state: it
 * asks for the admin token once, keeps it in sessionStorage, and sends it as a bearer token
 * to the admin API, so without a valid token it shows nothing.
 */

import { KNOWN_CRAWLERS } from "../../agents/operators/tables.ts";
// Text modules (wrangler.toml [[rules]] type "Text"; vitest.config.ts loads them the same way),
// so the page's HTML, CSS and script have their own files, editor, lint and type checks.
import PAGE_HTML from "./page/page.html";
import PAGE_CSS from "./page/page.css";
import PAGE_SCRIPT from "./page/page-script.js";

export function adminPageResponse(prefix: string): Response {
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const crawlers = KNOWN_CRAWLERS.map((crawler) => crawler.token);
  // "<" escaped: the data sits in a <script> element and must not close it.
  const data = JSON.stringify({ prefix, crawlers }).replace(/</g, "\\u003c");
  const html = PAGE_HTML.replaceAll("__NONCE__", nonce)
    .replace("__STYLE__", () => PAGE_CSS)
    .replace("__SCRIPT__", () => PAGE_SCRIPT)
    .replace("__DATA__", () => data);
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
