/**
 * `robots-edge charges <edge URL>`: the charges ledger of an edge, exported for invoicing
 * through its admin API (GET charges), as CSV or JSON on stdout. The admin token comes from the
 * ROBOTS_EDGE_TOKEN environment variable, never an argument (a command line is visible to every
 * user of the machine). Settlement is out of scope: this is the account to invoice from.
 */

import { CliError, EXIT_OK, terminalSafe, writeSafe, type Io } from "./io.ts";

export interface ChargesOptions {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly operator?: string | undefined;
  readonly origin?: string | undefined;
  readonly prefix?: string | undefined;
  readonly csv?: boolean | undefined;
}

/** How long the export may take before the command gives up. */
const TIMEOUT_MS = 30_000;

export async function charges(
  positionals: readonly string[],
  options: ChargesOptions,
  io: Io,
  token = process.env["ROBOTS_EDGE_TOKEN"],
): Promise<number> {
  const [edge, ...rest] = positionals;
  if (edge === undefined || rest.length > 0) {
    throw new CliError("give the edge's URL: robots-edge charges https://www.example.com [--from 2026-11-01] [--csv]");
  }
  if (!token)
    throw new CliError("set ROBOTS_EDGE_TOKEN to the edge's ADMIN_TOKEN (never an argument: others could read it)");
  const url = exportUrl(edge, options);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: options.csv ? "text/csv" : "application/json" },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliError(`could not reach ${url.origin}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body = await response.text();
  if (!response.ok) throw new CliError(`${url.pathname} answered ${response.status}: ${body.trim()}`);
  // CSV's own CRLF line ends kept (RFC 4180); every other control character escaped, as all output is.
  await writeSafe(io.stdout, body.split("\r\n").map(terminalSafe).join("\r\n"));
  return EXIT_OK;
}

function exportUrl(edge: string, options: ChargesOptions): URL {
  let base: URL;
  try {
    base = new URL(edge);
  } catch {
    throw new CliError(`${JSON.stringify(edge)} is not a URL: give the edge's address, https://www.example.com`);
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") throw new CliError(`${edge} is not an http(s) URL`);
  const prefix = options.prefix ?? "/__robots/";
  const url = new URL(`${prefix.endsWith("/") ? prefix : `${prefix}/`}charges`, base.origin);
  for (const name of ["from", "to", "operator", "origin"] as const) {
    const value = options[name];
    if (value !== undefined) url.searchParams.set(name, value);
  }
  if (options.csv) url.searchParams.set("format", "csv");
  return url;
}
