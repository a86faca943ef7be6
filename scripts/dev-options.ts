// `npm run dev -- [--port N] [--origin URL] [--env-file FILE] [--persist] [--json-logs]`: the dev server's options from its arguments (and
// PORT, kept for older habits). Pure, so the table of cases in test/cli/dev-options.test.ts can
// check it.

export interface DevOptions {
  readonly port: number;
  /** Your own site to put the edge in front of; undefined: the embedded demo origin. */
  readonly origin?: string;
  /** Vars and secrets from this file instead of .dev.vars (wrangler's --env-file). */
  readonly envFile?: string;
  /** Keep the local state (live policy, pause, activity, robots.txt copies) from the last run on this port. */
  readonly persist?: true;
  /** Decision logs as the deployed edge writes them (JSON) instead of one short line each. */
  readonly jsonLogs?: true;
}

export const DEFAULT_DEV_PORT = 8787;

const USAGE =
  "usage: npm run dev -- [--port N] [--origin http://localhost:3000] [--env-file FILE] [--persist] [--json-logs]";

/** The options, or an Error whose message says what to fix. */
export function parseDevOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): DevOptions | Error {
  let port: string | undefined = env["PORT"];
  let origin: string | undefined;
  let envFile: string | undefined;
  const flags: { persist?: true; jsonLogs?: true } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--port" || arg === "-p") {
      port = argv[++i];
      if (port === undefined) return new Error("--port needs a number: npm run dev -- --port 8788");
    } else if (arg.startsWith("--port=")) port = arg.slice("--port=".length);
    else if (arg === "--origin") {
      origin = argv[++i];
      if (origin === undefined)
        return new Error("--origin needs your site's URL: npm run dev -- --origin http://localhost:3000");
    } else if (arg.startsWith("--origin=")) origin = arg.slice("--origin=".length);
    else if (arg === "--env-file") {
      envFile = argv[++i];
      if (envFile === undefined) return new Error("--env-file needs a file: npm run dev -- --env-file .dev.vars.site");
    } else if (arg.startsWith("--env-file=")) envFile = arg.slice("--env-file=".length);
    else if (arg === "--persist") flags.persist = true;
    else if (arg === "--json-logs") flags.jsonLogs = true;
    else return new Error(`unknown argument ${JSON.stringify(arg)}; ${USAGE}`);
  }
  const portNumber = parsePort(port);
  if (portNumber instanceof Error) return portNumber;
  const options = { port: portNumber, ...(envFile !== undefined && { envFile }), ...flags };
  if (origin === undefined) return options;
  const originUrl = parseOrigin(origin);
  if (originUrl instanceof Error) return originUrl;
  return { ...options, origin: originUrl };
}

function parsePort(port: string | undefined): number | Error {
  if (port === undefined || port === "") return DEFAULT_DEV_PORT;
  const number = Number(port);
  if (!/^\d+$/.test(port) || number < 1 || number > 65_535) {
    return new Error(`--port must be a TCP port (1-65535), got ${JSON.stringify(port)}`);
  }
  return number;
}

/**
 * The origin as the Worker's ORIGIN_URL takes it: http(s), scheme, host and port only. Said here
 * before wrangler starts, so a typo is one line instead of a Worker passing everything through.
 */
function parseOrigin(origin: string): string | Error {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return new Error(
      `--origin must be your site's http(s) URL such as http://localhost:3000, got ${JSON.stringify(origin)}`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    return new Error("--origin must not contain a user name or password");
  }
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    return new Error(
      `--origin must be an origin only (scheme, host, port): each request's path is appended; remove ${JSON.stringify(url.pathname + url.search + url.hash)}`,
    );
  }
  return url.origin;
}
