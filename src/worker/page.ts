/**
 * The operator page at ADMIN_PREFIX: what the edge enforces, a tester, and a draft mode.
 * One self-contained HTML document — no framework, no external network (no CDN scripts or
 * fonts); the Content-Security-Policy forbids any. The page itself holds no site state: it
 * asks for the admin token once, keeps it in sessionStorage, and sends it as a bearer token
 * to the admin API, so without a valid token it shows nothing.
 */

import { KNOWN_CRAWLERS } from "../agents/crawlers.ts";

export function adminPageResponse(prefix: string): Response {
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const crawlers = KNOWN_CRAWLERS.map((crawler) => crawler.token);
  const html = PAGE.replaceAll("__NONCE__", nonce)
    .replace("__PREFIX__", JSON.stringify(prefix))
    .replace("__CRAWLERS__", JSON.stringify(crawlers).replace(/</g, "\\u003c"));
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

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>robots-edge</title>
<style nonce="__NONCE__">
  :root { font-family: system-ui, sans-serif; color: #1b1b1b; background: #fafafa; }
  body { margin: 0 auto; max-width: 72rem; padding: 1rem; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .75rem 1rem; margin-bottom: 1rem; }
  label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
  input, select, textarea, button { font: inherit; padding: .35rem .5rem; border: 1px solid #888; border-radius: 4px; }
  textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; min-height: 6rem; }
  button { background: #0b57d0; color: #fff; border-color: #0b57d0; cursor: pointer; margin: .25rem .25rem .25rem 0; }
  button.secondary { background: #fff; color: #0b57d0; }
  :focus-visible { outline: 3px solid #f9a825; outline-offset: 2px; }
  .row { display: flex; flex-wrap: wrap; gap: 1rem; } .row > * { flex: 1 1 20rem; min-width: 0; }
  .file { font-family: ui-monospace, monospace; font-size: .85rem; overflow-x: auto; margin: 0; padding: 0; list-style: none; counter-reset: line; }
  .file li { white-space: pre; padding: 0 .5rem; border-left: 4px solid transparent; }
  .file li::before { counter-increment: line; content: counter(line); display: inline-block; width: 3.5rem; color: #777; text-align: right; margin-right: 1rem; }
  .file li.error { background: #fde7e9; border-left-color: #b3261e; }
  .file li.warning { background: #fff4d6; border-left-color: #a06a00; }
  .file li.info { border-left-color: #8ab4f8; }
  .file li.hit { background: #d3f0d9; border-left-color: #1e7b34; font-weight: 700; }
  .diag { display: block; white-space: normal; font-family: system-ui, sans-serif; font-size: .8rem; color: #5f3b00; margin-left: 4.5rem; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eee; vertical-align: top; word-break: break-word; }
  tr.differs { background: #fff4d6; } .allowed { color: #1e7b34; } .disallowed { color: #b3261e; }
  .wide { width: 100%; box-sizing: border-box; }
  .muted { color: #666; } .hidden { display: none; } #message { min-height: 1.5rem; color: #0b3d91; font-weight: 600; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; } dt { font-weight: 600; }
</style>
</head>
<body>
<h1>robots-edge</h1>
<p id="message" role="status" aria-live="polite"></p>

<section id="login">
  <form id="login-form">
    <label for="token">Admin token</label>
    <input id="token" type="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>
</section>

<div id="app" class="hidden">
  <section>
    <div class="row">
      <div>
        <label for="origin">Origin</label>
        <select id="origin"></select>
        <button id="refresh" class="secondary" type="button">Fetch robots.txt now</button>
        <button id="signout" class="secondary" type="button">Sign out</button>
      </div>
      <dl id="fetch-status"></dl>
    </div>
  </section>

  <section aria-labelledby="pause-title">
    <h2 id="pause-title">Crawl pause</h2>
    <p id="pause-state"></p>
    <label for="pause-minutes">Pause for (minutes)</label>
    <input id="pause-minutes" type="number" min="1" value="30">
    <button id="pause-start" type="button">Start pause</button>
    <button id="pause-end" class="secondary" type="button">End pause</button>
  </section>

  <div class="row">
    <section aria-labelledby="file-title">
      <h2 id="file-title">robots.txt in force</h2>
      <p id="file-note" class="muted"></p>
      <ol id="file" class="file" aria-label="robots.txt with line numbers"></ol>
      <h2>Groups</h2>
      <ul id="groups"></ul>
    </section>

    <section aria-labelledby="tester-title">
      <h2 id="tester-title">Tester</h2>
      <label for="crawler">Known crawler</label>
      <select id="crawler"><option value="">(paste a User-Agent below)</option></select>
      <label for="ua">User-Agent</label>
      <input id="ua" class="wide" type="text" value="Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)">
      <label for="urls">URLs or paths, one per line</label>
      <textarea id="urls">/
/private/</textarea>
      <button id="run" type="button">Test</button>
      <label><input id="draft-mode" type="checkbox"> Draft mode: test against an edited robots.txt (nothing is published)</label>
      <div id="draft-box" class="hidden">
        <label for="draft">Draft robots.txt</label>
        <textarea id="draft" rows="12"></textarea>
      </div>
      <table id="results" aria-live="polite"><thead></thead><tbody></tbody></table>
    </section>
  </div>
</div>

<script nonce="__NONCE__">
"use strict";
const PREFIX = __PREFIX__;
const CRAWLERS = __CRAWLERS__;
const KEY = "robots-edge-token";
const $ = (id) => document.getElementById(id);
let liveText = "";

function say(text) { $("message").textContent = text; }

async function api(method, path, body) {
  const token = sessionStorage.getItem(KEY);
  const init = { method, headers: { authorization: "Bearer " + token } };
  if (body !== undefined) { init.body = JSON.stringify(body); init.headers["content-type"] = "application/json"; }
  const response = await fetch(PREFIX + path, init);
  if (response.status === 401) { signOut("That token was not accepted."); throw new Error("unauthorised"); }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
  return data;
}

function signOut(reason) {
  sessionStorage.removeItem(KEY);
  $("app").classList.add("hidden");
  $("login").classList.remove("hidden");
  say(reason || "");
  $("token").focus();
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

async function start() {
  const status = await api("GET", "status");
  $("login").classList.add("hidden");
  $("app").classList.remove("hidden");
  say("");
  const select = $("origin");
  select.replaceChildren();
  for (const origin of status.origins) select.append(el("option", origin.authority));
  if (status.origins.length === 0 && status.proxy) select.append(el("option", status.proxy));
  showPause(status.pause);
  await showOrigin();
}

function showPause(pause) {
  $("pause-state").textContent = pause
    ? "Paused until " + new Date(pause.until).toISOString() + (pause.reason ? " (" + pause.reason + ")" : "") + ": crawlers and /robots.txt get 503, Retry-After " + pause.retryAfter + " s."
    : "Not paused.";
}

async function showOrigin() {
  const origin = $("origin").value;
  if (!origin) { $("file-note").textContent = "No origin known yet: fetch robots.txt first."; return; }
  const view = await api("GET", "robots?origin=" + encodeURIComponent(origin));
  const status = $("fetch-status");
  status.replaceChildren();
  const facts = [["State", view.status.state], ["Fetched at", view.status.lastFetchAt], ["Origin status", String(view.status.lastStatus)],
    ["Expires", view.status.expiresAt], ["Last error", view.status.lastError || "none"],
    ["Diagnostics", view.status.diagnostics.error + " errors, " + view.status.diagnostics.warning + " warnings"]];
  for (const [name, value] of facts) status.append(el("dt", name), el("dd", value));
  liveText = view.text || "";
  $("file-note").textContent = view.inForce ? "" : "Not in force (state: " + view.status.state + "); last good copy shown.";
  const byLine = new Map();
  for (const d of view.diagnostics) if (d.line > 0) byLine.set(d.line, [...(byLine.get(d.line) || []), d]);
  const file = $("file");
  file.replaceChildren();
  liveText.split(/\\r\\n|\\r|\\n/).forEach((text, index) => {
    const line = index + 1;
    const item = el("li", text);
    item.id = "L" + line;
    const diagnostics = byLine.get(line) || [];
    const worst = ["error", "warning", "info"].find((level) => diagnostics.some((d) => d.severity === level));
    if (worst) item.classList.add(worst);
    for (const d of diagnostics) item.append(el("span", d.severity + ": " + d.message, "diag"));
    file.append(item);
  });
  const groups = $("groups");
  groups.replaceChildren();
  for (const group of view.groups) groups.append(el("li", group.agents.join(", ") + " — line " + group.lines.join(", ") + ", " + group.rules + " rules"));
  if (!$("draft").value) $("draft").value = liveText;
}

function highlight(line) {
  for (const node of document.querySelectorAll(".file li.hit")) node.classList.remove("hit");
  if (!line) return;
  const item = $("L" + line);
  if (item) { item.classList.add("hit"); item.scrollIntoView({ block: "nearest" }); }
}

function describe(result) {
  const where = result.layer === "policy" && result.policy && result.policy.rule
    ? "operator policy: " + result.policy.rule.action + " under " + result.policy.route + " (route " + (result.policy.routeIndex + 1) + ")"
    : result.rule ? result.rule.kind + ": " + result.rule.pattern + " (line " + result.rule.line + ")" : result.reason;
  const action = result.action.action + (result.action.status ? " " + result.action.status : "");
  return { decision: result.allowed ? "allowed" : "disallowed", action, group: result.group ? result.group.token : "none", where };
}

async function run() {
  const urls = $("urls").value.split("\\n").map((u) => u.trim()).filter(Boolean);
  const draftMode = $("draft-mode").checked;
  const body = { ua: $("ua").value, urls };
  if (draftMode) body.draft = $("draft").value;
  const data = await api("POST", "test?origin=" + encodeURIComponent($("origin").value), body);
  const head = $("results").tHead;
  head.replaceChildren();
  const headRow = el("tr");
  for (const name of draftMode ? ["URL", "Live", "Draft"] : ["URL", "Decision", "Action", "Group", "Deciding rule"]) headRow.append(el("th", name));
  head.append(headRow);
  const tbody = $("results").tBodies[0];
  tbody.replaceChildren();
  for (const result of data.results) {
    const row = el("tr");
    const live = describe(result.live);
    row.append(el("td", result.url));
    if (draftMode) {
      const draft = describe(result.draft);
      row.append(el("td", live.decision + ", " + live.action + " — " + live.where, result.live.allowed ? "allowed" : "disallowed"));
      row.append(el("td", draft.decision + ", " + draft.action + " — " + draft.where, result.draft.allowed ? "allowed" : "disallowed"));
      if (result.differs) row.classList.add("differs");
    } else {
      row.append(el("td", live.decision, result.live.allowed ? "allowed" : "disallowed"), el("td", live.action), el("td", live.group));
      const cell = el("td");
      const button = el("button", live.where, "secondary");
      button.type = "button";
      button.addEventListener("click", () => highlight(result.live.rule && result.live.rule.line));
      cell.append(button);
      row.append(cell);
    }
    tbody.append(row);
  }
  const first = data.results.find((r) => r.live.rule);
  if (!draftMode) highlight(first && first.live.rule.line);
  say(draftMode ? data.results.filter((r) => r.differs).length + " URL(s) decided differently by the draft." : "");
}

function guard(action) { return () => action().catch((error) => { if (error.message !== "unauthorised") say(error.message); }); }

for (const token of CRAWLERS) $("crawler").append(el("option", token));
$("crawler").addEventListener("change", () => { if ($("crawler").value) $("ua").value = "Mozilla/5.0 (compatible; " + $("crawler").value + "/1.0)"; });
$("login-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("token").value);
  $("token").value = "";
  guard(start)();
});
$("signout").addEventListener("click", () => signOut("Signed out."));
$("origin").addEventListener("change", guard(showOrigin));
$("refresh").addEventListener("click", guard(async () => { await api("POST", "refresh?origin=" + encodeURIComponent($("origin").value)); await start(); say("Fetched."); }));
$("pause-start").addEventListener("click", guard(async () => { const data = await api("POST", "pause", { minutes: Number($("pause-minutes").value) }); showPause(data.pause); say(data.warning || "Pause started."); }));
$("pause-end").addEventListener("click", guard(async () => { await api("DELETE", "pause"); showPause(null); say("Pause ended."); }));
$("run").addEventListener("click", guard(run));
$("draft-mode").addEventListener("change", () => $("draft-box").classList.toggle("hidden", !$("draft-mode").checked));
if (sessionStorage.getItem(KEY)) guard(start)(); else $("token").focus();
</script>
</body>
</html>
`;
