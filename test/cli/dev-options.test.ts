// `npm run dev -- --port N --origin URL`: arguments -> options, or the message that says what to fix.
import { describe, expect, it } from "vitest";
import { parseDevOptions } from "../../scripts/dev-options.ts";

describe("parseDevOptions", () => {
  it.each([
    { argv: [], env: {}, expected: { port: 8787 } },
    { argv: ["--port", "9000"], env: {}, expected: { port: 9000 } },
    { argv: ["--port=9001"], env: {}, expected: { port: 9001 } },
    { argv: ["-p", "9002"], env: {}, expected: { port: 9002 } },
    { argv: [], env: { PORT: "9003" }, expected: { port: 9003 } },
    { argv: ["--port", "9004"], env: { PORT: "9003" }, expected: { port: 9004 } },
    { argv: ["--port"], env: {}, expected: "--port needs a number: npm run dev -- --port 8788" },
    { argv: ["--port", "http"], env: {}, expected: '--port must be a TCP port (1-65535), got "http"' },
    { argv: ["--port", "70000"], env: {}, expected: '--port must be a TCP port (1-65535), got "70000"' },
    { argv: ["--port", "0"], env: {}, expected: '--port must be a TCP port (1-65535), got "0"' },
    {
      argv: ["9000"],
      env: {},
      expected:
        'unknown argument "9000"; usage: npm run dev -- [--port N] [--origin http://localhost:3000] [--env-file FILE] [--persist] [--json-logs]',
    },
    { argv: ["--origin", "http://localhost:3000"], env: {}, expected: { port: 8787, origin: "http://localhost:3000" } },
    {
      argv: ["--origin=https://Site.Example:8443/"],
      env: {},
      expected: { port: 8787, origin: "https://site.example:8443" },
    },
    {
      argv: ["--origin", "http://127.0.0.1:3000", "--port", "9005"],
      env: {},
      expected: { port: 9005, origin: "http://127.0.0.1:3000" },
    },
    { argv: ["--env-file", "/tmp/empty"], env: {}, expected: { port: 8787, envFile: "/tmp/empty" } },
    {
      argv: ["--env-file=.dev.vars.site", "--origin", "http://[::1]:3000"],
      env: {},
      expected: { port: 8787, envFile: ".dev.vars.site", origin: "http://[::1]:3000" },
    },
    { argv: ["--persist"], env: {}, expected: { port: 8787, persist: true } },
    { argv: ["--json-logs"], env: {}, expected: { port: 8787, jsonLogs: true } },
    {
      argv: ["--json-logs", "--origin", "http://localhost:3000", "--persist"],
      env: {},
      expected: { port: 8787, origin: "http://localhost:3000", persist: true, jsonLogs: true },
    },
    {
      argv: ["--persist=yes"],
      env: {},
      expected:
        'unknown argument "--persist=yes"; usage: npm run dev -- [--port N] [--origin http://localhost:3000] [--env-file FILE] [--persist] [--json-logs]',
    },
    { argv: ["--env-file"], env: {}, expected: "--env-file needs a file: npm run dev -- --env-file .dev.vars.site" },
    {
      argv: ["--origin"],
      env: {},
      expected: "--origin needs your site's URL: npm run dev -- --origin http://localhost:3000",
    },
    {
      argv: ["--origin", "localhost:3000"],
      env: {},
      expected: '--origin must be your site\'s http(s) URL such as http://localhost:3000, got "localhost:3000"',
    },
    {
      argv: ["--origin", "ftp://localhost"],
      env: {},
      expected: '--origin must be your site\'s http(s) URL such as http://localhost:3000, got "ftp://localhost"',
    },
    {
      argv: ["--origin", "http://localhost:3000/app"],
      env: {},
      expected: '--origin must be an origin only (scheme, host, port): each request\'s path is appended; remove "/app"',
    },
    {
      argv: ["--origin", "http://user:pw@localhost:3000"],
      env: {},
      expected: "--origin must not contain a user name or password",
    },
  ])("$argv $env -> $expected", ({ argv, env, expected }) => {
    const result = parseDevOptions(argv, env);
    if (typeof expected === "string") expect(result).toEqual(new Error(expected));
    else expect(result).toEqual(expected);
  });
});
