/**
 * The CLI's one way to a running edge: its admin API, with the admin token, for `robots-edge
 * policy`. Where and who from flags, else the environment:
 *
 *   --edge  / ROBOTS_EDGE_URL    the site (https://shop.example: the admin API at its
 *                                /__robots/) or the admin prefix itself (https://shop.example/ops/)
 *   --token / ROBOTS_EDGE_TOKEN  the ADMIN_TOKEN secret
 *
 * The token goes to that origin and nowhere else (docs/security.md, "The policy file and the
 * CLI's calls"): plain http only to a loopback address (a token in clear text on a network is
 * everyone's), redirects are refused rather than followed, and every answer is read up to
 * MAX_ANSWER_BYTES within ANSWER_TIMEOUT_MS.
 */

import { CliError } from "./cli-error.ts";

/** The admin API's default prefix (ADMIN_PREFIX). */
const DEFAULT_PREFIX = "/__robots/";
/** A GET policy answer holds 21 versions of at most 64 KiB; a replay, 200 changes. Far below this. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
export const ANSWER_TIMEOUT_MS = 30_000;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export interface EdgeAddress {
  /** The admin API's base, ending in "/". */
  readonly base: URL;
  readonly token: string;
}

/** The edge and token from the flags, else the environment; a CliError naming what is missing. */
export function edgeAddress(
  flags: { readonly edge?: string | undefined; readonly token?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): EdgeAddress {
  const edge = flags.edge ?? env["ROBOTS_EDGE_URL"];
  const token = flags.token ?? env["ROBOTS_EDGE_TOKEN"];
  if (!edge) throw new CliError("which edge? give --edge https://your.site (or set ROBOTS_EDGE_URL)");
  if (!token) throw new CliError("the admin token: give --token (or set ROBOTS_EDGE_TOKEN) to the ADMIN_TOKEN secret");
  let base: URL;
  try {
    base = new URL(edge);
  } catch {
    throw new CliError(`--edge must be an http(s) URL such as https://shop.example, got ${JSON.stringify(edge)}`);
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") {
    throw new CliError(`--edge must be an http(s) URL, got ${JSON.stringify(edge)}`);
  }
  if (base.protocol === "http:" && !LOOPBACK.has(base.hostname)) {
    throw new CliError(
      `--edge ${JSON.stringify(edge)} is plain http: the admin token would cross the network in clear; use https (http only for 127.0.0.1, localhost, [::1])`,
    );
  }
  if (base.username !== "" || base.password !== "" || base.search !== "" || base.hash !== "") {
    throw new CliError("--edge is the site or the admin prefix: no user, query or fragment");
  }
  base.pathname = base.pathname === "/" ? DEFAULT_PREFIX : base.pathname.replace(/\/?$/, "/");
  return { base, token };
}

/** An answer of the admin API: its status, its JSON body (undefined when not JSON), its ETag. */
export interface EdgeAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly etag: string | null;
}

export interface EdgeCall {
  readonly method: "GET" | "PUT" | "POST";
  /** The route under the prefix, e.g. "policy". */
  readonly route: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** How the CLI reaches the network: fetch, or a test's stand-in. */
export type Fetcher = (request: Request) => Promise<Response>;

/** One call to the admin API. Network failures, redirects and oversized answers are CliErrors. */
export async function callEdge(address: EdgeAddress, call: EdgeCall, fetcher: Fetcher): Promise<EdgeAnswer> {
  const url = new URL(call.route, address.base);
  for (const [name, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) url.searchParams.set(name, value);
  const request = new Request(url, {
    method: call.method,
    headers: {
      authorization: `Bearer ${address.token}`,
      ...(call.body !== undefined && { "content-type": "application/json" }),
      ...call.headers,
    },
    ...(call.body !== undefined && { body: call.body }),
    redirect: "manual",
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  });
  const where = `${call.method} ${url.pathname}${url.search}`;
  let response: Response;
  try {
    response = await fetcher(request);
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new CliError(`${where}: the edge did not answer (${reason})`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new CliError(
      `${where} answered a redirect (${response.status} to ${response.headers.get("location") ?? "nowhere"}); the token is not sent on: give --edge the address it names`,
    );
  }
  const text = await boundedText(response, where);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status === 401)
    throw new CliError(`${where}: 401, the edge refused the token (--token / ROBOTS_EDGE_TOKEN)`);
  if (body === undefined && response.ok)
    throw new CliError(`${where}: the answer is not JSON; is --edge a robots-edge admin API?`);
  return { status: response.status, body, etag: response.headers.get("etag") };
}

async function boundedText(response: Response, where: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new CliError(`${where}: the answer is larger than ${MAX_ANSWER_BYTES} bytes; not read`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The error an answer carries, in words: `error`, and its `problems` when there are any. */
export function answerError(answer: EdgeAnswer): string {
  const body = isObject(answer.body) ? answer.body : {};
  const error = typeof body["error"] === "string" ? body["error"] : `HTTP ${answer.status}`;
  const problems = Array.isArray(body["problems"]) ? body["problems"].filter((p) => typeof p === "string") : [];
  return problems.length > 0 && !problems.every((p) => error.includes(p)) ? `${error}: ${problems.join("; ")}` : error;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
