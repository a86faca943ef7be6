// @ts-check
// The operator page's script (served inline under a nonce by page.ts). Checked by TypeScript
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
  $("login").classList.add("hidden");
  $("app").classList.remove("hidden");
  say("");
  const select = $("origin");
  select.replaceChildren();
  for (const origin of status.origins) select.append(el("option", origin.authority));
  if (status.origins.length === 0 && status.proxy) select.append(el("option", status.proxy));
  showPause(status.pause);
  await showOrigin();
  await loadPolicy();
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

async function showOrigin() {
  const origin = $("origin").value;
  if (!origin) {
    $("file-note").textContent = "No origin known yet: fetch robots.txt first.";
    return;
  }
  const view = await api("GET", "robots?origin=" + encodeURIComponent(origin));
  const status = $("fetch-status");
  status.replaceChildren();
  const facts = [
    ["State", view.status.state],
    ["Fetched at", view.status.lastFetchAt],
    ["Origin status", String(view.status.lastStatus)],
    ["Expires", view.status.expiresAt],
    ["Last error", view.status.lastError || "none"],
    ["Diagnostics", view.status.diagnostics.error + " errors, " + view.status.diagnostics.warning + " warnings"],
  ];
  for (const [name, value] of facts) status.append(el("dt", name), el("dd", value));
  liveText = view.text || "";
  $("file-note").textContent = view.inForce
    ? ""
    : "Not in force (state: " + view.status.state + "); last good copy shown.";
  const byLine = new Map();
  for (const d of view.diagnostics) if (d.line > 0) byLine.set(d.line, [...(byLine.get(d.line) || []), d]);
  const file = $("file");
  file.replaceChildren();
  liveText.split(/\r\n|\r|\n/).forEach((text, index) => {
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
  for (const group of view.groups)
    groups.append(
      el("li", group.agents.join(", ") + " — line " + group.lines.join(", ") + ", " + group.rules + " rules"),
    );
  if (!$("draft").value) $("draft").value = liveText;
}

function highlight(line) {
  for (const node of document.querySelectorAll(".file li.hit")) node.classList.remove("hit");
  if (!line) return;
  const item = $("L" + line);
  if (item) {
    item.classList.add("hit");
    item.scrollIntoView({ block: "nearest" });
  }
}

function describe(result) {
  const where =
    result.layer === "policy" && result.policy && result.policy.rule
      ? "operator policy: " +
        result.policy.rule.action +
        " under " +
        result.policy.route +
        " (route " +
        (result.policy.routeIndex + 1) +
        ")"
      : result.usage
        ? result.usage.message
        : result.rule
          ? result.rule.kind + ": " + result.rule.pattern + " (line " + result.rule.line + ")"
          : result.reason;
  // The edge's own decision: a pass held to rate lines says when it would be limited.
  const action =
    result.action.action +
    (result.action.status ? " " + result.action.status : "") +
    (result.action.rateLimit ? " (" + result.action.rateLimit + ")" : "");
  return {
    decision: result.allowed ? "allowed" : "disallowed",
    action,
    group: result.group ? result.group.token : "none",
    where,
  };
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
      row.append(
        el(
          "td",
          live.decision + ", " + live.action + " — " + live.where,
          result.live.allowed ? "allowed" : "disallowed",
        ),
      );
      row.append(
        el(
          "td",
          draft.decision + ", " + draft.action + " — " + draft.where,
          result.draft.allowed ? "allowed" : "disallowed",
        ),
      );
      if (result.differs) row.classList.add("differs");
    } else {
      row.append(
        el("td", live.decision, result.live.allowed ? "allowed" : "disallowed"),
        el("td", live.action),
        el("td", live.group),
      );
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

// ---- The operator policy editor (issue #13): GET/PUT policy, POST policy/rollback, replay. ----

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

async function loadPolicy() {
  const { status, data } = await policyCall("GET", "policy", undefined);
  if (status !== 200) throw new Error(data.error || "HTTP " + status);
  policyVersion = data.version;
  $("policy-text").value = data.text || "";
  $("policy-state").textContent =
    "Version " +
    data.version +
    " in force" +
    (data.savedAt ? ", saved " + data.savedAt : data.policy ? " (the POLICY var)" : " (no policy)") +
    ". Other isolates apply a new version within about 10 s, other locations when KV's cache there renews (README, Live policy).";
  showPolicyProblems([]);
  showPolicyHistory(data.history, data.version);
}

function showPolicyHistory(history, inForce) {
  const body = /** @type {HTMLTableElement} */ (document.getElementById("policy-history")).tBodies[0];
  body.replaceChildren();
  for (const entry of history) {
    const row = el("tr");
    if (entry.version === inForce) row.classList.add("in-force");
    const how = entry.via === "rollback" ? "rollback to " + entry.from : entry.via === "put" ? "saved" : entry.via;
    row.append(el("td", String(entry.version)), el("td", entry.savedAt || "—"), el("td", how));
    const cell = el("td");
    if (entry.version !== inForce) {
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
  const { status, data } = await policyCall("PUT", "policy", $("policy-text").value, {
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
  const { status, data } = await policyCall("POST", "policy/rollback", JSON.stringify({ version }), {
    "if-match": '"' + policyVersion + '"',
  });
  if (status !== 200) throw new Error(data.error || "HTTP " + status);
  await loadPolicy();
  say("Version " + version + "'s policy is in force again, as version " + data.version + ".");
}

/** A replayed decision: its action and deciding line. */
function replayed(side) {
  if (!side) return "—";
  return side.action + (side.line ? " (line " + side.line + ")" : side.rule ? " (" + side.rule + ")" : "");
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
  const origin = $("origin").value;
  const path = "replay" + (origin ? "?origin=" + encodeURIComponent(origin) : "");
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
    "This policy would change " + data.changedCount + " of the last " + data.requests + " crawler requests.";
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
    showPause(data.pause);
    say(data.warning || "Pause started.");
  }),
);
$("pause-end").addEventListener(
  "click",
  guard(async () => {
    await api("DELETE", "pause");
    showPause(null);
    say("Pause ended.");
  }),
);
$("run").addEventListener("click", guard(run));
$("policy-save").addEventListener("click", guard(savePolicy));
$("policy-replay").addEventListener("click", guard(replayPolicy));
$("policy-reload").addEventListener("click", guard(loadPolicy));
$("draft-mode").addEventListener("change", () => $("draft-box").classList.toggle("hidden", !$("draft-mode").checked));
if (sessionStorage.getItem(KEY)) guard(start)();
else $("token").focus();
