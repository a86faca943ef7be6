// An in-process stand-in for the edge's admin API, as far as `robots-edge policy` uses it
// (docs/operating.md, "Policies per host"): GET policy, GET policies (paged), PUT policy with
// If-Match, GET status (the known origins), POST replay (`host=` or `origin=`). Its replay answers are the test's: each test says which decisions flip
// (recorded per host, and per asked token and path), so the CLI's reading of them is what is tested.

export interface FakeFlip {
  readonly token: string;
  readonly path: string;
  readonly live: string;
  readonly draft: string;
}

export interface FakeEdgeOptions {
  readonly token?: string;
  /** The default policy (null: none) and its version. */
  readonly default?: { readonly version: number; readonly policy: unknown };
  /** Hosts the edge serves, with their own policy (null: none yet). */
  readonly hosts?: Readonly<Record<string, { readonly version: number; readonly policy: unknown }>>;
  /** The origins GET status lists (the sites with traffic); default: https://default.example alone. */
  readonly origins?: readonly string[];
  /** Recorded requests that flip under any draft, per host (replayed by `host=` or `origin=`). */
  readonly recordedFlips?: Readonly<Record<string, readonly FakeFlip[]>>;
  /** How an asked (token, path) is decided live and under the draft; undefined: pass on both. */
  readonly asked?: (token: string, path: string) => { live: string; draft: string } | undefined;
  /** The most asked requests one replay judges (the rest: the edge's budget ran out). */
  readonly askedBudget?: number;
  /** GET policies page size the fake uses whatever the limit asked. */
  readonly pageSize?: number;
  /** Each replay answers after this many ms (so calls overlap); maxReplaysInFlight counts how many did. */
  readonly replayDelayMs?: number;
  /** Sites whose replay by `origin=` the edge refuses (404: not an origin it serves). */
  readonly unreplayable?: readonly string[];
  /** Sites whose replay fails at once (500), before any delayed answer. */
  readonly failing?: readonly string[];
  /** Runs after the plan's reads and before a PUT: another operator's save, say. */
  readonly beforePut?: (host: string | null, fake: FakeEdge) => void;
}

export interface FakeCall {
  readonly method: string;
  readonly path: string;
  readonly host: string | null;
  readonly ifMatch: string | null;
  readonly savedBy: string | null;
  readonly body: unknown;
}

export class FakeEdge {
  readonly calls: FakeCall[] = [];
  readonly policies = new Map<string | null, { version: number; policy: unknown }>();
  readonly served: ReadonlySet<string>;
  /** The most replay calls the fake was answering at one moment. */
  maxReplaysInFlight = 0;
  private replaysInFlight = 0;

  private readonly options: FakeEdgeOptions;

