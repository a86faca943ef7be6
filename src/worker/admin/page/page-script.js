// @ts-check
// The operator page's script (served inline under a nonce by admin/page.ts). Checked by TypeScript
// through JSDoc (tsconfig.page.json); the server's data comes in the JSON block #page-data.
"use strict";
/** @type {{ prefix: string, crawlers: string[] }} */
const PAGE_DATA = JSON.parse(document.getElementById("page-data")?.textContent ?? "{}");
const PREFIX = PAGE_DATA.prefix;
const CRAWLERS = PAGE_DATA.crawlers;
const KEY = "robots-edge-token";
/**
 * The page's form controls by id (inputs, selects and textareas all read as an input here).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** The results table. */
const resultsTable = () => /** @type {HTMLTableElement} */ (document.getElementById("results"));
let liveText = "";
/**
 * The words the edge tells what happened in (src/vocabulary.ts), as GET status hands them over:
 * the page keeps no list of its own.
 * @type {{ actions: string[], countedActions: string[], actionLabels: Record<string, string>, layerLabels: Record<string, string> }}
 */
let vocabulary = { actions: [], countedActions: [], actionLabels: {}, layerLabels: {} };

function say(text) {
  $("message").textContent = text;
}

async function api(method, path, body) {
  const token = sessionStorage.getItem(KEY);
  const init = { method, headers: { authorization: "Bearer " + token } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(PREFIX + path, init);
  if (response.status === 401) {
    signOut("That token was not accepted.");
    throw new Error("unauthorised");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || "HTTP " + response.status);
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
  vocabulary = status.vocabulary;
  $("login").classList.add("hidden");
  $("app").classList.remove("hidden");
  say("");
  const select = $("origin");
  select.replaceChildren();
  for (const origin of status.origins) select.append(el("option", origin.authority));
  if (status.origins.length === 0 && status.proxy) select.append(el("option", status.proxy));
  showEdgeNow(status.edge, status.identity, status.identityChecks, status.objects);
  showPause(status.edge.pause);
  await showOrigin();
  await fillPolicyHosts(status);
  await loadPolicy();
}

/**
 * The host picker of the policy editor (route mode with AUTHORITIES only): the default, every
 * host with a policy of its own (GET policies, every page), and the hosts and patterns the edge
 * serves, so a host without a policy yet can get one.
 * @param {{ proxy: string | null, authorities: string[] | null, origins: { authority: string }[] }} status
 */
async function fillPolicyHosts(status) {
  const select = $("policy-host");
  const picked = select.value;
  const usable = !status.proxy && Array.isArray(status.authorities);
  $("policy-host-box").classList.toggle("hidden", !usable);
  const fallback = el("option", "default (hosts without their own)");
  fallback.value = "";
  select.replaceChildren(fallback);
  if (!usable) return;
  /** @type {Map<string, string>} */
  const hosts = new Map();
  let cursor = "";
  for (let page = 0; page < 10; page++) {
    const { status: code, data } = await policyCall(
      "GET",
      "policies?limit=1000" + (cursor && "&cursor=" + cursor),
      undefined,
    );
    if (code !== 200) break;
    for (const entry of data.hosts) hosts.set(entry.host, entry.host + " (version " + entry.version + ")");
    if (!data.next) break;
    cursor = data.next;
  }
  for (const name of status.authorities) if (!hosts.has(name)) hosts.set(name, name + " (none of its own)");
  for (const origin of status.origins) {
    const name = new URL(origin.authority).host;
    if (!hosts.has(name)) hosts.set(name, name + " (none of its own)");
  }
  for (const [name, label] of [...hosts].toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const option = el("option", label);
    option.value = name;
    select.append(option);
  }
  select.value = hosts.has(picked) ? picked : "";
}

/** `?host=…` of the picked policy ("" for the default), to append to a policy route. */
function policyHostQuery(separator = "?") {
  const host = $("policy-host").value;
  return host ? separator + "host=" + encodeURIComponent(host) : "";
}

/** A banner's list: shown with its items (text, or a node), hidden when there are none. */
function showBanner(id, items) {
  const list = $(id + "-list");
  list.replaceChildren(...items.map((item) => (typeof item === "string" ? el("li", item) : item)));
  $(id).classList.toggle("hidden", items.length === 0);
}

/**
 * The crawler lists' warnings as one collapsed item, the count in its summary and each warning
 * behind it: 18 lists not loaded yet would otherwise push the page below the fold.
 */
function listWarnings(warnings) {
  if (warnings.length <= 1) return warnings;
  const details = el("details");
  details.id = "list-warnings";
  const each = el("ul");
  each.append(...warnings.map((warning) => el("li", warning)));
  details.append(
    el("summary", warnings.length + " crawler lists not loaded or out of date: each says what that does here"),
    each,
  );
  const item = el("li");
  item.append(details);
  return [item];
}

/** Whether the edge uses the crawler lists at all: not with VERIFY_CRAWLERS and DISGUISED_CRAWLERS off (npm run dev). */
function listsUnused(checks) {
  return Boolean(checks) && checks.verifyCrawlers === "off" && checks.disguisedCrawlers === "off";
}

/**
 * What the edge does now: the mode and why, the pause, every problem and warning, and the
 * identity sources (each published list's age and last error, reverse DNS, Cloudflare).
 */
function showEdgeNow(now, identity, checks, objects) {
  // The Durable Objects' storage problems (GET status `objects`) join the edge's own.
  showBanner("problems", [...now.problems, ...((objects && objects.problems) || [])]);
  showBanner("warnings", [...now.warnings, ...listWarnings((identity && identity.warnings) || [])]);
  const facts = [
    ["Mode", now.mode.mode + " — " + now.mode.why],
    [
      "Crawl pause",
      now.pause
        ? "until " + now.pause.until + (now.pause.reason ? " (" + now.pause.reason + ")" : "") + ": crawlers get 503"
        : "none",
    ],
  ];
  if (!now.forwarding) facts.push(["Forwarding", "none: ORIGIN_URL is unusable, every request gets 502"]);
  // The published crawler lists in one line; a list whose last fetch failed gets its own.
  const lists = (identity && identity.lists) || [];
  const loaded = lists.filter((list) => list.ageSeconds !== null);
  if (listsUnused(checks)) facts.push(["Crawler lists", "identity checks are off here: crawler lists are not used"]);
  else if (lists.length > 0) {
    const oldest = Math.max(0, ...loaded.map((list) => list.ageSeconds));
    facts.push([
      "Crawler lists",
      loaded.length +
        " of " +
        lists.length +
        " loaded" +
        (loaded.length ? ", oldest " + Math.round(oldest / 60) + " min" : ""),
    ]);
  }
  for (const list of listsUnused(checks) ? [] : lists.filter((entry) => entry.lastError))
    facts.push(["List " + list.name, "last fetch failed: " + list.lastError]);
  if (identity && identity.reverseDns && !listsUnused(checks))
    facts.push([
      "Reverse DNS",
      identity.reverseDns.resolver +
        (identity.reverseDns.lastError ? "; last error: " + identity.reverseDns.lastError : ""),
    ]);
  const list = $("edge-now");
  list.replaceChildren();
  for (const [name, value] of facts) list.append(el("dt", name), el("dd", value));
}

/** After a change (a pause): what the edge does now, read back from the edge rather than assumed. */
async function refreshEdgeNow() {
  const status = await api("GET", "status?limit=1");
  showEdgeNow(status.edge, status.identity, status.identityChecks, status.objects);
  showPause(status.edge.pause);
}

function showPause(pause) {
  $("pause-state").textContent = pause
    ? "Paused until " +
      new Date(pause.until).toISOString() +
      (pause.reason ? " (" + pause.reason + ")" : "") +
      ": crawlers and /robots.txt get 503, Retry-After " +
      pause.retryAfter +
      " s."
    : "Not paused.";
}

/** The Origin panel's facts: the stored copy's state and its origin's last answer. */
function showFetchStatus(view) {
  const status = $("fetch-status");
  status.replaceChildren();
  const facts = [
    // The stored copy's state: "ok" while a good copy is kept through an origin that stopped
    // answering (RFC 9309 §2.3.1.4); the last answer and error below say how the origin is now.
    ["Copy in force", view.status.state],
    ["Fetched at", view.status.lastFetchAt],
    ["Origin status", view.status.lastStatus === null ? "no answer" : String(view.status.lastStatus)],
    ["Expires", view.status.expiresAt],
    ["Last error", view.status.lastError || "none"],
    ["Diagnostics", view.status.diagnostics.error + " errors, " + view.status.diagnostics.warning + " warnings"],
  ];
  for (const [name, value] of facts) status.append(el("dt", name), el("dd", value));
}

/** The origin's stored robots.txt, as the edge holds it now. */
async function robotsView() {
  return api("GET", "robots?origin=" + encodeURIComponent($("origin").value));
}

/**
 * Back on the tab: the status and the Origin panel's facts are read again together, so the
 * panel never says what the banner above it no longer does (an origin gone unreachable). The
 * file and the tester's draft are left as they are: the operator may be reading or editing.
 */
async function refreshOnFocus() {
  await refreshEdgeNow();
  if ($("origin").value) showFetchStatus(await robotsView());
}

async function showOrigin() {
  const origin = $("origin").value;
  if (!origin) {
    $("file-note").textContent = "No origin known yet: fetch robots.txt first.";
    return;
  }
  const view = await robotsView();
  showFetchStatus(view);
  liveText = view.text || "";
  const generatedCount = view.generatedLines || 0;
  $("file-note").textContent = !view.inForce
    ? "Not in force (state: " + view.status.state + "); last good copy shown."
    : generatedCount > 0
      ? "As served: lines g1–g" +
        generatedCount +
        " are generated from the purposes, then the origin's file with its own line numbers."
      : "";
  const byLine = new Map();
  for (const d of view.diagnostics) if (d.line > 0) byLine.set(d.line, [...(byLine.get(d.line) || []), d]);
  const file = $("file");
  file.replaceChildren();
  // The served file: its first `generatedLines` lines generated from the purposes (g1, g2, …),
  // then the origin's, numbered as in the origin's file: the numbers every report cites.
  const generated = generatedCount;
  liveText.split(/\r\n|\r|\n/).forEach((text, index) => {
    const line = index < generated ? -(index + 1) : index + 1 - generated;
    const item = el("li", text);
    item.id = "L" + lineLabel(line);
    item.dataset.line = lineLabel(line);
    if (line < 0) item.classList.add("generated");
    const diagnostics = byLine.get(line) || [];
    const worst = ["error", "warning", "info"].find((level) => diagnostics.some((d) => d.severity === level));
    if (worst) item.classList.add(worst);
    for (const d of diagnostics) item.append(el("span", d.severity + ": " + d.message, "diag"));
    file.append(item);
  });
  const groups = $("groups");
  groups.replaceChildren();
  for (const group of view.groups)
    groups.append(
      el(
        "li",
        group.agents.join(", ") + " — line " + group.lines.map(lineLabel).join(", ") + ", " + group.rules + " rules",
      ),
    );
  // A draft is the origin's file; the tester applies the purposes to it as to the live one.
  if (!$("draft").value) $("draft").value = view.originText === undefined ? liveText : view.originText || "";
  await showActivity();
  await showCharges();
}

/** The prices the policy in force states (its `charge` rules), one line each. */
function showTerms(policy) {
  const list = $("terms-prices");
  list.replaceChildren();
  for (const route of (policy && policy.routes) || []) {
    for (const rule of route.rules || []) {
      if (rule.action !== "charge") continue;
      list.append(el("li", route.pattern + ": " + rule.crawlers.join(", ") + " pay " + rule.price + " per page"));
    }
  }
  if (!list.firstChild) list.append(el("li", "No prices: no charge rule in the policy in force.", "muted"));
}

/** The charges ledger of the origin shown (GET charges): totals per operator, and the rows. */
async function showCharges() {
  const origin = $("origin").value;
  if (!origin) return;
  const data = await api("GET", "charges?origin=" + encodeURIComponent(origin));
  const totals = (data.totals || []).map((t) => t.operator + ": " + t.charges + " charges, " + t.total);
  $("charges-summary").textContent =
    (data.warning ? data.warning + ". " : "") +
    (totals.length
      ? "Owed over the period (not settled here): " + totals.join("; ") + "."
      : "No charges in the period.");
  const body = /** @type {HTMLTableElement} */ (document.getElementById("charges-table")).tBodies[0];
  body.replaceChildren();
  for (const row of data.charges || []) {
    const tr = el("tr");
    tr.append(
      el("td", row.time.slice(0, 19).replace("T", " ")),
      el("td", row.operator),
      el("td", row.crawler),
      el("td", row.path),
      el("td", row.price),
      el("td", row.header + ": " + row.offered),
    );
    body.append(tr);
  }
}

/**
 * A line as the edge cites it (policy/served-lines.ts): an origin line by its number, a line
 * generated from the purposes as g<n> (JSON gives it as -n).
 * @param {number} line
 */
function lineLabel(line) {
  return line < 0 ? "g" + -line : String(line);
}

/** @param {number} line */
function lineWords(line) {
  return line < 0 ? "generated line " + -line : "line " + line;
}

/** @param {number | null | undefined} line */
function highlight(line) {
  for (const node of document.querySelectorAll(".file li.hit")) node.classList.remove("hit");
  if (!line) return;
  const item = $("L" + lineLabel(line));
  if (item) {
    item.classList.add("hit");
    item.scrollIntoView({ block: "nearest" });
  }
}

function describe(result) {
  // During a pause, the line that decides once it ends (the tester's `afterPause`).
  const by = result.afterPause || result;
  // The readings of robots.txt disagree for this crawler (policy/readings.ts): not refused, and why.
  const disputed = by.reading
    ? "not refused, readings disagree on " +
      by.reading.text +
      " (" +
      lineWords(by.reading.line) +
      "): " +
      by.reading.reason
    : "";
  const where =
    disputed ||
    (by.layer === "licence" && by.line
      ? by.line.text + " (" + (by.terms ? by.terms.licenceCheck : "missing") + ")"
      : "") ||
    (by.layer === "policy" && by.policy && by.policy.rule
      ? "operator policy: " +
        by.policy.rule.action +
        " under " +
        by.policy.route +
        " (route " +
        (by.policy.routeIndex + 1) +
        ")"
      : by.usage
        ? by.usage.message
        : by.rule
          ? by.rule.kind + ": " + by.rule.pattern + " (" + lineWords(by.rule.line) + ")"
          : by.reason);
  // The edge's own decision: a pass held to rate lines says when it would be limited.
  const action =
    result.action.action +
    (result.action.status ? " " + result.action.status : "") +
    (result.action.rateLimit ? " (" + result.action.rateLimit + ")" : "") +
    // A `charge` rule's price (the record's charge): charged, or the crawler-error it answered.
    (result.charge
      ? result.charge.charged
        ? "; charged " + result.charge.price
        : "; crawler-price " + result.charge.price + (result.charge.error ? ", " + result.charge.error : "")
      : "");
  const answer = verdictOf(result);
  return {
    decision: answer.text,
    className: answer.className,
    action,
    group: result.group ? result.group.token : "none",
    where: where + termsText(result.terms),
  };
}

/** The site's terms on this answer, as the record says them (policy/terms.ts): licence link and check, TDM reservation. */
function termsText(terms) {
  if (!terms) return "";
  const parts = [];
  if (terms.licence) parts.push("licence " + terms.licence);
  if (terms.licenceCheck !== "not-required") parts.push("licence check: " + terms.licenceCheck);
  if (terms.tdmReservation) parts.push("tdm-reservation: 1" + (terms.tdmPolicy ? " (" + terms.tdmPolicy + ")" : ""));
  return parts.length > 0 ? "; terms: " + parts.join(", ") : "";
}

/**
 * The decision in a word, as the edge answers it: a 503, 429 or 502 says its status and the layer
 * that answered it (during a pause "503 crawl pause"), never a green "allowed".
 */
function verdictOf(result) {
  const held = result.action.status !== null && result.action.action !== "block";
  // During a pause the rules' verdict stands beside the 503: "503 crawl pause; robots.txt: disallowed".
  const beside = result.afterPause
    ? "; " + (result.afterPause.layer === "policy" ? "operator policy" : "robots.txt") + ": " + allowedText(result)
    : "";
  if (held) return { text: result.action.status + " " + layerName(result.layer) + beside, className: "held" };
  return { text: allowedText(result), className: result.allowed ? "allowed" : "disallowed" };
}

function allowedText(result) {
  return result.allowed ? "allowed" : "disallowed";
}

function actionName(action) {
  return vocabulary.actionLabels[action] || action;
}

function layerName(layer) {
  return vocabulary.layerLabels[layer] || layer;
}

// How the tested User-Agent's crawler claim is verified, or why not (the same for every URL).
function verificationText(verification) {
  if (!verification || verification.why === "not-claimed") return "";
  const how =
    verification.status === "verified"
      ? "Verified by " + verification.method + ": "
      : verification.status === "refuted"
        ? "Refuted (impostor): "
        : "Unverifiable: ";
  return how + verification.reason;
}

/** A tested URL's deciding rule: during a pause, the one that decides once it ends. */
function decidingRuleOf(result) {
  return (result.live.afterPause || result.live).rule;
}

async function run() {
  const urls = $("urls")
    .value.split("\n")
    .map((u) => u.trim())
    .filter(Boolean);
  const draftMode = $("draft-mode").checked;
  const body = { ua: $("ua").value, urls };
  if (draftMode) body.draft = $("draft").value;
  const data = await api("POST", "test?origin=" + encodeURIComponent($("origin").value), body);
  const head = resultsTable().tHead;
  head.replaceChildren();
  const headRow = el("tr");
  for (const name of draftMode ? ["URL", "Live", "Draft"] : ["URL", "Decision", "Action", "Group", "Deciding rule"])
    headRow.append(el("th", name));
  head.append(headRow);
  const tbody = resultsTable().tBodies[0];
  tbody.replaceChildren();
  for (const result of data.results) {
    const row = el("tr");
    const live = describe(result.live);
    row.append(el("td", result.url));
    if (draftMode) {
      const draft = describe(result.draft);
      row.append(el("td", live.decision + ", " + live.action + " — " + live.where, live.className));
      row.append(el("td", draft.decision + ", " + draft.action + " — " + draft.where, draft.className));
      if (result.differs) row.classList.add("differs");
    } else {
      row.append(el("td", live.decision, live.className), el("td", live.action), el("td", live.group));
      const cell = el("td");
      const button = el("button", live.where, "secondary");
      button.type = "button";
      const deciding = result.live.afterPause || result.live;
      button.addEventListener("click", () => highlight(deciding.rule && deciding.rule.line));
      cell.append(button);
      row.append(cell);
    }
    tbody.append(row);
  }
  const first = data.results.find(decidingRuleOf);
  if (!draftMode) highlight(first && decidingRuleOf(first).line);
  const differing = data.results.filter((r) => r.differs).length + " URL(s) decided differently by the draft.";
  const afterPause = data.results.filter((r) => r.differsAfterPause).length;
  // Beside the tester, not in the page's message line at the top: it is about these results.
  // A long list stops at the work budget: the edge's own note says which URLs were judged.
  const budgetNote = data.partial && data.note ? " Only part was judged: " + data.note + "." : "";
  $("test-note").textContent =
    (!draftMode
      ? verificationText(data.results[0] && data.results[0].live.verification)
      : data.paused
        ? "Crawling is paused: every crawler gets 503 now, live and draft alike. Once the pause ends, " +
          afterPause +
          " URL(s) would be decided differently by the draft."
        : differing) + budgetNote;
  if (draftMode) await replayDraft();
}

// --- Activity -------------------------------------------------------------------------

/** The chart's colour per action (page.css has the legend's); an action without one is grey. */
const ACTION_COLOURS = {
  pass: "#1e7b34",
  block: "#b3261e",
  report: "#a06a00",
  unavailable: "#6750a4",
  "rate-limited": "#0b57d0",
  "serve-robots-txt": "#5f6368",
};
/** The chart's element: written in the HTML, so its children get the SVG namespace from it. */
const chartElement = () =>
  /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById("activity-svg")));
