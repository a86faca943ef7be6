// A small website to put robots-edge in front of, for `npm run dev`, the end-to-end tests
// and the load benchmark: pages linked from one another (a directory tree, a private area,
// a query page, non-ASCII paths), and a robots.txt whose behaviour callers can change —
// a body, a status, a hang, a redirect chain — plus the whole origin going down and back up.
// Binds 127.0.0.1 only, on a free port unless told one.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEMO_ROBOTS, demoRobots, PAGES } from "./demo-site.ts";

// The site itself (its pages and robots.txt) is data in demo-site.ts, which the Worker tests
// read too (test/corpus-sweep.ts).
export { DEMO_ROBOTS, demoRobots, PAGES };

/** How /robots.txt answers. */
export type RobotsBehaviour =
  | { readonly status: number; readonly body?: string | Buffer; readonly contentType?: string }
  | { readonly hang: true }
  | { readonly redirects: number; readonly finalBody?: string };

export interface DemoOrigin {
  readonly url: string;
  readonly port: number;
  /** Paths (with query) the origin was asked for, in order, robots.txt included. */
  readonly requests: string[];
  setRobots(robots: string | RobotsBehaviour): void;
  /** Stop listening and drop open connections: the origin is down. */
  goDown(): Promise<void>;
  /** Listen again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

/** The sitemap the robots.txt names: every page, at the site's address. */
function sitemapOf(siteUrl: string): string {
  const urls = Object.keys(PAGES).map((path) => `<url><loc>${siteUrl}${encodeURI(path)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
}

/** `siteUrl`: the address visitors reach the site at (the edge's), for the Sitemap line and the sitemap. */
export async function startDemoOrigin(port = 0, siteUrl?: string): Promise<DemoOrigin> {
  const site = siteUrl ?? "http://127.0.0.1";
  const ownRobots = demoRobots(site);
  let robots: RobotsBehaviour = { status: 200, body: ownRobots };
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    requests.push(request.url ?? "/");
    const url = new URL(request.url ?? "/", "http://origin.local");
    const path = safeDecode(url.pathname);
    if (path === "/robots.txt" || path.startsWith("/robots-hop/")) return answerRobots(robots, path, response, hanging);
    if (path === "/sitemap.xml") {
      response.writeHead(200, { "content-type": "application/xml; charset=utf-8" });
      response.end(sitemapOf(site));
      return;
    }
    const page = PAGES[path];
    response.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><title>${path}</title><body>${page ?? "Not found"}</body>`);
  };
  let server = createServer(handle);
  const listen = (onPort: number) =>
    new Promise<number>((resolve) =>
      server.listen(onPort, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
  const bound = await listen(port);
  const shutDown = () =>
    new Promise<void>((resolve) => {
      for (const response of hanging) response.destroy();
      hanging.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    requests,
    setRobots(next) {
      robots = typeof next === "string" ? { status: 200, body: next } : next;
    },
    goDown: shutDown,
    async comeBack() {
      server = createServer(handle);
      await listen(bound);
    },
    close: shutDown,
  };
}

function answerRobots(
  robots: RobotsBehaviour,
  path: string,
  response: ServerResponse,
  hanging: Set<ServerResponse>,
): void {
  if ("hang" in robots) {
    hanging.add(response);
    return;
  }
  if ("redirects" in robots) {
    const hop = path === "/robots.txt" ? 0 : Number(path.slice("/robots-hop/".length));
    if (hop < robots.redirects) {
      response.writeHead(302, { location: `/robots-hop/${hop + 1}` });
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    response.end(robots.finalBody ?? DEMO_ROBOTS);
    return;
  }
  response.writeHead(robots.status, { "content-type": robots.contentType ?? "text/plain; charset=utf-8" });
  response.end(robots.body ?? "");
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
