// What the operator page's browser tests stand on: the demo origin serving a robots.txt,
// `wrangler dev` in front of it with an admin token, its robots.txt fetched, and Debian's
// Chromium (playwright-core) on one page that may reach the edge only. Started together and
// stopped together, also when a part fails to start.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { startDemoOrigin, type DemoOrigin } from "../../scripts/demo-origin.ts";
import { startEdge, type EdgeProcess } from "../../scripts/edge-process.ts";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
/** Where the page tests put their screenshots (CI keeps them as artefacts). */
export const SHOTS = resolve(import.meta.dirname, "../../test-results/screenshots");

export interface PageRig {
  readonly origin: DemoOrigin;
  readonly edge: EdgeProcess;
  readonly browser: Browser;
  readonly page: Page;
  /** Closes the browser, stops the edge and the origin. */
  stop(): Promise<void>;
}

/** The origin with `robots`, the edge (VERIFY_CRAWLERS=off: loopback clients are nobody's crawler), the browser. */
export async function startPageRig({ token, robots }: { token: string; robots: string }): Promise<PageRig> {
  mkdirSync(SHOTS, { recursive: true });
  const started: { stop(): Promise<unknown> }[] = [];
  const stop = async () => {
    for (const part of started.toReversed()) await part.stop().catch(() => undefined);
  };
  try {
    const origin = await startDemoOrigin();
    started.push({ stop: () => origin.close() });
    origin.setRobots(robots);
    const edge = await startEdge({ vars: { ORIGIN_URL: origin.url, ADMIN_TOKEN: token, VERIFY_CRAWLERS: "off" } });
    started.push(edge);
    await fetch(`${edge.url}/__robots/refresh`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    started.push({ stop: () => browser.close() });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => {
      if (!request.url().startsWith(edge.url)) throw new Error(`the page reached outside: ${request.url()}`);
    });
    return { origin, edge, browser, page, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
