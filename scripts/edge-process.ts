// `wrangler dev` as a child process on free loopback ports, for the end-to-end tests and the
// load benchmark. It is started in its own process group so that stop() ends workerd too,
// and stop() runs on exit signals as well, so nothing outlives the run.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
// wrangler's program under this Node, not through npx: npx loads npm to find it, about a second
// of CPU per start on a 2-core machine, and the end-to-end tests start wrangler ~25 times. Not
// through bin/wrangler.js either: that file only checks the Node version (NODE below is >= 22)
// and starts a second Node for wrangler-dist/cli.js with `--no-warnings`; we start that one
// ourselves, with the same flag, one Node start less per edge.
const WRANGLER = ["--no-warnings", resolve(ROOT, "node_modules/wrangler/wrangler-dist/cli.js")];
/** A Node wrangler runs under (it needs 22): this one, else the project's own (the `node` devDependency). */
const NODE =
  Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : resolve(ROOT, "node_modules/.bin/node");
/**
 * The environment of every wrangler we start. NODE_COMPILE_CACHE: Node keeps the compiled code of
 * wrangler's 15 MB program in this folder (it makes it if missing), so every start after the
 * first in a run, or on a later run, skips compiling it: about 0.5 s of CPU per start. Node checks
 * each entry against its source and its own version, so a stale or half-written one is only
 * recompiled. A folder the developer set is kept.
 */
const WRANGLER_ENV = {
  ...process.env,
  NODE_COMPILE_CACHE: process.env["NODE_COMPILE_CACHE"] ?? join(tmpdir(), "robots-edge-node-compile-cache"),
  WRANGLER_SEND_METRICS: "false",
  CI: "true",
};

export interface EdgeProcess {
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<void>;
  /** SIGKILL to the whole process group: no shutdown of any kind (the state folder is kept if `persistTo` named it). */
  kill(): Promise<void>;
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export interface EdgeOptions {
  readonly vars: Readonly<Record<string, string>>;
  /** wrangler config to use; defaults to the project's wrangler.toml. */
  readonly config?: string;
  readonly readyTimeoutMs?: number;
  /** Keys to store in the ROBOTS namespace's local state before the Worker starts (e.g. the crawler lists). */
  readonly kv?: Readonly<Record<string, string>>;
  /** Keep local state in this folder, and keep it after stop (a restart reads it); else a fresh folder, removed. */
  readonly persistTo?: string;
  /**
   * wrangler's stdout and stderr go to this file (the kernel writes it) rather than through a pipe
   * this process reads: for the load benchmark, whose own process runs the load and the origin.
   * On Linux a pipe write blocks until the reader reads, so a busy reader stalls wrangler, and
   * wrangler in turn stops draining workerd's stdout, where every console.log of the Worker goes.
   */
  readonly outputFile?: string;
}

/** Start `wrangler dev` with these vars and wait until it answers. */
export async function startEdge(options: EdgeOptions): Promise<EdgeProcess> {
  const persist = options.persistTo ?? mkdtempSync(join(tmpdir(), "robots-edge-state-"));
  // Vars come from wrangler.toml and options.vars only: an empty env file stands in for the
  // developer's .dev.vars (or .env), which wrangler would otherwise read into the Worker's env.
  const noDevVars = join(persist, "no-dev-vars.env");
  writeFileSync(noDevVars, "");
  if (options.kv && Object.keys(options.kv).length > 0) await seedKv(persist, options.kv, options.config);
  const removeState = () => {
    if (!options.persistTo) rmSync(persist, { recursive: true, force: true });
  };
  // A port free a moment ago can be taken before wrangler binds it (by another test file's
  // server, or workerd's own internal ports): wrangler then exits with "Address already in use",
  // and we start again on new ports rather than fail the file.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchEdge(options, persist, noDevVars, removeState);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === PORT_ATTEMPTS) {
        removeState();
        throw error;
      }
    }
  }
}

const PORT_ATTEMPTS = 3;

class PortTakenError extends Error {}

async function launchEdge(
  options: EdgeOptions,
  persist: string,
  noDevVars: string,
  removeState: () => void,
): Promise<EdgeProcess> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = [
    ...WRANGLER,
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
  ];
  // Log level info for wrangler's "Ready on <url>" line: it is how we know the answer on our port is
  // this wrangler's and not another process's. Its per-request lines are left out of output().
  args.push("--persist-to", persist, "--log-level", "info", "--env-file", noDevVars);
  if (options.config) args.push("--config", options.config);
  for (const [name, value] of Object.entries(options.vars)) args.push("--var", `${name}:${value}`);
  const outputFd = options.outputFile === undefined ? undefined : openSync(options.outputFile, "w");
  const child = spawn(NODE, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", outputFd ?? "pipe", outputFd ?? "pipe"],
    env: { ...WRANGLER_ENV, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  // The child holds its own copy of the descriptor.
  if (outputFd !== undefined) closeSync(outputFd);
  const output = options.outputFile === undefined ? collectOutput(child) : readOutput(options.outputFile);
  const stop = () => stopGroup(child);
  const onSignal = () =>
    void stop().then(() => {
      removeState();
      process.exit(1);
    });
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url, child, options.readyTimeoutMs ?? 60_000, () => output().includes(`Ready on ${url}`));
  } catch (error) {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await stop();
    if (output().includes("Address already in use")) throw new PortTakenError(`port ${port} was taken`);
    throw new Error(`wrangler dev did not start: ${error instanceof Error ? error.message : error}\n${output()}`, {
      cause: error,
    });
  }
  return {
    url,
    output,
    async stop() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      await stop();
      removeState();
    },
    async kill() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (child.exitCode !== null || child.pid === undefined) return;
      const exited = new Promise((done) => child.once("exit", done));
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

