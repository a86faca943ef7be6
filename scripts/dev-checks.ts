// What `npm run dev` checks before it prints its banner: that its port is free (else wrangler
// fails only after the whole banner, issue #35), and that the site given with --origin answers
// (else people get 502 and crawlers 503 without a word at start). Each returns the line to print.
import { createServer } from "node:net";

/** Whether something already listens on 127.0.0.1:port (a second `npm run dev`, another server). */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" ? done(true) : fail(error)));
    server.listen(port, "127.0.0.1", () => server.close(() => done(false)));
  });
}

/** The message for a busy port: what is likely there, and the option that avoids it. */
export function portInUseMessage(port: number): string {
  const next = port === 65_535 ? port - 1 : port + 1;
  return `port ${port} is in use (another npm run dev?): stop it, or start this one on another port: npm run dev -- --port ${next}`;
}

export interface OriginProbe {
  readonly answered: boolean;
  /** One line for the banner, after the site's address. */
  readonly line: string;
}

const PROBE_TIMEOUT_MS = 3_000;

/**
 * One GET of the origin's /robots.txt (the first thing the edge fetches from it), without
 * following redirects: any HTTP answer means the site is there; no answer is said at once, with
 * what visitors will see until it comes up. The origin is the operator's own --origin, never a
 * host a request names.
 */
export async function probeOrigin(origin: string): Promise<OriginProbe> {
  try {
    const response = await fetch(`${origin}/robots.txt`, {
      redirect: "manual",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { answered: true, line: `answers (GET /robots.txt: ${response.status})` };
  } catch (error) {
    return {
      answered: false,
      line: `NOT ANSWERING (${whyNoAnswer(error)}): people get 502 and crawlers 503 until it does; is your site running, and is --origin right?`,
    };
  }
}

function whyNoAnswer(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  return cause?.code ?? (cause?.message || (error instanceof Error ? error.message : String(error)));
}