  constructor(options: FakeEdgeOptions) {
    this.options = options;
    this.policies.set(null, options.default ?? { version: 0, policy: null });
    for (const [host, entry] of Object.entries(options.hosts ?? {})) this.policies.set(host, { ...entry });
    this.served = new Set(Object.keys(options.hosts ?? {}));
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const host = url.searchParams.get("host");
    const text = request.method === "GET" ? "" : await request.text();
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const route = url.pathname.replace(/^\/__robots\//, "");
    this.calls.push({
      method: request.method,
      path: route,
      host,
      ifMatch: request.headers.get("if-match"),
      savedBy: request.headers.get("x-saved-by"),
      body,
    });
    if (request.headers.get("authorization") !== `Bearer ${this.options.token ?? "fake-admin-token-0123"}`) {
      return json(401, { error: "the admin API needs Authorization: Bearer <ADMIN_TOKEN>" });
    }
    if (host !== null && !this.served.has(host)) {
      return json(404, {
        error: `${host} is not a host this edge serves: AUTHORITIES lists ${[...this.served].join(", ")}`,
      });
    }
    switch (`${request.method} ${route}`) {
      case "GET policy":
        return this.getPolicy(host);
      case "GET policies":
        return this.list(url);
      case "GET status":
        return json(200, {
          origins: (this.options.origins ?? ["https://default.example"]).map((authority) => ({
            authority,
            served: true,
          })),
          next: null,
        });
      case "PUT policy":
        return this.put(host, request.headers.get("if-match"), body);
      case "POST replay":
        return this.replayLater(host ?? hostOf(url.searchParams.get("origin")), body);
      default:
        return json(404, { error: `no admin route "${request.method} ${route}"` });
    }
  };

  private getPolicy(host: string | null): Response {
    const entry = this.policies.get(host) ?? { version: 0, policy: null };
    const response = json(200, {
      host,
      version: entry.version,
      policy: entry.policy,
      text: JSON.stringify(entry.policy),
    });
    response.headers.set("etag", `"${entry.version}"`);
    return response;
  }

  private list(url: URL): Response {
    const withPolicy = [...this.policies]
      .filter(([host, entry]) => host !== null && entry.policy !== null)
      .map(([host, entry]) => ({ host, version: entry.version }))
      .toSorted((a, b) => String(a.host).localeCompare(String(b.host)));
    const size = this.options.pageSize ?? 100;
    const from = Number(url.searchParams.get("cursor") ?? "0");
    const page = withPolicy.slice(from, from + size);
    const next = from + size < withPolicy.length ? String(from + size) : null;
    return json(200, { default: { host: null, version: this.policies.get(null)?.version }, hosts: page, next });
  }

  private put(host: string | null, ifMatch: string | null, body: unknown): Response {
    this.options.beforePut?.(host, this);
    const entry = this.policies.get(host) ?? { version: 0, policy: null };
    if (ifMatch !== null && ifMatch !== `"${entry.version}"`) {
      return json(412, {
        error: `the policy changed since you loaded it: version ${entry.version} is in force now; reload and save again`,
        version: entry.version,
      });
    }
    if (typeof body !== "object" || body === null)
      return json(400, { error: "the policy has 1 problem(s)", problems: ["not JSON"] });
    const version = entry.version + 1;
    this.policies.set(host, { version, policy: body });
    return json(200, { host, version, savedAt: "2026-11-27T12:00:00.000Z" });
  }

  private async replayLater(host: string | null, body: unknown): Promise<Response> {
    this.replaysInFlight++;
    this.maxReplaysInFlight = Math.max(this.maxReplaysInFlight, this.replaysInFlight);
    try {
      if (host !== null && this.options.failing?.includes(host)) return json(500, { error: "the edge failed" });
      if (this.options.replayDelayMs !== undefined)
        await new Promise((done) => setTimeout(done, this.options.replayDelayMs));
      if (host !== null && this.options.unreplayable?.includes(host))
        return json(404, { error: `${host} is not an origin this edge serves` });
      return this.replay(host, body);
    } finally {
      this.replaysInFlight--;
    }
  }

  private replay(host: string | null, body: unknown): Response {
    if (host === null) return json(400, { error: "the fake replays a host= or an origin= only" });
    const flips = this.options.recordedFlips?.[host] ?? [];
    const changed = flips.map((flip) => change(flip.token, flip.path, flip.live, flip.draft));
    const asked = (body as { requests?: { token: string; path: string }[] }).requests;
    const budget = this.options.askedBudget ?? Infinity;
    let askedAnswer;
    if (asked) {
      const judged = asked.slice(Math.max(0, asked.length - budget));
      const askedChanges = judged.toReversed().flatMap(({ token, path }) => {
        const decided = this.options.asked?.(token, path);
        return decided && decided.live !== decided.draft ? [change(token, path, decided.live, decided.draft)] : [];
      });
      askedAnswer = {
        requests: judged.length,
        recorded: asked.length,
        partial: judged.length < asked.length,
        changedCount: askedChanges.length,
        changed: askedChanges,
        crawlers: [],
      };
    }
    return json(200, {
      origin: `https://${host ?? "default.example"}`,
      requests: 40,
      recorded: 40,
      partial: false,
      changedCount: changed.length,
      changed: changed.map((entry) => ({ time: "2026-11-27T11:00:00.000Z", ...entry })),
      crawlers: [],
      ...(askedAnswer && { asked: askedAnswer }),
    });
  }
}

function hostOf(origin: string | null): string | null {
  return origin === null ? null : new URL(origin).host;
}

function change(token: string, path: string, live: string, draft: string) {
  return {
    token,
    method: "GET",
    path,
    live: { action: live, layer: "robots.txt", line: null, rule: null },
    draft: { action: draft, layer: "policy", line: null, rule: `policy ${path}: ${draft}` },
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
