// `npm run dev -- --port N` (issue #15): arguments -> options, or the message that says what to fix.
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
    { argv: ["9000"], env: {}, expected: 'unknown argument "9000"; usage: npm run dev -- [--port N]' },
  ])("$argv $env -> $expected", ({ argv, env, expected }) => {
    const result = parseDevOptions(argv, env);
    if (typeof expected === "string") expect(result).toEqual(new Error(expected));
    else expect(result).toEqual(expected);
  });
});
