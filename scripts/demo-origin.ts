// A small website to put robots-edge in front of, for `npm run dev` and the end-to-end tests:
// a few pages, a private area, a query page, a non-ASCII path, and a robots.txt that callers
// can change. Binds 127.0.0.1 only, on a free port unless told one.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const DEMO_ROBOTS = `# robots-edge demo origin
User-agent: *
Disallow: /private/
Allow: /private/press-kit/
Disallow: /search
Disallow: /*.pdf$

User-agent: GPTBot
User-agent: ClaudeBot
User-agent: CCBot
Disallow: /

Sitemap: http://127.0.0.1/sitemap.xml
`;

export interface DemoOrigin {
  readonly url: string;
  /** Replace what /robots.txt answers with: a body, or a status with a body. */
  setRobots(robots: string | { status: number; body?: string }): void;
  close(): Promise<void>;
}

const PAGES: Record<string, string> = {
  "/": "<h1>Demo site</h1><p>Home page.</p>",
  "/blog/": "<h1>Blog</h1>",
  "/blog/hello-world": "<h1>Hello, world</h1>",
  "/private/": "<h1>Private area</h1>",
  "/private/report": "<h1>Private report</h1>",
  "/private/press-kit/": "<h1>Press kit</h1>",
  "/search": "<h1>Search results</h1>",
  "/café/menu": "<h1>Menu</h1>",
  "/files/report.pdf": "%PDF-1.4 demo",
};

export function startDemoOrigin(port = 0): Promise<DemoOrigin> {
  let robots: { status: number; body: string } = { status: 200, body: DEMO_ROBOTS };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://origin.local");
    const path = decodeURIComponent(url.pathname);
    if (path === "/robots.txt") {
      response.writeHead(robots.status, { "content-type": "text/plain; charset=utf-8" });
      response.end(robots.body);
      return;
    }
    const page = PAGES[path];
    response.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    response.end(page ?? "<h1>Not found</h1>");
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}`,
        setRobots(next) {
          robots =
            typeof next === "string" ? { status: 200, body: next } : { status: next.status, body: next.body ?? "" };
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