/** wrangler's output as one string, whole lines, without its per-request log lines. */
function collectOutput(child: ChildProcess): () => string {
  let kept = "";
  let partial = "";
  const take = (chunk: unknown) => {
    const lines = (partial + String(chunk)).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (!REQUEST_LINE.test(line)) kept += `${line}\n`;
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  return () => kept + partial;
}

/** As collectOutput, from the file wrangler writes (EdgeOptions.outputFile). */
function readOutput(file: string): () => string {
  return () => withoutRequestLines(readFileSync(file, "utf8"));
}

function withoutRequestLines(text: string): string {
  return text
    .split("\n")
    .filter((line) => !REQUEST_LINE.test(line))
    .join("\n");
}

// "[wrangler:info] GET /path 200 OK (3ms)", once per request at log level info.
// eslint-disable-next-line no-control-regex
const REQUEST_LINE = /^(\x1b\[[0-9;]*m)*\[wrangler:info\] [A-Z]+ \S+ \d{3} /;

/**
 * `npm run dev -- <args>` as a site owner runs it, on a free port, isolated from the developer's
 * .dev.vars like startEdge; stop() ends it and removes its state folder.
 */
export async function startDevScript(args: readonly string[], readyTimeoutMs = 90_000): Promise<EdgeProcess> {
  const port = await freePort();
  const scratch = mkdtempSync(join(tmpdir(), "robots-edge-dev-"));
  const noDevVars = join(scratch, "no-dev-vars.env");
  writeFileSync(noDevVars, "");
  const child = spawn("npm", ["run", "dev", "--", ...args, "--port", String(port), "--env-file", noDevVars], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: WRANGLER_ENV,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += String(chunk)));
  child.stderr?.on("data", (chunk) => (output += String(chunk)));
  const stop = () =>
    stopGroup(child).then(() => {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(join(ROOT, ".wrangler/dev-state", String(port)), { recursive: true, force: true });
    });
  const onSignal = () => void stop().then(() => process.exit(1));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(
      url,
      child,
      readyTimeoutMs,
      () => /Ready on http:\/\/\S+:(\d+)/.exec(output)?.[1] === String(port),
    );
  } catch (error) {
    await stop();
    throw new Error(`npm run dev did not start: ${error instanceof Error ? error.message : error}\n${output}`, {
      cause: error,
    });
  }
  return {
    url,
    output: () => output,
    async stop() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      await stop();
    },
    async kill() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    },
  };
}

/**
 * Until wrangler has said it is ready (the answer on a port a moment ago free could be another
 * process's until then), and the url answers.
 */
async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  saidReady: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    if (!saidReady()) {
      await new Promise((done) => setTimeout(done, 100));
      continue;
    }
    try {
      await fetch(`${url}/__ready`, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}

/** SIGTERM to the whole process group (wrangler and workerd; npm for the dev script), SIGKILL if it lingers. */
function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((done) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
      done();
    }, 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(timer);
      done();
    }
  });
}

/**
 * Keys into the ROBOTS namespace's local state, where `wrangler dev --persist-to` will read them:
 * one `wrangler kv bulk put` for all of them (each wrangler run costs seconds of CPU; a file
 * that planted four keys paid four runs with `kv key put`).
 */
function seedKv(persist: string, entries: Readonly<Record<string, string>>, config: string | undefined): Promise<void> {
  const file = join(persist, "seed-kv.json");
  writeFileSync(file, JSON.stringify(Object.entries(entries).map(([key, value]) => ({ key, value }))));
  const args = [...WRANGLER, "kv", "bulk", "put", file, "--binding", "ROBOTS", "--local", "--persist-to", persist];
  if (config) args.push("--config", config);
  return new Promise((done, fail) => {
    const child = spawn(NODE, args, {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: WRANGLER_ENV,
    });
    let errors = "";
    child.stderr?.on("data", (chunk) => (errors += String(chunk)));
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0 ? done() : fail(new Error(`wrangler kv bulk put ${Object.keys(entries).join(", ")}: ${errors}`)),
    );
  });
}