/** @type {any} */
let activityData = null;

/**
 * An SVG element with attributes (presentation attributes, not style: the CSP allows them).
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 */
function svg(tag, attributes) {
  const node = document.createElementNS(chartElement().namespaceURI, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** "2026-11-23T10:00:00.000Z" -> "11-23 10:00" for an hour, "11-23" for a day. */
function shortStart(iso) {
  return activityData && activityData.bucket === "day" ? iso.slice(5, 10) : iso.slice(5, 10) + " " + iso.slice(11, 16);
}

async function showActivity() {
  const origin = $("origin").value;
  if (!origin) return;
  activityData = await api(
    "GET",
    "activity?origin=" + encodeURIComponent(origin) + "&hours=" + $("activity-hours").value + "&recent=50",
  );
  const select = $("activity-crawler");
  const chosen = select.value;
  select.replaceChildren(el("option", "All crawlers"));
  /** @type {HTMLOptionElement} */ (select.firstChild).value = "";
  for (const crawler of activityData.crawlers) select.append(el("option", crawler.token));
  select.value = activityData.crawlers.some((c) => c.token === chosen) ? chosen : "";
  const operators = $("ledger-operator");
  const chosenOperator = operators.value;
  operators.replaceChildren(el("option", "All operators"));
  /** @type {HTMLOptionElement} */ (operators.firstChild).value = "";
  for (const row of activityData.operators || []) operators.append(el("option", row.operator));
  operators.value = (activityData.operators || []).some((row) => row.operator === chosenOperator) ? chosenOperator : "";
  showActivitySection();
}

/** The chosen crawler's entry, or undefined for all crawlers. */
function chosenCrawler() {
  const chosen = $("activity-crawler").value;
  return chosen ? activityData.crawlers.find((c) => c.token === chosen) : undefined;
}

/** Everything in the Activity section, for all crawlers or the one chosen. */
function showActivitySection() {
  const crawler = chosenCrawler();
  const t = crawler
    ? { ...crawler.total, crawlerRequests: crawler.requests, humanRequests: activityData.totals.humanRequests }
    : activityData.totals;
  const problems = (activityData.problems || []).map((problem) => "Stored data problem: " + problem + ". ").join("");
  $("activity-summary").textContent =
    problems +
    (activityData.recording ? "" : (activityData.warning || "Not recording") + ". ") +
    (crawler ? crawler.token + ": " : "") +
    t.crawlerRequests +
    " crawler requests (" +
    vocabulary.countedActions.map((action) => actionName(action) + ": " + t[action]).join(", ") +
    ") and " +
    t.humanRequests +
    " from people since " +
    activityData.from.slice(0, 16).replace("T", " ") +
    " UTC.";
  drawChart();
  fillActivityTable();
  showLedger();
  fillBlockedPaths();
  fillViolations();
  fillRecent();
}

/** Requests per hour (a day beyond 48 hours), stacked by action: all crawlers, or the one chosen. */
function drawChart() {
  const crawler = chosenCrawler();
  // One crawler's series (the answer carries them for the 25 busiest), or all crawlers together.
  const series = crawler ? crawler.series : activityData.series;
  const hours = activityData.buckets;
  $("activity-chart-caption").textContent =
    crawler && series.length === 0
      ? crawler.token + ": no chart (series are kept for the 25 busiest crawlers); the table below has its numbers."
      : "Crawler requests per " + activityData.bucket + ", stacked by action. The table below holds the same numbers.";
  const stacks = series.map((counts) => ({ hour: counts.start, counts }));
  const highest = Math.max(1, ...stacks.map((s) => vocabulary.countedActions.reduce((sum, a) => sum + s.counts[a], 0)));
  // Drawn at the width it is shown at, so its text stays readable on a phone.
  const width = Math.round(Math.min(960, Math.max(300, chartElement().clientWidth || 720)));
  const height = 220;
  const left = 40;
  const bottom = 24;
  const plot = height - bottom - 8;
  const step = (width - left) / Math.max(1, hours.length);
  const chart = chartElement();
  chart.replaceChildren();
  chart.setAttribute("viewBox", "0 0 " + width + " " + height);
  chart.append(svg("line", { x1: left, y1: 8 + plot, x2: width, y2: 8 + plot, stroke: "#888" }));
  const top = svg("text", { x: left - 6, y: 16, "text-anchor": "end", "font-size": 12, fill: "#444" });
  top.textContent = String(highest);
  const zero = svg("text", { x: left - 6, y: 8 + plot, "text-anchor": "end", "font-size": 12, fill: "#444" });
  zero.textContent = "0";
  chart.append(top, zero);
  stacks.forEach((stack, i) => {
    let y = 8 + plot;
    for (const action of vocabulary.countedActions) {
      const count = stack.counts[action];
      if (!count) continue;
      const h = (count / highest) * plot;
      y -= h;
      const bar = svg("rect", {
        x: left + i * step + step * 0.1,
        y,
        width: Math.max(1, step * 0.8),
        height: h,
        fill: ACTION_COLOURS[action] || "#999",
        class: "bar " + action,
        "data-hour": stack.hour,
        "data-count": count,
      });
      const title = svg("title", {});
      title.textContent = shortStart(stack.hour) + " UTC: " + count + " " + actionName(action);
      bar.append(title);
      chart.append(bar);
    }
  });
  const labelEvery = Math.max(1, Math.ceil(hours.length / Math.max(2, Math.floor(width / 110))));
  hours.forEach((hour, i) => {
    const last = i === hours.length - 1;
    // A label is ~70 px wide; the last one is drawn right-aligned, so none may come too close to it.
    if (!last && (i % labelEvery !== 0 || width - (left + i * step + step / 2) < 110)) return;
    const label = svg("text", {
      x: i === hours.length - 1 ? width : left + i * step + step / 2,
      y: height - 6,
      "text-anchor": i === hours.length - 1 ? "end" : "middle",
      "font-size": 11,
      fill: "#444",
    });
    label.textContent = shortStart(hour);
    chart.append(label);
  });
  const legend = $("activity-legend");
  legend.replaceChildren();
  for (const action of vocabulary.countedActions) {
    const item = el("li");
    item.append(el("span", undefined, "swatch " + action), document.createTextNode(actionName(action)));
    legend.append(item);
  }
}

/** The colours of the ledger's two bars (the legend's swatches in page.css). */
const LEDGER_COLOURS = { crawls: "#b3261e", referrals: "#1e7b34" };
const LEDGER_NAMES = { crawls: "crawls", referrals: "referred visits" };

/** What each operator gives back: the chart for all operators or the one chosen, and the table. */
function showLedger() {
  const rows = activityData.operators || [];
  const chosen = $("ledger-operator").value;
  const shown = chosen ? rows.filter((row) => row.operator === chosen) : rows;
  drawLedgerChart(shown, chosen);
  const body = tableBody("ledger-table");
  for (const row of shown) {
    body.append(
      tableRow([
        row.operator,
        row.crawls,
        row.verified,
        row.referrals,
        row.crawlsPerReferral === null ? "none referred" : row.crawlsPerReferral + " : 1",
        row.bytes,
      ]),
    );
  }
  if (rows.length === 0) body.append(tableRow(["No crawls or referrals of a known operator in this period."]));
}

/**
 * Crawls and referred visits per bucket, side by side on one scale (summed over the operators
 * shown), drawn the way drawChart draws requests.
 */
function drawLedgerChart(rows, chosen) {
  const buckets = activityData.buckets;
  const sums = buckets.map((bucket, i) => ({
    start: bucket,
    crawls: rows.reduce((sum, row) => sum + (row.series[i] ? row.series[i].crawls : 0), 0),
    referrals: rows.reduce((sum, row) => sum + (row.series[i] ? row.series[i].referrals : 0), 0),
  }));
  $("ledger-chart-caption").textContent =
    (chosen ? chosen + ": c" : "C") +
    "rawls and referred visits per " +
    activityData.bucket +
    ". The table below holds the same numbers.";
  const highest = Math.max(1, ...sums.map((s) => Math.max(s.crawls, s.referrals)));
  const chart = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById("ledger-svg")));
  const width = Math.round(Math.min(960, Math.max(300, chart.clientWidth || 720)));
  const height = 180;
  const left = 40;
  const bottom = 24;
  const plot = height - bottom - 8;
  const step = (width - left) / Math.max(1, buckets.length);
  chart.replaceChildren();
  chart.setAttribute("viewBox", "0 0 " + width + " " + height);
  chart.append(svg("line", { x1: left, y1: 8 + plot, x2: width, y2: 8 + plot, stroke: "#888" }));
  const top = svg("text", { x: left - 6, y: 16, "text-anchor": "end", "font-size": 12, fill: "#444" });
  top.textContent = String(highest);
  chart.append(top);
  sums.forEach((sum, i) => {
    ["crawls", "referrals"].forEach((what, k) => {
      const count = sum[what];
      if (!count) return;
      const h = (count / highest) * plot;
      const bar = svg("rect", {
        x: left + i * step + step * 0.1 + k * step * 0.4,
        y: 8 + plot - h,
        width: Math.max(1, step * 0.4),
        height: h,
        fill: LEDGER_COLOURS[what],
        class: "bar " + what,
        "data-hour": sum.start,
        "data-count": count,
      });
      const title = svg("title", {});
      title.textContent = shortStart(sum.start) + " UTC: " + count + " " + LEDGER_NAMES[what];
      bar.append(title);
      chart.append(bar);
    });
  });
  const last = svg("text", { x: width, y: height - 6, "text-anchor": "end", "font-size": 11, fill: "#444" });
  last.textContent = buckets.length > 0 ? shortStart(buckets[buckets.length - 1]) : "";
  const first = svg("text", { x: left, y: height - 6, "text-anchor": "start", "font-size": 11, fill: "#444" });
  first.textContent = buckets.length > 1 ? shortStart(buckets[0]) : "";
  chart.append(first, last);
}

