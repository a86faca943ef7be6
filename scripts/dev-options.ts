// `npm run dev -- --port N`: the dev server's options from its arguments (and PORT, kept for
// older habits). Pure, so the table of cases in test/cli/dev-options.test.ts can check it.

export interface DevOptions {
  readonly port: number;
}

export const DEFAULT_DEV_PORT = 8787;

/** The options, or an Error whose message says what to fix. */
export function parseDevOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): DevOptions | Error {
  let port: string | undefined = env["PORT"];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--port" || arg === "-p") {
      port = argv[++i];
      if (port === undefined) return new Error("--port needs a number: npm run dev -- --port 8788");
    } else if (arg.startsWith("--port=")) port = arg.slice("--port=".length);
    else return new Error(`unknown argument ${JSON.stringify(arg)}; usage: npm run dev -- [--port N]`);
  }
  if (port === undefined || port === "") return { port: DEFAULT_DEV_PORT };
  const number = Number(port);
  if (!/^\d+$/.test(port) || number < 1 || number > 65_535) {
    return new Error(`--port must be a TCP port (1-65535), got ${JSON.stringify(port)}`);
  }
  return { port: number };
}
