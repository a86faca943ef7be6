// Real clients for the end-to-end tests: a raw HTTP/1.1 client (request targets sent byte for
// byte, so re-spelled paths reach the edge as written), wget, and Python's robotparser.
import { execFile } from "node:child_process";
import { connect } from "node:net";

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One request over a fresh connection; the path goes on the wire exactly as given (UTF-8). */
export function rawRequest(
  base: string,
  path: string,
  options: { ua?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  const lines = [`${options.method ?? "GET"} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: close"];
  if (options.ua !== undefined) lines.push(`User-Agent: ${options.ua}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`timed out: ${path}`)));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", fail);
    socket.on("end", () => done(parseResponse(Buffer.concat(chunks).toString("utf8"))));
    socket.write(Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"));
  });
}

function parseResponse(text: string): RawResponse {
  const split = text.indexOf("\r\n\r\n");
  const [statusLine = "", ...headerLines] = text.slice(0, split).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers["transfer-encoding"] === "chunked") body = unchunk(body);
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

function unchunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

export interface ProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a program to completion (never throws on a non-zero exit). */
export function run(
  program: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return new Promise((done) => {
    const child = execFile(
      program,
      args,
      { timeout: options.timeoutMs ?? 120_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        done({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/**
 * Python's urllib.robotparser reading the robots.txt the edge serves: can_fetch for each
 * (user-agent, url) pair. It implements the original 1994 draft: first matching rule in file
 * order, no `*` or `$` wildcards.
 */
export async function pythonCanFetch(
  robotsUrl: string,
  pairs: readonly { ua: string; url: string }[],
): Promise<boolean[]> {
  const script = [
    "import json, sys, urllib.robotparser",
    "parser = urllib.robotparser.RobotFileParser(sys.argv[1])",
    "parser.read()",
    "pairs = json.load(sys.stdin)",
    "print(json.dumps([parser.can_fetch(p['ua'], p['url']) for p in pairs]))",
  ].join("\n");
  const result = await run("python3", ["-c", script, robotsUrl], { input: JSON.stringify(pairs) });
  if (result.code !== 0) throw new Error(`python3 robotparser failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as boolean[];
}

export { mapBounded } from "../../src/cli/map-bounded.ts";
