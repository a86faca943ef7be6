// Route mode under `wrangler dev` with two AUTHORITIES, each host its own demo origin: what the
// per-host policy tests (and the policy-as-code CLI's) stand on. Started together, stopped together.
//
// Two things only a local run needs, both said here once:
//   - the hosts are `[::ffff:7f00:1]:<port>` (127.0.0.1 spelled as an IPv4-mapped IPv6 address),
//     one port per demo origin: route mode forwards each request to its own host, and a loopback
//     name (localhost, 127.x) is refused as the Worker addressing itself (request-path.ts);
//     this spelling reaches each origin without any DNS;
//   - a request is addressed to a host with wrangler dev's `MF-Original-URL` header: its local
//     proxy sets the URL the Worker sees from it (the Host header is not), as Cloudflare's edge
//     does from the Host header in production.
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";

export interface HostsRig {
  readonly edge: EdgeProcess;
  /** The two hosts, as AUTHORITIES lists them. */
  readonly hosts: readonly [string, string];
  readonly origins: readonly [DemoOrigin, DemoOrigin];
  readonly token: string;
  /** A request to `host` through the edge. */
  request(
    host: string,
    path: string,
    init?: { ua?: string; method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
  /** An admin call (through the edge's own address, as the CLI and the page make it). */
  admin(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>;
  stop(): Promise<void>;
}

export const ALLOW_ALL = "User-agent: *\nAllow: /\n";

export async function startHostsRig(options: {
  token: string;
  robots?: string;
  vars?: Record<string, string>;
}): Promise<HostsRig> {
  const started: { stop(): Promise<unknown> }[] = [];
  const stop = async () => {
    for (const part of started.toReversed()) await part.stop().catch(() => undefined);
  };
  try {
    const origins = [await startDemoOrigin(), await startDemoOrigin()] as const;
    for (const origin of origins) {
      started.push({ stop: () => origin.close() });
      origin.setRobots(options.robots ?? ALLOW_ALL);
    }
    const hosts = [`[::ffff:7f00:1]:${origins[0].port}`, `[::ffff:7f00:1]:${origins[1].port}`] as const;
    const edge = await startEdge({
      vars: {
        ORIGIN_URL: "",
        AUTHORITIES: hosts.join(", "),
        ADMIN_TOKEN: options.token,
        VERIFY_CRAWLERS: "off",
        ...options.vars,
      },
    });
    started.push(edge);
    const authorization = `Bearer ${options.token}`;
    const rig: HostsRig = {
      edge,
      hosts,
      origins,
      token: options.token,
      request: (host, path, init = {}) =>
        fetch(`${edge.url}${path}`, {
          method: init.method ?? "GET",
          headers: {
            "mf-original-url": `http://${host}${path}`,
            "user-agent": init.ua ?? "Mozilla/5.0 Chrome/124.0",
            ...init.headers,
          },
          ...(init.body !== undefined && { body: init.body }),
          redirect: "manual",
        }),
      admin: (path, init = {}) =>
        fetch(`${edge.url}/__robots/${path}`, {
          method: init.method ?? "GET",
          headers: { authorization, ...init.headers },
          ...(init.body !== undefined && { body: init.body }),
        }),
      stop,
    };
    for (const host of hosts) {
      const refreshed = await rig.admin(`refresh?origin=${encodeURIComponent(`http://${host}`)}`, { method: "POST" });
      if (!refreshed.ok) throw new Error(`refresh of ${host}: ${refreshed.status} ${await refreshed.text()}`);
    }
    return rig;
  } catch (error) {
    await stop();
    throw error;
  }
}