/** A table row of cells; numbers right-aligned. */
function tableRow(cells) {
  const row = el("tr");
  for (const cell of cells) {
    const text = cell === null || cell === undefined ? "" : String(cell);
    row.append(el("td", text, typeof cell === "number" ? "number" : undefined));
  }
  return row;
}

function tableBody(id) {
  const body = /** @type {HTMLTableElement} */ (document.getElementById(id)).tBodies[0];
  body.replaceChildren();
  return body;
}

/** Rows of the chosen crawler only, or all. */
function forChosen(rows) {
  const crawler = chosenCrawler();
  return crawler ? rows.filter((row) => row.token === crawler.token) : rows;
}

function fillActivityTable() {
  const head = /** @type {HTMLTableElement} */ (document.getElementById("activity-table")).tHead;
  const headRow = el("tr");
  const columns = ["Crawler", "Category", "Requests", ...vocabulary.countedActions.map(actionName)];
  for (const name of [...columns, "Verified", "Refuted", "Unverifiable", "Unchecked", "Disguised", "Violations"]) {
    const th = el("th", name);
    th.scope = "col";
    headRow.append(th);
  }
  head?.replaceChildren(headRow);
  const body = tableBody("activity-table");
  for (const c of forChosen(activityData.crawlers)) {
    const row = tableRow([
      c.names ? c.token + " (" + c.names + " names)" : c.token,
      c.category || "unknown",
      c.requests,
      ...vocabulary.countedActions.map((action) => c.total[action]),
      c.verified.verified,
      c.verified.refuted,
      c.verified.unverifiable,
      c.verified.unchecked,
      c.verified.disguised,
      c.violations,
    ]);
    if (c.verified.refuted > 0) row.children[columns.length + 1].classList.add("impostor");
    // A browser User-Agent from the crawler's own published range (policy/disguise.ts).
    if (c.verified.disguised > 0) row.children[columns.length + 4].classList.add("disguised");
    body.append(row);
  }
  if (activityData.crawlers.length === 0) body.append(tableRow(["No crawler requests in this period."]));
}

