// `npm run deploy -- [wrangler deploy arguments]`: which config and env wrangler will deploy,
// so that `robots-edge config check` checks exactly that. Pure, so the table of cases in
// test/cli/deploy-options.test.ts can check it. Every argument still goes to wrangler as given.

/** The `robots-edge config check` arguments for these `wrangler deploy` arguments. */
export function configCheckArguments(deployArgs: readonly string[]): string[] | Error {
  let env: string | undefined;
  let config: string | undefined;
  for (let i = 0; i < deployArgs.length; i++) {
    const arg = deployArgs[i] ?? "";
    const value = (flag: string): string | Error => {
      const next = deployArgs[++i];
      return next === undefined || next.startsWith("-") ? new Error(`${flag} needs a value`) : next;
    };
    if (arg === "--env" || arg === "-e") {
      const next = value(arg);
      if (next instanceof Error) return next;
      env = next;
    } else if (arg.startsWith("--env=")) env = arg.slice("--env=".length);
    else if (arg === "--config" || arg === "-c") {
      const next = value(arg);
      if (next instanceof Error) return next;
      config = next;
    } else if (arg.startsWith("--config=")) config = arg.slice("--config=".length);
  }
  // wrangler reads an empty --env as no env: the top level is deployed.
  return [...(config === undefined ? [] : [config]), ...(env ? ["--env", env] : [])];
}
