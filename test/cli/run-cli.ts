// Two ways to run the CLI in a test. `runCli` calls `main` in this process with streams of its
// own: what the command answers, its exit status and its streams, without the ~0.3 s a Node
// start costs per case (a table of 90 cases paid 25 s for it). `runBin` starts the real
// `bin/robots-edge.js` under Node: for what only the process shows, the exit code the shell
// sees, a pipe or a file on stdin (src/cli/io.ts reads a regular file on descriptor 0 itself),
// the version guard. Use `runCli` unless the process boundary is what the case is about.
import { execFile, spawn } from "node:child_process";
import { closeSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { Readable, Writable } from "node:stream";
import { main } from "../../src/cli/main.ts";

export const BIN = resolve(import.meta.dirname, "../../bin/robots-edge.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, as a pipe read to its end would. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/**
 * `robots-edge <args>` in this process, `stdin` given as one piped chunk (a pipe closed after
 * it, as `execFile`'s stdin.end does). `code` is what the bin would set as the exit code.
 */
export async function runCli(args: readonly string[], stdin: string | Uint8Array = ""): Promise<CliRun> {
  const stdout = collector();
  const stderr = collector();
  const input = typeof stdin === "string" ? Buffer.from(stdin, "utf8") : stdin;
  const code = await main(args, {
    stdin: Readable.from(input.length > 0 ? [Buffer.from(input)] : []),
    stdout: stdout.stream,
    stderr: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export interface BinOptions {
  /** Working directory of the process (default: this one's). */
  readonly cwd?: string;
  /** SIGKILL after this long: a CLI that read an endless input without a bound must not outlive the test. */
  readonly timeoutMs?: number;
}

/** `node bin/robots-edge.js <args>` as a shell runs it, `stdin` piped in and closed. */
export function runBin(args: readonly string[], stdin = "", options: BinOptions = {}): Promise<CliRun> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd,
        maxBuffer: 64 * 1024 * 1024,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: "SIGKILL" as const }),
      },
      (error, stdout, stderr) => {
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    // The CLI may stop reading stdin at a bound: the rest of what is sent meets a closed pipe.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(stdin);
  });
}

/** `runBin` with stdin a file descriptor, opened on `path` and moved past `skipBytes` by this process first. */
export function runBinWithStdinFile(args: readonly string[], path: string, skipBytes: number): Promise<CliRun> {
  const fd = openSync(path, "r");
  if (skipBytes > 0) readSync(fd, Buffer.alloc(skipBytes), 0, skipBytes, null);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: [fd, "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", fail);
    child.on("close", (code) => {
      closeSync(fd);
      done({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}