function fillBlockedPaths() {
  const list = $("activity-blocked");
  list.replaceChildren();
  // Per crawler and path in the answer; for all crawlers, per path.
  const byPath = new Map();
  for (const entry of forChosen(activityData.topBlockedPaths))
    byPath.set(entry.path, (byPath.get(entry.path) || 0) + entry.count);
  const paths = [...byPath].toSorted((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
  for (const [path, count] of paths) list.append(el("li", path + " — " + count));
  if (paths.length === 0) list.append(el("li", "None blocked."));
}

function fillViolations() {
  const body = tableBody("activity-violations");
  const violations = forChosen(activityData.violations);
  for (const v of violations) body.append(tableRow([v.token, v.verified, v.path, v.count]));
  if (violations.length === 0) body.append(tableRow(["None."]));
}

function fillRecent() {
  const body = tableBody("activity-recent");
  const recent = forChosen(activityData.recent);
  for (const r of recent) {
    body.append(
      tableRow([
        r.time.slice(5, 19).replace("T", " "),
        r.token,
        r.verified,
        r.method + " " + r.path,
        actionName(r.action),
        r.rule ? r.rule + (r.line ? " (" + lineWords(r.line) + ")" : "") : layerName(r.layer),
      ]),
    );
  }
  if (recent.length === 0) body.append(tableRow(["No crawler requests recorded yet."]));
}

/** A replayed outcome in a few words: "Block (line 7)". */
function said(outcome) {
  return actionName(outcome.action) + (outcome.line ? " (" + lineWords(outcome.line) + ")" : "");
}

/** Draft mode: how the draft would have decided the recent crawler requests. */
async function replayDraft() {
  const data = await api("POST", "replay?origin=" + encodeURIComponent($("origin").value), {
    draft: $("draft").value,
  });
  $("replay-summary").textContent =
    "Published, this draft would change " +
    data.changedCount +
    " of the last " +
    data.requests +
    " crawler requests." +
    (data.partial ? " Only the newest " + data.requests + " of " + data.recorded + " were judged (work budget)." : "");
  const table = /** @type {HTMLTableElement} */ (document.getElementById("replay-changes"));
  const head = table.tHead;
  head.replaceChildren();
  $("replay-caption").classList.toggle("hidden", data.changed.length === 0);
  if (data.changed.length > 0) {
    const headRow = el("tr");
    for (const name of ["Crawler", "Request", "Live", "Draft"]) headRow.append(el("th", name));
    head.append(headRow);
  }
  const body = tableBody("replay-changes");
  for (const change of data.changed.slice(0, 20)) {
    body.append(tableRow([change.token, change.method + " " + change.path, said(change.live), said(change.draft)]));
  }
}

// ---- The operator policy editor: GET/PUT policy, POST policy/rollback, replay. ----

/** The version the editor was loaded from: saves send it as If-Match, so none undoes another's. */
let policyVersion = 0;

/**
 * An admin call whose error answers the caller reads itself (problems with lines, 404, 412).
 * @param {string} method
 * @param {string} path
 * @param {string | undefined} body the body as sent, byte for byte (the policy's lines matter)
 * @param {Record<string, string>} [headers]
 */
async function policyCall(method, path, body, headers) {
  const init = {
    method,
    headers: { authorization: "Bearer " + sessionStorage.getItem(KEY), ...headers },
    body,
  };
  if (body !== undefined) init.headers["content-type"] = "application/json";
  const response = await fetch(PREFIX + path, init);
  if (response.status === 401) {
    signOut("That token was not accepted.");
    throw new Error("unauthorised");
  }
  return { status: response.status, data: await response.json().catch(() => ({})) };
}

/**
 * The policy's text for the editor. A policy saved through the API is often one long line of
 * JSON: shown indented (2 spaces), as the page itself saves it. A text with line breaks is
 * shown as its author wrote it; text that is not JSON is shown as it is.
 * @param {string} text
 */
function editableText(text) {
  if (text.includes("\n")) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

async function loadPolicy() {
  const { status, data } = await policyCall("GET", "policy" + policyHostQuery(), undefined);
  if (status !== 200) throw new Error(data.error || "HTTP " + status);
  policyVersion = data.version;
  $("policy-text").value = editableText(data.text || "");
  // A host's requests may be judged by another policy (a pattern's, the default): said first.
  const judged = data.judgedBy
    ? data.judgedBy.host === data.host
      ? ""
      : data.host +
        "'s requests are judged by " +
        (data.judgedBy.host === null ? "the default" : data.judgedBy.host + "'s policy") +
        " (version " +
        data.judgedBy.version +
        "). "
    : "";
  $("policy-state").textContent =
    judged +
    (data.host ? data.host + ": v" : "V") +
    "ersion " +
    data.version +
    " in force" +
    (data.savedAt ? ", saved " + data.savedAt : data.policy ? " (the POLICY var)" : " (no policy)") +
    ". Other isolates apply a new version within about 10 s, other locations when KV's cache there renews (docs/operating.md, Live policy).";
  showPolicyProblems([]);
  showPolicyHistory(data.history, data.version);
  showTerms(data.policy);
  await showLivePurposes();
}

function showPolicyHistory(history, inForce) {
  const body = /** @type {HTMLTableElement} */ (document.getElementById("policy-history")).tBodies[0];
  body.replaceChildren();
  for (const entry of history) {
    const row = el("tr");
    if (entry.version === inForce) row.classList.add("in-force");
    const how = entry.via === "rollback" ? "rollback to " + entry.from : entry.via === "put" ? "saved" : entry.via;
    // A kept version this release cannot use says why (GET policy's `problem`) and offers no rollback.
    const described = entry.problem ? (how ? how + "; " : "") + entry.problem : how || "—";
    row.append(el("td", String(entry.version ?? "?")), el("td", entry.savedAt || "—"), el("td", described));
    const cell = el("td");
    if (entry.problem) cell.append(el("span", "not usable", "error"));
    else if (entry.version !== inForce) {
      const button = el("button", "Roll back to " + entry.version, "secondary");
      button.type = "button";
      button.addEventListener(
        "click",
        guard(() => rollbackPolicy(entry.version)),
      );
      cell.append(button);
    } else cell.append(el("span", "in force", "muted"));
    row.append(cell);
    body.append(row);
  }
}

/**
 * The edited text with each problem on its line (as the robots.txt view shows diagnostics).
 * @param {{ line: number, problem: string }[]} at
 */
function showPolicyProblems(at) {
  const list = $("policy-lines");
  list.replaceChildren();
  list.classList.toggle("hidden", at.length === 0);
  $("policy-problems-note").textContent =
    at.length === 0 ? "" : at.length + " problem(s), shown on their lines below; nothing was saved.";
  if (at.length === 0) return;
  const byLine = new Map();
  for (const entry of at) byLine.set(entry.line, [...(byLine.get(entry.line) || []), entry.problem]);
  $("policy-text")
    .value.split(/\r\n|\r|\n/)
    .forEach((text, index) => {
      const item = el("li", text);
      item.id = "P" + (index + 1);
      const problems = byLine.get(index + 1) || [];
      if (problems.length > 0) item.classList.add("error");
      for (const problem of problems) item.append(el("span", "error: " + problem, "diag"));
      list.append(item);
    });
}

async function savePolicy() {
  const { status, data } = await policyCall("PUT", "policy" + policyHostQuery(), $("policy-text").value, {
    "if-match": '"' + policyVersion + '"',
  });
  if (status === 400 && data.at) {
    showPolicyProblems(data.at);
    say(data.error);
    return;
  }
  if (status !== 200) throw new Error(data.error || "HTTP " + status);
  await loadPolicy();
  say("Saved as version " + data.version + ".");
}

async function rollbackPolicy(version) {
  const { status, data } = await policyCall(
    "POST",
    "policy/rollback" + policyHostQuery(),
    JSON.stringify({ version }),
    {
      "if-match": '"' + policyVersion + '"',
    },
  );
  if (status !== 200) throw new Error(data.error || "HTTP " + status);
  await loadPolicy();
  say("Version " + version + "'s policy is in force again, as version " + data.version + ".");
}

/** A replayed decision: its action and deciding line. */
function replayed(side) {
  if (!side) return "—";
  return side.action + (side.line ? " (" + lineWords(side.line) + ")" : side.rule ? " (" + side.rule + ")" : "");
}

/** "What would this policy change?": the lead's POST replay, on recent crawler requests. */
async function replayPolicy() {
  let policy;
  try {
    policy = JSON.parse($("policy-text").value);
  } catch {
    say("The policy is not JSON; save it to see its problems on their lines.");
    return;
  }
  // A host's draft replays on that host's traffic; a pattern's or the default's on the picked origin's.
  const host = $("policy-host").value;
  const origin = $("origin").value;
  const path =
    host && !host.startsWith("*.")
      ? "replay?host=" + encodeURIComponent(host)
      : "replay" + (origin ? "?origin=" + encodeURIComponent(origin) : "");
  const { status, data } = await policyCall("POST", path, JSON.stringify({ policy }));
  $("policy-replay-box").classList.remove("hidden");
  const body = /** @type {HTMLTableElement} */ (document.getElementById("policy-replay-table")).tBodies[0];
  body.replaceChildren();
  if (status === 404 && String(data.error || "").startsWith("no admin route")) {
    $("policy-replay-summary").textContent = "Replay not available on this edge yet.";
    return;
  }
  if (status !== 200) {
    $("policy-replay-summary").textContent = "Replay failed: " + (data.error || "HTTP " + status);
    return;
  }
  $("policy-replay-summary").textContent =
    "This policy would change " +
    data.changedCount +
    " of the last " +
    data.requests +
    " crawler requests." +
    (data.partial ? " Only the newest " + data.requests + " of " + data.recorded + " were judged (work budget)." : "");
  for (const change of (data.changed || []).slice(0, 20)) {
    const row = el("tr");
    row.append(
      el("td", change.token || "—"),
      el("td", change.method + " " + change.path),
      el("td", replayed(change.live)),
      el("td", replayed(change.draft)),
    );
    body.append(row);
  }
}

// --- Purposes ---------------------------------------------------------------------------

// The categories the editor has a column for: a choice of layout, not a list of categories (those
// are the vocabulary's); a row's other categories ride along untouched.
const PURPOSE_CATEGORIES = ["search-engine", "ai-search", "ai-assistant", "ai-training"];

/** The purposes list of the policy text, or [] when it has none or is not JSON. */
function purposesOfPolicyText() {
  try {
    const policy = JSON.parse($("policy-text").value || "{}");
    return Array.isArray(policy && policy.purposes) ? policy.purposes : [];
  } catch {
    return [];
  }
}

/** One editable row; keys the table has no column for (other categories, named crawlers) ride along. */
function purposesRow(entry) {
  const row = el("tr");
  const { path, ...stated } = entry;
  const kept = Object.fromEntries(Object.entries(stated).filter(([key]) => !PURPOSE_CATEGORIES.includes(key)));
  row.dataset.kept = JSON.stringify(kept);
  const pathCell = el("td");
  const input = /** @type {HTMLInputElement} */ (el("input"));
  input.value = typeof path === "string" ? path : "/";
  input.setAttribute("aria-label", "path prefix");
  input.className = "purpose-path";
  pathCell.append(input);
  row.append(pathCell);
  for (const category of PURPOSE_CATEGORIES) {
    const cell = el("td");
    const select = /** @type {HTMLSelectElement} */ (el("select"));
    select.setAttribute("aria-label", category + " on this path");
    select.dataset.category = category;
    for (const value of ["", "allow", "block"]) {
      const option = /** @type {HTMLOptionElement} */ (el("option", value || "—"));
      option.value = value;
      select.append(option);
    }
    select.value = stated[category] === "allow" || stated[category] === "block" ? stated[category] : "";
    cell.append(select);
    row.append(cell);
  }
  const remove = el("button", "Remove", "secondary");
  remove.type = "button";
  remove.addEventListener("click", () => row.remove());
  const removeCell = el("td");
  removeCell.append(remove);
  row.append(removeCell);
  return row;
}

function fillPurposesTable(list) {
  const body = /** @type {HTMLTableElement} */ (document.getElementById("purposes-table")).tBodies[0];
  body.replaceChildren(...list.map(purposesRow));
}

function purposesOfTable() {
  const body = /** @type {HTMLTableElement} */ (document.getElementById("purposes-table")).tBodies[0];
  return Array.from(body.rows).map((row) => {
    const entry = { path: /** @type {HTMLInputElement} */ (row.querySelector(".purpose-path")).value };
    for (const select of Array.from(row.querySelectorAll("select"))) {
      if (select.value) entry[select.dataset.category] = select.value;
    }
    return { ...entry, ...JSON.parse(row.dataset.kept || "{}") };
  });
}

function fileLines(id, text) {
  const list = $(id);
  list.replaceChildren();
  if (text === "") return;
  for (const line of text.replace(/\n$/, "").split(/\r\n|\r|\n/)) list.append(el("li", line));
}

/** The preview of a draft list, or of the purposes in force when `list` is undefined. */
async function previewPurposes(list) {
  const origin = $("origin").value;
  const path = "purposes/preview" + (origin ? "?origin=" + encodeURIComponent(origin) : "");
  const { status, data } = await policyCall("POST", path, JSON.stringify(list === undefined ? {} : { purposes: list }));
  const notes = $("purposes-notes");
  notes.replaceChildren();
  if (status === 404 && String(data.error || "").startsWith("no admin route")) {
    $("purposes-summary").textContent = "Purposes are not available on this edge yet.";
    return;
  }
  if (status !== 200) {
    $("purposes-summary").textContent = "No preview: " + (data.error || "HTTP " + status);
    for (const problem of data.problems || []) notes.append(el("li", problem, "error"));
    return;
  }
  $("purposes-summary").textContent =
    (list === undefined ? "In force: " : "This draft: ") +
    (data.generated === ""
      ? "no generated lines; the origin's file is served as it is."
      : data.generated.split("\n").filter((line) => /^user-agent:/i.test(line)).length +
        " user-agent lines generated.");
  for (const note of data.notes || []) notes.append(el("li", note.severity + ": " + note.message, note.severity));
  fileLines("purposes-generated", data.generated);
  fileLines("purposes-origin", data.originText);
}

/** The table's list into the policy text (routes and the rest kept), then its preview. */
async function applyPurposes() {
  let policy;
  try {
    policy = JSON.parse($("policy-text").value || "{}");
  } catch {
    say("The policy text is not JSON; fix it before putting purposes into it.");
    return;
  }
  const list = purposesOfTable();
  if (list.length > 0) policy.purposes = list;
  else delete policy.purposes;
  $("policy-text").value = JSON.stringify(policy, null, 2);
  await previewPurposes(list);
  say("Purposes put into the policy text: save it as a new version, or replay it first.");
}

async function showLivePurposes() {
  fillPurposesTable(purposesOfPolicyText());
  await previewPurposes(undefined);
}

function guard(action) {
  return () =>
    action().catch((error) => {
      if (error.message !== "unauthorised") say(error.message);
    });
}

for (const token of CRAWLERS) $("crawler").append(el("option", token));
$("crawler").addEventListener("change", () => {
  if ($("crawler").value) $("ua").value = "Mozilla/5.0 (compatible; " + $("crawler").value + "/1.0)";
});
$("login-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("token").value);
  $("token").value = "";
  guard(start)();
});
$("signout").addEventListener("click", () => signOut("Signed out."));
$("origin").addEventListener("change", guard(showOrigin));
$("refresh").addEventListener(
  "click",
  guard(async () => {
    await api("POST", "refresh?origin=" + encodeURIComponent($("origin").value));
    await start();
    say("Fetched.");
  }),
);
$("pause-start").addEventListener(
  "click",
  guard(async () => {
    const data = await api("POST", "pause", { minutes: Number($("pause-minutes").value) });
    await refreshEdgeNow();
    say(data.warning || "Pause started.");
  }),
);
$("pause-end").addEventListener(
  "click",
  guard(async () => {
    await api("DELETE", "pause");
    await refreshEdgeNow();
    say("Pause ended.");
  }),
);
$("run").addEventListener("click", guard(run));
$("policy-save").addEventListener("click", guard(savePolicy));
$("policy-replay").addEventListener("click", guard(replayPolicy));
$("policy-reload").addEventListener("click", guard(loadPolicy));
$("policy-host").addEventListener("change", guard(loadPolicy));
$("purposes-add").addEventListener("click", () => {
  const body = /** @type {HTMLTableElement} */ (document.getElementById("purposes-table")).tBodies[0];
  body.append(purposesRow({ path: "/" }));
});
$("purposes-apply").addEventListener("click", guard(applyPurposes));
$("purposes-live").addEventListener("click", guard(showLivePurposes));
$("activity-hours").addEventListener("change", guard(showActivity));
$("activity-reload").addEventListener("click", guard(showActivity));
$("activity-crawler").addEventListener("change", () => activityData && showActivitySection());
$("ledger-operator").addEventListener("change", () => activityData && showLedger());
$("draft-mode").addEventListener("change", () => $("draft-box").classList.toggle("hidden", !$("draft-mode").checked));
// Back on the tab, the status is read again: a problem fixed in wrangler.toml while npm run dev
// runs (wrangler reloads on save) leaves the banner without a reload of the page.
window.addEventListener("focus", () => {
  if (!$("app").classList.contains("hidden")) guard(refreshOnFocus)();
});
if (sessionStorage.getItem(KEY)) guard(start)();
else $("token").focus();
